/*
 * stapvm: run one command in a disposable QEMU guest and stream its output back.
 *
 * The build host cannot load kernel modules, so every module stapc builds is
 * run inside a throw-away virtual machine booting a Debian kernel under TCG.
 *
 * Design
 * ------
 * stapvm writes an initramfs itself (an uncompressed newc cpio archive):
 * busybox and its applets, staprun and stapio (found beside this executable),
 * the caller's directory as /work, the command line as /stapvm/cmd and a shell
 * script as /init.  The userland (--userland, userland.c) adds either the
 * modules that mount the host's / over 9p (host) or copies of the --file
 * programs with their libraries (copy), or nothing (busybox).  It then boots
 * qemu with four 8250 serial ports, each wired to a Unix socket that stapvm
 * listens on:
 *
 *   ttyS0  kernel console and init's own chatter   -> kept in memory; shown
 *                                                     with -v or on failure
 *   ttyS1  the command's stdout                    -> stapvm's stdout, live
 *   ttyS2  the command's stderr                    -> stapvm's stderr, live
 *   ttyS3  control, both ways: the guest sends line messages (READY,
 *          FILE <size> <name> and the file's bytes, for --outdir; KLOG
 *          <kernel log line>; STATUS <n>, or SETUP <why> when the userland
 *          could not be set up); the host sends "INT\n" when
 *          stapvm gets SIGINT/SIGTERM, and init's watcher signals the
 *          command's process group.
 *
 * In the guest, COMMAND (an argv, not a shell string: use `sh -c` for that)
 * runs in /work (or -C DIR) in its own session with stdin from /dev/null; a
 * command killed by signal N reports 128+N.  /stapvm/bin/stapvm-kcheck [-c]
 * prints suspicious kernel log lines, for callers that run several things in
 * one guest.
 *
 * The guest puts ttyS1..3 in raw mode (no \n -> \r\n, no echo), so output is
 * byte-exact.  Serial ports are used rather than virtio-serial because the
 * Debian cloud kernel builds the 8250 driver in but virtio_console as a module.
 *
 * Exit status: the command's status; 3 if the guest kernel log shows a
 * problem (BUG, WARNING, Oops, lockdep, KASAN, ...); 124 on timeout; 125 when
 * stapvm itself fails (bad usage, missing tool, the guest never reported a
 * status); 130 when interrupted three times.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "stapvm.h"

enum {
	STAPVM_EXIT_KERNEL_PROBLEM = 3,
	STAPVM_EXIT_TIMEOUT = 124,
	STAPVM_EXIT_FAILURE = 125,
	STAPVM_EXIT_INTERRUPTED = 130,
};

#define STAPVM_PKG_KERNEL "linux-image-cloud-amd64 linux-headers-cloud-amd64"
#define STAPVM_BUSYBOX "/bin/busybox"
#define STAPVM_CONSOLE_KEEP (256 * 1024) /* bytes of console log kept for diagnostics */
#define STAPVM_TAIL_LINES 60             /* console lines shown on failure */

/* Command-line options. */
struct stapvm_options {
	const char *release;   /* -r: kernel release, or NULL for the newest usable one */
	const char *dir;       /* -d: host directory copied to /work, or NULL */
	int smp;               /* --smp: guest CPUs (0 = default) */
	int memory_mb;         /* -m: guest memory */
	int timeout_sec;       /* --timeout: whole-run limit */
	bool icount;           /* --icount: exact instruction counting */
	bool mttcg;            /* --mttcg: a host thread per vCPU (see stapvm_start_qemu) */
	bool verbose;          /* -v: show the console live and timings */
	int userland;          /* --userland: enum stapvm_userland */
	char **files;          /* --file: host files the command needs (copied in "copy" mode) */
	size_t n_files;        /* entries in files */
	const char *cwd;       /* -C: the command's directory in the guest, NULL for /work */
	const char *outdir;    /* --outdir: host directory receiving the guest's /stapvm/out */
	int hostfwd_port;      /* --hostfwd: host port 127.0.0.1:PORT forwarded to the guest's port 22, 0 = no network */
	const char *agent;     /* --agent: a Unix socket on the host that is the guest's virtio-serial port org.stapc.agent */
	const char *append;    /* --append: more kernel command-line words (e.g. module.sig_enforce=1), or NULL */
	bool systemd;          /* --systemd: the host's systemd is the guest's pid 1, the command its unit (host userland) */
	bool arm64;            /* --arch arm64: boot an arm64 kernel from arch_root in qemu-system-aarch64 */
	const char *kernel_root; /* --kernel-root: a root holding the kernel's image and modules, or NULL for / */
	char **command;        /* argv of the guest command, NULL-terminated */
};

/*
 * --arch arm64: another architecture's kernel, busybox and staprun/stapio.
 * The kernel and busybox are under $STAPC_ARCH_ROOT, else
 * /var/lib/stapc/arm64/root (stap-prep -a arm64, .ci/kernels); staprun and
 * stapio are the static cross builds beside this executable
 * (staprun-arm64, stapio-arm64). The guest is QEMU's "virt" machine; a
 * PCI card with four 16550 ports (pci-serial-4x, which the kernel's
 * built-in 8250_pci drives as ttyS0..3) stands in for x86's four serial
 * ports, so the guest side is the same.
 */
static const char *stapvm_arch_root(const struct stapvm_options *opt)
{
	const char *env = getenv("STAPC_ARCH_ROOT");

	if (!opt->arm64)
		return "";
	return env && *env ? env : "/var/lib/stapc/arm64/root";
}

/* Where the kernel's image and modules are: --kernel-root's toolchain root, else the architecture's. */
static const char *stapvm_root(const struct stapvm_options *opt)
{
	return opt->kernel_root ? opt->kernel_root : stapvm_arch_root(opt);
}

/* What the guest sees of the host's programs (--userland). */
enum stapvm_userland {
	STAPVM_USERLAND_AUTO,    /* host if the kernel has 9p and overlay modules, else copy */
	STAPVM_USERLAND_HOST,    /* the host's / over 9p, read-only, under a tmpfs overlay */
	STAPVM_USERLAND_COPY,    /* busybox plus copies of the --file files and their libraries */
	STAPVM_USERLAND_BUSYBOX, /* busybox, staprun and stapio only */
};

static const char *const stapvm_userland_names[] = { "auto", "host", "copy", "busybox" };

/* One channel: a listening socket qemu connects to, then the accepted connection. */
struct stapvm_channel {
	const char *name;      /* socket file name and qemu chardev id */
	int listen_fd;         /* listening socket, -1 once accepted */
	int fd;                /* connection from qemu, -1 until accepted or after EOF */
};

enum { CHAN_CONSOLE, CHAN_STDOUT, CHAN_STDERR, CHAN_CONTROL, CHAN_COUNT };

/* State of one run. */
struct stapvm_run {
	struct stapvm_options opt;     /* what the user asked for */
	char tmpdir[64];               /* private scratch directory */
	char kernel[PATH_MAX];         /* ROOT/boot/vmlinuz-RELEASE or ROOT/lib/modules/RELEASE/vmlinuz */
	char moddir[PATH_MAX];         /* ROOT/lib/modules/RELEASE: the kernel's modules */
	char release[256];             /* kernel release booted */
	int userland;                  /* enum stapvm_userland, never AUTO once decided */
	char **modules;                /* host userland: modules the guest loads, in order */
	int out_fd;                    /* FILE transfer: the host file being written, or -1 */
	unsigned long long out_left;   /* FILE transfer: bytes still to come */
	char *setup_error;             /* SETUP message: the guest could not set up its userland */
	struct stapvm_channel chan[CHAN_COUNT]; /* the four serial ports */
	pid_t qemu_pid;                /* running qemu, or 0 */
	int qemu_status;               /* wait status once qemu exited */
	char *console;                 /* ring of the last console bytes */
	size_t console_len;            /* bytes kept in console (<= STAPVM_CONSOLE_KEEP) */
	char control_line[4096];       /* partial control message being assembled */
	size_t control_len;            /* bytes in control_line */
	bool ready;                    /* guest said READY: the command is starting */
	bool have_status;              /* guest said STATUS */
	int status;                    /* the command's exit status */
	char **klog;                   /* offending kernel log lines */
	size_t klog_count;             /* entries in klog */
	int signals_forwarded;         /* INT messages sent to the guest */
	pid_t self_pid;                /* stapvm's pid, for qemu's parent-death check */
	pid_t parent_pid;              /* who started stapvm (stap): stop the guest if it dies */
	double t_start, t_ready, t_status; /* monotonic timestamps for -v */
};

