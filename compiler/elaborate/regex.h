/* regex.h - POSIX extended regular expressions compiled at translate time into C matchers. */
#ifndef STAPC_REGEX_H
#define STAPC_REGEX_H

#include <stdio.h>

/* Limits: the generated matcher's memory is sized from them. */
#define REGEX_MAX_STATES 256   /* character positions (plus the final state) */
#define REGEX_MAX_GROUPS 32    /* parenthesised subexpressions */
#define REGEX_MAX_INSTS 4096   /* NFA instructions, after expanding {m,n} */
#define REGEX_MAX_DEPTH 100    /* nesting of parentheses */

struct regex_prog;

/*
 * Compile an ERE. On error returns NULL, *error is the reason and
 * *error_offset the byte offset in pattern where it was found.
 * Memory comes from the compiler's arena (ast_alloc).
 */
struct regex_prog *regex_compile(const char *pattern, const char **error, int *error_offset);

/* Number of parenthesised groups. */
int regex_ngroups(const struct regex_prog *p);

/* int32_t words of scratch the matcher needs (two thread lists and marks). */
int regex_work_words(const struct regex_prog *p);

/*
 * Write the matcher as C: helper functions prefixed with name, and
 *	static int NAME(const char *s, int32_t *work, int32_t *caps)
 * which returns 1 if s matches and then fills caps[0 .. 2*(ngroups+1)-1]
 * with start/end offsets of the match and each group (-1 if unset).
 * The code calls _stp_regex_push (runtime/regex.c) and reads at most
 * MAXSTRINGLEN bytes of s.
 */
void regex_emit(FILE *out, const struct regex_prog *p, const char *name);

#endif
