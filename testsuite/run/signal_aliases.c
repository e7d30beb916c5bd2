/* A known signal workload: install a SIGUSR1 handler, block and unblock
 * SIGUSR2 around a look at the pending set, then kill(2), tkill(2) and
 * tgkill(2) SIGUSR1 to itself (each delivered to the handler). */
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile int caught;

static void on_usr1(int sig)
{
	(void)sig;
	caught++;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	sigset_t set, pending;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	if (sigaction(SIGUSR1, &sa, NULL))
		return 1;
	sigprocmask(SIG_BLOCK, &set, NULL);
	sigpending(&pending);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	kill(getpid(), SIGUSR1);
	syscall(SYS_tkill, getpid(), SIGUSR1);
	syscall(SYS_tgkill, getpid(), getpid(), SIGUSR1);
	return caught == 3 ? 0 : 2;
}