static volatile sig_atomic_t stapvm_signals; /* SIGINT/SIGTERM/SIGHUP received */
static struct stapvm_run *stapvm_cleanup_run; /* for cleanup from die() */

static void stapvm_cleanup(struct stapvm_run *run);

void die(const char *fmt, ...)
{
	va_list ap;

	fputs("stapvm: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (stapvm_cleanup_run)
		stapvm_cleanup(stapvm_cleanup_run);
	exit(STAPVM_EXIT_FAILURE);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory");
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		die("out of memory");
	va_end(ap);
	return s;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Write all of buf to fd; returns false on error (e.g. EPIPE). */
static bool write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return false;
		}
		p += n;
		len -= (size_t)n;
	}
	return true;
}

/* ------------------------------------------------------------------------
 * Host checks: kernel, qemu, busybox, staprun/stapio.
 */

bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Is name an executable in $PATH? */
static bool in_path(const char *name)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL;
	bool found = false;

	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	copy = strdup(path);
	if (!copy)
		die("out of memory");
	for (dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
		char *full = xasprintf("%s/%s", *dir ? dir : ".", name);

		found = access(full, X_OK) == 0;
		free(full);
	}
	free(copy);
	return found;
}

/* Pick the kernel: -r's, or the newest in /boot with headers; its image is in /boot or, as Debian
   ships it from 7.2 on, beside its modules. */
static void stapvm_pick_kernel(struct stapvm_run *run)
{
	const char *root = stapvm_root(&run->opt);

	if (run->opt.release) {
		snprintf(run->release, sizeof(run->release), "%s", run->opt.release);
	} else {
		char *boot = xasprintf("%s/boot", stapvm_root(&run->opt));
		DIR *d = opendir(boot);
		struct dirent *e;

		free(boot);
		if (run->opt.kernel_root)
			die("--kernel-root needs -r RELEASE");
		run->release[0] = '\0';
		while (d && (e = readdir(d))) {
			const char *r;
			char build[PATH_MAX];

			if (strncmp(e->d_name, "vmlinuz-", 8) != 0)
				continue;
			r = e->d_name + 8;
			/* x86-64: a kernel with headers; arm64: one unpacked with its modules */
			snprintf(build, sizeof(build), "%s/lib/modules/%s%s", stapvm_root(&run->opt), r,
				 run->opt.arm64 ? "" : "/build");
			if (!is_dir(build))
				continue;
			if (!run->release[0] || strverscmp(r, run->release) > 0)
				snprintf(run->release, sizeof(run->release), "%s", r);
		}
		if (d)
			closedir(d);
		if (!run->release[0])
			die("no kernel in /boot with headers in /lib/modules/RELEASE/build;\n"
			    "  install one: apt-get install " STAPVM_PKG_KERNEL);
	}
	snprintf(run->moddir, sizeof(run->moddir), "%s/lib/modules/%s", root, run->release);
	snprintf(run->kernel, sizeof(run->kernel), "%s/boot/vmlinuz-%s", root, run->release);
	if (!is_file(run->kernel) &&
	    snprintf(run->kernel, sizeof(run->kernel), "%s/vmlinuz", run->moddir) >= (int)sizeof(run->kernel))
		die("--kernel-root %s: path too long", root);
	if (!is_file(run->kernel))
		die("kernel %s not found in %s/boot or %s; install it: apt-get install %s", run->release,
		    root, run->moddir, run->opt.release ? "linux-image-RELEASE" : STAPVM_PKG_KERNEL);
	if (access(run->kernel, R_OK) != 0)
		die("cannot read %s: %s", run->kernel, strerror(errno));
}

/* Does the ELF file at path ask for a dynamic loader (PT_INTERP)? */
static bool elf_is_dynamic(const char *path)
{
	Elf64_Ehdr eh;
	bool dynamic = false;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return false;
	if (pread(fd, &eh, sizeof(eh), 0) == sizeof(eh) && memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
	    eh.e_ident[EI_CLASS] == ELFCLASS64) {
		for (int i = 0; i < eh.e_phnum; i++) {
			Elf64_Phdr ph;
			off_t off = (off_t)eh.e_phoff + (off_t)i * eh.e_phentsize;

			if (pread(fd, &ph, sizeof(ph), off) != sizeof(ph))
				break;
			if (ph.p_type == PT_INTERP)
				dynamic = true;
		}
	}
	close(fd);
	return dynamic;
}

/* busybox for the guest: the host's, or the target architecture's under its root. */
/* The guest's busybox: the host's, or for another architecture the one unpacked in its root,
 * at /bin (Debian 12's busybox-static) or /usr/bin (Debian 13's, merged /usr). */
static const char *stapvm_busybox(const struct stapvm_options *opt)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/usr%s", stapvm_arch_root(opt), STAPVM_BUSYBOX);
	if (*stapvm_arch_root(opt) && is_file(path))
		return path;
	snprintf(path, sizeof(path), "%s%s", stapvm_arch_root(opt), STAPVM_BUSYBOX);
	return path;
}

static void stapvm_check_tools(const struct stapvm_options *opt)
{
	if (opt->arm64) {
		if (!in_path("qemu-system-aarch64"))
			die("qemu-system-aarch64 not found; install it: apt-get install qemu-system-arm");
		if (!is_file(stapvm_busybox(opt)))
			die("%s not found; set up the arm64 target: stap-prep -a arm64", stapvm_busybox(opt));
		return;
	}
	if (!in_path("qemu-system-x86_64"))
		die("qemu-system-x86_64 not found; install it: apt-get install qemu-system-x86");
	if (!is_file(STAPVM_BUSYBOX))
		die(STAPVM_BUSYBOX " not found; install it: apt-get install busybox-static");
	if (elf_is_dynamic(STAPVM_BUSYBOX))
		die(STAPVM_BUSYBOX " is dynamically linked; install the static one: "
		    "apt-get install busybox-static");
}

/* Directory holding this executable (where staprun and stapio are built). */
static char *self_dir(void)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	char *slash;

	if (n < 0)
		die("readlink /proc/self/exe: %s", strerror(errno));
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (slash)
		*slash = '\0';
	return strdup(buf);
}

/* ------------------------------------------------------------------------
 * newc cpio writer.  Each entry is a 110-byte ASCII header ("070701" and
 * thirteen 8-digit hex fields), the NUL-terminated name, then the data; name
 * and data are each padded to a multiple of 4 bytes.  "TRAILER!!!" ends it.
 */

static void cpio_pad(struct cpio_writer *w)
{
	static const char zeros[4];
	long pos = ftell(w->f);

	if (pos % 4)
		fwrite(zeros, 1, 4 - pos % 4, w->f);
}

static void cpio_header(struct cpio_writer *w, const char *name, unsigned mode,
			unsigned long size, unsigned rmajor, unsigned rminor)
{
	size_t namesize = strlen(name) + 1;

	if (strcmp(name, "TRAILER!!!") != 0) {
		if (w->n_names == w->cap_names) {
			w->cap_names = w->cap_names ? 2 * w->cap_names : 64;
			w->names = realloc(w->names, w->cap_names * sizeof(*w->names));
			if (!w->names)
				die("out of memory");
		}
		w->names[w->n_names++] = xasprintf("%s", name);
	}
	fprintf(w->f, "070701%08lX%08X%08X%08X%08X%08lX%08lX%08X%08X%08X%08X%08zX%08X",
		w->ino++, mode, 0u, 0u, S_ISDIR(mode) ? 2u : 1u, 0ul, size,
		0u, 0u, rmajor, rminor, namesize, 0u);
	fwrite(name, 1, namesize, w->f);
	cpio_pad(w);
}

