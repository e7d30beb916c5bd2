/* Opens and reads the file named by its first argument: a known process for tapset_context.stp. */
#include <fcntl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char buf[64];
	int fd;

	if (argc < 2)
		return 2;
	fd = open(argv[1], O_RDONLY);
	if (fd < 0)
		return 1;
	if (read(fd, buf, sizeof(buf)) < 0)
		return 1;
	close(fd);
	return 0;
}
