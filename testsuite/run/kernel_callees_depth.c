/*
 * A program for kernel_callees_depth.stp: a write() of 10 bytes (vfs_write
 * calls rw_verify_area), a read() of 7 (ksys_read calls vfs_read, which
 * calls rw_verify_area) and a pread() of 5 (ksys_pread64 calls vfs_read:
 * the same two-level callee under another caller).
 */
#ifndef TEST_FILE
#define TEST_FILE "/tmp/kernel_callees_depth.txt"
#endif
#include <fcntl.h>
#include <unistd.h>

int main(void)
{
	char buf[16];
	int fd = open(TEST_FILE, O_RDWR | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || write(fd, "abcdefghij", 10) != 10 || lseek(fd, 0, SEEK_SET) != 0)
		return 1;
	if (read(fd, buf, 7) != 7 || pread(fd, buf, 5, 0) != 5)
		return 1;
	close(fd);
	return unlink(TEST_FILE);
}
