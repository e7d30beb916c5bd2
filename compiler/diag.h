/*
 * diag.h - diagnostics: file:line:col: error: message, the source line, a
 * caret, and "in expansion of" notes.
 *
 * Every pass reports through diag_error / diag_warning / diag_note and goes
 * on where it can; the pass driver stops between passes when
 * diag_error_count() is non-zero. Output (stderr) looks like:
 *
 *   t.stp:4:9: error: unresolved function 'foo'
 *     x = foo(1)
 *         ^
 *   t.stp:9:3: note: in expansion of macro '@twice'
 *     @twice(y)
 *     ^
 *
 * Expansion notes. Code that stands for other code (a macro use, a probe
 * alias use, a tapset function inlined into a probe) records where it was
 * expanded, so an error inside it also names the use. Two mechanisms, use
 * whichever fits; both may be combined and a level is printed only once:
 *
 *  1. Carried by locations (for tokens produced by a macro expansion): make a
 *     level with diag_expansion_new("macro '@twice'", use_site) and store it
 *     in loc.expansion of every token or node the expansion produces. The
 *     level's own site may carry an outer level (a macro used inside a
 *     macro body), which chains the notes outward. Any later pass that
 *     reports at such a location prints the whole chain.
 *
 *  2. Dynamic (for a pass walking code on behalf of a use site):
 *        diag_push_expansion("probe alias 'syscall.read'", use_site);
 *        ... check the alias body; every diagnostic reported here ...
 *        diag_pop_expansion();
 *     Every error or warning reported between push and pop gets a note per
 *     pushed level, innermost first. diag_current_expansion() returns the
 *     innermost pushed level, so a preprocessor can push while it expands
 *     and stamp the tokens it produces (mechanism 1) with it.
 *
 * Levels are never freed (the compiler's arena policy); diag_push_expansion
 * and diag_pop_expansion must pair up.
 */
#ifndef STAPC_DIAG_H
#define STAPC_DIAG_H

#include "ast.h"

/* Severity of a diagnostic. */
enum diag_level {
	DIAG_ERROR,   /* counts toward session failure */
	DIAG_WARNING, /* dropped by -w, an error with -W, dropped in tapset files unless -v */
	DIAG_NOTE,    /* attached to the previous error or warning (dropped with it) */
};

/* One level of expansion: what was expanded and where it was used. */
struct diag_expansion {
	const char *what;  /* "macro '@twice'", "probe alias 'syscall.read'", ...; NULL until describe runs */
	const char *(*describe)(const void *arg); /* formats what, when a note first needs it */
	const void *arg;   /* describe's argument */
	struct srcloc site; /* the use; site.expansion is the next level outward */
};

/* How diagnostics behave; set once from the command line. */
struct diag_options {
	bool suppress_warnings;  /* -w: drop warnings */
	bool warnings_as_errors; /* -W: report warnings as errors (they count as errors) */
	bool library_warnings;   /* -v: also warn about tapset (library) files */
	int error_limit;         /* stop the run after this many errors; 0 = DIAG_DEFAULT_ERROR_LIMIT */
	const char *colors;      /* "error=01;31:warning=00;33:source=..:caret=..:token=.." (SGR), NULL: plain */
	/* also given every diagnostic reported and not dropped (notes too), message formatted; or NULL */
	void (*listener)(void *arg, enum diag_level level, struct srcloc loc, const char *message);
	void *listener_arg;      /* listener's first argument */
};

/* Errors reported before the run stops with "too many errors". */
#define DIAG_DEFAULT_ERROR_LIMIT 50

/*
 * A session's diagnostics: its sources, counts and expansion stack. Reports
 * go to the state last passed to diag_use (a default one before any).
 */
struct diag_state;
struct diag_state *diag_new(void);
void diag_use(struct diag_state *d);

/* Options of the state in use. */
void diag_configure(const struct diag_options *options);

/*
 * Register the text of a file so diagnostics can quote its lines.
 * path must be the same interned pointer used in srclocs.
 */
void diag_add_source(const char *path, const char *text);

/* Mark an interned path as a library (tapset) file: warnings there need -v. */
void diag_mark_library(const char *path);

/*
 * Report a diagnostic at loc (loc.file may be NULL: then no position and no
 * source line are printed; loc.line 0 names the file alone). Printed at once to stderr, then the expansion
 * notes (loc's chain, then the pushed levels), all in one write; a long
 * source line is quoted as a window around the caret. Past the error limit
 * the run ends: "too many errors" and exit status 1. Past 100 warnings the
 * rest are counted and not printed.
 */
void diag_report(enum diag_level level, struct srcloc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#define diag_error(...) diag_report(DIAG_ERROR, __VA_ARGS__)
#define diag_warning(...) diag_report(DIAG_WARNING, __VA_ARGS__)
#define diag_note(...) diag_report(DIAG_NOTE, __VA_ARGS__)

/*
 * Errors reported so far. Warnings turned into errors by -W are not counted
 * here, so a pass goes on checking (and warning) to its end; diag_failed()
 * counts them too and is what the driver checks between passes.
 */
int diag_error_count(void);
bool diag_failed(void);

/*
 * Every error reported so far (not muted ones, each once, with -W's
 * warnings), one a line: FILE, LINE, COLUMN and MESSAGE separated by tabs
 * ("-" and 0 for an error without a place), the message's own tabs and
 * newlines as spaces: --semantic-keep-going's catalogue.
 */
void diag_print_catalogue(FILE *out);

/*
 * Trying something that may not fit (a wildcard family's candidate point):
 * diag_mute(1) drops every diagnostic until diag_mute(-1), counting the
 * errors in diag_muted_errors() instead of diag_error_count().
 */
void diag_mute(int delta);
int diag_muted_errors(void);

/* Warnings printed so far (not counting dropped ones). */
int diag_warning_count(void);

/* A new expansion level (mechanism 1 above); what is copied. */
const struct diag_expansion *diag_expansion_new(const char *what, struct srcloc site);

/* The same, whose text describe(arg) formats only if a diagnostic shows it. */
const struct diag_expansion *diag_expansion_lazy(const char *(*describe)(const void *arg), const void *arg,
						 struct srcloc site);

/* What a level calls the thing expanded. */
const char *diag_expansion_what(const struct diag_expansion *e);

/* Enter and leave a dynamic expansion context (mechanism 2 above). */
void diag_push_expansion(const char *what, struct srcloc site);
void diag_push_expansion_lazy(const char *(*describe)(const void *arg), const void *arg, struct srcloc site);
void diag_pop_expansion(void);

/*
 * Where in file the diagnostic at loc stands: loc itself if it is there,
 * else the innermost use site in file of loc's expansion chain, then of the
 * pushed levels (an error in a tapset alias's body: the script's probe point
 * that used the alias); loc.file NULL if none is (the language server, lsp/).
 */
struct srcloc diag_site_in(struct srcloc loc, const char *file);

/* The innermost pushed level, or NULL. */
const struct diag_expansion *diag_current_expansion(void);

#endif
