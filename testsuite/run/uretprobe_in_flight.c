/*
 * A program for uretprobe_in_flight.stp: as soon as the uprobes are in its
 * code (a breakpoint changes wait_early's first bytes; the session is still
 * starting), call wait_early(), which waits on a fifo until the session
 * runs; then call later(). Until then it stays runnable (sched_yield, not a
 * sleep): the begin probe waits for its first sleep, the open in wait_early.
 * It says when it has read its code as it was (the .ready file), so that
 * the guest starts staprun after that, however slow the exec.
 */
#include <fcntl.h>
#include <sched.h>
#include <time.h>
#include <string.h>
#include <unistd.h>

static char buf[4096];

int wait_early(int tag)
{
	int fd = open("/tmp/uretprobe_in_flight.fifo", O_RDONLY);

	if (fd >= 0) {
		while (read(fd, buf, sizeof(buf)) > 0)
			;	/* until the writer closes: it never sees a closed pipe */
		close(fd);
	}
	return tag + 1;
}

int later(int tag)
{
	return tag + 1;
}

int main(void)
{
	unsigned char before[32];

	memcpy(before, (const void *)wait_early, sizeof(before));
	/* the guest starts staprun only now: a breakpoint placed before this copy would never be seen */
	close(open("/tmp/uretprobe_in_flight.ready", O_WRONLY | O_CREAT, 0644));
	time_t start = time(NULL);

	while (time(NULL) - start < 60 && !memcmp(before, (const void *)wait_early, sizeof(before)))
		sched_yield();
	return wait_early(41) == 42 && later(7) == 8 ? 0 : 1;
}
