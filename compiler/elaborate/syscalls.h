/* syscalls.h - the system call aliases, generated per script from the target kernel (syscalls.c). */
#ifndef STAPC_SYSCALLS_H
#define STAPC_SYSCALLS_H

#include "points.h"
#include "session.h"

enum syscalls_result {
	SYSCALLS_NOT_MINE,  /* not a syscall, nd_syscall or syscall_any point */
	SYSCALLS_ALIASES,   /* the aliases it names were pushed */
	SYSCALLS_NONE,      /* it matches no call: reported unless optional */
};

/*
 * The aliases a syscall.NAME / nd_syscall.NAME / syscall_any point (with
 * .return, wildcards and .maxactive(N)) names, written for the calls of the
 * target kernel it matches and the variables that bodies (of struct node *:
 * the user's probe and the aliases on the way) read, as struct probe * alias
 * definitions pushed onto out. Each alias's names cover the whole point (no
 * suffix is left over).
 */
enum syscalls_result syscalls_aliases(struct session *s, struct probe_point *pp, bool optional,
				      const struct vec *bodies, struct vec *out);

/* One parameter of a system call's kernel prototype. */
struct syscalls_param {
	const char *name;   /* as the prototype names it ("fd"), or argN when unnamed */
	const char *ctype;  /* its C type without qualifiers ("unsigned int", "char *", "struct stat *") */
};

/*
 * The parameters of the system call whose wrapper is func ("__x64_sys_read"),
 * from the target kernel's prototypes: how many (-1: func is no system call,
 * or it has no prototype), *params set to them.
 */
int syscalls_params(struct session *s, const char *func, const struct syscalls_param **params);

/*
 * The prefix of the target's system call wrappers: "__x64_sys_" on x86-64,
 * "__arm64_sys_" on arm64 (the kernel's SYSCALL_DEFINE wrappers taking the
 * user's struct pt_regs).
 */
const char *syscalls_wrapper_prefix(const struct session *s);

/* The common headers of a split build tree (Debian's -common), else the tree itself. */
const char *syscalls_source_tree(const char *build);

/*
 * The 64-bit system call table of an architecture with the generic
 * numbering (arm64), through its cross preprocessor, in the form x86's
 * generated headers have: *table "__SYSCALL(NR, sys_FUNC)" lines, *unistd
 * "#define __NR_NAME NR" lines (syscalls_generic.c). False if it failed.
 */
bool syscalls_generic_tables(struct session *s, char **table, char **unistd);

/* The names of the target kernel's system calls (syscall.NAME), into out (const char *). */
void syscalls_names(struct session *s, struct vec *out);

/*
 * A function the tapset does not define but the target's call table does:
 * for __sc_name_of and __sc_spec_of (which tapset/linux/syscalls.stp's
 * syscall_name calls), add the generated table file to the tapset, once,
 * and return true; false for any other name.
 */
bool syscalls_provide_function(struct session *s, const char *name);

/* Why name, one of the functions the call table provides, cannot be: the missing table; else NULL. */
const char *syscalls_function_missing_why(struct session *s, const char *name);

#endif
