/*
 * getppid_loop.c - the benchmark's workload, run in the guest (built static).
 *
 *   getppid_loop N [PID]   make N getppid() system calls and print
 *                          "calls N ns T pid P", T the guest clock time
 *                          they took; with PID, also "cpu_at_end C", the
 *                          CPU time (ns) of every thread of process PID
 *                          right after the last call
 *   getppid_loop --cpu PID print that CPU time alone
 *   getppid_loop --now     print the guest clock (ns)
 *
 * Under QEMU's -icount shift=0 the guest clock advances one nanosecond per
 * guest instruction, so ns are instructions. The CPU time comes from
 * /proc/PID/task/TID/schedstat (its first field, ns on the CPU), which
 * counts the same virtual nanoseconds: the bench adds what stapio spends
 * draining the output after the loop to what the loop itself took.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Sum of the on-CPU time of every thread of pid, in ns; -1 if it is gone. */
static long long process_cpu_ns(const char *pid)
{
	char path[256];
	long long sum = 0;
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%s/task", pid);
	d = opendir(path);
	if (!d)
		return -1;
	while ((e = readdir(d)) != NULL) {
		long long ns;
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/task/%s/schedstat", pid, e->d_name);
		f = fopen(path, "r");
		if (f && fscanf(f, "%lld", &ns) == 1)
			sum += ns;
		if (f)
			fclose(f);
	}
	closedir(d);
	return sum;
}

int main(int argc, char **argv)
{
	long long t0, t1, cpu = 0;
	long n, i;

	if (argc == 2 && !strcmp(argv[1], "--now")) {
		printf("%lld\n", now_ns());
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "--cpu")) {
		printf("%lld\n", process_cpu_ns(argv[2]));
		return 0;
	}
	if (argc < 2 || argc > 3 || (n = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: getppid_loop N [PID] | getppid_loop --cpu PID | getppid_loop --now\n");
		return 2;
	}
	t0 = now_ns();
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	t1 = now_ns();
	if (argc == 3)
		cpu = process_cpu_ns(argv[2]);
	printf("calls %ld ns %lld pid %d", n, t1 - t0, (int)getpid());
	if (argc == 3)
		printf(" cpu_at_end %lld", cpu);
	printf("\n");
	return 0;
}
