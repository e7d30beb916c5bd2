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
#include "passes.h"
#include "preprocess.h"

/* One pass: run it, and print its result when it is the last pass asked for. */
struct pass {
	const char *verb;                              /* for -v: "parsed", "elaborated", ... */
	bool (*run)(struct session *s);                /* false on failure */
	void (*print)(struct session *s, FILE *out);   /* -p N output */
};

static bool parse_pass(struct session *s)
{
	if (!preprocess_begin(s))
		return false;
	s->script = parse_file(s->script_path, s->script_text, false);
	preprocess_end(s);
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

static void remove_tree(const char *path)
{
	DIR *d = opendir(path);
	if (d) {
		struct dirent *e;
		while ((e = readdir(d)) != NULL) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			char *sub = ast_printf("%s/%s", path, e->d_name);
			struct stat st;
			if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode))
				remove_tree(sub);
			else
				unlink(sub);
		}
		closedir(d);
	}
	rmdir(path);
}

static struct session *cleanup_session;

static void cleanup_tmpdir(void)
{
	struct session *s = cleanup_session;
	if (!s || !s->tmpdir)
		return;
	if (s->keep_tmpdir)
		fprintf(stderr, "Keeping temporary directory \"%s\"\n", s->tmpdir);
	else
		remove_tree(s->tmpdir);
}

const char *session_tmpdir(struct session *s)
{
	if (s->tmpdir)
		return s->tmpdir;
	const char *base = getenv("TMPDIR");
	char *dir = ast_printf("%s/stapXXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(dir)) {
		fprintf(stderr, "stap: cannot create a temporary directory %s: %s\n", dir, strerror(errno));
		return NULL;
	}
	s->tmpdir = dir;
	cleanup_session = s;
	atexit(cleanup_tmpdir);
	return dir;
}

static volatile sig_atomic_t stop_signal;	/* the stop signal caught in passes 1-4, or 0 */
static volatile sig_atomic_t child_pgid;	/* the process group of a running child, or 0 */

static void passes_on_signal(int sig)
{
	stop_signal = sig;
	if (child_pgid > 0)
		kill(-child_pgid, SIGTERM);	/* async-signal-safe */
}

int passes_stop_signal(void)
{
	return stop_signal;
}

void passes_watch_child(pid_t pgid)
{
	child_pgid = pgid;
	/* a signal that came between fork and here found no group to stop */
	if (pgid > 0 && stop_signal)
		kill(-pgid, SIGTERM);
}

static void catch_stop_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_handler = passes_on_signal };	/* no SA_RESTART */
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old;
		/* a signal stap was started with ignored (nohup, a background job) stays ignored */
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
}

/* After a stop signal: say which pass it ended; the exit code. */
static int interrupted(int pass)
{
	const char *abbrev = sigabbrev_np(stop_signal);
	fprintf(stderr, "stap: pass %d interrupted by %s%s; nothing was written\n", pass,
		abbrev ? "SIG" : "signal ", abbrev ? abbrev : ast_printf("%d", (int)stop_signal));
	return STAP_EXIT_FAILURE;
}

const char *passes_pick_guest_release(void)
{
	DIR *d = opendir("/boot");
	const char *best = NULL;
	struct dirent *e;
	if (!d)
		return NULL;
	while ((e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, "vmlinuz-", 8) != 0)
			continue;
		const char *rel = e->d_name + 8;
		struct stat st;
		if (stat(ast_printf("/lib/modules/%s/build", rel), &st) != 0)
			continue;
		if (!best || strverscmp(rel, best) > 0)
			best = ast_strdup(rel);
	}
	closedir(d);
	return best;
}

int passes_run(struct session *s)
{
	int npasses = (int)(sizeof(pass_table) / sizeof(pass_table[0]));
	catch_stop_signals();
	for (int i = 0; i < npasses && i < s->last_pass; i++) {
		double start = now_ms();
		bool ok = pass_table[i].run(s);
		if (stop_signal)
			return interrupted(i + 1);
		if (s->verbose)
			fprintf(stderr, "Pass %d: %s in %.1f ms, peak memory %ld KiB%s\n", i + 1,
				pass_table[i].verb, now_ms() - start, peak_rss_kib(),
				ok && !diag_failed() ? "" : " (failed)");
		if (!ok || diag_failed()) {
			fprintf(stderr, "Pass %d: failed.%s\n", i + 1,
				i + 1 == 4 && !s->keep_tmpdir ? " (use -k to keep the build directory)" : "");
			return STAP_EXIT_FAILURE;
		}
		if (i + 1 == s->last_pass) {
			pass_table[i].print(s, stdout);
			fflush(stdout);
			return STAP_EXIT_OK;
		}
	}
	double start = now_ms();
	int rc = run_module(s);
	if (s->verbose)
		fprintf(stderr, "Pass 5: ran in %.1f ms (exit status %d)\n", now_ms() - start, rc);
	if (rc == STAP_EXIT_FAILURE && !stop_signal)
		fprintf(stderr, "Pass 5: run failed. [see man error::pass5]\n");
	return rc;
}
