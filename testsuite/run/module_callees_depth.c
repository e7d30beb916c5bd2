/*
 * A program for module_callees_depth.stp: binds a loop device to a file and
 * sets its offset three ways. LOOP_SET_FD (lo_ioctl calls loop_configure,
 * which calls loop_set_status_from_info: offset 0), LOOP_SET_STATUS64
 * (lo_ioctl calls loop_set_status, which calls it: offset 512) and the old
 * LOOP_SET_STATUS (lo_ioctl jumps to loop_set_status_old, which calls
 * loop_set_status, which calls it: offset 1024, the same immediate call
 * site as 512's under another caller).
 */
#include <fcntl.h>
#include <linux/loop.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define BACKING "/tmp/module_callees_depth.img"
#define DEVICE "/tmp/module_callees_depth.dev"

static int set_offsets(int dev, int back)
{
	struct loop_info64 info64;
	struct loop_info info;

	if (ioctl(dev, LOOP_SET_FD, back))
		return 1;
	memset(&info64, 0, sizeof(info64));
	info64.lo_offset = 512;
	memset(&info, 0, sizeof(info));
	info.lo_offset = 1024;
	return ioctl(dev, LOOP_SET_STATUS64, &info64) || ioctl(dev, LOOP_SET_STATUS, &info) ||
	       ioctl(dev, LOOP_CLR_FD, 0);
}

int main(void)
{
	int back = open(BACKING, O_RDWR | O_CREAT | O_TRUNC, 0600), dev, rc;

	if (back < 0 || ftruncate(back, 65536))
		return 1;
	unlink(DEVICE);
	if (mknod(DEVICE, S_IFBLK | 0600, makedev(7, 0)) || (dev = open(DEVICE, O_RDWR)) < 0)
		return 2;
	rc = set_offsets(dev, back);
	close(dev);
	close(back);
	unlink(DEVICE);
	unlink(BACKING);
	return rc ? 3 : 0;
}
