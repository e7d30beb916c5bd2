/* tracepoint.h - the kernel.trace family's probes, which kernel.tracepoint's (tracepoint_btf.c) are too. */
#ifndef STAPC_PROBES_TRACEPOINT_H
#define STAPC_PROBES_TRACEPOINT_H

#include <stdbool.h>

#include "debuginfo/debuginfo.h"
#include "probes.h"

/*
 * A copy of tmpl on the tracepoint whose btf_trace_NAME typedef is td (of
 * di), attached by the kernel.trace family at run time: pp its point's
 * text, module the module defining it (NULL: vmlinux). Its arguments are
 * named from __bpf_trace_CLASS (class_name, or the event's own name when
 * NULL) unless positional: $arg1, $arg2... after the callback's data pointer.
 */
struct resolved_probe *tracepoint_probe(const struct resolved_probe *tmpl, struct debuginfo *di, struct dbg_type *td,
				       const char *pp, const char *class_name, const char *module, bool positional);

#endif
