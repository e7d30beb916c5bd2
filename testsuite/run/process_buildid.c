/*
 * Built with a fixed build-id (process_buildid.cflags), which the script names instead of
 * a path. process_buildid.guest starts a copy of it (another file with the same build-id)
 * with -w before the session: that one waits for /tmp/go, calls scale(5) and removes it.
 * The -c command, given the path of another copy, calls scale(3), lets the waiting copy
 * go, and once it is done runs the other copy (exec), which calls scale(1).
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

int scale(int x)
{
	return x * 3;
}

static void wait_while(int exists)
{
	for (int i = 0; i < 1000 && (access("/tmp/go", F_OK) == 0) == exists; i++)
		usleep(10000);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "-w")) {
		wait_while(0);
		scale(5);
		unlink("/tmp/go");
		return 0;
	}
	scale(argc);
	if (argc > 1) {
		close(creat("/tmp/go", 0644));
		wait_while(1);
		execl(argv[1], argv[1], (char *)0);
	}
	return 0;
}
