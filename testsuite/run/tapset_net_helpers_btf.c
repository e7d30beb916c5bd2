/* A known loopback workload: bring lo (back) up, one TCP exchange on port 5555
 * (5 bytes client to server with send, TCP_NODELAY set on the client, 3
 * bytes back with write), then the client socket disconnected with
 * connect(AF_UNSPEC); one UDP datagram of 7 bytes to port 5556, then that
 * socket disconnected the same way; one TCP exchange over IPv6 on [::1]:5557;
 * lo's MTU set to 1500 and back, lo made promiscuous by a packet socket,
 * and /proc/net/dev read. */
#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <netinet/tcp.h>
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
	/* up, down, up: whatever state an earlier test left, lo is closed and opened once */
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(s, SIOCSIFFLAGS, &ifr) < 0)
		return -1;
	ifr.ifr_flags &= ~IFF_UP;
	if (ioctl(s, SIOCSIFFLAGS, &ifr) < 0)
		return -1;
	ifr.ifr_flags |= IFF_UP;
	return ioctl(s, SIOCSIFFLAGS, &ifr);
}

/* lo's MTU to mtu (SIOCSIFMTU). */
static int lo_mtu(int mtu)
{
	struct ifreq ifr;
	int s = socket(AF_INET, SOCK_DGRAM, 0), rc;
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	ifr.ifr_mtu = mtu;
	rc = s < 0 ? -1 : ioctl(s, SIOCSIFMTU, &ifr);
	close(s);
	return rc;
}

/* One TCP exchange over IPv6 loopback: 4 bytes to port 5557. */
static int tcp6(void)
{
	struct sockaddr_in6 a = { .sin6_family = AF_INET6, .sin6_port = htons(5557), .sin6_addr = IN6ADDR_LOOPBACK_INIT };
	char buf[8];
	int l = socket(AF_INET6, SOCK_STREAM, 0), c = socket(AF_INET6, SOCK_STREAM, 0), one = 1;
	setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 1) || connect(c, (struct sockaddr *)&a, sizeof(a)))
		return -1;
	int s = accept(l, NULL, NULL);
	if (s < 0 || send(c, "six!", 4, 0) != 4 || recv(s, buf, sizeof(buf), 0) != 4)
		return -1;
	close(s);
	close(c);
	close(l);
	return 0;
}

/* lo promiscuous while a packet socket asks for it (dev_set_promiscuity). */
static int promisc(void)
{
	struct packet_mreq mr = { .mr_ifindex = (int)if_nametoindex("lo"), .mr_type = PACKET_MR_PROMISC };
	int p = socket(AF_PACKET, SOCK_RAW, 0);
	if (p < 0 || setsockopt(p, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr, sizeof(mr)))
		return -1;
	close(p);
	return 0;
}

/* Read /proc/net/dev (each device's statistics). */
static int read_dev_stats(void)
{
	char buf[4096];
	int fd = open("/proc/net/dev", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf));
	close(fd);
	return n > 0 ? 0 : -1;
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
	setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	int s = accept(l, NULL, NULL);
	if (s < 0 || send(c, "hello", 5, 0) != 5 || recv(s, buf, sizeof(buf), 0) != 5)
		return 3;
	if (write(s, "bye", 3) != 3 || read(c, buf, sizeof(buf)) != 3)
		return 6;
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
	if (tcp6())
		return 7;
	if (lo_mtu(1500) || lo_mtu(65536))
		return 8;
	if (promisc() || read_dev_stats())
		return 9;
	return 0;
}
