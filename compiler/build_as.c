/*
 * build_as.c - --build-as=USER: passes 1-4 run in a child that dropped
 * root for USER (its groups, gid and uid, so no capability is left and the
 * tools it runs, make and gcc, run as USER too), and write every file as
 * USER: the temporary directory, the module, the cache (under USER's
 * HOME). The child hands its module's path and its temporary directory to
 * stap, still root, over a pipe; stap loads the module (pass 5) and
 * removes the directory at exit. A stop signal to stap reaches the child
 * (session_wait_child puts it in a process group stap stops).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "build_as.h"
#include "diag.h"

bool build_as_check(struct session *s)
{
	if (!s->build_as)
		return true;
	if (geteuid() != 0) {
		fprintf(stderr, "stap: --build-as=%s needs root: passes 1-4 run as that user and pass 5 loads the "
			"module as root (run stap as root, or leave the option out)\n", s->build_as);
		return false;
	}
	if (!getpwnam(s->build_as)) {
		fprintf(stderr, "stap: --build-as: no user '%s' on this machine\n", s->build_as);
		return false;
	}
	if (s->remote || s->remotes.n || s->use_server) {
		fprintf(stderr, "stap: --build-as applies to a module built and loaded here, not with %s\n",
			s->use_server ? "--use-server" : "--remote");
		return false;
	}
	return true;
}

/* In the child: become pw for good, with its HOME; false after a message. */
static bool become(const struct passwd *pw)
{
	if (initgroups(pw->pw_name, pw->pw_gid) != 0 || setgid(pw->pw_gid) != 0 || setuid(pw->pw_uid) != 0) {
		fprintf(stderr, "stap: --build-as: cannot become user '%s': %s\n", pw->pw_name, strerror(errno));
		return false;
	}
	if (pw->pw_uid != 0 && (setuid(0) == 0 || seteuid(0) == 0)) {
		fprintf(stderr, "stap: --build-as: still able to become root after switching to '%s'\n", pw->pw_name);
		return false;
	}
	setenv("HOME", pw->pw_dir, 1);
	setenv("USER", pw->pw_name, 1);
	setenv("LOGNAME", pw->pw_name, 1);
	unsetenv("XDG_CACHE_HOME");	/* root's: the cache goes under USER's HOME */
	return true;
}

/* The child's report: the module's path, its name and the temporary directory, each NUL-terminated. */
static void child_report(struct session *s, int fd)
{
	const char *parts[] = { s->ko_path, s->module_name, s->tmpdir ? s->tmpdir : "" };
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		size_t len = strlen(parts[i]) + 1;
		if (write(fd, parts[i], len) != (ssize_t)len)
			exit(STAP_EXIT_FAILURE);
	}
	s->tmpdir = NULL;	/* stap removes it, after pass 5 */
}

static _Noreturn void child(struct session *s, const struct passwd *pw, int fd, int (*compile)(struct session *s))
{
	setpgid(0, 0);
	if (!become(pw))
		exit(STAP_EXIT_FAILURE);
	int rc = compile(s);
	if (rc == BUILD_AS_CONTINUE) {
		child_report(s, fd);
		rc = STAP_EXIT_OK;
	}
	close(fd);
	exit(rc);	/* atexit: the temporary directory, unless handed over */
}

/* The child's report, read to the end; false if it is not three strings. */
static bool read_report(int fd, const char *parts[3])
{
	size_t cap = 4096, len = 0;
	char *buf = ast_alloc(cap);
	ssize_t n;
	while ((n = read(fd, buf + len, cap - len - 1)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return false;
		}
		len += (size_t)n;
		if (len + 1 == cap) {
			char *bigger = ast_alloc(cap * 2);
			memcpy(bigger, buf, len);
			buf = bigger;
			cap *= 2;
		}
	}
	buf[len] = 0;
	const char *p = buf;
	for (int i = 0; i < 3; i++) {
		if (p >= buf + len)
			return false;
		parts[i] = p;
		p += strlen(p) + 1;
	}
	return true;
}

int build_as_compile(struct session *s, int (*compile)(struct session *s))
{
	const struct passwd *pw = getpwnam(s->build_as);
	int fds[2];
	if (!pw || pipe(fds) != 0) {
		fprintf(stderr, "stap: --build-as: %s\n", pw ? strerror(errno) : "the user is gone");
		return STAP_EXIT_FAILURE;
	}
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "stap: --build-as: fork: %s\n", strerror(errno));
		return STAP_EXIT_FAILURE;
	}
	if (pid == 0) {
		close(fds[0]);
		child(s, pw, fds[1], compile);
	}
	close(fds[1]);
	setpgid(pid, pid);
	session_watch_child(pid);	/* a stop signal meanwhile stops the child's passes */
	const char *parts[3];
	bool reported = read_report(fds[0], parts);
	close(fds[0]);
	int status;
	if (!session_wait_child(pid, &status) || !WIFEXITED(status))
		return STAP_EXIT_FAILURE;
	if (WEXITSTATUS(status) != 0 || s->last_pass <= 4)
		return WEXITSTATUS(status);
	if (!reported) {
		fprintf(stderr, "stap: --build-as: the build as '%s' gave no module\n", s->build_as);
		return STAP_EXIT_FAILURE;
	}
	s->ko_path = parts[0];
	s->module_name = parts[1];
	if (*parts[2])
		session_adopt_tmpdir(s, parts[2]);
	return BUILD_AS_CONTINUE;
}
