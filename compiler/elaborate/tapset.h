/* tapset.h - the tapset library as a lookup service (tapset.c): files parsed when a lookup may need them. */
#ifndef STAPC_TAPSET_H
#define STAPC_TAPSET_H

#include "session.h"

/*
 * tapset.c: the tapset path, each file parsed when a lookup may need it; find a
 * function or global a script uses.
 * Lookups are made from file `from` (the caller's), which sees its own private
 * declarations and every public one; a match pulls its file into the program.
 * With candidates non-NULL, tapset_find_function instead collects every
 * visible function of that name, whatever its arity, and pulls in nothing.
 */
bool tapset_load(struct session *s);
/* The whole file at path, NUL-terminated, in the arena; NULL if it cannot be read. */
char *tapset_read_file(const char *path);
struct function *tapset_find_function(struct session *s, const char *name, int nargs,
				      const struct ast_file *from, struct vec *candidates);
struct global *tapset_find_global(struct session *s, const char *name, const struct ast_file *from);
/*
 * Parse the tapset files that may define an alias whose name starts with
 * component first (every file with aliases for NULL: a wildcard); their
 * aliases join the index probes.c matches points against.
 */
void tapset_need_aliases(struct session *s, const char *first);
/* Every tapset file parsed so far, in parse order (files are parsed as lookups need them). */
const struct vec *tapset_parsed(struct session *s);
/* Whether a tapset file parsed on demand had errors (they are reported). */
bool tapset_parse_failed(struct session *s);
/* A tapset file written by the compiler (syscalls.c): its functions join on use like any other's. */
void tapset_add_generated(struct session *s, struct ast_file *f);
/* --dump-*: parse every file on the tapset path and push each struct ast_file * onto out, in path order. */
void tapset_parse_everything(struct session *s, struct vec *out);
/* A tapset alias is expanded: the file defining it joins the program. */
void tapset_use_alias(struct session *s, struct probe *alias);

#endif
