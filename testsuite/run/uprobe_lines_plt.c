/*
 * A program for uprobe_lines_plt.stp, built as a dynamic PIE so it calls
 * getenv() and getpid() through its PLT. Line numbers matter: the script
 * probes lines of sum() by number, by range, relative to its declaration
 * (line 12) and every line (':*'), and the label 'done'.
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

int main(void)
{
	sink = getenv("STAPC_NONE") != NULL;
	sink = (int)getpid();
	return sum(3) == -6 ? 0 : 1;
}
