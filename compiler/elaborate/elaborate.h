/* elaborate.h - pass 2 as one step of the driver: its steps in order (elaborate.c) and -p2's output. */
#ifndef STAPC_ELABORATE_H
#define STAPC_ELABORATE_H

#include <stdio.h>

#include "session.h"

/* Pass 2 (elaborate.c): tapsets, names, types, probe points; false after diagnostics. */
bool elaborate(struct session *s);
/* -p2's output: the elaborated program, or -l/-L's listing. */
void elaborate_print(struct session *s, FILE *out);

#endif
