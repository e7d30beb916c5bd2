/* elaborate.h - pass 2 internals shared by tapset.c, resolve.c, types.c and elaborate.c. */
#ifndef STAPC_ELABORATE_H
#define STAPC_ELABORATE_H

#include "session.h"

/* Builtins handled by the translator itself. */
enum builtin {
	BUILTIN_NONE = 0,
	BUILTIN_PRINTF,   /* printf(fmt, ...) */
	BUILTIN_SPRINTF,  /* sprintf(fmt, ...): string */
	BUILTIN_PRINT,    /* print(a, ...) */
	BUILTIN_PRINTLN,  /* println(a, ...) */
};

/* tapset.c: parse the tapset path once; find a function or global a script uses. */
bool tapset_load(struct session *s);
struct function *tapset_find_function(struct session *s, const char *name);
struct global *tapset_find_global(struct session *s, const char *name);

/* resolve.c: bind names to symbols and functions, collect what each probe uses. */
bool resolve_program(struct session *s);
enum builtin resolve_builtin(const char *name);
void resolve_add_global(struct session *s, struct global *g);

/* types.c: infer and check types. */
bool types_infer(struct session *s);

/* stats.c: statistics rules types.c does not cover: globals only, literal parameters, one histogram per global. */
bool stats_check(struct session *s);

/* regex_use.c: compile every =~ / !~ pattern, reporting bad ones. */
bool regex_elaborate(struct session *s);

/* optimize.c: drop functions no probe reaches (before types); warn and optimize (last). */
void optimize_prune_functions(struct session *s);
void optimize_program(struct session *s);

/* A printf-style format parsed at compile time. */
struct format_spec {
	const char *literal;   /* text before the conversion (escaped for C %%) */
	char conv;             /* 'd','i','u','x','X','o','s','c','p','%', or 0 at the end */
	const char *kernel;    /* the kernel vsnprintf conversion to emit, e.g. "%-5lld" */
	struct srcloc loc;     /* of the format string */
};
/* Parse fmt into specs (terminated by conv == 0); false on a bad format (reported if report). */
bool format_parse(const char *fmt, struct srcloc loc, struct vec *specs, bool report);

#endif
