/*
 * A program for process_end_race.stp: children whose threads all exit at
 * the same moment, so that several of them reach the exit tracepoint after
 * the process's last live thread is gone.
 */
#include <pthread.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHILDREN 24
#define THREADS 4

static void *sleeper(void *arg)
{
	for (;;)
		pause();
	return arg;
}

static void *quitter(void *arg)
{
	return arg;
}

/* Even children: exit() while every thread sleeps, so exit_group kills them all at once. */
static void kill_all(void)
{
	pthread_t t;

	for (int i = 0; i < THREADS; i++)
		pthread_create(&t, NULL, sleeper, NULL);
	exit(0);
}

/* Odd children: join threads that are still between waking the joiner and their exit tracepoint, then return. */
static void join_all(void)
{
	pthread_t t[THREADS];

	for (int i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, quitter, NULL);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	exit(0);
}

int main(void)
{
	for (int i = 0; i < CHILDREN; i++) {
		pid_t child = fork();

		if (child == 0) {
			if (i % 2)
				join_all();
			kill_all();
		}
	}
	while (wait(NULL) > 0)
		;
	return 0;
}
