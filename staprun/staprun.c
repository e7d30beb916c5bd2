/* staprun.c - load a probe module, run stapio on it, and unload it on every path. */

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "modparam.h"
#include "staprun.h"
#include "transport_msgs.h"

#define STAPRUN_MODULE_NAME_MAX 56	/* MODULE_NAME_LEN - 8 on 64-bit kernels */
#define STAPRUN_UNLOAD_TRIES 100	/* 10 s of 100 ms retries while the module is busy */
#define STAPRUN_MAX_BUFSIZE_MB 1024	/* the module's own limit */

/* The command line. */
struct staprun_options {
	const char *outfile;	/* -o, passed to stapio */
	const char *command;	/* -c, passed to stapio */
	const char *target_pid;	/* -x, passed to stapio */
	unsigned long bufsize_mb; /* -s, 0 for the module's default */
	int verbose;		/* -v count, passed to stapio */
	bool delete_only;	/* -d: only unload the named module */
	bool detach;		/* -L: load, start the probes, leave them running */
	bool attach;		/* -A: attach to a module loaded with -L (module_path is its name) */
	bool daemon;		/* -D: run in the background (needs -o), print the pid */
	const char *rotate;	/* -S SIZE[,N], passed to stapio */
	const char *module_path; /* the .ko file (or module name with -d) */
	char **params;		/* module parameters param=value */
	int nparams;		/* number of params */
};

static int staprun_verbose;			/* -v count */
static volatile sig_atomic_t staprun_child;	/* stapio's pid while it runs */
static volatile sig_atomic_t staprun_signalled;	/* a stop signal came before stapio ran */
static sigset_t staprun_stop_signals;		/* SIGINT, SIGTERM, SIGHUP */

