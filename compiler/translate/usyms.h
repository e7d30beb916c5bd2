/* usyms.h - pass 3: user-space symbol tables for the ucontext tapset (usyms.c). */
#ifndef STAPC_USYMS_H
#define STAPC_USYMS_H

#include "emit.h"
#include "session.h"

/*
 * Emit, right after runtime.h, the symbol and segment tables of every
 * user-space file the module knows (-d, --ldd, probed programs) and
 * STP_HAVE_USYMS, if the script uses the ucontext tapset; else nothing.
 */
void usyms_emit(struct emitter *e, struct session *s);

#endif
