/*
 * unit_syscall_decode_libc.c - the decoder tables whose values the kernel's UAPI headers do
 * not export (socket families and types, access modes), checked against glibc's headers.
 */
#define _GNU_SOURCE
#include <sys/socket.h>
#include <unistd.h>

#include "kshim.h"
#include "syscall_decode.c"
#include "unit_syscall_decode.h"

static const struct _stp_sym libc_socket_families[] = {
	E(AF_UNSPEC), E(AF_UNIX), E(AF_INET), E(AF_AX25), E(AF_IPX), E(AF_APPLETALK), E(AF_NETROM),
	E(AF_BRIDGE), E(AF_ATMPVC), E(AF_X25), E(AF_INET6), E(AF_ROSE), E(AF_DECnet),
	E(AF_NETBEUI), E(AF_SECURITY), E(AF_KEY), E(AF_NETLINK), E(AF_PACKET), E(AF_ASH),
	E(AF_ECONET), E(AF_ATMSVC), E(AF_RDS), E(AF_SNA), E(AF_IRDA), E(AF_PPPOX), E(AF_WANPIPE),
	E(AF_LLC), E(AF_IB), E(AF_MPLS), E(AF_CAN), E(AF_TIPC), E(AF_BLUETOOTH), E(AF_IUCV),
	E(AF_RXRPC), E(AF_ISDN), E(AF_PHONET), E(AF_IEEE802154), E(AF_CAIF), E(AF_ALG), E(AF_NFC),
	E(AF_VSOCK), E(AF_KCM), E(AF_QIPCRTR), E(AF_SMC), E(AF_XDP), E(AF_MCTP),
};
static const struct _stp_sym libc_socket_types[] = {
	E(SOCK_STREAM), E(SOCK_DGRAM), E(SOCK_RAW), E(SOCK_RDM), E(SOCK_SEQPACKET), E(SOCK_DCCP),
	E(SOCK_PACKET),
};
static const struct _stp_sym libc_socket_type_flags[] = { E(SOCK_NONBLOCK), E(SOCK_CLOEXEC) };
static const struct _stp_sym libc_access_modes[] = { E(R_OK), E(W_OK), E(X_OK) };

int test_libc_tables(void)
{
	char b[MAXSTRINGLEN];
	int bad = 0;

	bad += !same_table("socket_families", STP_SYMS(_stp_socket_families), STP_SYMS(libc_socket_families));
	bad += !same_table("socket_types", STP_SYMS(_stp_socket_types), STP_SYMS(libc_socket_types));
	bad += !same_table("socket_type_flags", STP_SYMS(_stp_socket_type_flags), STP_SYMS(libc_socket_type_flags));
	bad += !same_table("access_modes", STP_SYMS(_stp_access_modes), STP_SYMS(libc_access_modes));
	_stp_decode_socket_type(b, sizeof(b), SOCK_STREAM | SOCK_CLOEXEC);
	if (strcmp(b, "SOCK_STREAM|SOCK_CLOEXEC"))
		bad++, fprintf(stderr, "socket type: got %s\n", b);
	_stp_decode_access_mode(b, sizeof(b), R_OK | X_OK);
	if (strcmp(b, "R_OK|X_OK"))
		bad++, fprintf(stderr, "access mode: got %s\n", b);
	_stp_decode_access_mode(b, sizeof(b), F_OK);
	if (strcmp(b, "F_OK"))
		bad++, fprintf(stderr, "access mode: got %s\n", b);
	return bad;
}
