/* Calls whose arguments SystemTap derives variables from: kill, connect, bind, write, pwrite. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	struct sockaddr_in in4 = {.sin_family = AF_INET, .sin_port = htons(8080)};
	struct sockaddr_in6 in6 = {.sin6_family = AF_INET6, .sin6_port = htons(443),
				   .sin6_flowinfo = htonl(0x12345), .sin6_scope_id = 7};
	struct sockaddr_un_like { unsigned short family; char path[14]; } un = {AF_UNIX, "/tmp/sock"};

	inet_pton(AF_INET, "127.0.0.1", &in4.sin_addr);
	inet_pton(AF_INET6, "2001:db8::1", &in6.sin6_addr);
	/* fd -1: each call fails (EBADF) after the probe has seen its arguments */
	syscall(SYS_connect, -1, &in4, sizeof(in4));
	syscall(SYS_connect, -1, &in6, sizeof(in6));
	syscall(SYS_bind, -1, &un, sizeof(un));
	syscall(SYS_bind, -1, &in4, 4);	/* too short for AF_INET */
	syscall(SYS_write, -1, "hi\0\n\"x", 6);
	syscall(SYS_pwrite64, -1, "0123456789", 4, 0);
	syscall(SYS_kill, 0x7ffffff0, SIGTERM);	/* no such process */
	return 0;
}
