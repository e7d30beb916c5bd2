/* A known scheduler workload: two children (one exits, one is killed by a
 * signal while it sleeps), waits for both, then runs and sleeps so the
 * scheduler ticks and switches in its context. */
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int main(void)
{
	pid_t a = fork();
	if (a == 0)
		_exit(3);
	waitpid(a, NULL, 0);
	pid_t b = fork();
	if (b == 0) {
		for (;;)
			pause();
	}
	usleep(20000);
	kill(b, SIGUSR1);
	waitpid(b, NULL, 0);
	long start = now_ms();
	while (now_ms() - start < 40)
		;
	usleep(10000);
	return 0;
}
