/* sdt_marker.c - a program for arm64/sdt_marker with SDT markers written by hand (sdt_note.h). */
#include "sdt_note.h"

/* Set by the kernel while a probe is on the "guarded" marker. */
unsigned short test_guarded_semaphore __attribute__((section(".probes"), used));
long counter = 100;

int main(void)
{
	for (int i = 0; i < 3; i++) {
		long square = (long)i * i;

		MARK2(test, pair, "0", -4, i, 8, square);
		counter++;
		MARK1_MEMORY(test, global, 8, counter);
		if (test_guarded_semaphore)
			MARK1(test, guarded, "test_guarded_semaphore", -4, -i);
	}
	MARK1(test, constant, "0", -4, -7);
	return 0;
}
