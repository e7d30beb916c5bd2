/* run.c - pass 5: run the module with staprun here, or in a disposable QEMU guest with stapvm. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <wordexp.h>

#include "../runtime/transport_msgs.h"

#include "arch.h"
#include "run.h"
#include "sdt_note.h"
#include "probes.h"

/* staprun's options for this session, appended to argv; output is -o's file as staprun sees it. */
void run_staprun_options(struct session *s, struct vec *argv, const char *output)
{
	if (output) {
		vec_push(argv, "-o");
		vec_push(argv, (char *)output);
	}
	if (s->buffer_mb) {
		vec_push(argv, "-s");
		vec_push(argv, ast_printf("%d", s->buffer_mb));
	}
	if (s->target_cmd) {
		vec_push(argv, "-c");
		vec_push(argv, (char *)s->target_cmd);
	}
	if (s->target_pid) {
		vec_push(argv, "-x");
		vec_push(argv, ast_printf("%ld", s->target_pid));
	}
	if (s->namespaces_pid) {
		vec_push(argv, "-N");
		vec_push(argv, ast_printf("%ld", s->namespaces_pid));
	}
	if (s->rotate) {
		vec_push(argv, "-S");
		vec_push(argv, (char *)s->rotate);
	}
	if (s->monitor) {
		vec_push(argv, "-M");
		vec_push(argv, ast_printf("%d", s->monitor));
	}
	if (s->flight_recorder)
		vec_push(argv, output ? "-D" : "-L");	/* -F: in the background, or detached */
	if (s->verbose > 1)
		vec_push(argv, "-v");
	if (s->suppress_warnings)	/* -w: the script's warnings too */
		vec_push(argv, "-w");
	vec_push(argv, "-C");	/* --color's choice, made once for all of stap's messages */
	vec_push(argv, s->colors ? "always" : "never");
}

/* -G NAME=VALUE: module parameters after the module (runtime/linux/services/global_params.c). */
void run_global_params(struct session *s, struct vec *argv)
{
	for (int i = 0; i < s->global_params.n; i++)
		vec_push(argv, s->global_params.items[i]);
}

/* The signal handler forwards to it, and reaches only file-scope state. */
static volatile sig_atomic_t run_child_pid; /* staprun or stapvm while it runs, else 0 */

/*
 * SIGINT, SIGTERM or SIGHUP sent to stap alone (kill, timeout, systemd, a CI
 * job) is passed on to the child, which ends the session the way Ctrl-C does:
 * end probes, all output, the script's status. A terminal's signal (si_code
 * SI_KERNEL) went to the whole foreground process group, child included:
 * passing it on would count twice (stapvm gives up at the third).
 */
static void run_forward_signal(int sig, siginfo_t *info, void *ucontext)
{
	(void)ucontext;
	if (info && info->si_code == SI_KERNEL)
		return;
	if (run_child_pid > 0)
		kill(run_child_pid, sig);
}

/*
 * Run argv and return its exit status, passing stop signals on. The signals
 * stay blocked from before the fork until the child has installed its own
 * handlers (staprun, stapio and stapvm unblock them after sigaction), so one
 * that comes early is held, never lost and never fatal. The child gets
 * SIGTERM if stap dies, even by SIGKILL: it then stops the session itself
 * (staprun unloads the module, stapvm stops its guest).
 */
static int spawn_child(struct vec *argv)
{
	static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
	/*
	 * Passed on too, never blocked (a child that does not unblock them,
	 * stapvm and its qemu, must not keep them blocked): SIGUSR2 (next
	 * output file) and SIGQUIT (detach), which staprun hands to stapio.
	 */
	static const int other_signals[] = { SIGUSR2, SIGQUIT };
	struct sigaction sa = { .sa_sigaction = run_forward_signal, .sa_flags = SA_SIGINFO };
	sigset_t stop, old;
	pid_t parent = getpid();

	vec_push(argv, NULL);
	sigemptyset(&stop);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaddset(&stop, stop_signals[i]);
	sigemptyset(&sa.sa_mask);
	sigprocmask(SIG_BLOCK, &stop, &old);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaction(stop_signals[i], &sa, NULL);
	for (size_t i = 0; i < sizeof(other_signals) / sizeof(other_signals[0]); i++)
		sigaction(other_signals[i], &sa, NULL);
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "stap: fork: %s\n", strerror(errno));
		sigprocmask(SIG_SETMASK, &old, NULL);
		return 1;
	}
	if (pid == 0) {
		for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
			signal(stop_signals[i], SIG_DFL);
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) < 0 || getppid() != parent)
			_exit(1); /* stap is already gone */
		execv(argv->items[0], (char **)argv->items);
		fprintf(stderr, "stap: cannot run %s: %s\n", (char *)argv->items[0], strerror(errno));
		_exit(127);
	}
	run_child_pid = pid;
	STAPC_MARK2(stap, system__spawn, pid, 0);	/* stap.system.spawn: fork succeeded, ret 0 */
	sigprocmask(SIG_SETMASK, &old, NULL);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			run_child_pid = 0;
			return 1;
		}
	run_child_pid = 0;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

/*
 * spawn_child with the SDT markers stap.system (the command: argv joined by
 * spaces; stapc runs it with fork and execv, not sh -c) and
 * stap.system.return (its exit code as spawn_child gives it).
 */
