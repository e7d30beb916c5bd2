/* Mount 127.0.0.1:/export over NFSv3 (text options, as mount.nfs passes them): nothing
 * listens there, so the kernel's RPC clients fail to connect and the mount fails. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>

int main(int argc, char **argv)
{
	const char *opts = argc > 1 ? argv[1] : "vers=3,nolock,proto=tcp,mountproto=tcp,addr=127.0.0.1";

	mkdir("/tmp/nfsmnt", 0755);
	if (mount("127.0.0.1:/export", "/tmp/nfsmnt", "nfs", 0, opts) == 0) {
		printf("mount: mounted\n");
		umount("/tmp/nfsmnt");
		return 0;
	}
	printf("mount: %s\n", strerror(errno));
	return 0;
}
