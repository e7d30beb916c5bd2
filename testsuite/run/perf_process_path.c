/*
 * A program for perf_process_path.stp: waits for /tmp/perf_process_path.go,
 * then makes 64 page faults, one a page, between before() and after().
 * Its argument says whether it was started before the session.
 */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

__attribute__((noinline)) void before(int started_early) { __asm__ volatile("" : : "r"(started_early)); }
__attribute__((noinline)) void after(void) { __asm__ volatile(""); }

int main(int argc, char **argv)
{
	char *p = mmap(0, 64 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED || argc < 2)
		return 1;
	while (access("/tmp/perf_process_path.go", F_OK))
		usleep(10000);
	before(atoi(argv[1]));
	for (int i = 0; i < 64; i++)
		p[i * 4096] = 1;
	after();
	return 0;
}
