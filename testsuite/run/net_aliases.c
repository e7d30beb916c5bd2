/* A known loopback workload: bring lo up, one TCP exchange on port 5555
 * (5 bytes client to server), then the client socket disconnected with
 * connect(AF_UNSPEC); one UDP datagram of 7 bytes to port 5556, then that
 * socket disconnected the same way. */
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

static int lo_up(void)
{
	struct ifreq ifr;
	int s = socket(AF_INET, SOCK_DGRAM, 0);
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	if (s < 0 || ioctl(s, SIOCGIFFLAGS, &ifr) < 0)
		return -1;
	ifr.ifr_flags |= IFF_UP;
	return ioctl(s, SIOCSIFFLAGS, &ifr);
}

int main(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(5555) };
	struct sockaddr unspec = { .sa_family = AF_UNSPEC };
	char buf[16];
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (lo_up() < 0)
		return 1;
	int l = socket(AF_INET, SOCK_STREAM, 0), c = socket(AF_INET, SOCK_STREAM, 0);
	int one = 1;
	setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 1) ||
	    connect(c, (struct sockaddr *)&a, sizeof(a)))
		return 2;
	int s = accept(l, NULL, NULL);
	if (s < 0 || send(c, "hello", 5, 0) != 5 || recv(s, buf, sizeof(buf), 0) != 5)
		return 3;
	connect(c, &unspec, sizeof(unspec));
	close(s);
	close(l);
	close(c);
	int us = socket(AF_INET, SOCK_DGRAM, 0), uc = socket(AF_INET, SOCK_DGRAM, 0);
	a.sin_port = htons(5556);
	if (bind(us, (struct sockaddr *)&a, sizeof(a)) || connect(uc, (struct sockaddr *)&a, sizeof(a)))
		return 4;
	if (send(uc, "datagrm", 7, 0) != 7 || recv(us, buf, sizeof(buf), 0) != 7)
		return 5;
	connect(uc, &unspec, sizeof(unspec));
	return 0;
}
