/* target.c - the -c command: forked at once, held before exec until the module has started. */

#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stapio.h"

static pid_t stapio_target = -1;	/* the command's pid, -1 when none */
static int stapio_release_fd = -1;	/* write end of the pipe the command waits on */
static bool stapio_target_done;		/* the command has exited and been reaped */

/*
 * The child gets its pid (which target() must see) right away, but waits
 * on a pipe before exec'ing /bin/sh -c command: a byte means go, EOF means
 * the session never started and it just leaves.
 */
pid_t stapio_target_spawn(const char *command)
{
	int fds[2];
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) < 0) {
		stapio_err("pipe: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		stapio_err("fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		char go;
		ssize_t n;

		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		setpgid(0, 0);	/* its own group, so stopping it reaches its children too */
		close(fds[1]);
		do {
			n = read(fds[0], &go, 1);
		} while (n < 0 && errno == EINTR);
		if (n != 1)
			_exit(127);
		execl("/bin/sh", "sh", "-c", command, (char *)NULL);
		fprintf(stderr, "stapio: cannot run /bin/sh -c '%s': %s\n", command,
			strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	close(fds[0]);
	stapio_release_fd = fds[1];
	stapio_target = pid;
	stapio_log(1, "command '%s' is pid %d", command, (int)pid);
	return pid;
}

void stapio_target_release(bool go)
{
	if (stapio_release_fd < 0)
		return;
	if (go) {
		ssize_t n;

		do {
			n = write(stapio_release_fd, "g", 1);
		} while (n < 0 && errno == EINTR);
	} else if (stapio_target > 0 && !stapio_target_done) {
		kill(stapio_target, SIGKILL);
	}
	close(stapio_release_fd);
	stapio_release_fd = -1;
}

bool stapio_target_exited(void)
{
	int status;

	if (stapio_target <= 0 || stapio_target_done)
		return stapio_target_done;
	if (waitpid(stapio_target, &status, WNOHANG) == stapio_target) {
		stapio_target_done = true;
		if (WIFEXITED(status))
			stapio_log(1, "command exited with status %d", WEXITSTATUS(status));
		else if (WIFSIGNALED(status))
			stapio_log(1, "command killed by signal %d", WTERMSIG(status));
	}
	return stapio_target_done;
}

/*
 * The session is over but the command still runs (the script called exit()
 * first): ask it to stop, then insist, so no process outlives the session.
 */
void stapio_target_stop(void)
{
	if (stapio_target <= 0 || stapio_target_exited())
		return;
	kill(-stapio_target, SIGTERM);
	for (int i = 0; i < 20 && !stapio_target_exited(); i++)
		usleep(50 * 1000);
	if (!stapio_target_exited()) {
		kill(-stapio_target, SIGKILL);
		waitpid(stapio_target, NULL, 0);
		stapio_target_done = true;
	}
}
