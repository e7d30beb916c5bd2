/*
 * probes/linespec.h - the PATTERN of DWARF probe points, shared by the
 * kernel (dwarf.c) and user-space (uprobe.c) families:
 *
 *   func[@file[:LINES | +N]]
 *
 * LINES is N, N-M, a list of those separated by ',' (":x,y-z"), or '*'
 * (every line); "+N" is the line N past the function's declaration line.
 * func and file take wildcards.
 */
#ifndef STAPC_PROBES_LINESPEC_H
#define STAPC_PROBES_LINESPEC_H

#include <stdbool.h>

#include "ast.h"

#define LINESPEC_MAX_RANGES 16

/* What follows the file name. */
enum linespec_kind {
	LINESPEC_NONE,      /* no line part */
	LINESPEC_ANY,       /* ":*" */
	LINESPEC_RANGES,    /* ":N", ":N-M", ":x,y-z" */
	LINESPEC_RELATIVE,  /* "+N" */
};

struct linespec {
	const char *func;   /* glob */
	const char *file;   /* glob, NULL if none */
	enum linespec_kind kind;
	int relative;       /* LINESPEC_RELATIVE: N */
	int nranges;        /* LINESPEC_RANGES: how many */
	int ranges[LINESPEC_MAX_RANGES][2]; /* [lo, hi] */
};

/* Parse text; false after a diagnostic at loc. */
bool linespec_parse(const char *text, struct linespec *out, struct srcloc loc);
/* Is line one the spec names, in a function declared at decl_line? (NONE and ANY: every line) */
bool linespec_has_line(const struct linespec *ls, int decl_line, int line);
/* Does a function whose lines run from first to last hold a line the spec names? */
bool linespec_spans(const struct linespec *ls, int decl_line, int first, int last);
struct debuginfo;
struct dbg_func;
/* Does function f (out of line) span a line the spec names: from its declaration to the last
   line of its own code (not of functions inlined into it), by its DWARF line table? */
bool linespec_function_spans(const struct linespec *ls, struct debuginfo *di, struct dbg_func *f);
/* Is it one line (":N" or "+N"), as a statement probe on one line was before ranges? */
bool linespec_single(const struct linespec *ls);
/*
 * .statement(...).nearest: of lines (struct dbg_line *: every line with code of the matching
 * functions, in the file), those the spec names, and for each named line without code the one
 * of a function's own code (not inlined there) nearest to it (the later of two as near; "+N"
 * in each function from its own declaration), each once, appended to out in their order in
 * lines. Without a line number (":*", none): those the spec names.
 */
void linespec_nearest(const struct linespec *ls, const struct vec *lines, struct vec *out);
/* The line part as written: ":*", ":10-20", "+3", "" for none. */
const char *linespec_lines_text(const struct linespec *ls);

#endif
