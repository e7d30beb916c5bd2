/* syscall_openat.c - a fixed sequence of openat and close calls for arm64/syscall_openat. */
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	const char *path = "/tmp/stapc_syscall_test";
	long fd;

	fd = syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC, 0640);
	syscall(SYS_close, fd);
	syscall(SYS_openat, AT_FDCWD, "/nonexistent/file", O_RDONLY, 0);
	syscall(SYS_unlinkat, AT_FDCWD, path, 0);
	return 0;
}
