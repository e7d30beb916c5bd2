/* privilege_stapusr: "as UID" re-runs itself under that uid (real and effective), which then calls work() 3 times. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int calls;

__attribute__((noinline)) void work(int i)
{
	calls += i;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "as")) {
		uid_t uid = (uid_t)atoi(argv[2]);
		if (setresgid(uid, uid, uid) || setresuid(uid, uid, uid)) {
			perror("setresuid");
			return 1;
		}
		execl("/proc/self/exe", argv[0], "run", (char *)NULL);
		perror("exec");
		return 1;
	}
	for (int i = 1; i <= 3; i++)
		work(i);
	return calls == 6 ? 0 : 1;
}
