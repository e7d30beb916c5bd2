/* resolve.h - names bound to symbols and functions (resolve.c), and the builtins the translator handles. */
#ifndef STAPC_RESOLVE_H
#define STAPC_RESOLVE_H

#include "session.h"

/* Builtins handled by the translator itself. */
enum builtin {
	BUILTIN_NONE = 0,
	BUILTIN_PRINTF,   /* printf(fmt, ...) */
	BUILTIN_SPRINTF,  /* sprintf(fmt, ...): string */
	BUILTIN_PRINT,    /* print(a, ...) */
	BUILTIN_PRINTLN,  /* println(a, ...) */
	BUILTIN_SPRINT,   /* sprint(a, ...): string */
	BUILTIN_SPRINTLN, /* sprintln(a, ...): string */
	BUILTIN_PRINTD,   /* printd(delim, a, ...) */
	BUILTIN_PRINTDLN, /* printdln(delim, a, ...) */
	BUILTIN_SPRINTD,  /* sprintd(delim, a, ...): string */
	BUILTIN_SPRINTDLN,/* sprintdln(delim, a, ...): string */
	BUILTIN_CONST,    /* @const("C expression"): its value as a long (guru mode) */
	BUILTIN_ENUMNAME, /* @enumname(value[, "type"[, "module"]]): the enumerator's name, else the value in decimal */
};

/* The print-family builtins that take a delimiter first. */
static inline bool builtin_is_delimited(int b)
{
	return b == BUILTIN_PRINTD || b == BUILTIN_PRINTDLN || b == BUILTIN_SPRINTD || b == BUILTIN_SPRINTDLN;
}

/* resolve.c: bind names to symbols and functions, collect what each probe uses. */
bool resolve_program(struct session *s);

enum builtin resolve_builtin(const char *name);
void resolve_add_global(struct session *s, struct global *g);
/* Pass 3, first: give overloaded functions and same-named private globals distinct C names. */
void resolve_c_names(struct session *s);

#endif
