/*
 * Writes and reads of two globals for process.data: counter written 5 times by main and 3 by a
 * thread, other written once and read once. With an argument (a FIFO), it first waits for a line
 * on it, so the watchpoints are set while it runs (process_data_running).
 */
#include <pthread.h>
#include <stdio.h>

long counter;
int other;

static void *worker(void *arg)
{
	for (int i = 0; i < 3; i++)
		counter = 100 + i;
	return arg;
}

int main(int argc, char **argv)
{
	pthread_t t;
	char line[8];

	if (argc > 1) {
		FILE *f = fopen(argv[1], "r");

		if (!f || !fgets(line, sizeof(line), f))
			return 2;
		fclose(f);
	}
	for (int i = 0; i < 5; i++)
		counter = i;
	if (pthread_create(&t, NULL, worker, NULL) || pthread_join(t, NULL))
		return 3;
	other = 7;
	return other == 7 ? 0 : 1;
}
