/* system.c - the commands system() asks for: each runs with /bin/sh -c once the output printed before it is out. */

#define _GNU_SOURCE /* setresuid, setresgid */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stapio.h"

/* A command waiting for the output before it. */
struct stapio_system_cmd {
	uint32_t after_seq;	/* run once records up to this seq are written */
	char *cmd;		/* the command, NUL-terminated */
};

static struct stapio_system_cmd *stapio_pending;	/* in arrival order */
static size_t stapio_npending, stapio_pending_cap;
static pid_t *stapio_children;				/* commands started, not yet reaped */
static size_t stapio_nchildren, stapio_children_cap;

void stapio_become_user(void)
{
	uid_t uid = getuid();
	gid_t gid = getgid();

	if (uid == geteuid() && gid == getegid())
		return;
	if (setresgid(gid, gid, gid) < 0 || setresuid(uid, uid, uid) < 0) {
		fprintf(stderr, "stapio: cannot drop root privileges: %s\n", strerror(errno));
		_exit(126);
	}
}

/* Act as the real user (as_user) or as root again; a no-op when stapio is not setuid. */
static void stapio_act_as(bool as_user, uid_t euid, gid_t egid)
{
	if (getuid() == euid && getgid() == egid)
		return;
	if (as_user ? setegid(getgid()) < 0 || seteuid(getuid()) < 0
		    : seteuid(euid) < 0 || setegid(egid) < 0) {
		fprintf(stderr, "stapio: cannot switch privileges: %s\n", strerror(errno));
		exit(1);
	}
}

int stapio_open_as_user(const char *path, int flags, mode_t mode)
{
	uid_t euid = geteuid();
	gid_t egid = getegid();
	int fd, err;

	stapio_act_as(true, euid, egid);
	fd = open(path, flags, mode);
	err = errno;
	stapio_act_as(false, euid, egid);
	errno = err;
	return fd;
}

int stapio_unlink_as_user(const char *path)
{
	uid_t euid = geteuid();
	gid_t egid = getegid();
	int rc, err;

	stapio_act_as(true, euid, egid);
	rc = unlink(path);
	err = errno;
	stapio_act_as(false, euid, egid);
	errno = err;
	return rc;
}

void stapio_system_queue(uint32_t after_seq, const char *text, uint32_t len)
{
	char *cmd = malloc(len + 1);

	if (!cmd) {
		stapio_err("out of memory for system() command");
		return;
	}
	memcpy(cmd, text, len);
	cmd[len] = '\0';
	if (stapio_npending == stapio_pending_cap) {
		size_t cap = stapio_pending_cap ? stapio_pending_cap * 2 : 8;
		struct stapio_system_cmd *p = realloc(stapio_pending, cap * sizeof(*p));

		if (!p) {
			stapio_err("out of memory for system() command");
			free(cmd);
			return;
		}
		stapio_pending = p;
		stapio_pending_cap = cap;
	}
	stapio_pending[stapio_npending].after_seq = after_seq;
	stapio_pending[stapio_npending].cmd = cmd;
	stapio_npending++;
}

/* Start cmd in the background; its pid joins the children to reap. */
static void stapio_system_start(const char *cmd)
{
	pid_t pid;

	if (stapio_nchildren == stapio_children_cap) {
		size_t cap = stapio_children_cap ? stapio_children_cap * 2 : 8;
		pid_t *p = realloc(stapio_children, cap * sizeof(*p));

		if (!p) {
			stapio_err("out of memory to run system() command '%s'", cmd);
			return;
		}
		stapio_children = p;
		stapio_children_cap = cap;
	}
	pid = fork();
	if (pid < 0) {
		stapio_err("cannot run system() command '%s': %s", cmd, strerror(errno));
		return;
	}
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		stapio_become_user();
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	stapio_log(1, "system(): started '%s' as %d", cmd, (int)pid);
	stapio_children[stapio_nchildren++] = pid;
}

void stapio_system_run(uint32_t written_seq, bool all)
{
	size_t done = 0;

	/* in order: a command waits for the output before it, and so do the ones after it */
	while (done < stapio_npending &&
	       (all || (int32_t)(written_seq - stapio_pending[done].after_seq) >= 0)) {
		stapio_system_start(stapio_pending[done].cmd);
		free(stapio_pending[done].cmd);
		done++;
	}
	memmove(stapio_pending, stapio_pending + done, (stapio_npending - done) * sizeof(*stapio_pending));
	stapio_npending -= done;
}

void stapio_system_reap(bool wait_all)
{
	size_t i = 0;

	while (i < stapio_nchildren) {
		pid_t rc = waitpid(stapio_children[i], NULL, wait_all ? 0 : WNOHANG);

		if (rc < 0 && errno == EINTR)
			continue;
		if (rc == 0) {
			i++;
			continue;
		}
		stapio_children[i] = stapio_children[--stapio_nchildren];
	}
	if (wait_all) {
		free(stapio_children);
		stapio_children = NULL;
		stapio_nchildren = stapio_children_cap = 0;
		free(stapio_pending);
		stapio_pending = NULL;
		stapio_npending = stapio_pending_cap = 0;
	}
}
