/*
 * session.c - what the stap process does for a session around the passes:
 * its temporary directory (removed at exit unless -k), the stop signals
 * of passes 1-4 and the process group of a child (the kernel build) they
 * stop. The process-wide part (atexit's list, the signal handler's state)
 * is the one struct below.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "session.h"

void session_remove_tree(const char *path)
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
				session_remove_tree(sub);
			else
				unlink(sub);
		}
		closedir(d);
	}
	rmdir(path);
}

/*
 * What the process's handlers see: atexit runs once per process, whatever
 * number of scripts it compiled, and a signal handler can reach only
 * file-scope state; so this is the process's, not a session's.
 */
static struct {
	struct vec cleanup_sessions;          /* of struct session *: tmpdirs to remove at exit */
	volatile sig_atomic_t stop_signal;    /* the stop signal caught in passes 1-4, or 0 */
	volatile sig_atomic_t child_pgid;     /* the process group of a running child, or 0 */
} process;

static void cleanup_tmpdirs(void)
{
	for (int i = 0; i < process.cleanup_sessions.n; i++) {
		struct session *s = process.cleanup_sessions.items[i];
		if (!s->tmpdir)
			continue;
		if (s->keep_tmpdir)
			fprintf(stderr, "Keeping temporary directory \"%s\"\n", s->tmpdir);
		else
			session_remove_tree(s->tmpdir);
	}
}

const char *session_tmpdir(struct session *s)
{
	if (s->tmpdir)
		return s->tmpdir;
	const char *base = s->tmpdir_base ? s->tmpdir_base : getenv("TMPDIR");
	char *dir = ast_printf("%s/stapXXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(dir)) {
		fprintf(stderr, "stap: cannot create a temporary directory %s: %s\n", dir, strerror(errno));
		return NULL;
	}
	s->tmpdir = dir;
	if (!process.cleanup_sessions.n)
		atexit(cleanup_tmpdirs);
	vec_push(&process.cleanup_sessions, s);
	return dir;
}


static void on_stop_signal(int sig)
{
	process.stop_signal = sig;
	if (process.child_pgid > 0)
		kill(-process.child_pgid, SIGTERM);	/* async-signal-safe */
}

int session_stop_signal(void)
{
	return process.stop_signal;
}

void session_watch_child(pid_t pgid)
{
	process.child_pgid = pgid;
	/* a signal that came between fork and here found no group to stop */
	if (pgid > 0 && process.stop_signal)
		kill(-pgid, SIGTERM);
}

bool session_wait_child(pid_t pid, int *status)
{
	setpgid(pid, pid);	/* the child does it too: whichever of the two runs first */
	session_watch_child(pid);
	bool ok = true;
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR) {
			ok = false;
			break;
		}
	session_watch_child(0);
	return ok;
}

void session_exec_logged(char *const argv[], const char *log)
{
	int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
		close(fd);
	}
	execvp(argv[0], argv);
	fprintf(stderr, "stap: cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

void session_catch_stop_signals(void)
{
	/* SIGPIPE too: a closed stdout ends stap through passes_run, which cleans up, not by death */
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
	struct sigaction sa = { .sa_handler = on_stop_signal };	/* no SA_RESTART */
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old;
		/* a signal stap was started with ignored (nohup, a background job) stays ignored */
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
}

/* ---- --privilege levels by name (the pass-2 check is elaborate/privilege.c) ---- */

static const char *const level_names[] = {
	[PRIV_STAPDEV] = "stapdev",
	[PRIV_STAPSYS] = "stapsys",
	[PRIV_STAPUSR] = "stapusr",
};

const char *privilege_name(int level)
{
	return level >= 0 && level <= PRIV_STAPUSR ? level_names[level] : "?";
}

bool privilege_parse(const char *text, int *level)
{
	for (int i = 0; i <= PRIV_STAPUSR; i++) {
		if (!strcmp(text, level_names[i])) {
			*level = i;
			return true;
		}
	}
	return false;
}