bool cpio_has(struct cpio_writer *w, const char *name)
{
	for (size_t i = 0; i < w->n_names; i++)
		if (!strcmp(w->names[i], name))
			return true;
	return false;
}

void cpio_add_dir(struct cpio_writer *w, const char *name)
{
	cpio_header(w, name, S_IFDIR | 0755, 0, 0, 0);
}

void cpio_add_data(struct cpio_writer *w, const char *name, unsigned perm,
			  const void *data, size_t len)
{
	cpio_header(w, name, S_IFREG | perm, len, 0, 0);
	fwrite(data, 1, len, w->f);
	cpio_pad(w);
}

void cpio_add_symlink(struct cpio_writer *w, const char *name, const char *target)
{
	cpio_header(w, name, S_IFLNK | 0777, strlen(target), 0, 0);
	fwrite(target, 1, strlen(target), w->f);
	cpio_pad(w);
}

static void cpio_add_chardev(struct cpio_writer *w, const char *name, unsigned major,
			     unsigned minor)
{
	cpio_header(w, name, S_IFCHR | 0600, 0, major, minor);
}

/* Copy the host file at host_path into the archive as name. */
void cpio_add_file(struct cpio_writer *w, const char *name, const char *host_path)
{
	struct stat st;
	char buf[65536];
	ssize_t n;
	off_t copied = 0;
	int fd = open(host_path, O_RDONLY);

	if (fd < 0 || fstat(fd, &st) < 0)
		die("cannot read %s: %s", host_path, strerror(errno));
	cpio_header(w, name, S_IFREG | (st.st_mode & 07777), (unsigned long)st.st_size, 0, 0);
	while (copied < st.st_size && (n = read(fd, buf, sizeof(buf))) > 0) {
		if (n > st.st_size - copied)
			n = st.st_size - copied; /* the file grew while we copied it */
		fwrite(buf, 1, (size_t)n, w->f);
		copied += n;
	}
	close(fd);
	if (copied != st.st_size)
		die("%s changed size while being copied", host_path);
	cpio_pad(w);
}

/* Copy the host directory tree host_dir into the archive under name. */
static void cpio_add_tree(struct cpio_writer *w, const char *name, const char *host_dir)
{
	DIR *d = opendir(host_dir);
	struct dirent *e;

	if (!d)
		die("cannot open directory %s: %s", host_dir, strerror(errno));
	while ((e = readdir(d))) {
		char *host, *inner;
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		host = xasprintf("%s/%s", host_dir, e->d_name);
		inner = xasprintf("%s/%s", name, e->d_name);
		if (lstat(host, &st) < 0)
			die("cannot stat %s: %s", host, strerror(errno));
		if (S_ISDIR(st.st_mode)) {
			cpio_add_dir(w, inner);
			cpio_add_tree(w, inner, host);
		} else if (S_ISLNK(st.st_mode)) {
			char target[PATH_MAX];
			ssize_t n = readlink(host, target, sizeof(target) - 1);

			if (n < 0)
				die("readlink %s: %s", host, strerror(errno));
			target[n] = '\0';
			cpio_add_symlink(w, inner, target);
		} else if (S_ISREG(st.st_mode)) {
			cpio_add_file(w, inner, host);
		}
		free(host);
		free(inner);
	}
	closedir(d);
}

static void cpio_finish(struct cpio_writer *w)
{
	cpio_header(w, "TRAILER!!!", 0, 0, 0, 0);
	if (fflush(w->f) != 0 || ferror(w->f) || fclose(w->f) != 0)
		die("cannot write %s: %s", w->path, strerror(errno));
	for (size_t i = 0; i < w->n_names; i++)
		free(w->names[i]);
	free(w->names);
	w->names = NULL;
	w->n_names = w->cap_names = 0;
}

/* ------------------------------------------------------------------------
 * The guest side: /init and the quoted command.
 */

/*
 * /init runs as pid 1 and sets up the guest's root.  /stapvm/conf sets
 * STAPVM_USERLAND (host, copy or busybox), STAPVM_MODULES (host: the
 * modules to load, in order) and STAPVM_CWD (the command's directory).
 * With "host", the host's / (9p, read-only) under a tmpfs overlay becomes
 * the root, with the guest's own /proc, /sys, /dev, /tmp and /run, and
 * /stapvm and /work bound in; pid 1 itself chroots there, and since every
 * kernel thread shares pid 1's root (CLONE_FS), paths the module resolves
 * (uprobes' kern_path) mean the same files as the command's.  Then pid 1
 * runs /stapvm/init2 with busybox's applets (/stapvm/bb) first on PATH.
 */
static const char stapvm_init_script[] =
	"#!/stapvm/bin/busybox sh\n"
	"/stapvm/bin/busybox --install -s\n"
	"/stapvm/bin/busybox --install -s /stapvm/bb\n"
	"export PATH=/stapvm/bb\n"
	"mount -t proc proc /proc\n"
	"mount -t sysfs sysfs /sys\n"
	"mount -t devtmpfs devtmpfs /dev\n"
	"mount -t debugfs debugfs /sys/kernel/debug\n"
	"mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null\n"
	/* /tmp stays in the initramfs (RAM), with the files copied there; the host userland mounts its own */
	"chmod 1777 /tmp\n"
	"mkdir -p /dev/pts /dev/shm && mount -t devpts devpts /dev/pts\n"
	"hostname stapvm\n"
	/* Warnings and worse reach the console (ttyS0, diagnostics only). */
	"dmesg -n 5\n"
	"for t in ttyS1 ttyS2 ttyS3; do stty -F /dev/$t raw -echo -echoe -echok -echoctl -echoke clocal; done\n"
	". /stapvm/conf\n"
	"setup_failed() {\n"
	"  echo \"stapvm: $*\"; dmesg | tail -n 20\n"
	"  echo \"SETUP $*\" >/dev/ttyS3; echo o >/proc/sysrq-trigger; sleep 10\n"
	"}\n"
	"if [ \"$STAPVM_USERLAND\" = host ]; then\n"
	"  for m in $STAPVM_MODULES; do\n"
	"    insmod /stapvm/modules/$m.ko || setup_failed \"cannot load module $m\"\n"
	"  done\n"
	"  mkdir -p /host /overlay /newroot\n"
	"  mount -t 9p -o ro,trans=virtio,version=9p2000.L,cache=loose,msize=512000 stapvm-root /host ||\n"
	"    setup_failed \"cannot mount the host's / (9p)\"\n"
	"  mount -t tmpfs -o mode=0755 tmpfs /overlay && mkdir /overlay/upper /overlay/work\n"
	"  mount -t overlay -o lowerdir=/host,upperdir=/overlay/upper,workdir=/overlay/work overlay /newroot ||\n"
	"    setup_failed \"cannot mount the overlay on the host's /\"\n"
	"  mount -t proc proc /newroot/proc\n"
	"  mount --rbind /sys /newroot/sys\n"
	"  mount --rbind /dev /newroot/dev\n"
	"  mount -t tmpfs -o mode=1777 tmpfs /newroot/tmp\n"
	"  [ -d /stapvm/tmp ] && cp -a /stapvm/tmp/. /newroot/tmp/\n"
	"  mount -t tmpfs -o mode=0755 tmpfs /newroot/run\n"
	"  for d in stapvm work; do mkdir -p /newroot/$d && mount --bind /$d /newroot/$d; done\n"
	"  if [ -n \"$STAPVM_SYSTEMD\" ]; then\n"
	"    mkdir -p /newroot/run/systemd/system\n"
	"    cp /stapvm/stapvm.service /stapvm/stapvm.target /newroot/run/systemd/system/\n"
	"    exec chroot /newroot /lib/systemd/systemd --unit=stapvm.target\n"
	"  fi\n"
	"  exec chroot /newroot /stapvm/bin/busybox sh /stapvm/init2\n"
	"fi\n"
	"exec /stapvm/bin/busybox sh /stapvm/init2\n";

/*
 * --systemd: the host's systemd runs as pid 1 in the overlay root (chrooted as
 * above) and starts stapvm.target, which is journald and stapvm.service only
 * (no sysinit.target: the guest boots in seconds, not minutes). The service
 * runs /stapvm/init2 in a child, so that init2 is no process group leader
 * (its setsid must not fork); init2 powers the guest off as usual. Units the
 * command starts order themselves after what they need.
 */
