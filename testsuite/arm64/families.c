/* families.c - for arm64/families: an openat of "/" as a directory, 64 page faults, a pause. */
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

int main(void)
{
	char root[] = "/";	/* on the stack: a present page when the entry probes read it */
	int fd = open(root, O_RDONLY | O_DIRECTORY);
	char *p = mmap(0, 64 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (fd < 0 || p == MAP_FAILED)
		return 1;
	for (int i = 0; i < 64; i++)
		p[i * 4096] = 1;
	usleep(100000);	/* timer ticks on the way */
	return close(fd);
}
