/*
 * A program for process_target_points.stp, a dynamic PIE (getppid() goes
 * through its PLT) with an SDT marker written by hand (sdt_note.h). Run as
 * "target" it marks 0, 1, 2; as anything else it marks 100, 101, ... every
 * 50 ms for 20 s: a process of the same program that is not the target.
 */
#include "sdt_note.h"

#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "target")) {
		usleep(500000); /* the other process is marking meanwhile */
		for (long i = 0; i < 3; i++) {
			MARK1(test, step, "0", 8, i);
			getppid();
		}
		return 0;
	}
	for (long i = 100; i < 500; i++) {
		MARK1(test, step, "0", 8, i);
		getppid();
		usleep(50000);
	}
	return 0;
}
