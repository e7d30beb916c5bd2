/* passes.c - the ordered pass table: run each pass, stop after -p N, print its result, -v timing. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "parse.h"
#include "elaborate.h"
#include "passes.h"
#include "translate.h"
#include "build.h"
#include "build_as.h"
#include "run.h"
#include "use_server.h"
#include "preprocess.h"
#include "sdt_note.h"

/* One pass: run it, and print its result when it is the last pass asked for. */
struct pass {
	const char *verb;                              /* for -v: "parsed", "elaborated", ... */
	bool (*run)(struct session *s);                /* false on failure */
	void (*print)(struct session *s, FILE *out);   /* -p N output */
};

/* An -E script (or -T's probe): parsed on its own, its globals, functions and probes the script's. */
static void parse_extra(struct session *s, const char *path, const char *text)
{
	struct ast_file *f = parse_file(s, ast_intern(path), text, false);
	struct vec *from[] = {&f->globals, &f->functions, &f->probes, &f->embedded};
	struct vec *to[] = {&s->script->globals, &s->script->functions, &s->script->probes, &s->script->embedded};
	for (size_t k = 0; k < sizeof(from) / sizeof(from[0]); k++)
		for (int j = 0; j < from[k]->n; j++)
			vec_push(to[k], from[k]->items[j]);
}

/* Is dir a directory this process may use (rwx for a scratch directory, rx for a tapset)? errno if not. */
static bool usable_dir(const char *dir, int mode)
{
	struct stat st;
	if (stat(dir, &st) != 0)
		return false;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return false;
	}
	return access(dir, mode) == 0;
}

/*
 * Before anything is read or written, as SystemTap checks them at start: the directory the
 * temporary directory goes in ($TMPDIR or --tmpdir) and every -I tapset directory.
 */
static bool dirs_usable(struct session *s)
{
	const char *env = getenv("TMPDIR");
	const char *base = s->tmpdir_base ? s->tmpdir_base : env && *env ? env : NULL;
	if (base && !usable_dir(base, R_OK | W_OK | X_OK))
		diag_error((struct srcloc){.file = NULL}, "%s '%s' cannot hold the temporary directory: %s",
			   s->tmpdir_base ? "--tmpdir" : "TMPDIR", base, strerror(errno));
	for (int i = 0; i < s->include_dirs.n; i++) {
		const char *dir = s->include_dirs.items[i];
		if (!usable_dir(dir, R_OK | X_OK))
			diag_error((struct srcloc){.file = NULL}, "cannot use the tapset directory '%s' (-I): %s", dir,
				   strerror(errno));
	}
	return diag_error_count() == 0;
}

static bool parse_pass(struct session *s)
{
	if (!dirs_usable(s) || !preprocess_begin(s))
		return false;
	STAPC_MARK1(stap, pass1a, s);	/* stap.pass1a: before the user's script is parsed */
	s->script = parse_file(s, s->script_path, s->script_text, false);
	for (int i = 0; i < s->extra_scripts.n; i++)
		parse_extra(s, s->extra_scripts.n > 1 ? ast_printf("<input -E %d>", i + 1) : "<input -E>",
			    s->extra_scripts.items[i]);
	if (s->timeout_s)	/* SystemTap's shortcut for this probe */
		parse_extra(s, "<input -T>", ast_printf("probe timer.s(%ld) { exit() }", s->timeout_s));
	preprocess_end(s);
	struct ast_file *f = s->script;
	/* SystemTap refuses a script with nothing left once %( %) and @define are done (pass 1) */
	if (!diag_error_count() && !f->globals.n && !f->functions.n && !f->probes.n && !f->embedded.n)
		diag_error((struct srcloc){.file = s->script_path},
			   "the script is empty after preprocessing: no probe, function or global is left");
	/* stap.pass1b: stapc parses the tapset library in pass 2, the files a probe
	 * point or function needs (elaborate/tapset.c); this is the point before it. */
	STAPC_MARK1(stap, pass1b, s);
	return diag_error_count() == 0;
}

static void parse_print(struct session *s, FILE *out)
{
	ast_print_file(out, s->script);
}

static void translate_print(struct session *s, FILE *out)
{
	FILE *f = fopen(s->c_file, "r");
	char buf[65536];
	size_t n;
	if (!f) {
		fprintf(stderr, "stap: cannot read back %s: %s\n", s->c_file, strerror(errno));
		return;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, out);
	fclose(f);
}

static void build_print(struct session *s, FILE *out)
{
	fprintf(out, "%s\n", s->ko_path);
}

