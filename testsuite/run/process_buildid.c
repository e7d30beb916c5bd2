/*
 * Built with a fixed build-id (process_buildid.cflags), which the script names instead of
 * a path. Given a path, it runs that program next (exec): the guest gives it a copy of
 * itself, another file with the same build-id.
 */
#include <unistd.h>

int scale(int x)
{
	return x * 3;
}

int main(int argc, char **argv)
{
	int r = scale(argc);

	if (argc > 1)
		execl(argv[1], argv[1], (char *)0);
	return r == 3 ? 0 : 1;
}
