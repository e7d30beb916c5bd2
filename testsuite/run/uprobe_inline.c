/* A -g -O2 program for uprobe_inline.stp: add() is inlined at two call sites and also has an out-of-line copy. */
#include <stdio.h>

__attribute__((noinline)) void sink(long v)
{
	__asm__ volatile("" : : "r"(v) : "memory");
}

static inline __attribute__((always_inline)) long add(long a, long b)
{
	sink(a);
	return a + b;
}

long (*volatile indirect)(long, long) = add; /* its address taken: an out-of-line copy */

int main(int argc, char **argv)
{
	(void)argv;
	long total = add(argc, 10);  /* inlined */
	total += add(total, 20);     /* inlined */
	total += indirect(total, 30); /* the out-of-line copy */
	printf("total %ld\n", total);
	return 0;
}
