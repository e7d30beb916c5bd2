/* kernel_backtrace.c - one openat of /etc/passwd, for arm64/kernel_backtrace. */
#include <fcntl.h>
#include <unistd.h>

int main(void)
{
	int fd = open("/etc/passwd", O_RDONLY);

	return fd >= 0 && close(fd) == 0 ? 0 : 1;
}
