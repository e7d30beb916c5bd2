/* passes.h - the pass driver: passes 1..-p N in order, each one's result printed when it is the last. */
#ifndef STAPC_PASSES_H
#define STAPC_PASSES_H

#include "session.h"

/* Run passes 1..s->last_pass (or on a compile server); returns the process exit code. */
int passes_run(struct session *s);

#endif
