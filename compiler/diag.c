/*
 * diag.c - diagnostics printed as they are reported:
 *
 *   file:line:col: error: message
 *   the source line
 *       ^
 *   file:line:col: note: in expansion of macro '@m'
 *   ...
 *
 * Sources are registered by path (an interned pointer) so any pass can quote
 * the line a location points into. Errors are counted; the driver checks the
 * count between passes. Warnings obey -w (drop), -W (promote to errors) and
 * stay quiet in tapset files unless -v. See diag.h for expansion notes.
 *
 * Bounded output, whatever the input: each diagnostic is composed in memory
 * and written once (stderr is unbuffered), lines past DIAG_QUOTE_WIDTH are
 * quoted as a window around the caret, and warnings past DIAG_WARNING_LIMIT
 * are only counted.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

/* A file whose lines diagnostics may quote. */
struct diag_source {
	const char *path;         /* interned path, compared by pointer */
	const char *text;         /* whole contents, NUL-terminated */
	struct diag_source *next; /* next registered source */
};

/* One session's diagnostics (session.diag). */
struct diag_state {
	struct diag_source *sources;   /* registered sources, newest first */
	struct vec library_paths;      /* of const char *: interned tapset paths */
	struct vec expansion_stack;    /* of struct diag_expansion *: pushed levels, innermost last */
	struct diag_options options;   /* from the command line */
	int error_count;               /* errors reported so far */
	int promoted_count;            /* warnings reported as errors (-W) */
	int muted;                     /* diag_mute depth: while > 0, nothing is printed or counted */
	int muted_errors;              /* errors dropped while muted */
	int warning_count;             /* warnings printed so far */
	int warnings_seen;             /* warnings reported, printed or not (DIAG_WARNING_LIMIT) */
	bool last_was_suppressed;      /* drop notes attached to a dropped warning */
	FILE *out;                     /* the diagnostic being composed (an open_memstream) */
	char *out_buf;                 /* its text */
	size_t out_len;                /* its length */
	struct vec reported;           /* of struct diag_record *: every error, for diag_print_catalogue */
};

/* An error as reported: where, and what. */
struct diag_record {
	struct srcloc loc;             /* where it was reported */
	const char *message;           /* its text (an arena copy) */
};

/*
 * The diagnostics being reported to: the current session's. Every pass and
 * the scanner report without a session at hand (diag_error(loc, ...) is
 * called from some 280 places), so the session in use is selected here once
 * (diag_use) instead of passed to every call; a process compiling several
 * scripts switches it with the session. NULL until first use, then a
 * default state (unit tests report without a session).
 */
static struct diag_state *current;

static struct diag_state *cur(void)
{
	if (!current)
		current = diag_new();
	return current;
}

struct diag_state *diag_new(void)
{
	return ast_alloc(sizeof(struct diag_state));
}

void diag_use(struct diag_state *d)
{
	current = d;
}

/* Warnings printed before the rest are only counted (a line can hold thousands). */
#define DIAG_WARNING_LIMIT 100
/* Source lines longer than this are quoted as a window around the caret. */
#define DIAG_QUOTE_WIDTH 160

void diag_configure(const struct diag_options *o)
{
	cur()->options = *o;
}

void diag_add_source(const char *path, const char *text)
{
	struct diag_source *s = ast_alloc(sizeof(*s));
	s->path = path;
	s->text = text;
	s->next = cur()->sources;
	cur()->sources = s;
}

void diag_mark_library(const char *path)
{
	vec_push(&cur()->library_paths, (void *)path);
}

static bool is_library(const char *path)
{
	for (int i = 0; i < cur()->library_paths.n; i++)
		if (cur()->library_paths.items[i] == path)
			return true;
	return false;
}

/* The SGR parameters options.colors gives key ("error", "caret", ...), or NULL. */
static const char *color_of(const char *key)
{
	size_t klen = strlen(key);
	for (const char *p = cur()->options.colors; p && *p; p += strcspn(p, ":"), p += *p == ':') {
		if (!strncmp(p, key, klen) && p[klen] == '=')
			return ast_printf("%.*s", (int)strcspn(p + klen + 1, ":"), p + klen + 1);
	}
	return NULL;
}

/* Start and end a colored span (nothing without --color). */
static void color_on(const char *key)
{
	const char *sgr = color_of(key);
	if (sgr)
		fprintf(cur()->out, "\033[%sm", sgr);
}

static void color_off(const char *key)
{
	if (color_of(key))
		fputs("\033[m", cur()->out);
}

/* The source line from..to, the token at caret in the token color. */
static void print_quoted(const char *p, size_t len, size_t caret)
{
	size_t tok = caret;
	while (tok < len && (p[tok] == '_' || (p[tok] >= 'a' && p[tok] <= 'z') || (p[tok] >= 'A' && p[tok] <= 'Z') ||
			     (p[tok] >= '0' && p[tok] <= '9')))
		tok++;
	if (tok == caret && caret < len)
		tok++;
	color_on("source");
	fprintf(cur()->out, "%.*s", (int)caret, p);
	color_off("source");
	color_on("token");
	fprintf(cur()->out, "%.*s", (int)(tok - caret), p + caret);
	color_off("token");
	color_on("source");
	fprintf(cur()->out, "%.*s", (int)(len - tok), p + tok);
	color_off("source");
}

