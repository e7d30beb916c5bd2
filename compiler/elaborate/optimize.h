/* optimize.h - the optimizer (optimize.c) and the string limit the translator shares. */
#ifndef STAPC_OPTIMIZE_H
#define STAPC_OPTIMIZE_H

#include "session.h"

/* optimize.c: drop functions no probe reaches (before types); warn and optimize (last). */
void optimize_prune_functions(struct session *s);
void optimize_program(struct session *s);
/* The longest string a value may hold (MAXSTRINGLEN - 1, from -D or the default); -1 when
 * -D MAXSTRINGLEN is not a plain number. */
long optimize_string_limit(struct session *s);

#endif
