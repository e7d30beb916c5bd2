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
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "modparam.h"
#include "sdt_note.h"
#include "optarg.h"
#include "staprun.h"
#include "transport_msgs.h"

#define STAPRUN_MODULE_NAME_MAX 56	/* MODULE_NAME_LEN - 8 on 64-bit kernels */
#define STAPRUN_UNLOAD_TRIES 100	/* 10 s of 100 ms retries while the module is busy */
#define STAPRUN_MAX_BUFSIZE_MB 1024	/* the module's own limit */
#define STAPRUN_LANGUAGE_VERSION "5.0"	/* the SystemTap version -V names (stap's STAPC_LANGUAGE_VERSION) */

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
	bool no_warnings;	/* -w: drop the script's warnings (stapio -w) */
	const char *color;	/* -C WHEN, passed to stapio */
	const char *tick_ms;	/* -T MS: stapio's longest wait between reads */
	const char *monitor;	/* -M INTERVAL: stapio's monitor mode, seconds between updates */
	const char *remote;	/* -r N:URI: remote_id() and remote_uri() */
	long namespaces_pid;	/* -N PID: whose namespaces the ns_* functions use, 0 for stapio's */
	bool rename;		/* -R: load the module as NAME_PID, a name no other run uses */
	const char *module_path; /* the .ko file (or module name with -d) */
	int module_fd;		/* the module opened and checked by privilege.c, or -1 */
	unsigned char *module_image; /* a signed module read and verified by privilege.c, or NULL */
	size_t module_len;	/* its length */
	char **params;		/* module parameters param=value */
	int nparams;		/* number of params */
};

static int staprun_verbose;			/* -v count */
static volatile sig_atomic_t staprun_child;	/* stapio's pid while it runs */
static volatile sig_atomic_t staprun_signalled;	/* a stop signal came before stapio ran */
static sigset_t staprun_stop_signals;		/* SIGINT, SIGTERM, SIGHUP, SIGUSR2, SIGQUIT */

void staprun_err(const char *fmt, ...)
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
	fputs("usage: staprun [-v] [-w] [-C WHEN] [-T MS] [-M SEC] [-r N:URI] [-N PID] [-o FILE [-S SIZE[,N]]] [-b MB]\n"
	      "               [-c CMD | -x PID] [-L | -D] MODULE.ko [param=value ...]\n"
	      "       staprun -A MODULE      attach to a module started with -L\n"
	      "       staprun -d MODULE      unload a module left behind by a crash\n"
	      "       staprun -V             print the version\n"
	      "  -L       load the module, start its probes, then detach and leave them running\n"
	      "  -A       attach to a module started with -L: its output, then the session's end\n"
	      "  -D       with -o: run in the background and print staprun's pid (stop it with kill)\n"
	      "  -S SIZE[,N]  with -o FILE: write FILE.0, FILE.1... of at most SIZE MiB, keep the last N\n"
	      "  -o FILE  write the script's output to FILE (strftime %-specifiers are expanded)\n"
	      "  -b MB    relay buffer size per CPU, in MB (also -s MB)\n"
	      "  -w       drop the script's warnings\n"
	      "  -N PID   the ns_* functions see ids as the namespaces of process PID do\n"
	      "  -C WHEN  color ERROR and WARNING: always, never or auto (on a terminal)\n"
	      "  -T MS    read the output buffers at least every MS milliseconds (default 50)\n"
	      "  -M SEC   monitor mode: a status window every SEC seconds, keys c s t r p x Tab\n"
	      "           (a module built with stap --monitor)\n"
	      "  -r N:URI what remote_id() and remote_uri() return\n"
	      "  -u       accepted: uprobes are part of the kernel\n"
	      "  -R       load the module as NAME_PID, so several copies can run at once\n"
	      "  SIGUSR2 to staprun or stapio: with -o, go on in FILE.1, FILE.2...\n"
	      "  SIGQUIT (Ctrl-\\): detach, leaving the probes running (reattach with -A)\n"
	      "  -c CMD   run CMD once the module started (exec'd directly, or through\n"
	      "           /bin/sh -c if it needs a shell); stop when it exits\n"
	      "  -x PID   the target() process\n"
	      "  -v       more messages (repeatable; passed on to stapio)\n", f);
}

