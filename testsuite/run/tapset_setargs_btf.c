/* The probed program of run/tapset_setargs: each call prints the arguments it received,
   which the script rewrote at the function's entry. */
#include <stdio.h>

__attribute__((noinline)) void stp_args(int a, unsigned int b, long c, unsigned long d, long long e, const char *s)
{
	printf("a=%d b=%u c=%ld d=%lu e=%lld s=%s\n", a, b, c, d, e, s);
}

__attribute__((noinline)) void stp_fill(char *buf)
{
	printf("fill sees: %s\n", buf);
}

int main(void)
{
	char buf[32] = "original text";

	stp_args(1, 2, 3, 4, 5, "six");
	stp_args(1, 2, 3, 4, 5, "six");
	stp_args(1, 2, 3, 4, 5, "six");
	goto stp_label;	/* a label for a .label probe */
stp_label:
	stp_fill(buf);
	printf("after: %s\n", buf);
	return 0;
}
