/*
 * A program for statement_nearest.stp; line numbers matter. work() has
 * code on lines 12, 15, 17 and 18 (its closing brace); lines 13, 14 and 16
 * have none.
 */
#include <unistd.h>

volatile int sink;

int work(int n)
{
	int total = n;

	/* nothing here */
	total += getpid() > 0;

	sink = total;
}

int main(void)
{
	work(3);
	return 0;
}
