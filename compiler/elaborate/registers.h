/* registers.h - pass 2's check of register names against the target architecture. */
#ifndef STAPC_REGISTERS_H
#define STAPC_REGISTERS_H

#include <stdbool.h>

#include "session.h"

/*
 * Every register("NAME"), uregister("NAME") and u_register("NAME") of the
 * script whose literal NAME is a register of another architecture than
 * s->arch: an error at NAME with the reason. False if there was one.
 */
bool registers_check(struct session *s);

#endif