static void staprun_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void staprun_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("staprun: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static void staprun_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void staprun_log(const char *fmt, ...)
{
	va_list ap;

	if (!staprun_verbose)
		return;
	va_start(ap, fmt);
	fputs("staprun: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static void staprun_usage(FILE *f)
{
	fputs("usage: staprun [-v] [-o FILE [-S SIZE[,N]]] [-s MB] [-c CMD | -x PID] [-L | -D] MODULE.ko [param=value ...]\n"
	      "       staprun -A MODULE      attach to a module started with -L\n"
	      "       staprun -d MODULE      unload a module left behind by a crash\n"
	      "  -L       load the module, start its probes, then detach and leave them running\n"
	      "  -A       attach to a module started with -L: its output, then the session's end\n"
	      "  -D       with -o: run in the background and print staprun's pid (stop it with kill)\n"
	      "  -S SIZE[,N]  with -o FILE: write FILE.0, FILE.1... of at most SIZE MiB, keep the last N\n"
	      "  -o FILE  write the script's output to FILE\n"
	      "  -s MB    relay buffer size per CPU, in MB\n"
	      "  -c CMD   run CMD once the module started (exec'd directly, or through\n"
	      "           /bin/sh -c if it needs a shell); stop when it exits\n"
	      "  -x PID   the target() process\n"
	      "  -v       more messages (repeatable; passed on to stapio)\n", f);
}

/* Stop signals go to stapio, which stops the session; staprun must live on to unload. */
static void staprun_on_signal(int sig)
{
	if (staprun_child > 0)
		kill(staprun_child, sig);
	else
		staprun_signalled = 1;
}

static int staprun_parse(int argc, char **argv, struct staprun_options *opt)
{
	int c;

	memset(opt, 0, sizeof(*opt));
	while ((c = getopt(argc, argv, "+o:s:c:x:vdhLADS:")) != -1) {
		switch (c) {
		case 'L':
			opt->detach = true;
			break;
		case 'A':
			opt->attach = true;
			break;
		case 'D':
			opt->daemon = true;
			break;
		case 'S':
			opt->rotate = optarg;
			break;
		case 'o':
			opt->outfile = optarg;
			break;
		case 's': {
			char *end;

			errno = 0;
			opt->bufsize_mb = strtoul(optarg, &end, 10);
			if (errno || *end || opt->bufsize_mb == 0 ||
			    opt->bufsize_mb > STAPRUN_MAX_BUFSIZE_MB) {
				staprun_err("-s needs a size in MB from 1 to %d, not '%s'",
					    STAPRUN_MAX_BUFSIZE_MB, optarg);
				return -1;
			}
			break;
		}
		case 'c':
			opt->command = optarg;
			break;
		case 'x':
			opt->target_pid = optarg;
			break;
		case 'v':
			opt->verbose++;
			break;
		case 'd':
			opt->delete_only = true;
			break;
		case 'h':
			staprun_usage(stdout);
			exit(0);
		default:
			staprun_usage(stderr);
			return -1;
		}
	}
	if (optind >= argc) {
		staprun_usage(stderr);
		return -1;
	}
	if (opt->command && opt->target_pid) {
		staprun_err("-c and -x cannot be used together");
		return -1;
	}
	opt->module_path = argv[optind];
	opt->params = argv + optind + 1;
	opt->nparams = argc - optind - 1;
	if ((opt->delete_only || opt->attach) && opt->nparams) {
		staprun_err("-%c takes a module name and nothing else", opt->attach ? 'A' : 'd');
		return -1;
	}
	if (opt->detach + opt->attach + opt->daemon + opt->delete_only > 1) {
		staprun_err("-L, -A, -D and -d cannot be used together");
		return -1;
	}
	if ((opt->detach || opt->attach || opt->daemon) && opt->command) {
		staprun_err("-c cannot be used with -L, -A or -D");
		return -1;
	}
	if ((opt->daemon || opt->rotate) && !opt->outfile) {
		staprun_err("-%c needs an output file (-o FILE)", opt->daemon ? 'D' : 'S');
		return -1;
	}
	return 0;
}

/* The file name without directory and ".ko", into name. */
static void staprun_name_from_path(const char *path, char *name, size_t size)
{
	const char *base = strrchr(path, '/');
	size_t len;

	base = base ? base + 1 : path;
	len = strlen(base);
	if (len > 3 && strcmp(base + len - 3, ".ko") == 0)
		len -= 3;
	if (len >= size)
		len = size - 1;
	memcpy(name, base, len);
	name[len] = '\0';
}

/* Read the whole module file. Returns the open fd (for finit_module), or -1. */
static int staprun_read_module(const char *path, unsigned char **image, size_t *size)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		staprun_err("cannot open module '%s': %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		staprun_err("'%s' is not a regular file", path);
		close(fd);
		return -1;
	}
	*size = st.st_size;
	*image = malloc(*size ? *size : 1);
	if (!*image || pread(fd, *image, *size, 0) != (ssize_t)*size) {
		staprun_err("cannot read module '%s': %s", path, strerror(errno));
		free(*image);
		*image = NULL;
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * "_stp_tz_gmtoff=S _stp_tz_name=Z": the local time zone now (seconds west of
 * UTC and its abbreviation), for the tapset's tz_ctime(), tz_gmtoff(), tz_name().
 */
static void staprun_tz_params(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;
	char name[STP_TZ_NAME_MAX];
	size_t i, j = 0;

	if (!localtime_r(&now, &tm)) {
		snprintf(buf, len, "%s=0 %s=UTC", STP_TZ_GMTOFF_PARAM, STP_TZ_NAME_PARAM);
		return;
	}
	/* module parameters are split at blanks: keep the name's letters, digits and signs */
	for (i = 0; tm.tm_zone && tm.tm_zone[i] && j < sizeof(name) - 1; i++) {
		char c = tm.tm_zone[i];

		if (isalnum((unsigned char)c) || c == '+' || c == '-')
			name[j++] = c;
	}
	name[j] = '\0';
	snprintf(buf, len, "%s=%ld %s=%s", STP_TZ_GMTOFF_PARAM, -(long)tm.tm_gmtoff, STP_TZ_NAME_PARAM,
		 j ? name : "UTC");
}

/* "_stp_bufsize=N _stp_tz_gmtoff=S _stp_tz_name=Z p1=v1 p2=v2"; NULL if out of memory. */
static char *staprun_params(const struct staprun_options *opt)
{
	size_t len = 64 + 128;
	char *params;
	int i;

	for (i = 0; i < opt->nparams; i++)
		len += strlen(opt->params[i]) + 1;
	params = malloc(len);
	if (!params)
		return NULL;
	params[0] = '\0';
	if (opt->bufsize_mb)
		snprintf(params, len, "%s=%lu ", STP_BUFSIZE_PARAM, opt->bufsize_mb);
	if (opt->detach)	/* flight recorder: keep the newest output until staprun -A */
		snprintf(params + strlen(params), len - strlen(params), "%s=1 ", STP_FLIGHTREC_PARAM);
	staprun_tz_params(params + strlen(params), len - strlen(params));
	for (i = 0; i < opt->nparams; i++) {
		if (params[0])
			strcat(params, " ");
		strcat(params, opt->params[i]);
	}
	return params;
}

static const char *staprun_load_hint(int err)
{
	switch (err) {
	case EEXIST:
		return " (a module of that name is already loaded)";
	case ENOEXEC:
		return " (not a module for this kernel: was it built against these headers? "
		       "see man error::buildid)";
	case EPERM:
		return " (module loading is disabled or locked down)";
	case EKEYREJECTED:
	case EBADMSG:
		return " (the kernel requires signed modules)";
	case EINVAL:
		return " (bad module parameters or version magic; see dmesg)";
	default:
		return " (see dmesg)";
	}
}

static int staprun_load(int fd, const char *name, const char *params)
{
	char sysdir[PATH_MAX];
	struct stat st;

	snprintf(sysdir, sizeof(sysdir), "/sys/module/%s", name);
	if (stat(sysdir, &st) == 0) {
		staprun_err("module '%s' is already loaded; if it is left over from a crash, "
			    "remove it with: staprun -d %s", name, name);
		return -1;
	}
	staprun_log("loading %s with parameters '%s'", name, params);
	if (syscall(SYS_finit_module, fd, params, 0) != 0) {
		int err = errno;

		staprun_err("cannot load module '%s': %s%s", name, strerror(err),
			    staprun_load_hint(err));
		return -1;
	}
	return 0;
}

/* Unload, retrying while the module is still busy. 0 on success. */
static int staprun_unload(const char *name)
{
	int tries;

	for (tries = 0; tries < STAPRUN_UNLOAD_TRIES; tries++) {
		struct timespec ts = { 0, 100 * 1000000L };

		if (syscall(SYS_delete_module, name, O_NONBLOCK) == 0) {
			staprun_log("unloaded %s", name);
			return 0;
		}
		if (errno != EBUSY && errno != EAGAIN)
			break;
		nanosleep(&ts, NULL);
	}
	staprun_err("cannot unload module '%s': %s", name, strerror(errno));
	return -1;
}


/*
 * -D: go on in the background. The parent prints the child's pid and
 * exits; the child, in a session of its own with stdin, stdout and stderr
 * on /dev/null, runs the script (its output goes to -o's file) until it
 * ends or is killed, and unloads the module. Returns only in the child.
 */
static void staprun_daemonize(void)
{
	pid_t pid;
	int fd;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		staprun_err("fork: %s", strerror(errno));
		return;		/* carry on in the foreground */
	}
	if (pid > 0) {
		printf("%d\n", (int)pid);
		fflush(stdout);
		_exit(0);
	}
	setsid();
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		if (fd > STDERR_FILENO)
			close(fd);
	}
}

/* stapio lives next to this executable. */
static int staprun_stapio_path(char *path, size_t size)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n < 0) {
		staprun_err("cannot read /proc/self/exe: %s", strerror(errno));
		return -1;
	}
	self[n] = '\0';
	snprintf(path, size, "%s/stapio", dirname(self));
	if (access(path, X_OK) != 0) {
		staprun_err("cannot run %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Run stapio and wait for it; returns the exit status staprun should give. */
static int staprun_run_stapio(const char *stapio, const struct staprun_options *opt,
			      const char *name)
{
	char *argv[24];
	int argc = 0, status, i;
	sigset_t old;
	pid_t pid;

	argv[argc++] = "stapio";
	for (i = 0; i < opt->verbose && i < 3; i++)
		argv[argc++] = "-v";
	if (opt->outfile) {
		argv[argc++] = "-o";
		argv[argc++] = (char *)opt->outfile;
	}
	if (opt->command) {
		argv[argc++] = "-c";
		argv[argc++] = (char *)opt->command;
	}
	if (opt->target_pid) {
		argv[argc++] = "-x";
		argv[argc++] = (char *)opt->target_pid;
	}
	if (opt->rotate) {
		argv[argc++] = "-S";
		argv[argc++] = (char *)opt->rotate;
	}
	if (stp_module_flag(name, STP_BULKMODE_PARAM) /* built with stap -b */)
		argv[argc++] = "-b";
	if (opt->detach)
		argv[argc++] = "-L";
	if (opt->attach)
		argv[argc++] = "-A";
	argv[argc++] = (char *)name;
	argv[argc] = NULL;

	/*
	 * The stop signals stay blocked across fork and exec: stapio unblocks
	 * them once its handlers are in place, so one sent right now (or
	 * passed on from before stapio ran) is held instead of killing it.
	 */
	sigprocmask(SIG_BLOCK, &staprun_stop_signals, &old);
	pid = fork();
	if (pid < 0) {
		staprun_err("fork: %s", strerror(errno));
		sigprocmask(SIG_SETMASK, &old, NULL);
		return 1;
	}
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		/* If staprun dies, stapio stops the session rather than run on. */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		execv(stapio, argv);
		fprintf(stderr, "staprun: cannot run %s: %s\n", stapio, strerror(errno));
		_exit(127);
	}
	staprun_child = pid;
	if (staprun_signalled)
		kill(pid, SIGTERM);
	sigprocmask(SIG_SETMASK, &old, NULL);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			staprun_err("waitpid: %s", strerror(errno));
			staprun_child = 0;
			return 1;
		}
	}
	staprun_child = 0;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	staprun_err("stapio was killed by signal %d", WTERMSIG(status));
	return 128 + WTERMSIG(status);
}

