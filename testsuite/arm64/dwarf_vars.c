/* dwarf_vars.c - for arm64/dwarf_vars: opens /etc/passwd read-only and closes it. */
#include <fcntl.h>
#include <unistd.h>

int main(void)
{
	char path[] = "/etc/passwd";	/* on the stack: a present page when the probes read it */
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	return fd >= 0 && close(fd) == 0 ? 0 : 1;
}
