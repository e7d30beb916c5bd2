/*
 * A known workload on a ram disk for generic_aop.stp: /dev/ram0 (brd, 8 MiB)
 * gets 16 KiB written through the page cache, a page per write(2) (a kernel
 * with large folios on block devices, as 7.2, caches one 16 KiB write in one
 * folio: the events would be the folio's, not each page's), and fsynced; its last close
 * drops the cache, so the read of those 16 KiB goes through readahead; with
 * readahead off one more page is read alone; then a byte written through a
 * shared mapping dirties its page, which msync writes back.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static char buf[16384];

static int set_readahead(const char *kb)
{
	int fd = open("/sys/block/ram0/queue/read_ahead_kb", O_WRONLY);

	if (fd < 0 || write(fd, kb, strlen(kb)) < 0)
		return -1;
	return close(fd);
}

int main(void)
{
	int fd = open("/dev/ram0", O_RDWR);

	memset(buf, 'x', sizeof(buf));
	if (fd < 0)
		return 1;
	for (int i = 0; i < 4; i++)
		if (write(fd, buf, 4096) != 4096)
			return 1;
	if (fsync(fd) || close(fd))
		return 1;
	fd = open("/dev/ram0", O_RDONLY);
	if (fd < 0 || read(fd, buf, sizeof(buf)) != sizeof(buf) || close(fd))
		return 2;
	if (set_readahead("0"))
		return 3;
	fd = open("/dev/ram0", O_RDONLY);
	if (fd < 0 || pread(fd, buf, 4096, 65536) != 4096 || close(fd))
		return 4;
	set_readahead("128");
	fd = open("/dev/ram0", O_RDWR);
	char *p = fd < 0 ? MAP_FAILED : mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 131072);
	if (p == MAP_FAILED)
		return 5;
	p[0] = 'y';
	if (msync(p, 4096, MS_SYNC) || munmap(p, 4096) || close(fd))
		return 6;
	return 0;
}
