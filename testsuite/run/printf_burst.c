/* printf_burst: N getppid() calls in a tight loop, each one a probe hit that prints a line; optionally at a nice level. */
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000;

	if (argc > 2 && nice(atoi(argv[2])) == -1)
		return 1;
	for (long i = 0; i < n; i++)
		getppid();
	return 0;
}
