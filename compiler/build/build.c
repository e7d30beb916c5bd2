/* build.c - pass 4: build the module with kbuild against the target kernel's build tree. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "arch.h"
#include "sign.h"
#include "cache.h"
#include "kfeatures.h"
#include "build.h"

/*
 * One compiler flag as a word of a Kbuild variable: make passes it through
 * the shell, so it is single-quoted ('\'' for a quote), '$' is doubled and
 * '#' escaped for make. -D MAXSTRINGLEN=(8*2) must reach the compiler intact.
 */
static const char *kbuild_quote(const char *flag)
{
	const char *out = "'";
	for (const char *p = flag; *p; p++) {
		const char *piece = *p == '\'' ? "'\\''" : *p == '$' ? "$$" : *p == '#' ? "\\#" : ast_strndup(p, 1);
		out = ast_printf("%s%s", out, piece);
	}
	return ast_printf("%s'", out);
}

static bool write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
		fprintf(stderr, "stap: cannot write %s: %s\n", path, strerror(errno));
		return false;
	}
	return true;
}

/* Process-wide (in the watcher process): its signal handler reaches only file-scope state. */
static volatile sig_atomic_t watcher_signal;	/* a stop signal the build watcher got, or 0 */

static void watcher_on_signal(int sig)
{
	watcher_signal = sig;
}

static void watcher_on_child(int sig)
{
	(void)sig;	/* only wakes sigsuspend */
}

/*
 * The build watcher: stap's child, leader of the build's process group, the
 * parent of make. make and the compilers make starts stay in its group. The
 * watcher has PR_SET_PDEATHSIG, so stap's death, even by SIGKILL (a
 * supervisor's timeout), reaches it as SIGTERM; a stop signal (that, or one
 * stap sends the group) makes it signal the whole group, wait for make, and,
 * when stap is gone, remove stap's temporary directory, which stap cannot
 * remove any more. A lone PR_SET_PDEATHSIG on make would not do: cc1 is
 * make's grandchild, and make's own death does not stop it.
 */
static _Noreturn void build_watcher(char *const argv[], const char *log, pid_t stap, const char *tmpdir)
{
	static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
	struct sigaction sa = { .sa_handler = watcher_on_signal };
	struct sigaction chld = { .sa_handler = watcher_on_child };
	sigset_t all, none;

	sigemptyset(&sa.sa_mask);
	sigemptyset(&chld.sa_mask);
	sigfillset(&all);
	sigemptyset(&none);
	sigprocmask(SIG_BLOCK, &all, NULL);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaction(stop_signals[i], &sa, NULL);
	sigaction(SIGCHLD, &chld, NULL);
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) < 0 || getppid() != stap)
		watcher_signal = SIGTERM;	/* stap died before the watcher was watching */
	pid_t make = watcher_signal ? -1 : fork();
	if (make == 0) {
		for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
			signal(stop_signals[i], SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		sigprocmask(SIG_SETMASK, &none, NULL);
		/* the watcher's death (SIGKILL from outside) still stops make */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		/* gcc's temporary files go in stap's directory (the log's), removed whole however the build stops */
		char *dir = strdup(log), *slash = dir ? strrchr(dir, '/') : NULL;
		if (slash) {
			*slash = '\0';
			setenv("TMPDIR", dir, 1);
		}
		session_exec_logged(argv, log);
	}
	int status = 0, forwarded = 0;
	for (;;) {
		if (watcher_signal && !forwarded) {
			forwarded = watcher_signal;
			kill(-getpgrp(), SIGTERM);	/* make and every compiler it started */
		}
		pid_t got = make > 0 ? waitpid(make, &status, WNOHANG) : make;
		if (got == make || (got < 0 && errno != EINTR))
			break;
		sigsuspend(&none);
	}
	if (forwarded && getppid() != stap && tmpdir)
		session_remove_tree(tmpdir);
	if (forwarded || make < 0)
		_exit(128 + (forwarded ? forwarded : SIGTERM));
	_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
}

/*
 * Run argv with stdout and stderr into log, under a build watcher in a
 * process group of its own (which a stop signal to stap stops whole,
 * session.h); returns make's exit status, or -1.
 */
static int run_logged(char *const argv[], const char *log, const char *tmpdir)
{
	pid_t stap = getpid();
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		setpgid(0, 0);
		build_watcher(argv, log, stap, tmpdir);
	}
	int status;
	if (!session_wait_child(pid, &status))
		return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) < 128 ? WEXITSTATUS(status) : -1;
}

