/* Reads 13 bytes of itself (vfs_read's $count), then calls probe_me(7) (its $count). */
#ifndef SELF
#define SELF "/work/ctx_function"
#endif
#include <fcntl.h>
#include <unistd.h>

__attribute__((noinline)) int probe_me(int count)
{
	return count + 1;
}

int main(void)
{
	char buf[13];
	int fd = open(SELF, O_RDONLY);
	if (fd < 0 || read(fd, buf, sizeof(buf)) != (long)sizeof(buf))
		return 1;
	close(fd);
	return probe_me(7) == 8 ? 0 : 1;
}
