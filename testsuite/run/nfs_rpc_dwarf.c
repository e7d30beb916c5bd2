/* (nfs_rpc.c, for the DWARF variant of its test.)
 * nfs_rpc_dwarf SOURCE OPTIONS: mount SOURCE (127.0.0.1:/PATH) at /tmp/nfsmnt over NFS with the
 * kernel's text options, as mount.nfs passes them, and say how it went: "mounted" (it stays
 * mounted) or the error. The mount runs in a child that is killed if it has not finished
 * within 60 s (a server that never answers): "abandoned". */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int pipefd[2], err = 0, status, waited;
	pid_t pid;

	if (argc != 3) {
		fprintf(stderr, "usage: nfs_rpc SOURCE OPTIONS\n");
		return 1;
	}
	mkdir("/tmp/nfsmnt", 0755);
	if (pipe(pipefd) || (pid = fork()) < 0) {
		perror("nfs_rpc");
		return 1;
	}
	if (pid == 0) {
		close(pipefd[0]);
		err = mount(argv[1], "/tmp/nfsmnt", "nfs", 0, argv[2]) ? errno : 0;
		if (write(pipefd[1], &err, sizeof(err)) != sizeof(err))
			_exit(2);
		_exit(0);
	}
	close(pipefd[1]);
	for (waited = 0; waited < 600 && waitpid(pid, &status, WNOHANG) == 0; waited++)
		usleep(100000);
	if (waited == 600) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		printf("mount %s: abandoned\n", argv[1]);
		return 0;
	}
	if (read(pipefd[0], &err, sizeof(err)) != sizeof(err))
		err = -1;
	printf("mount %s: %s\n", argv[1], err ? strerror(err) : "mounted");
	return 0;
}
