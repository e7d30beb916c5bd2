/* target.c - the -c command: split like a shell, forked at once, held before exec until the module has started. */

#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wordexp.h>

#include "stapio.h"

static pid_t stapio_target = -1;	/* the command's pid, -1 when none */
static int stapio_release_fd = -1;	/* write end of the pipe the command waits on */
static bool stapio_target_done;		/* the command has exited and been reaped */

/*
 * Words that only a shell understands at the start of a command: keywords,
 * and builtins that have no program of their name (or whose program could
 * not do their job, like cd or exec).
 */
static const char *const stapio_shell_words[] = {
	"!", "{", "}", "[[", "case", "for", "if", "select", "time", "until", "while", "function",
	".", ":", "alias", "break", "builtin", "cd", "command", "continue", "eval", "exec", "exit",
	"export", "local", "readonly", "return", "set", "shift", "source", "trap", "ulimit",
	"umask", "unset", "wait",
};

/* Whether word is NAME=VALUE, a variable assignment before the command. */
static bool stapio_is_assignment(const char *word)
{
	const char *p = word;

	if (!(*p == '_' || (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z')))
		return false;
	while (*p == '_' || (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
	       (*p >= '0' && *p <= '9'))
		p++;
	return *p == '=';
}

/*
 * Split command like a shell does (wordexp: quotes, backslashes, $VAR and
 * ${VAR}, ~, globs; no command substitution) into *words. Returns 1 when
 * words is the argv to exec directly, 0 when the command needs a shell
 * (a pipe, redirection, ;, &&, (...), $(...), `...`, an assignment before
 * the command, a keyword or builtin), -1 after a message when it cannot be
 * parsed at all.
 */
static int stapio_split_command(const char *command, wordexp_t *words)
{
	int rc = wordexp(command, words, WRDE_NOCMD);

	switch (rc) {
	case 0:
		break;
	case WRDE_BADCHAR:	/* | & ; < > ( ) { } or a newline, unquoted */
	case WRDE_CMDSUB:	/* $(...) or `...` */
		return 0;
	case WRDE_SYNTAX:
		stapio_err("-c '%s': syntax error (an unmatched quote?)", command);
		return -1;
	default:
		stapio_err("-c '%s': cannot split the command (wordexp error %d)", command, rc);
		if (rc == WRDE_NOSPACE)
			wordfree(words);
		return -1;
	}
	if (words->we_wordc == 0) {
		stapio_err("-c '%s': empty command", command);
		wordfree(words);
		return -1;
	}
	bool shell = stapio_is_assignment(words->we_wordv[0]);
	for (size_t i = 0; !shell && i < sizeof(stapio_shell_words) / sizeof(stapio_shell_words[0]); i++)
		shell = !strcmp(words->we_wordv[0], stapio_shell_words[i]);
	if (shell) {
		wordfree(words);
		return 0;
	}
	return 1;
}

/*
 * The child gets its pid (which target() must see) right away, but waits
 * on a pipe before exec'ing the command: a byte means go, EOF means the
 * session never started and it just leaves. The command runs as SystemTap
 * runs it: split into words and exec'd directly, so target() is the command
 * itself and it execs once; only a command that needs a shell runs as
 * /bin/sh -c command (then target() is that shell).
 */
pid_t stapio_target_spawn(const char *command)
{
	wordexp_t words;
	int direct = stapio_split_command(command, &words);
	int fds[2];
	pid_t pid;

	if (direct < 0)
		return -1;
	if (pipe2(fds, O_CLOEXEC) < 0) {
		stapio_err("pipe: %s", strerror(errno));
		if (direct)
			wordfree(&words);
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		stapio_err("fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		if (direct)
			wordfree(&words);
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
		stapio_become_user();
		if (direct) {
			execvp(words.we_wordv[0], words.we_wordv);
			fprintf(stderr, "stapio: cannot run '%s': %s\n", words.we_wordv[0],
				strerror(errno));
			_exit(errno == ENOENT ? 127 : 126);
		}
		execl("/bin/sh", "sh", "-c", command, (char *)NULL);
		fprintf(stderr, "stapio: cannot run /bin/sh -c '%s': %s\n", command,
			strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	close(fds[0]);
	stapio_release_fd = fds[1];
	stapio_target = pid;
	stapio_log(1, "command '%s' is pid %d (%s)", command, (int)pid,
		   direct ? "exec'd directly" : "through /bin/sh -c");
	if (direct)
		wordfree(&words);
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