/*
 * Stop signals go to stapio, which stops the session; staprun must live on
 * to unload. SIGUSR2 (next output file) and SIGQUIT (detach) go to stapio
 * too, and mean nothing before it runs.
 */
static void staprun_on_signal(int sig)
{
	if (staprun_child > 0)
		kill(staprun_child, sig);
	else if (sig != SIGUSR2 && sig != SIGQUIT)
		staprun_signalled = 1;
}

/* -o FILE with strftime(3) specifiers: the name for now, local time. NULL after a message. */
static const char *staprun_strftime(const char *pattern)
{
	static char name[PATH_MAX];
	time_t now = time(NULL);
	struct tm tm;

	if (!localtime_r(&now, &tm) || strftime(name, sizeof(name), pattern, &tm) == 0) {
		staprun_err("-o '%s': cannot expand its %% specifiers", pattern);
		return NULL;
	}
	return name;
}

static int staprun_parse(int argc, char **argv, struct staprun_options *opt)
{
	int c;
	long unused;	/* -T and -M are checked here, passed on to stapio as text */

	memset(opt, 0, sizeof(*opt));
	while ((c = getopt(argc, argv, "+o:s:b:c:x:vdhLADS:VwuC:T:r:RN:M:")) != -1) {
		switch (c) {
		case 'V':
			fprintf(stderr, "Systemtap module loader/runner (version %s/stapc %s, stapc)\n"
				"This is free software; see the source for copying conditions.\n",
				STAPRUN_LANGUAGE_VERSION, STAPC_VERSION);
			exit(0);
		case 'w':
			opt->no_warnings = true;
			break;
		case 'u':
			break;	/* uprobes are built into the kernels stapc targets */
		case 'R':
			opt->rename = true;
			break;
		case 'C':
			if (!stp_optarg_color(optarg)) {
				staprun_err("-C needs always, never or auto, not '%s'", optarg);
				return -1;
			}
			opt->color = optarg;
			break;
		case 'T':
			if (!stp_optarg_long(optarg, 1, 3600000, &unused)) {
				staprun_err("-T needs a time in ms from 1 to 3600000, not '%s'", optarg);
				return -1;
			}
			opt->tick_ms = optarg;
			break;
		case 'r': {
			char *end;

			strtol(optarg, &end, 10);
			if (end == optarg || *end != ':' || strlen(end + 1) >= STP_REMOTE_URI_MAX ||
			    strpbrk(end + 1, " \t\n")) {
				staprun_err("-r needs N:URI (a number, ':', a URI without blanks), not '%s'", optarg);
				return -1;
			}
			opt->remote = optarg;
			break;
		}
		case 'N': {
			char *end;

			errno = 0;
			opt->namespaces_pid = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || opt->namespaces_pid < 1 || opt->namespaces_pid > INT_MAX) {
				staprun_err("-N needs a process id, not '%s'", optarg);
				return -1;
			}
			if (kill((pid_t)opt->namespaces_pid, 0) < 0 && errno == ESRCH) {
				staprun_err("-N %ld: no such process", opt->namespaces_pid);
				return -1;
			}
			break;
		}
		case 'M':
			if (!stp_optarg_long(optarg, 1, 3600, &unused)) {
				staprun_err("-M needs an interval in seconds from 1 to 3600, not '%s'", optarg);
				return -1;
			}
			opt->monitor = optarg;
			break;
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
		case 's':
		case 'b': {
			char *end;

			errno = 0;
			opt->bufsize_mb = strtoul(optarg, &end, 10);
			if (errno || *end || opt->bufsize_mb == 0 ||
			    opt->bufsize_mb > STAPRUN_MAX_BUFSIZE_MB) {
				staprun_err("-%c needs a size in MB from 1 to %d, not '%s'",
					    c, STAPRUN_MAX_BUFSIZE_MB, optarg);
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
	if (!opt->verbose && getenv("SYSTEMTAP_VERBOSE"))	/* as documented: the level of -v */
		opt->verbose = atoi(getenv("SYSTEMTAP_VERBOSE")) > 0 ? atoi(getenv("SYSTEMTAP_VERBOSE")) : 0;
	if (opt->outfile && strchr(opt->outfile, '%') && !(opt->outfile = staprun_strftime(opt->outfile)))
		return -1;
	opt->module_path = argv[optind];
	opt->params = argv + optind + 1;
	opt->nparams = argc - optind - 1;
	for (int i = 0; i < opt->nparams; i++) {
		if (!strncmp(opt->params[i], STP_UID_PARAM "=", strlen(STP_UID_PARAM) + 1)) {
			fprintf(stderr, "staprun: %s is set by staprun itself (the user it runs for), not on its command line\n",
				STP_UID_PARAM);
			exit(1);
		}
	}
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
static int staprun_read_module(const char *path, int fd, unsigned char **image, size_t *size)
{
	struct stat st;

	if (fd < 0)
		fd = open(path, O_RDONLY | O_CLOEXEC);

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
	size_t len = 64 + 128 + 64 + STP_REMOTE_URI_MAX;
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
	if (opt->remote) {	/* -r N:URI */
		const char *colon = strchr(opt->remote, ':');

		snprintf(params + strlen(params), len - strlen(params), "%s=%.*s %s=%s ", STP_REMOTE_ID_PARAM,
			 (int)(colon - opt->remote), opt->remote, STP_REMOTE_URI_PARAM, colon + 1);
	}
	if (opt->namespaces_pid)	/* -N PID */
		snprintf(params + strlen(params), len - strlen(params), "%s=%ld ", STP_NAMESPACES_PID_PARAM,
			 opt->namespaces_pid);
	staprun_tz_params(params + strlen(params), len - strlen(params));
	snprintf(params + strlen(params), len - strlen(params), " %s=%u", STP_UID_PARAM, (unsigned)getuid());
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
		return " (the kernel requires modules signed by a key it trusts: build it with stap --sign-module "
		       "and enroll the key with mokutil --import; see man stap, SECUREBOOT)";
	case EINVAL:
		return " (bad module parameters or version magic; see dmesg)";
	default:
		return " (see dmesg)";
	}
}

/*
 * Load the module: from fd, or from image (len bytes) when it was changed in
 * memory (-R) or verified there (a signed module, privilege.c: the file it
 * came from may change after the check).
 */
static int staprun_load(int fd, const unsigned char *image, size_t len, const char *name, const char *params)
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
	if ((image ? syscall(SYS_init_module, image, len, params) : syscall(SYS_finit_module, fd, params, 0)) != 0) {
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

		STAPC_MARK1(staprun, remove_module, name);
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
	char *argv[32];
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
	if (opt->no_warnings)
		argv[argc++] = "-w";
	if (opt->color) {
		argv[argc++] = "-C";
		argv[argc++] = (char *)opt->color;
	}
	if (opt->tick_ms) {
		argv[argc++] = "-T";
		argv[argc++] = (char *)opt->tick_ms;
	}
	if (opt->monitor) {
		argv[argc++] = "-M";
		argv[argc++] = (char *)opt->monitor;
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
		signal(SIGUSR2, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
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
	sigaction(SIGUSR2, &sa, NULL);	/* stapio: next output file */
	sigaction(SIGQUIT, &sa, NULL);	/* stapio: detach */
	sigemptyset(&staprun_stop_signals);
	sigaddset(&staprun_stop_signals, SIGINT);
	sigaddset(&staprun_stop_signals, SIGTERM);
	sigaddset(&staprun_stop_signals, SIGHUP);
	sigaddset(&staprun_stop_signals, SIGUSR2);
	sigaddset(&staprun_stop_signals, SIGQUIT);
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

/* -R: NAME_PID (NAME cut to fit MODULE_NAME_LEN) in the image and in name. -1 after a message. */
static int staprun_rename(unsigned char *image, size_t len, char *name, size_t size)
{
	char suffix[16], renamed[STAPRUN_MODULE_NAME_MAX];
	int keep;

	snprintf(suffix, sizeof(suffix), "_%d", (int)getpid());
	keep = (int)(sizeof(renamed) - 1 - strlen(suffix));
	snprintf(renamed, sizeof(renamed), "%.*s%s", keep, name, suffix);
	if (staprun_modinfo_rename(image, len, name, renamed) < 0) {
		staprun_err("-R: cannot rename module '%s': its image is not laid out as expected", name);
		return -1;
	}
	staprun_log("renamed %s to %s", name, renamed);
	snprintf(name, size, "%s", renamed);
	return 0;
}

/*
 * `staprun NAME`: a name (no '/', no ".ko") that is no file here is
 * /lib/modules/RELEASE/systemtap/NAME.ko, where an administrator puts the
 * modules users may load (man staprun).
 */
static void staprun_find_by_name(struct staprun_options *opt, char *path, size_t size)
{
	const char *m = opt->module_path;
	size_t len = strlen(m);
	struct utsname u;

	if (opt->delete_only || opt->attach || strchr(m, '/') || (len > 3 && !strcmp(m + len - 3, ".ko")) ||
	    access(m, F_OK) == 0 || uname(&u) < 0)
		return;
	snprintf(path, size, "/lib/modules/%s/systemtap/%s.ko", u.release, m);
	opt->module_path = path;
}

/* Load the module file with its parameters; its name into name. -1 after a message. */
static int staprun_load_file(const struct staprun_options *opt, char *name, size_t size)
{
	unsigned char *image = NULL;
	size_t len = 0;
	char *params;
	int fd, rc;

	if (opt->module_image) {
		image = opt->module_image;
		len = opt->module_len;
		fd = -1;
	} else {
		fd = staprun_read_module(opt->module_path, opt->module_fd, &image, &len);
		if (fd < 0)
			return -1;
	}
	if (staprun_modinfo_name(image, len, name, size) < 0)
		staprun_name_from_path(opt->module_path, name, size);
	if (opt->rename && staprun_rename(image, len, name, size) < 0) {
		if (!opt->module_image)
			free(image);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	params = staprun_params(opt);
	if (!params) {
		staprun_err("out of memory");
		if (!opt->module_image)
			free(image);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	STAPC_MARK1(staprun, insert_module, opt->module_path);
	rc = staprun_load(fd, opt->module_image || opt->rename ? image : NULL, len, name, params);
	if (fd >= 0)
		close(fd);
	if (!opt->module_image)
		free(image);
	free(params);
	return rc;
}

int main(int argc, char **argv)
{
	struct staprun_options opt;
	char name[STAPRUN_MODULE_NAME_MAX + 8], stapio[PATH_MAX];
	int status;

	char trusted_path[PATH_MAX];
	int module_fd;

	unsigned char *signed_image = NULL;
	size_t signed_len = 0;

	if (staprun_privilege_check(argc, argv, &module_fd, trusted_path, sizeof(trusted_path), &signed_image,
				    &signed_len) < 0)
		return 1;
	if (staprun_parse(argc, argv, &opt) < 0)
		return 2;
	opt.module_fd = module_fd;
	opt.module_image = signed_image;
	opt.module_len = signed_len;
	if (module_fd >= 0)
		opt.module_path = trusted_path;
	else
		staprun_find_by_name(&opt, trusted_path, sizeof(trusted_path));
	staprun_verbose = opt.verbose;
	if (geteuid() != 0) {
		staprun_err("must be run as root to load and unload kernel modules");
		return 1;
	}
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
	if ((opt.detach && status == 0) || status == STP_STAPIO_EXIT_DETACHED) {
		fprintf(stderr, "Disconnecting from systemtap module.\n"
			"To reconnect, type \"staprun -A %s\"\n", name);
		return 0;
	}
	if (staprun_unload(name) < 0 && status == 0)
		status = 1;
	return status;
}
