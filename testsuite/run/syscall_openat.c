/* syscall_openat.c - a fixed sequence of file system calls for the syscall tapset tests. */
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	const char *path = "/tmp/stapc_syscall_test";
	long fd;

	/* raw calls: glibc's open() is an openat */
	fd = syscall(SYS_open, path, O_WRONLY | O_CREAT | O_TRUNC, 0640);
	syscall(SYS_write, fd, "hello\n", 6);
	syscall(SYS_close, fd);
	fd = syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC, 0);
	syscall(SYS_close, fd);
	syscall(SYS_openat, AT_FDCWD, "/nonexistent/file", O_RDONLY, 0);
	syscall(SYS_unlink, path);
	return 0;
}
