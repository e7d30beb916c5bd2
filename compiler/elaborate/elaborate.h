/* elaborate.h - pass 2 internals shared by tapset.c, resolve.c, types.c and elaborate.c. */
#ifndef STAPC_ELABORATE_H
#define STAPC_ELABORATE_H

#include <stdio.h>

#include "session.h"

/* Pass 2 (elaborate.c): tapsets, names, types, probe points; false after diagnostics. */
bool elaborate(struct session *s);
/* -p2's output: the elaborated program, or -l/-L's listing. */
void elaborate_print(struct session *s, FILE *out);

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
};

/* The print-family builtins that take a delimiter first. */
static inline bool builtin_is_delimited(int b)
{
	return b == BUILTIN_PRINTD || b == BUILTIN_PRINTDLN || b == BUILTIN_SPRINTD || b == BUILTIN_SPRINTDLN;
}

/*
 * tapset.c: the tapset path, each file parsed when a lookup may need it; find a
 * function or global a script uses.
 * Lookups are made from file `from` (the caller's), which sees its own private
 * declarations and every public one; a match pulls its file into the program.
 * With candidates non-NULL, tapset_find_function instead collects every
 * visible function of that name, whatever its arity, and pulls in nothing.
 */
bool tapset_load(struct session *s);
/* The whole file at path, NUL-terminated, in the arena; NULL if it cannot be read. */
char *tapset_read_file(const char *path);
/*
 * Push onto out (interned paths) every file under dir whose name ends in
 * suffix, recursively: a folder's files sorted by name, then its subfolders
 * in name order; other architectures' folders (tapset/linux/arm64) skipped.
 */
void tapset_list_files(const char *dir, const char *suffix, struct vec *out);
struct function *tapset_find_function(struct session *s, const char *name, int nargs,
				      const struct ast_file *from, struct vec *candidates);
struct global *tapset_find_global(struct session *s, const char *name, const struct ast_file *from);
/*
 * Parse the tapset files that may define an alias whose name starts with
 * component first (every file with aliases for NULL: a wildcard); their
 * aliases join the index probes.c matches points against.
 */
void tapset_need_aliases(struct session *s, const char *first);
/* Whether a tapset file parsed on demand had errors (they are reported). */
bool tapset_parse_failed(struct session *s);
/* A tapset file written by the compiler (syscalls.c): its functions join on use like any other's. */
void tapset_add_generated(struct session *s, struct ast_file *f);
/* --dump-*: parse every file on the tapset path and push each struct ast_file * onto out, in path order. */
void tapset_parse_everything(struct session *s, struct vec *out);
/* A tapset alias is expanded: the file defining it joins the program. */
void tapset_use_alias(struct session *s, struct probe *alias);

/* resolve.c: bind names to symbols and functions, collect what each probe uses. */
bool resolve_program(struct session *s);

enum builtin resolve_builtin(const char *name);
void resolve_add_global(struct session *s, struct global *g);
/* Pass 3, first: give overloaded functions and same-named private globals distinct C names. */
void resolve_c_names(struct session *s);

/* types.c: infer and check types. */
bool types_infer(struct session *s);

/* stats.c: statistics rules types.c does not cover: globals only, literal parameters, one histogram per global. */
bool stats_check(struct session *s);

/* regex_use.c: compile every =~ / !~ pattern, reporting bad ones. */
bool regex_elaborate(struct session *s);

/* optimize.c: drop functions no probe reaches (before types); warn and optimize (last). */
void optimize_prune_functions(struct session *s);
void optimize_program(struct session *s);
/* The longest string a value may hold (MAXSTRINGLEN - 1, from -D or the default); -1 when
 * -D MAXSTRINGLEN is not a plain number. */
long optimize_string_limit(struct session *s);

/* format.c: a printf-style format parsed at compile time. */
#define FORMAT_NONE (-1)  /* no width or precision given */
#define FORMAT_STAR (-2)  /* '*': taken from the argument list */
struct format_spec {
	const char *literal;   /* text before the conversion, as is */
	char conv;             /* 'd','i','u','x','X','o','s','c','p','b','m','M','%', or 0 at the end */
	const char *text;      /* the conversion as written, e.g. "%-*d", for diagnostics */
	const char *flags;     /* of "-+ #0", as written */
	int width;             /* digits, FORMAT_NONE or FORMAT_STAR */
	int precision;         /* digits, FORMAT_NONE or FORMAT_STAR */
	const char *kernel;    /* kernel vsnprintf conversion ("%-*lld"); NULL for b, m, M */
	struct srcloc loc;     /* of the format string */
};
/* Parse fmt into specs (terminated by conv == 0); false on a bad format (reported if report). */
bool format_parse(const char *fmt, struct srcloc loc, struct vec *specs, bool report);

#endif
