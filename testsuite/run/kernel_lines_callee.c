/*
 * A program for kernel_lines_callee.stp: a read() of 7 bytes (ksys_read
 * calls vfs_read), a pread() of 5 (ksys_pread64 calls vfs_read from
 * another call site) and a sendfile() of 3 (do_sendfile runs past its
 * labels fput_out and fput_in).
 */
#include <fcntl.h>
#include <sys/sendfile.h>
#include <unistd.h>

int main(void)
{
	char buf[16];
	int fd = open("/tmp/kernel_lines_callee.txt", O_RDWR | O_CREAT | O_TRUNC, 0600);
	int null = open("/dev/null", O_WRONLY);

	if (fd < 0 || null < 0 || write(fd, "abcdefghij", 10) != 10 || lseek(fd, 0, SEEK_SET) != 0)
		return 1;
	if (read(fd, buf, 7) != 7 || pread(fd, buf, 5, 0) != 5 || sendfile(null, fd, NULL, 3) != 3)
		return 1;
	close(fd);
	close(null);
	return unlink("/tmp/kernel_lines_callee.txt");
}