/* Stop signals go to stapio; stap starts us with them blocked until the handlers are in place. */
static void staprun_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = staprun_on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigemptyset(&staprun_stop_signals);
	sigaddset(&staprun_stop_signals, SIGINT);
	sigaddset(&staprun_stop_signals, SIGTERM);
	sigaddset(&staprun_stop_signals, SIGHUP);
	sigprocmask(SIG_UNBLOCK, &staprun_stop_signals, NULL);
}

/* -A: the module name to attach to, which must be loaded; -1 after a message. */
static int staprun_attach_name(const struct staprun_options *opt, char *name, size_t size)
{
	char sysdir[PATH_MAX];
	struct stat st;

	staprun_name_from_path(opt->module_path, name, size);
	snprintf(sysdir, sizeof(sysdir), "/sys/module/%s", name);
	if (stat(sysdir, &st) != 0) {
		staprun_err("module '%s' is not loaded: nothing to attach to", name);
		return -1;
	}
	return 0;
}

/* Load the module file with its parameters; its name into name. -1 after a message. */
static int staprun_load_file(const struct staprun_options *opt, char *name, size_t size)
{
	unsigned char *image = NULL;
	size_t len = 0;
	char *params;
	int fd, rc;

	fd = staprun_read_module(opt->module_path, &image, &len);
	if (fd < 0)
		return -1;
	if (staprun_modinfo_name(image, len, name, size) < 0)
		staprun_name_from_path(opt->module_path, name, size);
	free(image);
	params = staprun_params(opt);
	if (!params) {
		staprun_err("out of memory");
		close(fd);
		return -1;
	}
	rc = staprun_load(fd, name, params);
	close(fd);
	free(params);
	return rc;
}