static int run_child(struct vec *argv)
{
	const char *cmd = "";
	for (int i = 0; i < argv->n; i++)
		cmd = ast_printf("%s%s%s", cmd, i ? " " : "", (const char *)argv->items[i]);
	STAPC_MARK1(stap, system, cmd);
	int rc = spawn_child(argv);
	STAPC_MARK1(stap, system__return, rc);
	return rc;
}

/* Is path a regular file here? */
static bool regular_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The absolute path of the program -c runs (its first word, searched in $PATH), or NULL. */
static const char *target_program(const char *cmd, const char *cwd)
{
	wordexp_t we;
	const char *found = NULL;
	if (wordexp(cmd, &we, WRDE_NOCMD) != 0)
		return NULL; /* shell syntax: the guest's shell runs it */
	if (we.we_wordc > 0) {
		const char *prog = we.we_wordv[0];
		if (strchr(prog, '/')) {
			found = prog[0] == '/' ? ast_intern(prog) : ast_printf("%s/%s", cwd, prog);
		} else {
			const char *path = getenv("PATH") ? getenv("PATH") : "/usr/local/bin:/usr/bin:/bin";
			while (*path && !found) {
				size_t len = strcspn(path, ":");
				const char *cand = ast_printf("%.*s/%s", (int)len, path, prog);
				if (len && cand[0] == '/' && access(cand, X_OK) == 0 && regular_file(cand))
					found = cand;
				path += len + (path[len] == ':');
			}
		}
	}
	wordfree(&we);
	return found && regular_file(found) ? found : NULL;
}

/*
 * stapvm's options that give the guest the host's programs: --file for each
 * program and library the script probes and the -c program (copied into the
 * guest when its kernel cannot share the host's / over 9p), and -C: the
 * command runs in the directory stap runs in, so -c ./prog works.
 */
static void guest_userland_options(struct session *s, struct vec *argv, const char *cwd)
{
	struct vec files = {0};
	if (!s->sysroot) {
		for (int i = 0; i < s->resolved.n; i++) {
			struct resolved_probe *r = s->resolved.items[i];
			struct vec named = {0};
			if (r->provider->user_files)
				r->provider->user_files(r, false, &named);
			for (int k = 0; k < named.n; k++)
				if (((const char *)named.items[k])[0] == '/')
					vec_push(&files, named.items[k]);
		}
	}
	if (s->target_cmd) {
		const char *prog = target_program(s->target_cmd, cwd);
		if (prog)
			vec_push(&files, (void *)prog);
	}
	for (int i = 0; i < files.n; i++) {
		bool seen = false;
		for (int j = 0; j < i && !seen; j++)
			seen = !strcmp(files.items[i], files.items[j]);
		if (!seen && regular_file(files.items[i])) {
			vec_push(argv, "--file");
			vec_push(argv, files.items[i]);
		}
	}
	vec_push(argv, "-C");
	vec_push(argv, (char *)cwd);
}

int run_module(struct session *s)
{
	struct vec argv = {0};
	if (s->remote) {
		char cwd[PATH_MAX];
		const char *output = NULL;
		if (!getcwd(cwd, sizeof(cwd))) {
			fprintf(stderr, "stap: getcwd: %s\n", strerror(errno));
			return 1;
		}
		/* the module and nothing else goes to /work in the guest */
		vec_push(&argv, ast_printf("%s/stapvm", s->bin_dir));
		vec_push(&argv, "-r");
		vec_push(&argv, (char *)s->release);
		if (arch_is_cross(s)) {	/* -a arm64: the arm64 kernel in qemu-system-aarch64 */
			vec_push(&argv, "--arch");
			vec_push(&argv, (char *)s->arch->name);
		}
		vec_push(&argv, "-d");
		vec_push(&argv, (char *)s->tmpdir);
		if (s->verbose)
			vec_push(&argv, "-v");
		guest_userland_options(s, &argv, cwd);
		if (s->output_file) {
			/* the guest writes -o's file in /stapvm/out; stapvm brings it back beside FILE */
			const char *slash = strrchr(s->output_file, '/');
			const char *dir = slash ? ast_printf("%.*s", (int)(slash - s->output_file + (slash == s->output_file)), s->output_file) : ".";
			output = ast_printf("/stapvm/out/%s", slash ? slash + 1 : s->output_file);
			vec_push(&argv, "--outdir");
			vec_push(&argv, (char *)dir);
		}
		vec_push(&argv, "--");
		vec_push(&argv, "staprun");
		run_staprun_options(s, &argv, output);
		vec_push(&argv, ast_printf("/work/%s.ko", s->module_name));
		/* one target: remote_id() 0, remote_uri() the --remote argument */
		vec_push(&argv, ast_printf("%s=0", STP_REMOTE_ID_PARAM));
		vec_push(&argv, ast_printf("%s=%s", STP_REMOTE_URI_PARAM, s->remote));
		run_global_params(s, &argv);
		return run_child(&argv);
	}
	vec_push(&argv, ast_printf("%s/staprun", s->bin_dir));
	run_staprun_options(s, &argv, s->output_file);
	vec_push(&argv, (char *)s->ko_path);
	run_global_params(s, &argv);
	return run_child(&argv);
}

const char *run_pick_guest_release(void)
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