static const char stapvm_systemd_target[] =
	"[Unit]\n"
	"Description=stapvm: the command and the journal\n"
	"Requires=stapvm.service\n"
	"Wants=systemd-journald.service\n"
	"AllowIsolate=yes\n";
static const char stapvm_systemd_service[] =
	"[Unit]\n"
	"Description=stapvm: the command\n"
	"DefaultDependencies=no\n"
	"Wants=systemd-journald.service\n"
	"After=systemd-journald.service\n"
	"[Service]\n"
	"Type=exec\n"
	"ExecStart=/stapvm/bin/busybox sh -c '/stapvm/bin/busybox sh /stapvm/init2 & wait $!'\n";

/*
 * /stapvm/init2 runs as pid 1 in the final root and runs the command.
 * Contract with the host (see the file comment): ttyS1/ttyS2 carry only the
 * command's stdout/stderr; ttyS3 carries "READY", then "FILE <size> <name>"
 * and <size> raw bytes for each file the command left in /stapvm/out, then
 * "KLOG <line>" for each suspicious kernel log line, then "STATUS <n>" (or,
 * from /init, "SETUP <why>" if the userland could not be set up); a line
 * "INT" or "TERM" from the host signals the command's process group.  Each
 * tty is closed before poweroff, which waits for the UART to drain, so
 * nothing is lost.
 */
static const char stapvm_init2_script[] =
	"export PATH=/stapvm/bb HOME=/root TERM=dumb\n"
	"cmdpath=/stapvm/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\n"
	". /stapvm/conf\n"
	"mkdir -p \"$STAPVM_CWD\"\n"
	/* --hostfwd: QEMU's user network (10.0.2.0/24), the host's forwarded port on 22 */
	"if [ -n \"$STAPVM_NET\" ]; then\n"
	"  ip link set lo up; ip link set eth0 up; ip addr add 10.0.2.15/24 dev eth0\n"
	"  ip route add default via 10.0.2.2\n"
	"fi\n"
	"exec 3<>/dev/ttyS3\n"
	"(\n"
	"  while read -r sig; do\n"
	"    case \"$sig\" in INT|TERM) ;; *) continue ;; esac\n"
	/* READY precedes the pid file: wait for it (init kills us when done). */
	"    until [ -s /stapvm/pid ]; do sleep 0.1; done\n"
	"    kill -s \"$sig\" -- -\"$(cat /stapvm/pid)\" 2>/dev/null\n"
	"  done\n"
	") <&3 >/dev/null 2>&1 &\n"
	"watcher=$!\n"
	". /stapvm/cmd\n"
	"echo READY >&3\n"
	/* setsid does not fork here (we are not a group leader), so it is waited for. */
	"PATH=$cmdpath /stapvm/bb/setsid /bin/sh -c 'echo $$ >/stapvm/pid; cd \"$1\" && shift && exec \"$@\"' \\\n"
	"  stapvm-command \"$STAPVM_CWD\" \"$@\" </dev/null >/dev/ttyS1 2>/dev/ttyS2 3>&-\n"
	"status=$?\n"
	"rm -f /stapvm/pid\n"
	"kill $watcher 2>/dev/null; wait $watcher 2>/dev/null\n"
	"for f in /stapvm/out/*; do\n"
	"  [ -f \"$f\" ] || continue\n"
	"  echo \"FILE $(wc -c <\"$f\") ${f##*/}\" >&3; cat \"$f\" >&3\n"
	"done\n"
	"exec 3>&-\n"
	"{\n"
	"  /stapvm/bin/stapvm-kcheck | sed 's/^/KLOG /'\n"
	"  echo \"STATUS $status\"\n"
	"} >/dev/ttyS3\n"
	"echo o >/proc/sysrq-trigger\n"
	"sleep 10\n";

/*
 * /stapvm/bin/stapvm-kcheck [-c]: print the kernel log lines that show a problem,
 * x86's or arm64's ("Call trace:", "Unable to handle kernel paging request"),
 * each with the rest of its splat (up to "---[ end trace" or 40 lines); exit
 * 1 if there were any.  -c clears the log afterwards, so a caller running
 * several things in one guest (the test runner) can attribute each problem.
 */
static const char stapvm_kcheck_script[] =
	"#!/stapvm/bin/busybox sh\n"
	"PATH=/stapvm/bb:$PATH\n"
	"if [ \"$1\" = -c ]; then log=$(dmesg -c); else log=$(dmesg); fi\n"
	"printf '%s\\n' \"$log\" | awk '\n"
	"  { hit = /BUG|WARNING|Oops|possible circular locking|inconsistent lock state|"
	"lockdep|KASAN|general protection fault|Call Trace|Call trace|Unable to handle kernel/ }\n"
	"  hit || ctx > 0 {\n"
	"    print; found = 1; n++\n"
	"    ctx = hit ? 40 : ctx - 1\n"
	"    if (/---\\[ end trace/) ctx = 0\n"
	"    if (n >= 400) exit 1\n"
	"  }\n"
	"  END { exit found ? 1 : 0 }'\n";

/* Write s to f as a single-quoted shell word. */
void shell_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

/* Text of /stapvm/cmd: "set -- 'arg0' 'arg1' ...". */
static char *stapvm_command_file(char **argv, size_t *len)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);

	if (!f)
		die("out of memory");
	fputs("set --", f);
	for (; *argv; argv++) {
		fputc(' ', f);
		shell_quote(f, *argv);
	}
	fputc('\n', f);
	fclose(f);
	return text;
}

/* Text of /stapvm/conf: the userland mode, the modules to load, the command's directory. */
static char *stapvm_conf_file(struct stapvm_run *run, size_t *len)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);

	if (!f)
		die("out of memory");
	fprintf(f, "STAPVM_USERLAND=%s\nSTAPVM_MODULES='", stapvm_userland_names[run->userland]);
	for (char **m = run->modules; m && *m; m++)
		fprintf(f, "%s%s", m == run->modules ? "" : " ", *m);
	fprintf(f, "'\nSTAPVM_NET=%s", run->opt.hostfwd_port ? "1" : "");
	fprintf(f, "\nSTAPVM_SYSTEMD=%s", run->opt.systemd ? "1" : "");
	fputs("\nSTAPVM_CWD=", f);
	shell_quote(f, run->opt.cwd ? run->opt.cwd : "/work");
	fputc('\n', f);
	fclose(f);
	return text;
}

