/*
 * A program for process_target_points.stp, a dynamic PIE (getppid() goes
 * through its PLT) with an SDT marker written as in sdt_marker.c. Run as
 * "target" it marks 0, 1, 2; as anything else it marks 100, 101, ... every
 * 50 ms for 20 s: a process of the same program that is not the target.
 */
#define MARK_NOTE(provider, name, semaphore, args)                              \
	"990: nop\n"                                                            \
	".pushsection .note.stapsdt,\"\",\"note\"\n"                            \
	".balign 4\n"                                                           \
	".4byte 992f-991f, 994f-993f, 3\n"                                      \
	"991: .asciz \"stapsdt\"\n"                                             \
	"992: .balign 4\n"                                                      \
	"993: .8byte 990b, 0, " semaphore "\n"                                  \
	".asciz \"" provider "\"\n"                                             \
	".asciz \"" name "\"\n"                                                 \
	".asciz \"" args "\"\n"                                                 \
	"994: .balign 4\n"                                                      \
	".popsection\n"

#define MARK1(p, n, sem, s1, a1) \
	__asm__ __volatile__(MARK_NOTE(#p, #n, sem, #s1 "@%0") :: "nor"(a1))

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
