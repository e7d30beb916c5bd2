/* A known file workload: create a file, write 100 bytes, fsync, seek back,
 * read them, read at EOF, readv and writev two buffers, sendfile it to
 * /dev/null, close and unlink it. */
#include <fcntl.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/uio.h>
#include <unistd.h>

int main(void)
{
	char buf[100], a[10], b[20];
	struct iovec iov[2] = { { a, sizeof(a) }, { b, sizeof(b) } };
	int fd = open("/work/vfs_data", O_RDWR | O_CREAT | O_TRUNC, 0644);
	int null = open("/dev/null", O_WRONLY);
	if (fd < 0 || null < 0)
		return 1;
	memset(buf, 'x', sizeof(buf));
	if (write(fd, buf, sizeof(buf)) != 100 || fsync(fd))
		return 1;
	lseek(fd, 0, SEEK_SET);
	if (read(fd, buf, sizeof(buf)) != 100 || read(fd, buf, sizeof(buf)) != 0)
		return 1;
	lseek(fd, 0, SEEK_SET);
	if (readv(fd, iov, 2) != 30 || writev(fd, iov, 2) != 30)
		return 1;
	off_t off = 0;
	if (sendfile(null, fd, &off, 100) != 100)
		return 1;
	close(fd);
	unlink("/work/vfs_data");
	return 0;
}