/* Print line `line` of the file and a caret under column `col`. */
static void print_source_line(struct srcloc loc)
{
	const struct diag_source *s = cur()->sources;
	while (s && s->path != loc.file)
		s = s->next;
	if (!s || loc.line < 1)
		return;

	const char *p = s->text;
	for (int line = 1; line < loc.line; line++) {
		p = strchr(p, '\n');
		if (!p)
			return;
		p++;
	}
	size_t len = strcspn(p, "\n");
	if (len > 0 && p[len - 1] == '\r')
		len--;
	size_t caret = loc.col > 1 ? (size_t)loc.col - 1 : 0;
	if (caret > len)
		caret = len;
	const char *lead = "";
	if (len > DIAG_QUOTE_WIDTH) {
		/* A window of the line around the caret, marked "..." where cut. */
		size_t from = caret > DIAG_QUOTE_WIDTH / 2 ? caret - DIAG_QUOTE_WIDTH / 2 : 0;
		size_t to = from + DIAG_QUOTE_WIDTH < len ? from + DIAG_QUOTE_WIDTH : len;
		if (from > 0)
			lead = "...";
		fputs(lead, cur()->out);
		print_quoted(p + from, to - from, caret - from);
		fprintf(cur()->out, "%s\n", to < len ? "..." : "");
		p += from;
		caret -= from;
	} else {
		print_quoted(p, len, caret);
		fputc('\n', cur()->out);
	}

	/* Keep tabs so the caret lines up however the terminal expands them. */
	fputs(*lead ? "   " : "", cur()->out);
	for (size_t i = 0; i < caret; i++)
		fputc(p[i] == '\t' ? '\t' : ' ', cur()->out);
	color_on("caret");
	fputc('^', cur()->out);
	color_off("caret");
	fputc('\n', cur()->out);
}

/* "file:line:col: level: message", then the quoted line. */
static void print_one(const char *level, struct srcloc loc, const char *msg)
{
	if (loc.file && loc.line > 0)
		fprintf(cur()->out, "%s:%d:%d: ", loc.file, loc.line, loc.col);
	else if (loc.file)
		fprintf(cur()->out, "%s: ", loc.file); /* a whole file, no position */
	color_on(level);	/* "error" and "warning" have colors, "note" none */
	fputs(level, cur()->out);
	color_off(level);
	fprintf(cur()->out, ": %s\n", msg);
	if (loc.file && loc.line > 0)
		print_source_line(loc);
}

/* Print a chain of levels outward, skipping levels printed already (in *done). */
static void print_expansion_chain(const struct diag_expansion *e, struct vec *done)
{
	for (; e; e = e->site.expansion) {
		for (int i = 0; i < done->n; i++)
			if (done->items[i] == e)
				return; /* the rest of this chain is printed too */
		vec_push(done, (void *)e);
		print_one("note", e->site, ast_printf("in expansion of %s", diag_expansion_what(e)));
	}
}

static void print_expansions(struct srcloc loc)
{
	struct vec done = {0};
	print_expansion_chain(loc.expansion, &done);
	for (int i = cur()->expansion_stack.n - 1; i >= 0; i--)
		print_expansion_chain(cur()->expansion_stack.items[i], &done);
}

