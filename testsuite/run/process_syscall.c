/* One system call with known arguments: lseek on a descriptor that is not open (-EBADF). */
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	long r = syscall(SYS_lseek, 12345, 777, 2);

	return r == -1 ? 0 : 1;
}
