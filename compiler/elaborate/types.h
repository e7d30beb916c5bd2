/* types.h - type inference and checks (types.c). */
#ifndef STAPC_TYPES_H
#define STAPC_TYPES_H

#include "session.h"

/* types.c: infer and check types. */
bool types_infer(struct session *s);

#endif
