/* diag.h - diagnostics: file:line:col: error: message, the source line and a caret. */
#ifndef STAPC_DIAG_H
#define STAPC_DIAG_H

#include "ast.h"

/* Severity of a diagnostic. */
enum diag_level {
	DIAG_ERROR,   /* counts toward session failure */
	DIAG_WARNING, /* suppressed by -w */
	DIAG_NOTE,    /* attached to the previous error or warning */
};

/*
 * Register the text of a file so diagnostics can quote its lines.
 * path must be the same interned pointer used in srclocs.
 */
void diag_add_source(const char *path, const char *text);

/*
 * Report a diagnostic at loc (loc.file may be NULL: then no position and no
 * source line are printed). Printed at once to stderr as
 *   file:line:col: error: message
 *     source line
 *     ^
 */
void diag_report(enum diag_level level, struct srcloc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#define diag_error(...) diag_report(DIAG_ERROR, __VA_ARGS__)
#define diag_warning(...) diag_report(DIAG_WARNING, __VA_ARGS__)
#define diag_note(...) diag_report(DIAG_NOTE, __VA_ARGS__)

/* A note repeated after every error and warning while it is in the context. */
struct diag_context {
	struct srcloc loc; /* where the note points */
	const char *text;  /* its message */
};

/*
 * Set the notes (a vec of struct diag_context *, or NULL for none) that
 * follow every error and warning reported until the next call: a pass
 * checking a probe derived from aliases names the alias expansions.
 */
void diag_set_context(const struct vec *notes);

/* Errors reported so far (the driver stops between passes when non-zero). */
int diag_error_count(void);

/* -w: drop warnings. */
void diag_suppress_warnings(bool on);

#endif
