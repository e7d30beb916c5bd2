/* A known workload for tty.*, kprocess.exec*, the signal leftovers and proc_mem_*: a pty
 * pair (resize, write, poll, read, close), SIGUSR1 ignored then handled, SIGUSR2 blocked,
 * 4 MiB touched between two getppid() marks, a child that execs this program again
 * ("child": it exits 7) and one that execs a missing file, and a child whose signal frame
 * cannot be written (an alternate stack in unmapped memory): the kernel forces SIGSEGV. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

static volatile int caught;

static void on_signal(int sig)
{
	(void)sig;
	caught++;
}

static int pty_work(void)
{
	struct winsize ws = { .ws_row = 24, .ws_col = 80, .ws_xpixel = 640, .ws_ypixel = 480 };
	char buf[16];
	int master = posix_openpt(O_RDWR | O_NOCTTY), slave;
	struct pollfd pfd;
	if (master < 0 || grantpt(master) || unlockpt(master))
		return 1;
	slave = open(ptsname(master), O_RDWR | O_NOCTTY);
	if (slave < 0 || ioctl(slave, TIOCSWINSZ, &ws))
		return 2;
	if (write(master, "hello\n", 6) != 6)
		return 3;
	pfd.fd = slave;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 5000) != 1 || read(slave, buf, sizeof(buf)) != 6)
		return 4;
	close(slave);
	close(master);
	return 0;
}

static int bad_frame_child(void)
{
	stack_t ss = { .ss_size = 65536 };
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_ONSTACK };
	pid_t pid = fork();
	int status;
	if (pid == 0) {
		ss.ss_sp = mmap(NULL, 65536, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (ss.ss_sp == MAP_FAILED || sigaltstack(&ss, NULL) || sigaction(SIGUSR2, &sa, NULL))
			_exit(1);
		kill(getpid(), SIGUSR2);
		_exit(2);
	}
	waitpid(pid, &status, 0);
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV ? 0 : 1;
}

static int exec_child(const char *path, char *self)
{
	char file[64], arg[8];
	char *argv[] = { self, arg, NULL };
	pid_t pid = fork();
	int status;
	if (pid == 0) {
		/* on the child's stack: its pages are present, so the probe can read them */
		strcpy(file, path);
		strcpy(arg, "child");
		execv(file, argv);
		_exit(9);
	}
	waitpid(pid, &status, 0);
	return WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };
	sigset_t set;
	size_t size = 4 << 20;
	char *mem;
	if (argc > 1)
		return strcmp(argv[1], "child") == 0 ? 7 : 1;
	if (pty_work())
		return 1;
	signal(SIGUSR1, SIG_IGN);
	kill(getpid(), SIGUSR1);
	if (sigaction(SIGUSR1, &sa, NULL))
		return 2;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	sigprocmask(SIG_BLOCK, &set, NULL);
	kill(getpid(), SIGUSR1);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	syscall(SYS_getppid);
	mem = malloc(size);
	if (!mem)
		return 3;
	memset(mem, 1, size);
	syscall(SYS_getppid);
	if (exec_child("/proc/self/exe", argv[0]) != 7 || exec_child("/nonexistent", argv[0]) != 9)
		return 4;
	if (bad_frame_child())
		return 5;
	return caught == 1 ? 0 : 6;
}
