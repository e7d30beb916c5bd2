/* probes/kprobe.h - what a kprobe-attached point resolves to (kprobe.c, filled also by dwarf.c). */
#ifndef STAPC_PROBES_KPROBE_H
#define STAPC_PROBES_KPROBE_H

#include <stdbool.h>
#include <stdint.h>

struct ktext;
struct session;

/* A resolved_probe's data when its provider is probe_kprobe. */
struct kprobe_point {
	const char *symbol;         /* function name ("mod:name" in a module) */
	bool is_return;             /* .return: a kretprobe */
	int64_t offset;             /* bytes past symbol (statements, inline instances) */
	int64_t maxactive;          /* .return: .maxactive(N), 0 for the default */
	uint64_t ftrace_site;       /* link-time address of the function's ftrace call site
				       (kernel functions with DWARF), 0 if unknown */
	const struct ktext *ktext;  /* the kernel image ftrace_site is in (ktext.h) */
	bool site_at_load;          /* a kernel function known from BTF only: no site at compile
				       time, the module finds it by name when it starts */
	int64_t callee_return;      /* .callee: the call site's return address minus the callee's
				       entry (link-time); 0 for none */
	int64_t *callers;           /* .callees(N), N > 1: the N - 1 call sites above it (their return
				       addresses minus the callee's entry, link-time), innermost first */
	int ncallers;
	bool wildcard;              /* matched by a wildcard: skipped with a warning when it cannot
				       be attached, where a named one is fatal */
};

/*
 * Why the target kernel has no function name, or NULL: as
 * kernel_function_unknown, and without a System.map a system call's entry
 * (__x64_sys_NAME) that the target's own call table names is known too
 * (5.10's BTF leaves out some bodies, perf_event_open's among them).
 */
const char *kprobe_function_unknown(struct session *s, const char *name);

#endif
