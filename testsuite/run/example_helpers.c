/* Sets a SIGUSR1 handler that blocks SIGUSR2 and SIGTERM, then asks for its parent's pid,
 * with /dev/null open write-only for appending on descriptor 3, for run/example_helpers to
 * read the handler's mask and the file's flags. */
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static void on_usr1(int sig)
{
	(void)sig;
}

int main(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR2);
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaction(SIGUSR1, &sa, NULL);
	if (open("/dev/null", O_WRONLY | O_APPEND) != 3)
		return 1;
	return getppid() > 0 ? 0 : 1;
}
