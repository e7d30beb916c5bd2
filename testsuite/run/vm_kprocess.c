/* A known memory and process workload: an anonymous mapping written and
 * unmapped, the heap grown with brk, a fork whose parent then writes to a
 * copy-on-write page, and a child exiting with status 5. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static char cow_page[4096] __attribute__((aligned(4096))) = { 1 };

int main(void)
{
	char *p = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	memset(p, 7, 65536);
	munmap(p, 65536);
	if (sbrk(1 << 20) == (void *)-1)
		return 1;
	pid_t child = fork();
	if (child == 0)
		_exit(5);
	cow_page[0] = 2;
	waitpid(child, NULL, 0);
	return 0;
}