static void stapvm_write_initramfs(struct stapvm_run *run, const char *path)
{
	/* merged /usr, as Debian's: bin, sbin, lib and lib64 are symlinks into usr */
	static const char *dirs[] = { "usr", "usr/bin", "usr/sbin", "usr/lib", "usr/lib64", "dev",
				      "proc", "sys", "tmp", "root", "work", "stapvm", "stapvm/bin",
				      "stapvm/out", "stapvm/modules", "etc", "var", "run" };
	static const char *links[][2] = { { "bin", "usr/bin" }, { "sbin", "usr/sbin" },
					   { "lib", "usr/lib" }, { "lib64", "usr/lib64" } };
	struct cpio_writer w = { .path = path, .ino = 1 };
	char *here = self_dir();
	size_t len;
	char *text;

	w.f = fopen(path, "w");
	if (!w.f)
		die("cannot create %s: %s", path, strerror(errno));
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		cpio_add_dir(&w, dirs[i]);
	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++)
		cpio_add_symlink(&w, links[i][0], links[i][1]);
	cpio_add_chardev(&w, "dev/console", 5, 1);
	cpio_add_chardev(&w, "dev/null", 1, 3);
	cpio_add_dir(&w, "stapvm/bb");
	cpio_add_file(&w, "stapvm/bin/busybox", stapvm_busybox(&run->opt));
	cpio_add_symlink(&w, "usr/bin/busybox", "/stapvm/bin/busybox");
	cpio_add_symlink(&w, "usr/bin/sh", "busybox");
	cpio_add_data(&w, "etc/passwd", 0644, "root:x:0:0:root:/root:/bin/sh\n", 30);
	cpio_add_data(&w, "etc/group", 0644, "root:x:0:\n", 10);
	for (int i = 0; i < 2; i++) {
		const char *tool = i ? "stapio" : "staprun";
		char *host = xasprintf("%s/%s%s", here, tool, run->opt.arm64 ? "-arm64" : "");
		char *inner = xasprintf("stapvm/bin/%s", tool);

		if (is_file(host))
			cpio_add_file(&w, inner, host);
		else if (run->opt.verbose)
			fprintf(stderr, "stapvm: note: %s not found; the guest has no %s\n", host, tool);
		free(host);
		free(inner);
	}
	cpio_add_data(&w, "stapvm/bin/stapvm-kcheck", 0755, stapvm_kcheck_script,
		      sizeof(stapvm_kcheck_script) - 1);
	if (run->opt.dir)
		cpio_add_tree(&w, "work", run->opt.dir);
	for (char **m = run->modules; m && *m; m++)
		userland_add_module(&w, run->moddir, *m);
	for (size_t i = 0; i < run->opt.n_files; i++) {
		if (run->opt.arm64)
			userland_add_arm64_file(&w, run->opt.files[i]);
		else if (run->userland == STAPVM_USERLAND_COPY)
			userland_add_host_file(&w, run->opt.files[i]);
		else if (run->userland == STAPVM_USERLAND_HOST && !strncmp(run->opt.files[i], "/tmp/", 5))
			userland_add_tmp_file(&w, run->opt.files[i]);
	}
	text = stapvm_conf_file(run, &len);
	cpio_add_data(&w, "stapvm/conf", 0644, text, len);
	free(text);
	text = stapvm_command_file(run->opt.command, &len);
	cpio_add_data(&w, "stapvm/cmd", 0644, text, len);
	free(text);
	cpio_add_data(&w, "init", 0755, stapvm_init_script, sizeof(stapvm_init_script) - 1);
	cpio_add_data(&w, "stapvm/init2", 0644, stapvm_init2_script, sizeof(stapvm_init2_script) - 1);
	if (run->opt.systemd) {
		cpio_add_data(&w, "stapvm/stapvm.target", 0644, stapvm_systemd_target,
			      sizeof(stapvm_systemd_target) - 1);
		cpio_add_data(&w, "stapvm/stapvm.service", 0644, stapvm_systemd_service,
			      sizeof(stapvm_systemd_service) - 1);
	}
	cpio_finish(&w);
	free(here);
}

/* ------------------------------------------------------------------------
 * Host side: sockets, qemu, the event loop.
 */

static char *chan_path(struct stapvm_run *run, int i)
{
	return xasprintf("%s/%s.sock", run->tmpdir, run->chan[i].name);
}

static void stapvm_open_channels(struct stapvm_run *run)
{
	static const char *names[CHAN_COUNT] = { "console", "out", "err", "ctl" };

	for (int i = 0; i < CHAN_COUNT; i++) {
		struct sockaddr_un sa = { .sun_family = AF_UNIX };
		char *path;
		int fd;

		run->chan[i].name = names[i];
		run->chan[i].fd = -1;
		path = chan_path(run, i);
		snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(fd, 1) < 0)
			die("cannot listen on %s: %s", path, strerror(errno));
		run->chan[i].listen_fd = fd;
		free(path);
	}
}

static void stapvm_start_qemu(struct stapvm_run *run, const char *initrd)
{
	char *argv[64];
	int argc = 0;
	char *smp = xasprintf("%d", run->opt.smp);
	char *mem = xasprintf("%d", run->opt.memory_mb);
	char *chardevs[CHAN_COUNT];
	char *serials[CHAN_COUNT];
	char *qemu_log = xasprintf("%s/qemu.log", run->tmpdir);

	argv[argc++] = run->opt.arm64 ? "qemu-system-aarch64" : "qemu-system-x86_64";
	if (run->opt.arm64) {
		argv[argc++] = "-M";
		argv[argc++] = "virt";
	}
	/*
	 * One host thread runs every vCPU unless --mttcg: QEMU's multi-threaded
	 * TCG was seen to keep running a stale translation of kernel code the
	 * guest had just patched (a kprobe's int3 at a function entry, after
	 * text_poke put the nop back), so the kernel's kprobe int3 handler
	 * restarted the instruction forever: soft lockups on every vCPU, only
	 * when the host was loaded.
	 */
	argv[argc++] = "-accel";
	argv[argc++] = run->opt.mttcg ? "tcg,thread=multi" : "tcg,thread=single";
	argv[argc++] = "-cpu";
	/* arm64: QEMU's own pointer-authentication algorithm emulates much faster than the architected one */
	argv[argc++] = run->opt.arm64 ? "max,pauth-impdef=on" : "max";
	argv[argc++] = "-m";
	argv[argc++] = mem;
	argv[argc++] = "-smp";
	argv[argc++] = smp;
	argv[argc++] = "-nodefaults";
	argv[argc++] = "-display";
	argv[argc++] = "none";
	argv[argc++] = "-monitor";
	argv[argc++] = "none";
	argv[argc++] = "-no-reboot";
	if (run->opt.icount) {
		argv[argc++] = "-icount";
		argv[argc++] = "shift=0,sleep=off";
	}
	argv[argc++] = "-kernel";
	argv[argc++] = run->kernel;
	argv[argc++] = "-initrd";
	argv[argc++] = (char *)initrd;
	argv[argc++] = "-append";
	/* no_timer_check: on a loaded host a TCG guest can fail the IO-APIC timer check and panic */
	argv[argc++] = xasprintf("console=ttyS0 panic=-1 quiet 8250.nr_uarts=4 rdinit=/init no_timer_check%s%s",
				 run->opt.append ? " " : "", run->opt.append ? run->opt.append : "");
	if (run->userland == STAPVM_USERLAND_HOST) {
		/* multidevs=remap: the host's mounts (/proc, /sys...) get distinct inode numbers */
		argv[argc++] = "-virtfs";
		argv[argc++] = "local,path=/,mount_tag=stapvm-root,security_model=none,readonly=on,"
			       "multidevs=remap";
	}
	if (run->opt.hostfwd_port) {
		/* loopback only: nothing but this host reaches the guest's sshd */
		argv[argc++] = "-netdev";
		argv[argc++] = xasprintf("user,id=n0,hostfwd=tcp:127.0.0.1:%d-:22", run->opt.hostfwd_port);
		argv[argc++] = "-device";
		argv[argc++] = "virtio-net-pci,netdev=n0";
	}
	if (run->opt.agent) {
		/* QEMU listens at the path; a stapc-agent in the guest answers on the port */
		argv[argc++] = "-device";
		argv[argc++] = "virtio-serial-pci";
		argv[argc++] = "-chardev";
		argv[argc++] = xasprintf("socket,id=agent,path=%s,server=on,wait=off", run->opt.agent);
		argv[argc++] = "-device";
		argv[argc++] = "virtserialport,chardev=agent,name=org.stapc.agent";
	}
	for (int i = 0; i < CHAN_COUNT; i++) {
		char *path = chan_path(run, i);

		chardevs[i] = xasprintf("socket,id=%s,path=%s", run->chan[i].name, path);
		serials[i] = xasprintf("chardev:%s", run->chan[i].name);
		argv[argc++] = "-chardev";
		argv[argc++] = chardevs[i];
		if (!run->opt.arm64) {
			argv[argc++] = "-serial";
			argv[argc++] = serials[i];
		}
		free(path);
	}
	if (run->opt.arm64) {
		argv[argc++] = "-device";
		argv[argc++] = xasprintf("pci-serial-4x,chardev1=%s,chardev2=%s,chardev3=%s,chardev4=%s",
					 run->chan[0].name, run->chan[1].name, run->chan[2].name, run->chan[3].name);
	}
	argv[argc] = NULL;

	if (run->opt.verbose) {
		fputs("stapvm: running", stderr);
		for (int i = 0; i < argc; i++)
			fprintf(stderr, " %s", argv[i]);
		fputc('\n', stderr);
	}
	run->self_pid = getpid();
	run->qemu_pid = fork();
	if (run->qemu_pid < 0)
		die("fork: %s", strerror(errno));
	if (run->qemu_pid == 0) {
		int null = open("/dev/null", O_RDWR);
		int log = open(qemu_log, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		/* Own process group: a terminal's Ctrl-C must reach stapvm only. */
		setpgid(0, 0);
		/* No qemu outlives stapvm, even a SIGKILLed one. */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != run->self_pid)
			_exit(127);
		signal(SIGPIPE, SIG_DFL);
		dup2(null, 0);
		dup2(log, 1);
		dup2(log, 2);
		execvp(argv[0], argv);
		dprintf(log, "exec qemu-system-x86_64: %s\n", strerror(errno));
		_exit(127);
	}
	for (int i = 0; i < CHAN_COUNT; i++) {
		free(chardevs[i]);
		free(serials[i]);
	}
	free(smp);
	free(mem);
	free(qemu_log);
}

