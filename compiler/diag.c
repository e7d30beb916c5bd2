/*
 * diag.c - diagnostics printed as they are reported:
 *
 *   file:line:col: error: message
 *   the source line
 *       ^
 *   file:line:col: note: in expansion of macro '@NAME'   (one per macro call
 *   ...                                                   the token came through)
 *
 * Sources are registered by path (an interned pointer) so any pass can quote
 * the line a location points into. Errors are counted; the driver checks the
 * count between passes.
 */
#include <stdarg.h>
#include <string.h>

#include "diag.h"

/* Expansion notes printed under one diagnostic; a longer chain is summarised. */
#define DIAG_MAX_EXPANSION_NOTES 4

/* A file whose lines diagnostics may quote. */
struct diag_source {
	const char *path;         /* interned path, compared by pointer */
	const char *text;         /* whole contents, NUL-terminated */
	struct diag_source *next; /* next registered source */
};

static struct diag_source *sources;   /* registered sources, newest first */
static int error_count;               /* errors reported so far */
static bool warnings_suppressed;      /* -w */
static bool last_was_suppressed;      /* drop notes attached to a dropped warning */

void diag_add_source(const char *path, const char *text)
{
	struct diag_source *s = ast_alloc(sizeof(*s));
	s->path = path;
	s->text = text;
	s->next = sources;
	sources = s;
}

/* Print line `line` of the file and a caret under column `col`. */
static void print_source_line(struct srcloc loc)
{
	const struct diag_source *s = sources;
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
	fprintf(stderr, "%.*s\n", (int)len, p);

	/* Keep tabs so the caret lines up however the terminal expands them. */
	for (int i = 0; i < loc.col - 1 && (size_t)i < len; i++)
		fputc(p[i] == '\t' ? '\t' : ' ', stderr);
	fputs("^\n", stderr);
}

void diag_report(enum diag_level level, struct srcloc loc, const char *fmt, ...)
{
	if (level == DIAG_WARNING && warnings_suppressed) {
		last_was_suppressed = true;
		return;
	}
	if (level == DIAG_NOTE && last_was_suppressed)
		return;
	if (level != DIAG_NOTE)
		last_was_suppressed = false;

	static const char *const level_names[] = {
		[DIAG_ERROR] = "error",
		[DIAG_WARNING] = "warning",
		[DIAG_NOTE] = "note",
	};
	if (loc.file)
		fprintf(stderr, "%s:%d:%d: ", loc.file, loc.line, loc.col);
	fprintf(stderr, "%s: ", level_names[level]);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (loc.file)
		print_source_line(loc);
	/* A token from a macro body: say which expansions brought it here, innermost first. */
	int shown = 0;
	for (const struct expansion *e = loc.expansion; e; e = e->call.expansion) {
		if (shown++ == DIAG_MAX_EXPANSION_NOTES) {
			int more = 0;
			for (; e; e = e->call.expansion)
				more++;
			fprintf(stderr, "note: and %d more macro expansions\n", more);
			break;
		}
		fprintf(stderr, "%s:%d:%d: note: in expansion of macro '%s'\n", e->call.file, e->call.line,
			e->call.col, e->macro);
		print_source_line(e->call);
	}

	if (level == DIAG_ERROR)
		error_count++;
}

int diag_error_count(void)
{
	return error_count;
}

void diag_suppress_warnings(bool on)
{
	warnings_suppressed = on;
}
