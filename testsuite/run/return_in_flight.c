/*
 * A program for return_in_flight.stp: as soon as the return probe on
 * do_sys_openat2 is listed (the session is still starting), open a fifo,
 * which waits inside do_sys_openat2 for a writer; then open a plain file.
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static char list[1 << 16];

static int probe_armed(void)
{
	int fd = open("/sys/kernel/debug/tracing/enabled_functions", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, list, sizeof(list) - 1);

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return 0;
	list[n] = 0;
	return strstr(list, "do_sys_openat2") != NULL;
}

int main(void)
{
	int fd;

	for (int i = 0; i < 60000 && !probe_armed(); i++)
		usleep(1000);
	fd = open("/tmp/return_in_flight.fifo", O_RDONLY);
	if (fd >= 0) {
		while (read(fd, list, sizeof(list)) > 0)
			;	/* until the writer closes: it never sees a closed pipe */
		close(fd);
	}
	fd = open("/tmp/return_in_flight.txt", O_RDONLY);
	if (fd >= 0)
		close(fd);
	return 0;
}
