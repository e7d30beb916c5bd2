/* debuginfo/headers.h - @cast types from C headers ("kernel<linux/sched.h>", "<sys/un.h>"). */
#ifndef STAPC_DEBUGINFO_HEADERS_H
#define STAPC_DEBUGINFO_HEADERS_H

#include "debuginfo/debuginfo.h"
#include "session.h"

/* Is module a header module (it names headers in <...>)? */
bool headers_is_module(const char *module);

/*
 * The types the headers of module declare, compiled with DWARF (the
 * target's kbuild for "kernel<...>", cc for "<...>"): NULL and *err on
 * failure. Compiled once per run per module string.
 */
struct debuginfo *headers_debuginfo(struct session *s, const char *module, const char **err);

#endif
