/* kprobe_timer.c - three 7-byte reads of a file the program writes, for arm64/kprobe_timer. */
#include <fcntl.h>
#include <unistd.h>

int main(void)
{
	char buf[7];
	int fd = open("/tmp/arm64_kprobe_timer", O_WRONLY | O_CREAT | O_TRUNC, 0600);

	write(fd, "abcdefghijklmnopqrstu", 21);
	close(fd);
	fd = open("/tmp/arm64_kprobe_timer", O_RDONLY);
	for (int i = 0; i < 3; i++)
		read(fd, buf, sizeof(buf));
	close(fd);
	unlink("/tmp/arm64_kprobe_timer");
	usleep(100000);	/* a few timer ticks before the end */
	return 0;
}
