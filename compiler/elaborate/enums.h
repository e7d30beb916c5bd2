/* enums.h - pass 2: @enum and @enumname, from the kernel's enum types (enums.c). */
#ifndef STAPC_ENUMS_H
#define STAPC_ENUMS_H

#include <stdbool.h>

#include "ast.h"
#include "session.h"

/* @enum("NAME"[, "module"]) call n becomes a NUM, the enumerator's value (0 after an error). */
void enums_value(struct session *s, struct node *n);
/* Every reachable @enumname gets its type's enumerators (after targetvar_resolve); false after an error. */
bool enums_resolve_names(struct session *s);

#endif
