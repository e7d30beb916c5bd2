/* A program for perf_counter.stp: 64 page faults between before() and after(), one a page. */
#include <sys/mman.h>

__attribute__((noinline)) void before(void) { __asm__ volatile(""); }
__attribute__((noinline)) void after(void) { __asm__ volatile(""); }

int main(void)
{
	char *p = mmap(0, 64 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return 1;
	before();
	for (int i = 0; i < 64; i++)
		p[i * 4096] = 1;
	after();
	return 0;
}
