/* main.c - stapio: start the module's session, stream its output and messages, stop it, report. */

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "stapio.h"
#include "modparam.h"
#include "optarg.h"

#define STAPIO_DEBUGFS "/sys/kernel/debug"
#define STAPIO_DEBUGFS_MAGIC 0x64626720
#define STAPIO_TICK_MS 50		/* polling period of the main loop */
#define STAPIO_EXIT_TIMEOUT_S 60	/* longest wait for EXITED after EXIT */

int stapio_verbose;

static volatile sig_atomic_t stapio_stop_signal; /* SIGINT/SIGTERM/SIGHUP seen */
static volatile sig_atomic_t stapio_switch_signal; /* SIGUSR2 seen: next output file */
static volatile sig_atomic_t stapio_detach_signal; /* SIGQUIT seen: detach, leave the session running */
static long stapio_tick_ms = STAPIO_TICK_MS;	/* -T */

void stapio_log(int level, const char *fmt, ...)
{
	va_list ap;

	if (stapio_verbose < level)
		return;
	va_start(ap, fmt);
	fputs("stapio: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

void stapio_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("stapio: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static void stapio_usage(FILE *f)
{
	fputs("usage: stapio [-v] [-w] [-C WHEN] [-T MS] [-M SEC] [-o FILE] [-S SIZE[,N]] [-b] [-L | -A] [-c CMD | -x PID] MODULE\n"
	      "  -o FILE  write the script's output to FILE instead of stdout\n"
	      "  -S SIZE[,N]  with -o: write FILE.0, FILE.1... of at most SIZE MiB, keep N\n"
	      "  -b       bulk mode: CPU N's output to FILE_N (stpd_cpuN without -o)\n"
	      "  -L       start the session, then leave it running (reattach with -A)\n"
	      "  -A       attach to a session already started\n"
	      "  -c CMD   run CMD once the module has started, split into words like a\n"
	      "           shell does and exec'd directly (through /bin/sh -c only when it\n"
	      "           needs a shell: pipes, redirections, ;, &&...); stop when it\n"
	      "           exits; target() is its pid\n"
	      "  -x PID   target() is PID\n"
	      "  -w       drop the script's warnings\n"
	      "  -C WHEN  color ERROR and WARNING: always, never or auto (on a terminal)\n"
	      "  -T MS    read the buffers at least every MS milliseconds (default 50)\n"
	      "  -M SEC   monitor mode: the module's status every SEC seconds (a window on a\n"
	      "           terminal, else text blocks on stdout); keys from stdin: c s t r p x\n"
	      "  -v       more messages on stderr (repeatable)\n", f);
}

static void stapio_on_stop_signal(int sig)
{
	(void)sig;
	stapio_stop_signal = 1;
}

static void stapio_on_switch_signal(int sig)
{
	(void)sig;
	stapio_switch_signal = 1;
}

static void stapio_on_detach_signal(int sig)
{
	(void)sig;
	stapio_detach_signal = 1;
}

static void stapio_on_sigchld(int sig)
{
	(void)sig;		/* only there to interrupt the tick's sleep */
}

static void stapio_signals(void)
{
	struct sigaction sa;
	sigset_t stop;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = stapio_on_stop_signal;	/* no SA_RESTART: wake the sleep */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = stapio_on_switch_signal;
	sigaction(SIGUSR2, &sa, NULL);
	sa.sa_handler = stapio_on_detach_signal;
	sigaction(SIGQUIT, &sa, NULL);
	sa.sa_handler = stapio_on_sigchld;
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	/* staprun starts us with the stop signals blocked: one sent early waits for us. */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	sigaddset(&stop, SIGUSR2);
	sigaddset(&stop, SIGQUIT);
	sigprocmask(SIG_UNBLOCK, &stop, NULL);
}

/*
 * -C WHEN: the SGR parameters of key ("error" or "warning") in
 * $SYSTEMTAP_COLORS (default error=01;31, warning=00;33), or NULL for none.
 * An empty $SYSTEMTAP_COLORS turns colors off, as in stap; "auto" colors only a
 * terminal that can show them (TERM set, and not "dumb").
 */
static const char *stapio_color(const char *when, const char *key)
{
	const char *env = getenv("SYSTEMTAP_COLORS"), *p;
	size_t klen = strlen(key);

	if (!when)
		when = "auto";
	if (!strcmp(when, "never") || (!strcmp(when, "auto") && (!isatty(STDERR_FILENO) || !getenv("TERM") || !strcmp(getenv("TERM"), "dumb"))))
		return NULL;
	if (!env)
		return strcmp(key, "error") ? "00;33" : "01;31";
	for (p = env; *p; p += strcspn(p, ":"), p += *p == ':') {
		if (!strncmp(p, key, klen) && p[klen] == '=') {
			static char sgr[2][32];
			char *out = sgr[key[0] == 'e'];

			snprintf(out, sizeof(sgr[0]), "%.*s", (int)strcspn(p + klen + 1, ":"), p + klen + 1);
			return strspn(out, "0123456789;") == strlen(out) ? out : NULL;
		}
	}
	return NULL;
}

/* Mount debugfs if it is not mounted yet. */
static int stapio_debugfs_ready(void)
{
	struct statfs st;

	if (statfs(STAPIO_DEBUGFS, &st) == 0 && (unsigned long)st.f_type == STAPIO_DEBUGFS_MAGIC)
		return 0;
	if (mount("debugfs", STAPIO_DEBUGFS, "debugfs", 0, NULL) < 0) {
		stapio_err("debugfs is not mounted on %s and mounting it failed: %s",
			   STAPIO_DEBUGFS, strerror(errno));
		return -1;
	}
	stapio_log(1, "mounted debugfs on %s", STAPIO_DEBUGFS);
	return 0;
}

/* "dir/stap_x.ko" -> "stap_x" (in place). */
static char *stapio_module_name(char *arg)
{
	char *name = strrchr(arg, '/');
	size_t len;

	name = name ? name + 1 : arg;
	len = strlen(name);
	if (len > 3 && strcmp(name + len - 3, ".ko") == 0)
		name[len - 3] = '\0';
	return name;
}

static int stapio_parse(int argc, char **argv, struct stapio_options *opt)
{
	int c;

	memset(opt, 0, sizeof(*opt));
	while ((c = getopt(argc, argv, "+o:c:x:vhS:bLAwC:T:M:")) != -1) {
		switch (c) {
		case 'w':
			opt->no_warnings = true;
			break;
		case 'C':
			if (!stp_optarg_color(optarg)) {
				stapio_err("-C needs always, never or auto, not '%s'", optarg);
				return -1;
			}
			opt->color = optarg;
			break;
		case 'T':
			if (!stp_optarg_long(optarg, 1, 3600000, &opt->tick_ms)) {
				stapio_err("-T needs a time in ms from 1 to 3600000, not '%s'", optarg);
				return -1;
			}
			break;
		case 'M': {
			long sec;

			if (!stp_optarg_long(optarg, 1, 3600, &sec)) {
				stapio_err("-M needs an interval in seconds from 1 to 3600, not '%s'", optarg);
				return -1;
			}
			opt->monitor_s = (int)sec;
			break;
		}
		case 'o':
			opt->outfile = optarg;
			opt->output.outfile = optarg;
			break;
		case 'S': {
			char *end;
			unsigned long size = strtoul(optarg, &end, 10), keep = 0;

			if (*end == ',')
				keep = strtoul(end + 1, &end, 10);
			if (*end || size < 1 || size > 4095 || (strchr(optarg, ',') && keep < 1)) {
				stapio_err("-S needs SIZE[,N] (SIZE 1-4095 MiB, N at least 1), not '%s'", optarg);
				return -1;
			}
			opt->output.rotate_size = (unsigned long long)size << 20;
			opt->output.rotate_keep = keep;
			break;
		}
		case 'b':
			opt->output.bulk = true;
			break;
		case 'L':
			opt->detach = true;
			break;
		case 'A':
			opt->attach = true;
			opt->output.attach = true;
			break;
		case 'c':
			opt->command = optarg;
			break;
		case 'x': {
			char *end;
			long pid = strtol(optarg, &end, 10);

			if (*end || pid <= 0) {
				stapio_err("-x needs a process id, not '%s'", optarg);
				return -1;
			}
			opt->target_pid = (pid_t)pid;
			break;
		}
		case 'v':
			opt->verbose++;
			break;
		case 'h':
			stapio_usage(stdout);
			exit(0);
		default:
			stapio_usage(stderr);
			return -1;
		}
	}
	if (optind != argc - 1) {
		stapio_usage(stderr);
		return -1;
	}
	if (opt->command && opt->target_pid) {
		stapio_err("-c and -x cannot be used together");
		return -1;
	}
	if (opt->output.rotate_size && !opt->outfile) {
		stapio_err("-S needs -o FILE");
		return -1;
	}
	if ((opt->detach || opt->attach) && opt->command) {
		stapio_err("-c cannot be used with -L or -A");
		return -1;
	}
	if (opt->detach && opt->attach) {
		stapio_err("-L and -A cannot be used together");
		return -1;
	}
	opt->module = stapio_module_name(argv[optind]);
	return 0;
}

/* The summary lines after the session; returns the exit status. */
static int stapio_report(const struct stapio_control *ctl)
{
	const struct _stp_msg_exited *s = &ctl->summary;

	if (!ctl->exited) {
		stapio_err("the module did not report its end; output may be incomplete");
		return 1;
	}
	if (s->errors || s->skipped)
		fprintf(stderr, "WARNING: Number of errors: %u, skipped probes: %llu\n",
			s->errors, (unsigned long long)s->skipped);
	if (s->dropped)
		fprintf(stderr,
			"stapio: %llu output records lost: the relay buffers were full "
			"(use -s MB to enlarge them)\n", (unsigned long long)s->dropped);
	if (s->overwritten)
		fprintf(stderr,
			"stapio: %llu older output records overwritten in flight recorder mode "
			"(use -s MB to keep more)\n", (unsigned long long)s->overwritten);
	if (s->lost_msgs)
		fprintf(stderr, "stapio: %llu warning/error messages lost: the control "
			"channel was full\n", (unsigned long long)s->lost_msgs);
	return s->errored ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct stapio_options opt;
	struct stapio_control ctl = { .fd = -1 };
	struct stapio_relay *relay = NULL;
	struct _stp_cmd_start start = { .version = STP_PROTOCOL_VERSION };
	struct timespec exit_sent_at = { 0, 0 };
	bool exit_sent = false, released = false, failed = false;
	bool input = false, input_done = false;
	char dir[4096];
	int status;

	if (stapio_parse(argc, argv, &opt) < 0)
		return 2;
	stapio_verbose = opt.verbose;
	if (opt.tick_ms)
		stapio_tick_ms = opt.tick_ms;
	stapio_signals();

	snprintf(dir, sizeof(dir), "%s/%s/%s", STAPIO_DEBUGFS, STP_DEBUGFS_ROOT, opt.module);
	if (stapio_debugfs_ready() < 0)
		return 1;
	status = stapio_control_open(&ctl, dir);
	if (status < 0)
		return status == -2 ? STP_STAPIO_EXIT_BUSY : 1;
	ctl.no_warnings = opt.no_warnings;
	ctl.warning_sgr = stapio_color(opt.color, "warning");
	ctl.error_sgr = stapio_color(opt.color, "error");
	relay = stapio_relay_open(dir, &opt.output);
	if (!relay) {
		stapio_control_close(&ctl);
		return 1;
	}

	if (opt.monitor_s && !opt.detach && !stp_module_flag(opt.module, STP_MONITOR_PARAM)) {
		stapio_err("-M: the module was not built with stap --monitor: no status");
		opt.monitor_s = 0;
	}
	input = stapio_input_wanted(opt.module) && !opt.detach && !opt.monitor_s; /* -M: stdin gives keys */
	if (opt.monitor_s && !opt.detach)
		stapio_monitor_start(opt.monitor_s);
	if (input)
		stapio_input_start();
	if (opt.attach) {
		/* the session runs already: no START; it may have asked to stop meanwhile */
		ctl.started = true;
		released = true;
		stapio_log(1, "attached to %s", opt.module);
	} else {
		start.target_pid = opt.target_pid;
		if (opt.command) {
			pid_t pid = stapio_target_spawn(opt.command);

			if (pid < 0)
				failed = true;
			start.target_pid = pid;
		}
		if (failed || stapio_control_send(&ctl, STP_CMD_START, &start, sizeof(start)) < 0) {
			stapio_target_release(false);
			stapio_relay_close(relay);
			stapio_control_close(&ctl);
			return 1;
		}
		stapio_log(1, "sent START to %s", opt.module);
	}

	for (;;) {
		bool want_exit;

		if (stapio_control_poll(&ctl) < 0) {
			failed = true;
			break;
		}
		if (ctl.started && !released) {
			stapio_target_release(ctl.start_status == 0 && !exit_sent);
			released = true;
		}
		stapio_relay_poll(relay, false);
		if (ctl.exited)
			break;
		stapio_monitor_poll(&ctl, ctl.started && ctl.start_status == 0 && !exit_sent && !ctl.exit_wanted);
		if (input && ctl.started && ctl.start_status == 0 && !exit_sent && !opt.detach &&
		    stapio_input_poll(&ctl, &input_done) < 0) {
			failed = true;
			break;
		}
		if (opt.detach && ctl.started && ctl.start_status == 0 && !ctl.exit_wanted &&
		    !stapio_stop_signal) {
			/* -L: the begin probes' output is out; leave the session running */
			stapio_control_print(&ctl);
			stapio_relay_close(relay);
			stapio_control_close(&ctl);
			return 0;
		}
		if (stapio_detach_signal && ctl.started && ctl.start_status == 0 && !exit_sent && !opt.command) {
			/* SIGQUIT (Ctrl-\): leave the session running; staprun -A reattaches */
			stapio_relay_poll(relay, false);
			stapio_control_print(&ctl);
			stapio_relay_close(relay);
			stapio_control_close(&ctl);
			return STP_STAPIO_EXIT_DETACHED;
		}
		stapio_detach_signal = 0;	/* before STARTED, while stopping or with -c: stay */
		if (stapio_switch_signal) {
			stapio_switch_signal = 0;
			stapio_relay_switch(relay);
		}
		stapio_control_print(&ctl);	/* after the output that came before */
		/* system() commands after the output and messages that came before them */
		stapio_system_run(stapio_relay_written(relay), false);
		stapio_system_reap(false);

		want_exit = stapio_stop_signal || ctl.exit_wanted ||
			(ctl.started && ctl.start_status != 0) ||
			(opt.command && released && stapio_target_exited());
		if (want_exit && !exit_sent) {
			stapio_log(1, "sending EXIT (%s)", stapio_stop_signal ? "signal" :
				   ctl.exit_wanted ? "module request" : "command exited");
			if (stapio_control_send(&ctl, STP_CMD_EXIT, NULL, 0) < 0) {
				failed = true;
				break;
			}
			exit_sent = true;
			clock_gettime(CLOCK_MONOTONIC, &exit_sent_at);
		}
		if (exit_sent) {
			struct timespec now;

			clock_gettime(CLOCK_MONOTONIC, &now);
			if (now.tv_sec - exit_sent_at.tv_sec > STAPIO_EXIT_TIMEOUT_S) {
				stapio_err("no answer to EXIT after %d s; giving up",
					   STAPIO_EXIT_TIMEOUT_S);
				failed = true;
				break;
			}
		}
		stapio_relay_wait(relay, (int)stapio_tick_ms);	/* -T: the longest wait between reads */
	}

	/* The module has stopped writing: everything left is in the files. */
	stapio_monitor_stop();
	stapio_relay_poll(relay, true);
	stapio_control_print(&ctl);
	stapio_system_run(0, true);
	stapio_system_reap(true);
	if (!released)
		stapio_target_release(false);
	stapio_target_stop();
	stapio_relay_close(relay);
	stapio_control_close(&ctl);
	status = stapio_report(&ctl);
	return failed ? 1 : status;
}
