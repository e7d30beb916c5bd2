/* send and recv on a datagram socket pair, then sendto and recvfrom with an address: x86-64
 * has no send or recv call, the C library makes them sendto and recvfrom with a NULL address,
 * which run/syscall_send_recv's syscall.send and syscall.recv must see, and only them. */
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

int main(void)
{
	int sv[2];
	char buf[16];
	struct sockaddr_un addr;
	socklen_t len = sizeof(addr);

	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) || sv[0] != 3)
		return 1;
	memset(&addr, 0, sizeof(addr));
	addr.sun_family = AF_UNIX;
	if (send(sv[0], "hello", 5, 0) != 5)
		return 2;
	sendto(sv[0], "xy", 2, 0, (struct sockaddr *)&addr, sizeof(addr));
	if (recv(sv[1], buf, sizeof(buf), 0) != 5)
		return 3;
	recvfrom(sv[1], buf, sizeof(buf), MSG_DONTWAIT, (struct sockaddr *)&addr, &len);
	return 0;
}