static void console_keep(struct stapvm_run *run, const char *buf, size_t n)
{
	if (run->opt.verbose)
		write_all(2, buf, n);
	if (n >= STAPVM_CONSOLE_KEEP) {
		buf += n - STAPVM_CONSOLE_KEEP;
		n = STAPVM_CONSOLE_KEEP;
	}
	if (run->console_len + n > STAPVM_CONSOLE_KEEP) {
		size_t drop = run->console_len + n - STAPVM_CONSOLE_KEEP;

		memmove(run->console, run->console + drop, run->console_len - drop);
		run->console_len -= drop;
	}
	memcpy(run->console + run->console_len, buf, n);
	run->console_len += n;
}

/* "FILE <size> <name>": the next size bytes on the control channel are /stapvm/out/NAME. */
static void stapvm_file_start(struct stapvm_run *run, const char *args)
{
	char *end;
	unsigned long long size = strtoull(args, &end, 10);
	const char *name = end + (*end == ' ');
	char *path;

	run->out_left = size;
	run->out_fd = -1;
	if (end == args || !*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, "..")) {
		fprintf(stderr, "stapvm: bad file transfer from the guest: %s\n", args);
		return; /* its bytes are skipped */
	}
	if (!run->opt.outdir) {
		fprintf(stderr, "stapvm: warning: the guest left %s in /stapvm/out and no --outdir takes it\n",
			name);
		return;
	}
	path = xasprintf("%s/%s", run->opt.outdir, name);
	run->out_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (run->out_fd < 0)
		fprintf(stderr, "stapvm: cannot write %s: %s\n", path, strerror(errno));
	free(path);
}

static void control_message(struct stapvm_run *run, char *line)
{
	size_t len = strlen(line);

	while (len && (line[len - 1] == '\r' || line[len - 1] == '\n'))
		line[--len] = '\0';
	if (!strcmp(line, "READY")) {
		run->ready = true;
		run->t_ready = now();
		if (run->opt.verbose)
			fprintf(stderr, "stapvm: guest ready after %.2f s\n", run->t_ready - run->t_start);
	} else if (!strncmp(line, "KLOG ", 5)) {
		run->klog = realloc(run->klog, (run->klog_count + 1) * sizeof(*run->klog));
		if (!run->klog)
			die("out of memory");
		run->klog[run->klog_count++] = strdup(line + 5);
	} else if (!strncmp(line, "FILE ", 5)) {
		stapvm_file_start(run, line + 5);
	} else if (!strncmp(line, "SETUP ", 6)) {
		free(run->setup_error);
		run->setup_error = strdup(line + 6);
	} else if (!strncmp(line, "STATUS ", 7)) {
		run->have_status = true;
		run->status = atoi(line + 7);
		run->t_status = now();
	} else if (run->opt.verbose) {
		fprintf(stderr, "stapvm: unexpected control message: %s\n", line);
	}
}

static void control_input(struct stapvm_run *run, const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (run->out_left) {
			size_t take = n - i < run->out_left ? n - i : (size_t)run->out_left;

			if (run->out_fd >= 0 && !write_all(run->out_fd, buf + i, take)) {
				fprintf(stderr, "stapvm: writing a file from the guest: %s\n", strerror(errno));
				close(run->out_fd);
				run->out_fd = -1;
			}
			run->out_left -= take;
			i += take - 1;
			if (!run->out_left && run->out_fd >= 0) {
				close(run->out_fd);
				run->out_fd = -1;
			}
			continue;
		}
		if (buf[i] == '\n' || run->control_len == sizeof(run->control_line) - 1) {
			run->control_line[run->control_len] = '\0';
			control_message(run, run->control_line);
			run->control_len = 0;
			if (buf[i] == '\n')
				continue;
		}
		run->control_line[run->control_len++] = buf[i];
	}
}

/* Read what is available on channel i; returns false at EOF. */
static bool channel_read(struct stapvm_run *run, int i)
{
	char buf[65536];
	ssize_t n = read(run->chan[i].fd, buf, sizeof(buf));

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (n <= 0) {
		close(run->chan[i].fd);
		run->chan[i].fd = -1;
		return false;
	}
	switch (i) {
	case CHAN_CONSOLE:
		console_keep(run, buf, (size_t)n);
		break;
	case CHAN_STDOUT:
		write_all(1, buf, (size_t)n);
		break;
	case CHAN_STDERR:
		write_all(2, buf, (size_t)n);
		break;
	case CHAN_CONTROL:
		control_input(run, buf, (size_t)n);
		break;
	}
	return true;
}

static void on_signal(int sig)
{
	(void)sig;
	stapvm_signals++;
}

static void stapvm_kill_qemu(struct stapvm_run *run)
{
	if (run->qemu_pid <= 0)
		return;
	kill(run->qemu_pid, SIGKILL);
	waitpid(run->qemu_pid, &run->qemu_status, 0);
	run->qemu_pid = 0;
}

/* Forward pending host signals to the guest; returns true to give up the run. */
static bool stapvm_forward_signals(struct stapvm_run *run)
{
	int pending = stapvm_signals;

	if (pending >= 3) {
		fprintf(stderr, "stapvm: interrupted; stopping the guest\n");
		return true;
	}
	while (run->signals_forwarded < pending && run->ready && run->chan[CHAN_CONTROL].fd >= 0) {
		write_all(run->chan[CHAN_CONTROL].fd, "INT\n", 4);
		run->signals_forwarded++;
	}
	return false;
}

/*
 * Pump the channels until qemu exits.  Returns 0 normally, or
 * STAPVM_EXIT_TIMEOUT / STAPVM_EXIT_INTERRUPTED when stapvm stopped qemu.
 */
