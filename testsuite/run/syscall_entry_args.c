/* syscall_entry_args.c - system calls on fixed descriptors (40, 41, 42; 12345 to 12347 bad) for @entry in syscall returns. */
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	int sv[2];
	char buf[16];
	int fd = open("/dev/null", O_WRONLY);

	dup2(fd, 40);
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	dup2(sv[0], 41);
	dup2(sv[1], 42);
	syscall(SYS_write, 40, "hello", 5);
	syscall(SYS_sendto, 41, "ping!", 5, 0, 0, 0);
	syscall(SYS_recvfrom, 42, buf, sizeof(buf), 0, 0, 0);
	syscall(SYS_openat, AT_FDCWD, "/nonexistent/entry", O_RDONLY, 0);
	syscall(SYS_close, 12345);
	syscall(SYS_dup, 12346);
	syscall(SYS_fcntl, 12347, F_GETFD);
	return 0;
}
