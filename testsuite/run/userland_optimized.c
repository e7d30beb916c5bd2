/* A -g -O2 dynamic PIE for userland_optimized.stp, run from the host's userland in the guest. */
#include <stdio.h>

/* Its arguments live in registers only: DWARF location lists find them. */
__attribute__((noinline)) long scale(long x, long factor)
{
	return x * factor + 1;
}

int main(int argc, char **argv)
{
	long total = 0;

	(void)argv;
	for (long i = 1; i <= 3; i++)
		total += scale(i, argc + 9);
	fprintf(stderr, "total %ld\n", total); /* stderr: not interleaved with the probes' output */
	return 0;
}
