/* syscall_argstr_more.c - one call of each kind the second batch of syscalls.tbl rows decodes, with known arguments. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/time.h>

int main(void)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct rlimit lim;
	struct rusage ru;
	struct itimerval it;
	int ep, fds[2];
	char *page;

	syscall(SYS_getrusage, RUSAGE_CHILDREN, &ru);
	syscall(SYS_setpriority, PRIO_PROCESS, 0, 5);
	syscall(SYS_getitimer, ITIMER_REAL, &it);
	syscall(SYS_prlimit64, 0, RLIMIT_NOFILE, NULL, &lim);
	ep = syscall(SYS_epoll_create1, 0);
	syscall(SYS_pipe2, fds, 0);
	syscall(SYS_epoll_ctl, ep, EPOLL_CTL_ADD, fds[0], &ev);
	page = (char *)syscall(SYS_mmap, NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	syscall(SYS_madvise, page, 4096, MADV_DONTNEED);
	syscall(SYS_msync, page, 4096, MS_ASYNC | MS_INVALIDATE);
	syscall(SYS_sched_getscheduler, 0);
	syscall(SYS_renameat2, AT_FDCWD, "/nonexistent/a", AT_FDCWD, "/nonexistent/b", RENAME_NOREPLACE);
	syscall(SYS_fadvise64, fds[0], 0, 0, POSIX_FADV_SEQUENTIAL);
	return 0;
}
