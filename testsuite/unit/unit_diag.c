/*
 * unit_diag.c - compiler/diag.c on its own: exact text of errors, warnings,
 * notes, both kinds of expansion notes, -w / -W / library warnings, and the
 * error limit (which exits, so it runs in a child process), the listener and diag_site_in
 * (the language server's).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ast.c"
#include "diag.c"
#include "unit.h"

/* Run fn with stderr captured; returns what it printed. */
static char *capture(void (*fn)(void))
{
	fflush(stderr);
	FILE *tmp = tmpfile();
	int saved = dup(2);
	dup2(fileno(tmp), 2);
	fn();
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	long len = ftell(tmp);
	char *buf = calloc(1, (size_t)len + 1);
	rewind(tmp);
	if (fread(buf, 1, (size_t)len, tmp) != (size_t)len)
		buf[0] = '\0';
	fclose(tmp);
	return buf;
}

static const char *script, *tapset;

static struct srcloc at(const char *file, int line, int col)
{
	return (struct srcloc){.file = file, .line = line, .col = col};
}

static void plain_error(void)
{
	diag_error(at(script, 2, 6), "unresolved function '%s'", "foo");
	diag_note(at(script, 1, 1), "declared here");
	diag_error((struct srcloc){0}, "no probes found");
	diag_error((struct srcloc){.file = script}, "about the whole file");
}

static void carried_chain(void)
{
	/* @outer used at 4:3 expands to a use of @inner at 1:9 (inside @outer's body). */
	const struct diag_expansion *outer = diag_expansion_new("macro '@outer'", at(script, 4, 3));
	struct srcloc inner_site = at(script, 1, 9);
	inner_site.expansion = outer;
	const struct diag_expansion *inner = diag_expansion_new("macro '@inner'", inner_site);
	struct srcloc tok = at(script, 2, 3);
	tok.expansion = inner;
	diag_error(tok, "bad");
}

static void pushed_levels(void)
{
	diag_push_expansion("probe alias 'sys.read'", at(script, 4, 3));
	diag_push_expansion("function 'helper'", at(tapset, 1, 1));
	CHECK(diag_current_expansion() != NULL);
	CHECK_STR(diag_current_expansion()->what, "function 'helper'");
	/* a location already carrying the pushed level prints it once */
	struct srcloc loc = at(script, 1, 1);
	loc.expansion = diag_current_expansion();
	diag_error(loc, "twice?");
	diag_pop_expansion();
	diag_pop_expansion();
	CHECK(diag_current_expansion() == NULL);
	diag_error(at(script, 1, 1), "after pop");
}

static void warnings(void)
{
	diag_warning(at(script, 3, 1), "w1");
	diag_note(at(script, 3, 1), "note of w1");
	diag_warning(at(tapset, 1, 1), "in library");
	diag_note(at(tapset, 1, 1), "dropped with it");
}

/* The listener (the language server's): what it was given, one line per diagnostic. */
static char heard[1024];

static void listen(void *arg, enum diag_level level, struct srcloc loc, const char *message)
{
	size_t n = strlen(heard);
	snprintf(heard + n, sizeof(heard) - n, "%s%d %s:%d:%d %s\n", (const char *)arg, (int)level,
		 loc.file ? loc.file : "-", loc.line, loc.col, message);
}

/* diag_site_in: a tapset location stands at the script's use, through a carried or a pushed level. */
static void sites(void)
{
	struct srcloc in_tapset = at(tapset, 1, 10);
	in_tapset.expansion = diag_expansion_new("macro '@m'", at(script, 2, 6));
	struct srcloc site = diag_site_in(in_tapset, script);
	CHECK(site.file == script && site.line == 2 && site.col == 6);
	CHECK(diag_site_in(at(script, 3, 1), script).line == 3);
	CHECK(diag_site_in(at(tapset, 1, 1), script).file == NULL);
	diag_push_expansion("probe alias 'a'", at(script, 4, 3));
	site = diag_site_in(at(tapset, 1, 1), script);
	CHECK(site.file == script && site.line == 4 && site.col == 3);
	diag_error(at(tapset, 1, 2), "inside %s", "the alias");
	diag_note(at(script, 1, 1), "a note");
	diag_warning(at(script, 3, 1), "heard");
	diag_pop_expansion();
}

