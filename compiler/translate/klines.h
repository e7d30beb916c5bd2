/* klines.h - pass 3: kernel source-line tables for symfileline & co (klines.c). */
#ifndef STAPC_KLINES_H
#define STAPC_KLINES_H

#include "emit.h"
#include "session.h"

/*
 * Emit, right after runtime.h, the line tables of the kernel functions the
 * script probes (and of the rest of their source files) and
 * STP_HAVE_KLINES, if the script uses tapset/linux/context-lines.stp and
 * the kernel has DWARF; else nothing.
 */
void klines_emit(struct emitter *e, struct session *s);

#endif
