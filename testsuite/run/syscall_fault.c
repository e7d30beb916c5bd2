/* syscall_fault.c - system calls whose user pointers are bad, and an execve that fails. */
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	char *argv[] = {"prog", "-x", "a\"b", NULL};
	char *envp[] = {"A=1", "B=2", NULL};

	syscall(SYS_openat, AT_FDCWD, (char *)1, O_RDONLY, 0);
	syscall(SYS_openat, AT_FDCWD, (char *)0, O_WRONLY | O_CREAT | O_EXCL, 0600);
	syscall(SYS_execve, "/nonexistent/prog", argv, envp);
	/* a file that exists: the kernel may open it before reading argv (6.12 does; 6.1 reads argv first) */
	syscall(SYS_execve, "/bin/sh", (char **)8, (char **)0);
	return 0;
}
