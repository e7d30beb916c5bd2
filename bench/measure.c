/*
 * measure.c - run one host command for bench/run and report what it cost.
 *
 *   measure COMMAND [ARGS...]
 *
 * Runs COMMAND with its stdout thrown away and prints "STATUS MS KIB CPUMS":
 * its exit status, its wall time in milliseconds (CLOCK_MONOTONIC), its
 * peak resident set in KiB (wait4's ru_maxrss) and the CPU time (user +
 * system, ms) of it and every descendant it waited for (RUSAGE_CHILDREN:
 * make's compilers included), which a loaded host disturbs far less than
 * wall time. A small C program rather
 * than Python's own fork: a child's peak RSS includes what the process had
 * before exec, and a forked Python interpreter alone weighs 15 MB.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	struct rusage ru;
	double start;
	int status;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: measure COMMAND [ARGS...]\n");
		return 2;
	}
	start = now_ms();
	pid = fork();
	if (pid < 0) {
		perror("measure: fork");
		return 1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		execvp(argv[1], argv + 1);
		perror("measure: exec");
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("measure: wait4");
		return 1;
	}
	double wall = now_ms() - start;
	struct rusage all;

	getrusage(RUSAGE_CHILDREN, &all);
	printf("%d %.2f %ld %.2f\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
	       wall, ru.ru_maxrss,
	       (all.ru_utime.tv_sec + all.ru_stime.tv_sec) * 1e3 +
		       (all.ru_utime.tv_usec + all.ru_stime.tv_usec) / 1e3);
	return 0;
}