static const struct pass pass_table[] = {
	{"parsed", parse_pass, parse_print},
	{"elaborated", elaborate, elaborate_print},
	{"translated", translate, translate_print},
	{"built", build_module, build_print},
};

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static long peak_rss_kib(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

/* After a stop signal: say which pass it ended; the exit code. */
static int interrupted(int pass)
{
	const char *abbrev = sigabbrev_np(session_stop_signal());
	fprintf(stderr, "stap: pass %d interrupted by %s%s; nothing was written\n", pass,
		abbrev ? "SIG" : "signal ", abbrev ? abbrev : ast_printf("%d", (int)session_stop_signal()));
	return STAP_EXIT_FAILURE;
}

/* stap.passN: before pass N (1 is pass1a, in parse_pass). */
static void mark_pass_start(struct session *s, int pass)
{
	switch (pass) {
	case 2: STAPC_MARK1(stap, pass2, s); break;
	case 3: STAPC_MARK1(stap, pass3, s); break;
	case 4: STAPC_MARK1(stap, pass4, s); break;
	case 5: STAPC_MARK1(stap, pass5, s); break;
	}
}

/* stap.passN.end: after pass N succeeded, before its result is printed. */
static void mark_pass_end(struct session *s, int pass)
{
	switch (pass) {
	case 1: STAPC_MARK1(stap, pass1__end, s); break;
	case 2: STAPC_MARK1(stap, pass2__end, s); break;
	case 3: STAPC_MARK1(stap, pass3__end, s); break;
	case 4: STAPC_MARK1(stap, pass4__end, s); break;
	case 5: STAPC_MARK1(stap, pass5__end, s); break;
	}
}

/* Passes 1 to 4 (or to -p N): the exit code, or BUILD_AS_CONTINUE when pass 5 follows. */
static int compile_passes(struct session *s)
{
	int npasses = (int)(sizeof(pass_table) / sizeof(pass_table[0]));
	int verbose = s->verbose;	/* -v; --vp adds to one pass */
	for (int i = 0; i < npasses && i < s->last_pass; i++) {
		double start = now_ms();
		s->verbose = verbose + s->verbose_pass[i];
		mark_pass_start(s, i + 1);
		bool ok = pass_table[i].run(s);
		if (session_stop_signal())
			return interrupted(i + 1);
		if (s->verbose)
			fprintf(stderr, "Pass %d: %s in %.1f ms, peak memory %ld KiB%s\n", i + 1,
				pass_table[i].verb, now_ms() - start, peak_rss_kib(),
				ok && !diag_failed() ? "" : " (failed)");
		if (!ok || diag_failed()) {
			if (i + 1 == 2 && s->semantic_keep_going) {
				fprintf(stderr, "Semantic errors (file, line, column, message, tab-separated):\n");
				diag_print_catalogue(stderr);
			}
			fprintf(stderr, "Pass %d: failed.%s\n", i + 1,
				i + 1 == 4 && !s->keep_tmpdir ? " (use -k to keep the build directory)" : "");
			return STAP_EXIT_FAILURE;
		}
		mark_pass_end(s, i + 1);
		if (i + 1 == s->last_pass) {
			pass_table[i].print(s, stdout);
			if (fflush(stdout) != 0 || ferror(stdout)) {
				fprintf(stderr, "stap: cannot write pass %d's output: %s\n", i + 1, strerror(errno));
				return STAP_EXIT_FAILURE;
			}
			return STAP_EXIT_OK;
		}
	}
	s->verbose = verbose;
	return BUILD_AS_CONTINUE;
}

static int run_passes(struct session *s)
{
	int verbose = s->verbose;
	session_catch_stop_signals();
	if (s->use_server)
		return use_server_run(s);	/* passes 1-4 on a compile server (run/use_server.c) */
	int rc = s->build_as ? build_as_compile(s, compile_passes) : compile_passes(s);
	if (rc != BUILD_AS_CONTINUE)
		return rc;
	double start = now_ms();
	s->verbose = verbose + s->verbose_pass[4];
	mark_pass_start(s, 5);
	rc = run_module(s);
	mark_pass_end(s, 5);
	if (s->verbose)
		fprintf(stderr, "Pass 5: ran in %.1f ms (exit status %d)\n", now_ms() - start, rc);
	if (rc == STAP_EXIT_FAILURE && !session_stop_signal())
		fprintf(stderr, "Pass 5: run failed. [see man error::pass5]\n");
	return rc;
}

/*
 * The SDT markers of stap's passes (tapset/stap_staticmarkers.stp), each
 * with the session (struct session *) as its argument: pass0 once the
 * command line is read, pass0.end before pass 1; pass6 and pass6.end after
 * the last pass, whichever it was and whether it failed.
 */
int passes_run(struct session *s)
{
	STAPC_MARK1(stap, pass0, s);
	STAPC_MARK1(stap, pass0__end, s);
	int rc = run_passes(s);
	STAPC_MARK1(stap, pass6, s);
	STAPC_MARK1(stap, pass6__end, s);
	return rc;
}
