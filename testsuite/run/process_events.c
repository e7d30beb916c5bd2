/* A program for process_events.stp: two threads, then a child process. */
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

static void *worker(void *arg)
{
	return arg;
}

int main(void)
{
	pthread_t threads[2];
	pid_t child;

	for (int i = 0; i < 2; i++)
		pthread_create(&threads[i], NULL, worker, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(threads[i], NULL);
	child = fork();
	if (child == 0)
		_exit(0);
	waitpid(child, NULL, 0);
	return 0;
}