static int stapvm_event_loop(struct stapvm_run *run)
{
	double deadline = run->t_start + run->opt.timeout_sec;

	for (;;) {
		struct pollfd pfd[CHAN_COUNT];
		int who[CHAN_COUNT];
		int n = 0;

		for (int i = 0; i < CHAN_COUNT; i++) {
			int fd = run->chan[i].listen_fd >= 0 ? run->chan[i].listen_fd : run->chan[i].fd;

			if (fd < 0)
				continue;
			pfd[n] = (struct pollfd){ .fd = fd, .events = POLLIN };
			who[n++] = i;
		}
		if (poll(pfd, (nfds_t)n, 100) < 0 && errno != EINTR)
			die("poll: %s", strerror(errno));
		for (int k = 0; k < n; k++) {
			struct stapvm_channel *c = &run->chan[who[k]];

			if (!(pfd[k].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (c->listen_fd >= 0) {
				c->fd = accept4(c->listen_fd, NULL, NULL, SOCK_CLOEXEC);
				if (c->fd < 0)
					continue;
				close(c->listen_fd);
				c->listen_fd = -1;
			} else {
				channel_read(run, who[k]);
			}
		}
		if (stapvm_forward_signals(run)) {
			stapvm_kill_qemu(run);
			return STAPVM_EXIT_INTERRUPTED;
		}
		/* stap died (it sets our parent-death signal): nobody reads the output. */
		if (getppid() != run->parent_pid) {
			fprintf(stderr, "stapvm: the parent process died; stopping the guest\n");
			stapvm_kill_qemu(run);
			return STAPVM_EXIT_INTERRUPTED;
		}
		if (waitpid(run->qemu_pid, &run->qemu_status, WNOHANG) == run->qemu_pid) {
			run->qemu_pid = 0;
			/* qemu is gone: whatever it wrote is in the sockets; drain to EOF. */
			for (int i = 0; i < CHAN_COUNT; i++)
				while (run->chan[i].fd >= 0 && channel_read(run, i))
					;
			return 0;
		}
		/* The guest powers off right after STATUS; don't wait forever if it doesn't. */
		if (run->have_status && now() > run->t_status + 10) {
			stapvm_kill_qemu(run);
			for (int i = 0; i < CHAN_COUNT; i++)
				while (run->chan[i].fd >= 0 && channel_read(run, i))
					;
			return 0;
		}
		if (now() > deadline) {
			stapvm_kill_qemu(run);
			return STAPVM_EXIT_TIMEOUT;
		}
	}
}

/* Copy qemu's own complaints (bad option, unreadable kernel) to stderr. */
static void stapvm_show_qemu_log(struct stapvm_run *run)
{
	char *log = xasprintf("%s/qemu.log", run->tmpdir);
	FILE *f = fopen(log, "r");
	char line[1024];

	while (f && fgets(line, sizeof(line), f))
		fprintf(stderr, "stapvm: qemu: %s", line);
	if (f)
		fclose(f);
	free(log);
}

/* Explain a failed run: why, then the tail of the guest console. */
static void stapvm_show_console(struct stapvm_run *run, const char *why)
{
	size_t start = run->console_len;
	int lines = 0;

	while (start > 0 && lines <= STAPVM_TAIL_LINES)
		if (run->console[--start] == '\n')
			lines++;
	if (start > 0)
		start++;
	if (run->console_len == 0)
		fprintf(stderr, "stapvm: %s; the guest console is empty\n", why);
	else
		fprintf(stderr, "stapvm: %s; guest console (last %d lines):\n", why,
			STAPVM_TAIL_LINES);
	write_all(2, run->console + start, run->console_len - start);
	if (run->console_len && run->console[run->console_len - 1] != '\n')
		fputc('\n', stderr);
	stapvm_show_qemu_log(run);
}

/* Remove the scratch directory and everything in it (it is flat). */
static void stapvm_cleanup(struct stapvm_run *run)
{
	DIR *d;
	struct dirent *e;

	stapvm_cleanup_run = NULL;
	if (run->qemu_pid > 0)
		stapvm_kill_qemu(run);
	if (!run->tmpdir[0])
		return;
	d = opendir(run->tmpdir);
	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		unlinkat(dirfd(d), e->d_name, 0);
	}
	if (d)
		closedir(d);
	rmdir(run->tmpdir);
	run->tmpdir[0] = '\0';
}

/* ------------------------------------------------------------------------
 * Command line and main.
 */

static void usage(FILE *f)
{
	fputs("usage: stapvm [-r RELEASE] [-d DIR] [--smp N] [-m MB] [--timeout SEC] [--icount] [--mttcg] [-v]\n"
	      "              [--userland=MODE] [--systemd] [--file PATH]... [-C DIR] [--outdir DIR] -- COMMAND [ARGS...]\n"
	      "Boot kernel RELEASE in a disposable QEMU (TCG) guest and run COMMAND there\n"
	      "in /work (a copy of DIR), with staprun and stapio on PATH.  The command's stdout\n"
	      "and stderr stream back byte-exact; SIGINT/SIGTERM are forwarded to it.\n"
	      "  -r RELEASE     kernel release (default: newest /boot/vmlinuz-* with headers);\n"
	      "                 its image is /boot/vmlinuz-RELEASE or /lib/modules/RELEASE/vmlinuz\n"
	      "  --kernel-root DIR  the kernel's image and modules are in the root DIR\n"
	      "                 (DIR/boot, DIR/lib/modules: a toolchain root, see stap-toolchain-root)\n"
	      "  -d DIR         directory copied to /work in the guest\n"
	      "  --smp N        guest CPUs (default 2; 1 with --icount)\n"
	      "  -m MB          guest memory (default 512)\n"
	      "  --timeout SEC  kill the guest after SEC seconds (default 300)\n"
	      "  --icount       exact instruction counting: guest ns == instructions\n"
	      "  --mttcg        a host thread per guest CPU (faster on an idle host; QEMU's\n"
	      "                 multi-threaded TCG can livelock a guest that patches its\n"
	      "                 kernel text, as kprobes do; default: one thread for all)\n"
	      "  --userland=M   host: the host's / read-only over 9p with a tmpfs overlay;\n"
	      "                 copy: busybox plus the --file files and their libraries;\n"
	      "                 busybox: busybox only; auto (default): host if the kernel\n"
	      "                 has 9p, else copy ($STAPC_QEMU_USERLAND sets the default)\n"
	      "  --file PATH    a host file the command needs (copied in copy mode, and\n"
	      "                 under /tmp in host mode: the guest's /tmp is its own)\n"
	      "  -C DIR         run COMMAND in DIR (default /work; created if missing)\n"
	      "  --outdir DIR   files the command leaves in /stapvm/out come back to DIR\n"
	      "  --hostfwd PORT a network: 127.0.0.1:PORT on the host reaches the guest's\n"
	      "                 port 22 (for an sshd the command starts; host userland)\n"
	      "  --append ARGS  more words for the guest kernel's command line\n"
	      "                 (e.g. module.sig_enforce=1)\n"
	      "  --arch arm64   boot the arm64 kernel under $STAPC_ARCH_ROOT (/var/lib/stapc/arm64/root)\n"
	      "                 in qemu-system-aarch64, busybox userland, staprun-arm64/stapio-arm64\n"
	      "  --agent PATH   a virtio-serial port org.stapc.agent whose host end is the\n"
	      "                 Unix socket PATH (for a stapc-agent the command starts:\n"
	      "                 stap --remote=unix:PATH; host userland)\n"
	      "  --systemd      the host's systemd is pid 1 and COMMAND its unit stapvm.service,\n"
	      "                 so COMMAND may use systemctl and journalctl (host userland)\n"
	      "  -v             show the guest console live and timings\n"
	      "Exit: the command's status; 3 if the guest kernel log reports a problem;\n"
	      "124 on timeout; 125 if stapvm or the guest failed.\n",
	      f);
}

static int parse_int(const char *s, const char *what)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*s == '\0' || *end != '\0' || v <= 0 || v > 1000000)
		die("bad %s: %s", what, s);
	return (int)v;
}

static int parse_userland(const char *s, const char *what)
{
	for (int i = 0; i < (int)(sizeof(stapvm_userland_names) / sizeof(stapvm_userland_names[0])); i++)
		if (!strcmp(s, stapvm_userland_names[i]))
			return i;
	die("bad %s '%s' (expected auto, host, copy or busybox)", what, s);
}

/* Settle --userland auto: the host's / when the kernel can mount it, else copies. */
static void stapvm_pick_userland(struct stapvm_run *run)
{
	const char *why = NULL;

	run->userland = run->opt.userland;
	if (run->opt.arm64 && run->userland != STAPVM_USERLAND_COPY)
		run->userland = STAPVM_USERLAND_BUSYBOX;	/* the host's programs are x86-64's */
	if (run->userland == STAPVM_USERLAND_AUTO || run->userland == STAPVM_USERLAND_HOST)
		run->modules = userland_9p_modules(run->moddir, run->opt.hostfwd_port > 0, run->opt.agent != NULL, &why);
	if (run->userland == STAPVM_USERLAND_AUTO)
		run->userland = run->modules ? STAPVM_USERLAND_HOST : STAPVM_USERLAND_COPY;
	if (run->userland == STAPVM_USERLAND_HOST && !run->modules)
		die("--userland=host: kernel %s cannot mount the host's / (no module %s); "
		    "use --userland=copy or a kernel with 9p (apt-get install linux-image-amd64 "
		    "linux-headers-amd64)", run->release, why);
	if (run->opt.hostfwd_port && run->userland != STAPVM_USERLAND_HOST)
		die("--hostfwd needs the host userland (a kernel with 9p and virtio_net)");
	if (run->opt.agent && run->userland != STAPVM_USERLAND_HOST)
		die("--agent needs the host userland (a kernel with 9p and virtio_console)");
	if (run->opt.systemd && run->userland != STAPVM_USERLAND_HOST)
		die("--systemd needs the host userland (a kernel with 9p)");
	if (run->opt.systemd && !is_file("/lib/systemd/systemd"))
		die("--systemd: /lib/systemd/systemd is missing (apt-get install systemd)");
	if (run->opt.verbose)
		fprintf(stderr, "stapvm: userland: %s\n", stapvm_userland_names[run->userland]);
}

