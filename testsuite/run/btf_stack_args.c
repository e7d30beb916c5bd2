/* btf_stack_args: maps 8 KiB of its own file from page 3 on, so do_mmap sees a known pgoff and len. */
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int fd = open(argv[0], O_RDONLY);
	void *p;

	if (fd < 0)
		return 1;
	p = mmap(NULL, 8192, PROT_READ, MAP_PRIVATE, fd, 3 * 4096);
	if (p == MAP_FAILED)
		return 2;
	munmap(p, 8192);
	close(fd);
	return 0;
}
