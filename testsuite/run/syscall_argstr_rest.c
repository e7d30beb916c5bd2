/*
 * syscall_argstr_rest.c - one call of each kind the third batch of syscalls.tbl rows decodes,
 * with known arguments that make each fail harmlessly (no key is added, no filter installed,
 * nothing mounted), then a read of the script's /proc/systemtap/MODULE/__prometheus.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/io_uring.h>
#include <linux/keyctl.h>
#include <linux/mempolicy.h>
#include <linux/mount.h>
#include <linux/perf_event.h>
#include <linux/quota.h>
#include <linux/seccomp.h>

/* Print the module's __prometheus file: the only directory under /proc/systemtap. */
static void read_prometheus(void)
{
	DIR *d = opendir("/proc/systemtap");
	struct dirent *e;
	char path[512], buf[4096];
	ssize_t n;
	int fd = -1;

	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.') {
			snprintf(path, sizeof(path), "/proc/systemtap/%s/__prometheus", e->d_name);
			fd = open(path, O_RDONLY);
			break;
		}
	if (fd < 0) {
		printf("no __prometheus file\n");
		return;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)n, stdout);
	close(fd);
	fflush(stdout);
}

int main(void)
{
	int fd = open("/dev/null", O_RDONLY);

	syscall(SYS_preadv2, fd, NULL, 0, 0, 0, RWF_HIPRI | RWF_NOWAIT);
	syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_LOG, NULL);
	syscall(SYS_add_key, "user", "stapc-test", NULL, 0, KEY_SPEC_SESSION_KEYRING);
	syscall(SYS_mbind, NULL, 0, MPOL_BIND | MPOL_F_STATIC_NODES, NULL, 0, MPOL_MF_STRICT);
	syscall(SYS_move_mount, AT_FDCWD, "/no-such-a", AT_FDCWD, "/no-such-b", MOVE_MOUNT_F_SYMLINKS);
	syscall(SYS_io_uring_enter, -1, 0, 0, IORING_ENTER_GETEVENTS, NULL, 0);
	syscall(SYS_perf_event_open, NULL, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	syscall(SYS_quotactl, QCMD(Q_GETQUOTA, USRQUOTA), "/no-such-dev", 0, NULL);
	read_prometheus();
	return 0;
}
