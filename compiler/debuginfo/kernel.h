/* kernel.h - the -r target kernel's debuginfo (DWARF or BTF), opened once per run. */
#ifndef STAPC_DEBUGINFO_KERNEL_H
#define STAPC_DEBUGINFO_KERNEL_H

#include "debuginfo.h"
#include "session.h"

/* --debuginfo=MODE (or $STAPC_DEBUGINFO when the option is absent). */
enum kernel_dbg_mode {
	KERNEL_DBG_AUTO,    /* DWARF when installed, else BTF */
	KERNEL_DBG_BTF,     /* BTF only, even with DWARF installed */
	KERNEL_DBG_DWARF,   /* DWARF only: an error without it */
	KERNEL_DBG_INVALID, /* not one of the above */
};
enum kernel_dbg_mode kernel_dbg_mode(const char *arg);

/* module is "kernel" or a module name. NULL (with *err saying why, naming the
   package to install) if the target has no usable debuginfo for it. */
struct debuginfo *kernel_debuginfo(struct session *s, const char *module, const char **err);

/* NULL if DWARF for module is available and allowed, else why not (for
   features that need DWARF: .inline, .statement, func@file). */
const char *kernel_dwarf_missing(struct session *s, const char *module);

/* The name the running kernel gives module (kallsyms "name:symbol", struct
   module): kbuild's, with '_' for '-'. */
const char *kernel_module_name(const char *module);

/* NULL if module (a name, '-' and '_' alike) has a .ko for the target kernel,
   else an error message naming it (built in, or no such module). */
const char *kernel_module_missing(struct session *s, const char *module);

/* NULL if the target's module has a function symbol 'function' that a probe
   can attach to (not in .init.text), else an error message naming both. */
const char *kernel_module_function_missing(struct session *s, const char *module, const char *function);

/* The session's list of @cast header modules compiled (of struct header_types *, headers.c). */
struct vec *kernel_header_types(struct session *s);

/* Why the kernel has no function symbol name (from a real System.map of the target), or NULL: it has, or no map says. */
const char *kernel_symbol_missing(struct session *s, const char *name);
/* Does a real System.map of the target list the function symbol name? (false without one) */
bool kernel_symbol_known(struct session *s, const char *name);
/*
 * The function symbols of the target's System.map (through its index when it
 * has one) whose names start with prefix, in name order: the first max of
 * them pushed onto out; how many there are in all. 0 without a map.
 */
int kernel_function_names(struct session *s, const char *prefix, int max, struct vec *out);
/* Does a System.map of the target list the data symbol name (a variable, or one the linker script defines, like jiffies)? */
bool kernel_data_symbol_known(struct session *s, const char *name);

/* Is a real System.map of the target at hand (the -dbg package's, a build tree's, or /boot's)? */
bool kernel_has_symbol_table(struct session *s);
/*
 * Why the target kernel has no function name, or NULL: its System.map lists
 * it or, without one, its debuginfo describes it (a system call's
 * __x64_sys_ entry, which BTF leaves out, by its __do_sys_ or __se_sys_
 * body) or Module.symvers exports it (5.10's BTF leaves out some
 * functions); the message says what was looked at and what is missing. A
 * compiler's clone (NAME.isra.0, .constprop.N, .part.N) is never called
 * missing without a map: no debuginfo names one.
 */
const char *kernel_function_unknown(struct session *s, const char *name);

/* The target's modules (names as kbuild gives them, '_' for '-') matching glob, sorted, from
   /lib/modules/R/modules.dep. */
void kernel_modules_matching(struct session *s, const char *glob, struct vec *out);

/* NULL if module's .ko has exactly one data symbol name (what @var finds it by at run time),
   else why not. */
const char *kernel_module_data_symbol_unique(struct session *s, const char *module, const char *name);

/* Does module's .ko have a function symbol matching glob that a probe can attach to? (cheap:
   its symbol table, before its debuginfo is opened) */
bool kernel_module_has_function(struct session *s, const char *module, const char *glob);

/* The event class of a tracepoint of module (CLASS of its BPF entry point
   __bpf_trace_CLASS, from the .ko's relocations), NULL if unknown. */
const char *kernel_module_tracepoint_class(struct session *s, const char *module, const char *tracepoint);

#endif
