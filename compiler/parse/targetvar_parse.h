/* targetvar_parse.h - the parser's constructors of target expressions (targetvar_parse.c); elaborate/targetvar.h resolves them. */
#ifndef STAPC_TARGETVAR_PARSE_H
#define STAPC_TARGETVAR_PARSE_H

#include "ast.h"

/* Parser helpers: build the nodes, reporting malformed uses at once. */
struct node *targetvar_new(struct srcloc loc, const char *text);
struct node *targetvar_at_operator(struct srcloc loc, const char *name, struct vec *args);
struct node *targetvar_add_field(struct node *t, struct srcloc loc, const char *field);
struct node *targetvar_add_index(struct node *t, struct srcloc loc, struct node *index);
struct node *targetvar_set_pretty(struct node *t, struct srcloc loc, const char *suffix);
struct node *targetvar_address_of(struct srcloc loc, struct node *t);

/* Pass 2, types.c: the value type a target expression has (long or string). */
enum stp_type targetvar_value_type(const struct node *n);

#endif