int main(int argc, char **argv)
{
	struct staprun_options opt;
	char name[STAPRUN_MODULE_NAME_MAX + 8], stapio[PATH_MAX];
	int status;

	if (staprun_parse(argc, argv, &opt) < 0)
		return 2;
	staprun_verbose = opt.verbose;
	if (geteuid() != 0) {
		staprun_err("must be run as root to load and unload kernel modules");
		return 1;
	}
	if (staprun_check_privilege(&opt.module_path, !opt.attach && !opt.delete_only,
				    opt.delete_only) < 0)
		return 1;
	if (opt.delete_only) {
		staprun_name_from_path(opt.module_path, name, sizeof(name));
		return staprun_unload(name) ? 1 : 0;
	}
	if (staprun_stapio_path(stapio, sizeof(stapio)) < 0)
		return 1;
	if (opt.attach && staprun_attach_name(&opt, name, sizeof(name)) < 0)
		return 1;
	staprun_signals();
	if (!opt.attach && staprun_load_file(&opt, name, sizeof(name)) < 0)
		return 1;
	if (opt.daemon)
		staprun_daemonize();

	status = staprun_run_stapio(stapio, &opt, name);
	if (status == STP_STAPIO_EXIT_BUSY)
		return 1;	/* another stapio runs the session: the module is its staprun's to unload */
	if (opt.detach && status == 0) {
		fprintf(stderr, "Disconnecting from systemtap module.\n"
			"To reconnect, type \"staprun -A %s\"\n", name);
		return 0;
	}
	if (staprun_unload(name) < 0 && status == 0)
		status = 1;
	return status;
}