static void flood(void)
{
	for (int i = 0; i < 100; i++)
		diag_error(at(script, 1, 1), "e%d", i);
}

int main(void)
{
	script = ast_intern("t.stp");
	tapset = ast_intern("/lib/x.stp");
	diag_add_source(script, "abc\n\tx = foo(1)\nwarn\n  @outer\n");
	diag_add_source(tapset, "function helper() {}\n");
	diag_mark_library(tapset);

	char *out = capture(plain_error);
	CHECK_STR(out, "t.stp:2:6: error: unresolved function 'foo'\n"
		       "\tx = foo(1)\n"
		       "\t    ^\n"
		       "t.stp:1:1: note: declared here\n"
		       "abc\n"
		       "^\n"
		       "error: no probes found\n"
		       "t.stp: error: about the whole file\n");
	CHECK(diag_error_count() == 3);

	out = capture(carried_chain);
	CHECK_STR(out, "t.stp:2:3: error: bad\n\tx = foo(1)\n\t ^\n"
		       "t.stp:1:9: note: in expansion of macro '@inner'\nabc\n   ^\n"
		       "t.stp:4:3: note: in expansion of macro '@outer'\n  @outer\n  ^\n");

	out = capture(pushed_levels);
	CHECK_STR(out, "t.stp:1:1: error: twice?\nabc\n^\n"
		       "/lib/x.stp:1:1: note: in expansion of function 'helper'\nfunction helper() {}\n^\n"
		       "t.stp:4:3: note: in expansion of probe alias 'sys.read'\n  @outer\n  ^\n"
		       "t.stp:1:1: error: after pop\nabc\n^\n");

	/* default: script warnings print, library ones (and their notes) do not */
	out = capture(warnings);
	CHECK_STR(out, "t.stp:3:1: warning: w1\nwarn\n^\nt.stp:3:1: note: note of w1\nwarn\n^\n");
	CHECK(diag_warning_count() == 1);

	/* -w */
	diag_configure(&(struct diag_options){.suppress_warnings = true});
	out = capture(warnings);
	CHECK_STR(out, "");

	/* -v: library warnings too */
	diag_configure(&(struct diag_options){.library_warnings = true});
	out = capture(warnings);
	CHECK(strstr(out, "/lib/x.stp:1:1: warning: in library\n") != NULL);

	/* -W: warnings print as errors and fail the run, but passes go on (error count unchanged) */
	int before = diag_error_count();
	CHECK(diag_failed());
	diag_configure(&(struct diag_options){.warnings_as_errors = true});
	out = capture(warnings);
	CHECK_STR(out, "t.stp:3:1: error: w1 [-W]\nwarn\n^\nt.stp:3:1: note: note of w1\nwarn\n^\n");
	CHECK(diag_error_count() == before);

	/* the limit counts both: at most 5 more, then a message and exit status 1 */
	diag_configure(&(struct diag_options){.error_limit = diag_error_count() + 1 + 5});
	FILE *log = tmpfile();
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fileno(log), 2);
		flood();
		_exit(9); /* not reached: diag_report exits at the limit */
	}
	int status = 0;
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 1);
	char text[4096] = "";
	rewind(log);
	size_t got = fread(text, 1, sizeof(text) - 1, log);
	text[got] = '\0';
	int lines = 0;
	for (char *p = text; *p; p++)
		lines += *p == '\n';
	CHECK(lines == 5 * 3 + 1); /* five errors of three lines, then the stop message */
	CHECK(strstr(text, "t.stp:1:1: error: e4\n") != NULL);
	CHECK(strstr(text, "e5") == NULL);
	CHECK(strstr(text, "stap: too many errors (") != NULL);
	fclose(log);

	/* the listener hears errors, notes and warnings, formatted; -W's promoted ones as errors */
	diag_configure(&(struct diag_options){.warnings_as_errors = true, .listener = listen, .listener_arg = "L"});
	out = capture(sites);
	CHECK_STR(heard, "L0 /lib/x.stp:1:2 inside the alias\nL2 t.stp:1:1 a note\nL0 t.stp:3:1 heard [-W]\n");
	CHECK(strstr(out, "/lib/x.stp:1:2: error: inside the alias\n") != NULL);

	return unit_report("unit_diag");
}
