/*
 * A program for uprobe_library.stp, built as a dynamic PIE: it calls
 * getenv() in libc.so.6, and bump() changes a global the script reads
 * with @var (a link-time address the load bias moves).
 */
#include <stdio.h>
#include <stdlib.h>

static int counter = 40;

void bump(int by)
{
	counter += by;
}

int main(void)
{
	setenv("STAPC_GREETING", "hello", 1);
	for (int i = 1; i <= 2; i++) {
		bump(i);
		if (!getenv("STAPC_GREETING") || getenv("STAPC_MISSING"))
			return 1;
	}
	return counter == 43 ? 0 : 1;
}
