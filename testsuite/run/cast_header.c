/* A program for cast_header.stp: hands a struct sockaddr_un to a function the script probes. */
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

__attribute__((noinline)) int take(const struct sockaddr_un *addr)
{
	__asm__ volatile("" : : "r"(addr) : "memory");
	return addr->sun_family;
}

int main(void)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };

	strcpy(addr.sun_path, "/run/stapc.sock");
	return take(&addr) == AF_UNIX ? 0 : 1;
}
