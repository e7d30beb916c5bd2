/* A known workload for netfilter probes: bring lo up, send one UDP
 * datagram to 127.0.0.1:5558 (which the script drops at LOCAL_IN), one to
 * 127.0.0.1:5559 (let through) and one to [::1]:5559, and print what each
 * receive got. */
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
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

/* Send len bytes to addr from a fresh socket and receive on a bound one with a short timeout. */
static void exchange(int family, const char *addr, int port, const char *msg)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	struct timeval tv = { .tv_sec = 0, .tv_usec = 300000 };
	char buf[32];
	memset(&ss, 0, sizeof(ss));
	if (family == AF_INET) {
		struct sockaddr_in *a = (struct sockaddr_in *)&ss;
		a->sin_family = AF_INET;
		a->sin_port = htons(port);
		inet_pton(AF_INET, addr, &a->sin_addr);
		sl = sizeof(*a);
	} else {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;
		a->sin6_family = AF_INET6;
		a->sin6_port = htons(port);
		inet_pton(AF_INET6, addr, &a->sin6_addr);
		sl = sizeof(*a);
	}
	int r = socket(family, SOCK_DGRAM, 0), s = socket(family, SOCK_DGRAM, 0);
	setsockopt(r, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (bind(r, (struct sockaddr *)&ss, sl) || sendto(s, msg, strlen(msg), 0, (struct sockaddr *)&ss, sl) < 0) {
		printf("%s port %d: cannot send\n", addr, port);
		return;
	}
	ssize_t n = recv(r, buf, sizeof(buf), 0);
	printf("%s port %d: %s\n", addr, port, n < 0 ? "nothing received" : "received");
	close(r);
	close(s);
}

int main(void)
{
	if (lo_up() < 0)
		return 1;
	exchange(AF_INET, "127.0.0.1", 5558, "drop me");
	exchange(AF_INET, "127.0.0.1", 5559, "keep me");
	exchange(AF_INET6, "::1", 5559, "six");
	return 0;
}