void diag_report(enum diag_level level, struct srcloc loc, const char *fmt, ...)
{
	if (cur()->muted) {
		cur()->muted_errors += level == DIAG_ERROR;
		return;
	}
	if (level == DIAG_WARNING &&
	    (cur()->options.suppress_warnings || (!cur()->options.library_warnings && loc.file && is_library(loc.file)))) {
		cur()->last_was_suppressed = true;
		return;
	}
	if (level == DIAG_NOTE && cur()->last_was_suppressed)
		return;
	if (level != DIAG_NOTE)
		cur()->last_was_suppressed = false;

	va_list ap;
	va_start(ap, fmt);
	char *msg = NULL;
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	if (!msg) {
		fputs("stap: out of memory\n", stderr);
		exit(1);
	}

	bool promoted = level == DIAG_WARNING && cur()->options.warnings_as_errors;
	if (level == DIAG_WARNING && !promoted && ++cur()->warnings_seen > DIAG_WARNING_LIMIT) {
		if (cur()->warnings_seen == DIAG_WARNING_LIMIT + 1)
			fprintf(stderr, "stap: more than %d warnings: the rest are not shown\n", DIAG_WARNING_LIMIT);
		cur()->last_was_suppressed = true;
		free(msg);
		return;
	}
	if (level == DIAG_ERROR || promoted) {
		int limit = cur()->options.error_limit > 0 ? cur()->options.error_limit : DIAG_DEFAULT_ERROR_LIMIT;
		if (cur()->error_count + cur()->promoted_count >= limit) {
			fprintf(stderr, "stap: too many errors (%d), stopping\n", cur()->error_count + cur()->promoted_count);
			exit(1);
		}
		if (promoted)
			cur()->promoted_count++;
		else
			cur()->error_count++;
	} else if (level == DIAG_WARNING) {
		cur()->warning_count++;
	}

	static const char *const level_names[] = {
		[DIAG_ERROR] = "error",
		[DIAG_WARNING] = "warning",
		[DIAG_NOTE] = "note",
	};
	/* Composed in memory and written at once: one write, not one per character. */
	cur()->out = open_memstream(&cur()->out_buf, &cur()->out_len);
	if (!cur()->out) {
		fputs("stap: out of memory\n", stderr);
		exit(1);
	}
	if (level == DIAG_ERROR || promoted) {
		struct diag_record *r = ast_alloc(sizeof(*r));
		*r = (struct diag_record){.loc = loc, .message = promoted ? ast_printf("%s [-W]", msg) : ast_strdup(msg)};
		vec_push(&cur()->reported, r);
	}
	print_one(promoted ? "error" : level_names[level], loc,
		  promoted ? ast_printf("%s [-W]", msg) : msg);
	if (cur()->options.listener)
		cur()->options.listener(cur()->options.listener_arg, promoted ? DIAG_ERROR : level, loc,
					promoted ? ast_printf("%s [-W]", msg) : msg);
	free(msg);
	if (level != DIAG_NOTE)
		print_expansions(loc);
	fclose(cur()->out);
	fwrite(cur()->out_buf, 1, cur()->out_len, stderr);
	free(cur()->out_buf);
	cur()->out = NULL;
}

void diag_mute(int delta)
{
	cur()->muted += delta;
}

int diag_muted_errors(void)
{
	return cur()->muted_errors;
}

int diag_error_count(void)
{
	return cur()->error_count;
}

void diag_print_catalogue(FILE *out)
{
	for (int i = 0; i < cur()->reported.n; i++) {
		struct diag_record *r = cur()->reported.items[i];
		char *text = (char *)ast_strdup(r->message);
		for (char *p = text; *p; p++)
			if (*p == '\t' || *p == '\n')
				*p = ' ';
		fprintf(out, "%s\t%d\t%d\t%s\n", r->loc.file ? r->loc.file : "-", r->loc.file ? r->loc.line : 0,
			r->loc.file ? r->loc.col : 0, text);
	}
}

bool diag_failed(void)
{
	return cur()->error_count > 0 || cur()->promoted_count > 0;
}

int diag_warning_count(void)
{
	return cur()->warning_count;
}

const struct diag_expansion *diag_expansion_new(const char *what, struct srcloc site)
{
	struct diag_expansion *e = ast_alloc(sizeof(*e));
	e->what = ast_strdup(what);
	e->site = site;
	return e;
}

const struct diag_expansion *diag_expansion_lazy(const char *(*describe)(const void *arg), const void *arg,
						 struct srcloc site)
{
	struct diag_expansion *e = ast_alloc(sizeof(*e));
	e->describe = describe;
	e->arg = arg;
	e->site = site;
	return e;
}

const char *diag_expansion_what(const struct diag_expansion *e)
{
	if (!e->what) {
		struct diag_expansion *m = (struct diag_expansion *)e; /* formatted once, on demand */
		m->what = e->describe(e->arg);
	}
	return e->what;
}

void diag_push_expansion(const char *what, struct srcloc site)
{
	/* A use met while expanding something else is nested in it. */
	if (!site.expansion)
		site.expansion = diag_current_expansion();
	vec_push(&cur()->expansion_stack, (void *)diag_expansion_new(what, site));
}

void diag_push_expansion_lazy(const char *(*describe)(const void *arg), const void *arg, struct srcloc site)
{
	if (!site.expansion)
		site.expansion = diag_current_expansion();
	vec_push(&cur()->expansion_stack, (void *)diag_expansion_lazy(describe, arg, site));
}

void diag_pop_expansion(void)
{
	if (cur()->expansion_stack.n > 0)
		cur()->expansion_stack.n--;
}

struct srcloc diag_site_in(struct srcloc loc, const char *file)
{
	if (loc.file == file)
		return loc;
	for (const struct diag_expansion *e = loc.expansion; e; e = e->site.expansion)
		if (e->site.file == file)
			return e->site;
	for (int i = cur()->expansion_stack.n - 1; i >= 0; i--)
		for (const struct diag_expansion *e = cur()->expansion_stack.items[i]; e; e = e->site.expansion)
			if (e->site.file == file)
				return e->site;
	return (struct srcloc){.file = NULL};
}

const struct diag_expansion *diag_current_expansion(void)
{
	return cur()->expansion_stack.n ? cur()->expansion_stack.items[cur()->expansion_stack.n - 1] : NULL;
}
