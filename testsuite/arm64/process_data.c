/*
 * process_data.c - for arm64/process_data: counter written 5 times by main and 3 times by a
 * thread, other written once and read once, the byte flag written twice.
 */
#include <pthread.h>

long counter;
int other;
char flag;

static void *worker(void *arg)
{
	for (int i = 0; i < 3; i++)
		counter = 100 + i;
	return arg;
}

int main(void)
{
	pthread_t t;

	for (int i = 0; i < 5; i++)
		counter = i;
	if (pthread_create(&t, NULL, worker, NULL) || pthread_join(t, NULL))
		return 3;
	other = 7;
	flag = 1;
	flag = 2;
	return other == 7 && flag == 2 ? 0 : 1;
}