static void parse_options(struct stapvm_options *opt, int argc, char **argv)
{
	enum { OPT_ARCH = 255, OPT_SMP = 256, OPT_TIMEOUT, OPT_ICOUNT, OPT_MTTCG, OPT_USERLAND, OPT_FILE, OPT_OUTDIR, OPT_HOSTFWD, OPT_AGENT, OPT_APPEND,
	       OPT_KERNEL_ROOT, OPT_SYSTEMD };
	static const struct option longopts[] = {
		{ "release", required_argument, NULL, 'r' },
		{ "dir", required_argument, NULL, 'd' },
		{ "smp", required_argument, NULL, OPT_SMP },
		{ "memory", required_argument, NULL, 'm' },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "icount", no_argument, NULL, OPT_ICOUNT },
		{ "mttcg", no_argument, NULL, OPT_MTTCG },
		{ "userland", required_argument, NULL, OPT_USERLAND },
		{ "file", required_argument, NULL, OPT_FILE },
		{ "cwd", required_argument, NULL, 'C' },
		{ "outdir", required_argument, NULL, OPT_OUTDIR },
		{ "hostfwd", required_argument, NULL, OPT_HOSTFWD },
		{ "agent", required_argument, NULL, OPT_AGENT },
		{ "append", required_argument, NULL, OPT_APPEND },
		{ "arch", required_argument, NULL, OPT_ARCH },
		{ "kernel-root", required_argument, NULL, OPT_KERNEL_ROOT },
		{ "systemd", no_argument, NULL, OPT_SYSTEMD },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	*opt = (struct stapvm_options){ .memory_mb = 512, .timeout_sec = 300 };
	if (getenv("STAPC_QEMU_USERLAND") && *getenv("STAPC_QEMU_USERLAND"))
		opt->userland = parse_userland(getenv("STAPC_QEMU_USERLAND"), "STAPC_QEMU_USERLAND");
	while ((c = getopt_long(argc, argv, "+r:d:m:C:vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'r': opt->release = optarg; break;
		case 'd': opt->dir = optarg; break;
		case 'm': opt->memory_mb = parse_int(optarg, "memory size"); break;
		case 'v': opt->verbose = true; break;
		case OPT_SMP: opt->smp = parse_int(optarg, "CPU count"); break;
		case OPT_TIMEOUT: opt->timeout_sec = parse_int(optarg, "timeout"); break;
		case OPT_ICOUNT: opt->icount = true; break;
		case OPT_MTTCG: opt->mttcg = true; break;
		case OPT_USERLAND: opt->userland = parse_userland(optarg, "--userland"); break;
		case OPT_FILE:
			opt->files = realloc(opt->files, (opt->n_files + 1) * sizeof(*opt->files));
			if (!opt->files)
				die("out of memory");
			opt->files[opt->n_files++] = optarg;
			break;
		case 'C': opt->cwd = optarg; break;
		case OPT_OUTDIR: opt->outdir = optarg; break;
		case OPT_HOSTFWD: opt->hostfwd_port = parse_int(optarg, "port"); break;
		case OPT_AGENT: opt->agent = optarg; break;
		case OPT_APPEND: opt->append = optarg; break;
		case OPT_ARCH:
			if (strcmp(optarg, "arm64") && strcmp(optarg, "aarch64") && strcmp(optarg, "x86_64"))
				die("--arch %s: expected x86_64 or arm64", optarg);
			opt->arm64 = strcmp(optarg, "x86_64") != 0;
			break;
		case OPT_KERNEL_ROOT: opt->kernel_root = optarg; break;
		case OPT_SYSTEMD: opt->systemd = true; break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); exit(STAPVM_EXIT_FAILURE);
		}
	}
	if (optind >= argc) {
		usage(stderr);
		exit(STAPVM_EXIT_FAILURE);
	}
	if (opt->smp == 0)
		opt->smp = opt->icount ? 1 : 2;
	if (opt->dir && !is_dir(opt->dir))
		die("-d %s: not a directory", opt->dir);
	if (opt->kernel_root && !is_dir(opt->kernel_root))
		die("--kernel-root %s: not a directory", opt->kernel_root);
	if (opt->outdir && !is_dir(opt->outdir))
		die("--outdir %s: not a directory", opt->outdir);
	if (opt->cwd && opt->cwd[0] != '/')
		die("-C %s: not an absolute path", opt->cwd);
	for (size_t i = 0; i < opt->n_files; i++)
		if (opt->files[i][0] != '/')
			die("--file %s: not an absolute path", opt->files[i]);
	opt->command = argv + optind;
}

int main(int argc, char **argv)
{
	static struct stapvm_run run;
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t stop;
	char *initrd;
	int stopped, exit_code;

	parse_options(&run.opt, argc, argv);
	stapvm_check_tools(&run.opt);
	stapvm_pick_kernel(&run);
	stapvm_pick_userland(&run);
	run.out_fd = -1;
	run.console = xmalloc(STAPVM_CONSOLE_KEEP);

	snprintf(run.tmpdir, sizeof(run.tmpdir), "%s", "/tmp/stapvm.XXXXXX");
	if (!mkdtemp(run.tmpdir))
		die("mkdtemp: %s", strerror(errno));
	stapvm_cleanup_run = &run;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	/* stap starts us with the stop signals blocked until the handlers are in place. */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	sigprocmask(SIG_UNBLOCK, &stop, NULL);
	run.parent_pid = getppid();

	run.t_start = now();
	initrd = xasprintf("%s/initrd.cpio", run.tmpdir);
	stapvm_write_initramfs(&run, initrd);
	stapvm_open_channels(&run);
	stapvm_start_qemu(&run, initrd);
	free(initrd);

	stopped = stapvm_event_loop(&run);
	if (run.opt.verbose)
		fprintf(stderr, "stapvm: guest %s after %.2f s\n",
			run.have_status ? "finished" : "stopped", now() - run.t_start);

	if (stopped == STAPVM_EXIT_TIMEOUT) {
		char *why = xasprintf("timeout: the guest ran longer than %d s", run.opt.timeout_sec);

		stapvm_show_console(&run, why);
		free(why);
		exit_code = STAPVM_EXIT_TIMEOUT;
	} else if (stopped) {
		exit_code = stopped;
	} else if (run.setup_error) {
		char *why = xasprintf("the guest could not set up its userland: %s", run.setup_error);

		stapvm_show_console(&run, why);
		free(why);
		exit_code = STAPVM_EXIT_FAILURE;
	} else if (!run.have_status) {
		int st = run.qemu_status;
		char *why = xasprintf("the guest %s (qemu %s %d%s)",
				      run.ready ? "stopped before the command finished" : "did not boot",
				      WIFSIGNALED(st) ? "killed by signal" : "exited with status",
				      WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st),
				      WIFEXITED(st) && WEXITSTATUS(st) == 0 ?
					      ": the guest reset, panicked or powered off" : "");

		stapvm_show_console(&run, why);
		free(why);
		exit_code = STAPVM_EXIT_FAILURE;
	} else {
		exit_code = run.status;
	}
	if (run.klog_count) {
		fprintf(stderr, "stapvm: guest kernel log reports a problem:\n");
		for (size_t i = 0; i < run.klog_count; i++)
			fprintf(stderr, "  %s\n", run.klog[i]);
		if (!stopped)
			exit_code = STAPVM_EXIT_KERNEL_PROBLEM;
	}
	stapvm_cleanup(&run);
	for (size_t i = 0; i < run.klog_count; i++)
		free(run.klog[i]);
	free(run.klog);
	free(run.console);
	return exit_code;
}