/*
 * Show the compiler's complaints: lines that mention errors or warnings,
 * with their context, naming files relative to the build directory.
 */
static void show_build_errors(const char *log, const char *dir)
{
	size_t dirlen = strlen(dir);
	FILE *f = fopen(log, "r");
	char line[4096];
	int shown = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && shown < 60) {
		if (!strncmp(line, "  CC", 4) || !strncmp(line, "  LD", 4) || !strncmp(line, "  MODPOST", 9) ||
		    !strncmp(line, "make", 4))
			continue;
		if (strstr(line, "error") || strstr(line, "warning") || strstr(line, "note:") ||
		    strstr(line, "In function") || line[0] == ' ') {
			for (char *p; (p = strstr(line, dir)) != NULL && p[dirlen] == '/';)
				memmove(p, p + dirlen + 1, strlen(p + dirlen + 1) + 1);
			fputs(line, stderr);
			shown++;
		}
	}
	fclose(f);
}

static bool copy_file(const char *from, const char *to)
{
	FILE *in = fopen(from, "rb");
	if (!in)
		return false;
	char *tmp = ast_printf("%s.tmp%d", to, (int)getpid());
	FILE *out = fopen(tmp, "wb");
	char buf[65536];
	size_t n;
	bool ok = out != NULL;
	while (ok && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		ok = fwrite(buf, 1, n, out) == n;
	fclose(in);
	if (out && fclose(out) != 0)
		ok = false;
	/* never leave a half-written module behind */
	if (!ok || rename(tmp, to) != 0) {
		unlink(tmp);
		return false;
	}
	return true;
}

/* make -C KERNEL_BUILD M=TMPDIR modules; the module lands at ko. */
static bool run_kbuild(struct session *s, const char *ko)
{
	struct stat st;
	const char *log = ast_printf("%s/build.log", s->tmpdir);
	struct vec argv = {0};
	vec_push(&argv, "make");
	vec_push(&argv, "-C");
	vec_push(&argv, (char *)s->kernel_build);
	vec_push(&argv, ast_printf("M=%s", s->tmpdir));
	for (int i = 0; i < s->make_args.n; i++)
		vec_push(&argv, s->make_args.items[i]);	/* -B NAME=VALUE */
	vec_push(&argv, "modules");
	vec_push(&argv, NULL);
	int rc = run_logged((char **)argv.items, log, s->keep_tmpdir ? NULL : s->tmpdir);
	if (session_stop_signal())
		return false;	/* make was stopped: passes_run says why */
	if (rc != 0 || stat(ko, &st) != 0) {
		show_build_errors(log, s->tmpdir);
		fprintf(stderr, "stap: pass 4: the module failed to build (make exit status %d)\n", rc);
		if (s->verbose || s->keep_tmpdir)
			fprintf(stderr, "stap: kernel build tree %s; full log in %s\n", s->kernel_build, log);
		return false;
	}
	return true;
}

/*
 * --debug: where the build's files are (the generated C, the objects, the
 * log), and pahole's layout of the module's structures, when pahole is
 * installed, beside them.
 */
static void debug_report(struct session *s, const char *ko)
{
	fprintf(stderr, "stap: --debug: %s built with -g; the build directory is kept: %s\n", ko, s->tmpdir);
	const char *layout = ast_printf("%s/%s.pahole", s->tmpdir, s->module_name);
	char *argv[] = {"pahole", (char *)ko, NULL};
	int rc = run_logged(argv, layout, NULL);
	if (rc == 0)
		fprintf(stderr, "stap: --debug: pahole's layout of the module's structures: %s\n", layout);
	else if (rc == 127 || rc < 0)
		fprintf(stderr, "stap: --debug: pahole is not installed (apt-get install pahole): no layout report\n");
	else
		fprintf(stderr, "stap: --debug: pahole failed (exit status %d); its output: %s\n", rc, layout);
}

/*
 * The compiler the kernel names (kbuild_compiler) is on PATH, unless -B gave make a CC; else
 * say which Debian package holds it: gcc-10 for bullseye's 5.10 on a newer host, the cross
 * gcc-12 for bookworm's arm64 kernel on Debian 13, whose default cross compiler is gcc 14.
 */
static bool kbuild_compiler_found(const struct session *s)
{
	for (int i = 0; i < s->make_args.n; i++)
		if (!strncmp((const char *)s->make_args.items[i], "CC=", 3))
			return true;
	const char *cc = kbuild_compiler(s), *name = cc + (arch_is_cross(s) ? strlen(s->arch->cross_prefix) : 0);
	if (find_in_path(cc) || strncmp(name, "gcc", 3))
		return true;
	const char *package = arch_is_cross(s) ? ast_printf("%s-%.*s", name, (int)strlen(s->arch->cross_prefix) - 1,
							    s->arch->cross_prefix)
					       : name;
	fprintf(stderr, "stap: kernel %s is built with %s, which is not installed here (apt-get install %s)\n",
		s->release, cc, package);
	return false;
}

bool build_module(struct session *s)
{
	struct stat st;
	if (stat(ast_printf("%s/Makefile", s->kernel_build), &st) != 0) {
		if (strchr(s->release, '/'))
			fprintf(stderr, "stap: %s is not a kernel build tree (it has no Makefile)\n", s->kernel_build);
		else
			fprintf(stderr, "stap: no kernel build tree at %s for kernel %s.\n"
					"      Install the headers (apt-get install linux-headers-%s), "
					"or point -r at a build tree.\n",
				s->kernel_build, s->release, s->release);
		return false;
	}
	if (!kbuild_compiler_found(s))
		return false;
	/* the compat layer's answers for this kernel, which runtime.h includes from the module's directory */
	const char *features = kfeatures_text(s);
	if (!features || !write_text(ast_printf("%s/" KFEATURES_HEADER, s->tmpdir), features))
		return false;
	/*
	 * -std=gnu11: the generated C and the runtime declare loop variables in their for
	 * statements; kbuild compiles with gnu11 since 5.18 and with gnu89 before (5.10), where
	 * that is an error. It repeats what newer kernels already pass.
	 */
	char *ccflags = ast_printf("ccflags-y := -I$(src) -I%s -std=gnu11 -Wno-declaration-after-statement", s->runtime_dir);
	for (int i = 0; i < s->defines.n; i++) {
		struct define *d = s->defines.items[i];
		ccflags = ast_printf("%s %s", ccflags,
				     kbuild_quote(ast_printf("-D%s%s%s", d->name, d->value ? "=" : "",
							     d->value ? d->value : "")));
	}
	/* -B's make arguments are named in the Kbuild file too, so they are part of the cache key */
	char *make_args = "";
	for (int i = 0; i < s->make_args.n; i++)
		make_args = ast_printf("%s# make %s\n", make_args, (char *)s->make_args.items[i]);
	/*
	 * Line tables only (-g1, after the kernel's -g): the DWARF types of
	 * every kernel structure the runtime touches cost a third of the
	 * module's compile time, and nothing reads them; an oops in the module
	 * still decodes to source lines. Only when the kernel builds with
	 * debug info at all.
	 */
	const char *debug = s->debug_build ? "# --debug: full debug information\nccflags-y += -g\n"
					   : "# line tables only: see compiler/build/build.c\nccflags-$(CONFIG_DEBUG_INFO) += -g1\n";
	const char *kbuild = ast_printf("%sobj-m := %s.o\n%s\n%s", make_args, s->module_name, ccflags, debug);
	if (!write_text(ast_printf("%s/Kbuild", s->tmpdir), kbuild))
		return false;
	const char *ko = ast_printf("%s/%s.ko", s->tmpdir, s->module_name);
	char key[CACHE_KEY_LEN + 1];
	bool cacheable = !s->disable_cache && cache_key(s, ast_printf("%s\n%s", kbuild, features), key);
	/* --poison-cache: build anyway, and replace what the cache holds; --debug: the build's files are wanted */
	if (!cacheable || s->poison_cache || s->debug_build || !cache_fetch(s, key, ko)) {
		if (!run_kbuild(s, ko))
			return false;
		if (cacheable)
			cache_store(s, key, ko);
	}
	if (s->debug_build)
		debug_report(s, ko);
	/* the cache keeps the module unsigned: this run's copy is signed */
	if (s->sign_module && !sign_module(s, ko))
		return false;
	s->ko_path = ko;
	if (s->last_pass == 4) {
		/* -p4 leaves NAME.ko in the current directory (a fleet's build: in its directory) */
		const char *dest = s->remote_build_dir ? ast_printf("%s/%s.ko", s->remote_build_dir, s->module_name)
						       : ast_printf("%s.ko", s->module_name);
		if (!copy_file(ko, dest)) {
			fprintf(stderr, "stap: cannot copy the module to %s: %s\n", dest, strerror(errno));
			return false;
		}
		char cwd[4096];
		s->ko_path = dest[0] == '/' ? dest : getcwd(cwd, sizeof(cwd)) ? ast_printf("%s/%s", cwd, dest) : dest;
	}
	return true;
}
