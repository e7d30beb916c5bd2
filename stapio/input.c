/* input.c - forward stapio's stdin to a module with input.char/input.line probes (the INPUT command). */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "stapio.h"
#include "modparam.h"

#define STAPIO_INPUT_ROUND 64	/* INPUT commands per polling round at most */

static struct termios stapio_saved_tty;	/* stdin's terminal settings before noncanonical mode */

static void stapio_input_restore(void)
{
	tcsetattr(STDIN_FILENO, TCSANOW, &stapio_saved_tty);
}

/*
 * stdin is the script's: on a terminal, switch it to noncanonical mode
 * (each key arrives at once, not a line at a time; echo stays on) until
 * stapio exits, on every path that returns from main.
 */
void stapio_input_start(void)
{
	struct termios raw;

	if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &stapio_saved_tty) < 0)
		return;
	raw = stapio_saved_tty;
	raw.c_lflag &= ~ICANON;
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	if (tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0)
		atexit(stapio_input_restore);
}

/* Whether module has input probes (its read-only parameter). */
bool stapio_input_wanted(const char *module)
{
	return stp_module_flag(module, STP_HAS_INPUT_PARAM);
}

/*
 * Send what stdin has now, without blocking: at most STAPIO_INPUT_ROUND
 * chunks per round, so the output keeps flowing. At the end of stdin (or
 * a read error) send an empty INPUT once and set *done.
 */
int stapio_input_poll(struct stapio_control *ctl, bool *done)
{
	char buf[STP_INPUT_CHUNK];
	int i;

	for (i = 0; i < STAPIO_INPUT_ROUND && !*done; i++) {
		struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
		ssize_t n;

		if (poll(&pfd, 1, 0) <= 0 || !(pfd.revents & (POLLIN | POLLHUP | POLLERR)))
			return 0;
		n = read(STDIN_FILENO, buf, sizeof(buf));
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			return 0;
		if (n <= 0) {
			if (n < 0)
				stapio_err("cannot read stdin: %s", strerror(errno));
			*done = true;
			n = 0;
		}
		if (stapio_control_send(ctl, STP_CMD_INPUT, buf, (uint32_t)n) < 0)
			return -1;
	}
	return 0;
}
