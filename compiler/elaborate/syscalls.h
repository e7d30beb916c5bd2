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

/* The names of the target kernel's system calls (syscall.NAME), into out (const char *). */
void syscalls_names(struct session *s, struct vec *out);

#endif
