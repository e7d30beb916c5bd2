/*
 * A program for uprobe_lines_plt.stp, built as a dynamic PIE so it calls
 * getenv() and getpid() through its PLT. Line numbers matter: the script
 * probes lines of sum() by number, by range, relative to its declaration
 * (line 13) and every line (':*'), the label 'done', and sum() as a callee
 * of main (sum(3)), not of sum_one (sum(1)).
 */
#include <stdlib.h>
#include <unistd.h>

volatile int sink;

int sum(int n)
{
	int total = 0;
	for (int i = 1; i <= n; i++)
		total += i;
	if (total > 100)
		goto done;
	total = -total;
done:
	sink = total;
	return total;
}

int sum_one(void)
{
	return sum(1);
}

int main(void)
{
	sink = getenv("STAPC_NONE") != NULL;
	sink = (int)getpid();
	return sum_one() == -1 && sum(3) == -6 ? 0 : 1;
}
