/* combined.c - for arm64/combined: work() called from main, which opens /etc/passwd. */
#include <fcntl.h>
#include <unistd.h>

__attribute__((noinline)) int work(int a, int b)
{
	return a * b + 1;
}

int main(void)
{
	char path[] = "/etc/passwd";	/* on the stack: a present page when syscall.openat reads it */
	int fd = open(path, O_RDONLY);

	return work(6, 7) == 43 && fd >= 0 && close(fd) == 0 ? 0 : 1;
}
