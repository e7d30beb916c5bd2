/* dump.h - --dump-probe-types, --dump-functions, --dump-probe-aliases. */
#ifndef STAPC_DUMP_H
#define STAPC_DUMP_H

#include "session.h"

/* Print the list s->dump asks for; the exit code. */
int dump_run(struct session *s);

#endif
