/* nfs_rpc OPTIONS: mount 127.0.0.1:/export over NFS with the kernel's text options (as
 * mount.nfs passes them) in a child, and say how it ended: an error, or abandoned (on
 * SIGUSR1, or after 60 s: a server that drops the calls never answers; the child is
 * killed, which abandons its mount). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t give_up;

static void on_usr1(int sig)
{
	(void)sig;
	give_up = 1;
}

int main(int argc, char **argv)
{
	const char *opts = argc > 1 ? argv[1] : "vers=3,nolock,proto=tcp,mountproto=tcp,addr=127.0.0.1";
	int pipefd[2], err = 0, status, waited;
	pid_t pid;

	signal(SIGUSR1, on_usr1);
	mkdir("/tmp/nfsmnt", 0755);
	if (pipe(pipefd) || (pid = fork()) < 0) {
		perror("nfs_rpc");
		return 1;
	}
	if (pid == 0) {
		close(pipefd[0]);
		err = mount("127.0.0.1:/export", "/tmp/nfsmnt", "nfs", 0, opts) ? errno : 0;
		if (!err)
			umount("/tmp/nfsmnt");
		if (write(pipefd[1], &err, sizeof(err)) != sizeof(err))
			_exit(2);
		_exit(0);
	}
	close(pipefd[1]);
	for (waited = 0; !give_up && waited < 600 && waitpid(pid, &status, WNOHANG) == 0; waited++)
		usleep(100000);
	if (give_up || waited == 600) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		printf("mount %.5s: abandoned\n", opts);
		return 0;
	}
	if (read(pipefd[0], &err, sizeof(err)) != sizeof(err))
		err = -1;
	printf("mount %.5s: %s\n", opts, err ? strerror(err) : "mounted");
	return 0;
}
