/* remote_ssh.c - pass 5 on a fleet: ssh hosts, unix: endpoints, direct:// and qemu guests; one build per kernel release; output merged by line. */

/*
 * Design
 * ------
 * A fleet run has four steps, each bounded and each a function below:
 *
 *   1. connect  Each ssh target gets one OpenSSH connection of its own, a
 *               ControlMaster (`ssh -M`) whose command prints the target's
 *               `uname -r` and `uname -m` and then waits on its stdin. Later
 *               commands go through that master (ControlPath), so a host is
 *               authenticated once. At most --remote-jobs masters are being
 *               set up at a time. A unix:PATH target is a connection to a
 *               stapc-agent (agent/agent_wire.h), which says its release and
 *               machine first. direct:// and qemu learn their release here.
 *   2. build    One `stap -p4 -r RELEASE` child per distinct release, all at
 *               once, through the module cache: 50 hosts on 2 releases cost
 *               2 builds. A release without /lib/modules/R/build here fails
 *               its targets with a message naming the package; others go on.
 *               With --use-server the children ask the compile server
 *               instead (use_server.c), and its signature file NAME.ko.sgn
 *               travels with the module: no headers are needed here.
 *   3. start    An ssh target's session is one command over its master: a
 *               small sh script that reads the module from stdin (its exact
 *               size), runs staprun on it, and watches stdin: when stdin
 *               ends (stap closed it to stop the session, or the connection
 *               dropped, or stap died and ssh with it) it sends staprun
 *               SIGTERM, so the end probes run and the module is unloaded
 *               whatever happened here. At most --remote-jobs modules are
 *               being copied at a time. A unix: target gets the same over its
 *               one stream, as frames (staprun's words, the module, RUN), and
 *               sends back staprun's stdout, stderr and status as frames; a
 *               STOP frame, or the stream's end, is its stop request.
 *               direct:// runs staprun here and qemu runs stapvm; both are
 *               stopped with SIGTERM.
 *   4. merge    One poll loop reads every session's stdout and stderr and
 *               writes whole lines only (one write each, "N: " first under
 *               --remote-prefix), so lines of two targets never tear.
 *
 * Every child (ssh, staprun, stapvm, stap) runs in a process group of its
 * own (a terminal's Ctrl-C reaches stap only, which stops each session in
 * order, instead of killing ssh before the end probes' output came back)
 * with PR_SET_PDEATHSIG = SIGTERM, so a stap killed by SIGKILL takes its
 * ssh processes with it and every target sees its connection close.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "arch.h"
#include "../runtime/transport_msgs.h"
#include "../../agent/agent_wire.h"

#include "run.h"
#include "remote.h"

#define REMOTE_DEFAULT_JOBS 16
#define REMOTE_LINE_MAX 65536	/* a longer line is written in pieces of this size */

enum target_kind {
	TARGET_SSH,	/* [USER@]HOST[:PORT] or ssh://...: OpenSSH */
	TARGET_DIRECT,	/* direct://: staprun on this host */
	TARGET_QEMU,	/* qemu[:RELEASE]: a disposable guest (stapvm) */
	TARGET_UNIX,	/* unix:PATH: a stapc-agent at the end of a Unix socket */
};

/* One output stream of a session, cut into lines. */
struct stream {
	int fd;		/* read end, -1 once closed */
	int to;		/* where its lines go: 1, 2 or -o's file */
	char *buf;	/* the partial line so far */
	size_t len;	/* bytes in buf */
};

struct target {
	int index;		/* N: its place among the --remote options, from 0 */
	const char *url;	/* as given */
	const char *name;	/* for messages: the host, "direct://" or "qemu:RELEASE" */
	enum target_kind kind;
	const char *host;	/* ssh: [USER@]HOST */
	const char *port;	/* ssh: PORT, or NULL */
	const char *release;	/* its kernel release, once known */
	const char *arch;	/* its machine (uname -m), once known */
	const char *failure;	/* why it did not run to the end, NULL while fine */
	const char *control;	/* ssh: the ControlPath socket */
	const char *log;	/* ssh: the master's stderr, for messages */
	pid_t master;		/* ssh: the ControlMaster, 0 when gone */
	int master_in;		/* ssh: the master's stdin (closing it ends the master) */
	int master_out;		/* ssh: its stdout while connecting, else -1 */
	char probe[512];	/* ssh: what the master printed so far (release, machine) */
	size_t probe_len;	/* bytes in probe */
	const char *ko;		/* the module built for release */
	const char *ko_data;	/* ssh: its bytes, being copied */
	size_t ko_size;		/* bytes of ko_data */
	size_t ko_sent;		/* bytes written to session_in so far */
	pid_t session;		/* the session's process (ssh, staprun or stapvm), 0 when gone */
	int session_in;		/* ssh: the session's stdin, -1 once closed */
	int status;		/* the session's exit status */
	bool started;		/* the session was started */
	bool copied;		/* ssh: the whole module was written */
	struct stream out;	/* the session's stdout */
	struct stream err;	/* the session's stderr */
	int sock;		/* unix: the stream to the agent, -1 once closed */
	unsigned char *rbuf;	/* unix: bytes read from it, not yet a whole frame */
	size_t rlen;		/* unix: bytes in rbuf */
	double heard;		/* unix: when the agent last sent a frame (now_sec) */
};

/* The fleet's state shared by the steps. */
struct fleet {
	struct session *s;
	struct target *t;	/* the targets, in --remote order */
	int n;			/* how many */
	int jobs;		/* --remote-jobs */
	const char *dir;	/* scratch directory: control sockets, logs, builds */
	int out_fd;		/* where stdout lines go: 1 or -o's file */
	double deadline;	/* -T: the monotonic time to stop at, 0 = none */
	int stops;		/* stop requests handled (signals, -T) */
};

/* Process-wide: a signal handler reaches only file-scope state (shell/compiler_state). */
/* What the signal handler sees (it can reach only file-scope state): the process's. */
static struct {
	int wake[2];                          /* self-pipe: signals wake poll */
	volatile sig_atomic_t count;          /* stop signals received */
	volatile sig_atomic_t last;           /* the last one */
} remote_sig = { .wake = { -1, -1 } };

/* ---- URLs ---- */

bool remote_url_is_qemu(const char *url)
{
	return !strncmp(url, "qemu", 4) && (!url[4] || url[4] == ':');
}

/* Split [USER@]HOST[:PORT] into t->host and t->port; NULL, or why it is not one. */
static const char *parse_ssh_host(const char *spec, const char **host, const char **port)
{
	const char *at = strrchr(spec, '@');
	const char *hostpart = at ? at + 1 : spec;
	const char *colon = strchr(hostpart, ':');
	size_t hostlen = colon ? (size_t)(colon - hostpart) : strlen(hostpart);

	if (at == spec)
		return "an empty user name before '@'";
	if (!hostlen)
		return "no host name";
	if (strcspn(spec, "/ \t'\"\\;&|<>$`") != strlen(spec))
		return "a host name has no '/', space, quote or shell character";
	if (colon) {
		char *end;
		long p = strtol(colon + 1, &end, 10);
		if (!colon[1] || *end || p < 1 || p > 65535)
			return "the port after ':' must be a number from 1 to 65535";
		if (port)
			*port = ast_strdup(colon + 1);
	} else if (port) {
		*port = NULL;
	}
	if (host)
		*host = ast_strndup(spec, (size_t)(hostpart - spec) + hostlen);
	return NULL;
}

const char *remote_url_check(const char *url)
{
	if (remote_url_is_qemu(url))
		return NULL;
	if (!strcmp(url, "direct://"))
		return NULL;
	if (!strncmp(url, "unix:", 5)) {
		if (!url[5])
			return "no socket path after 'unix:'";
		if (strlen(url + 5) >= sizeof(((struct sockaddr_un *)0)->sun_path))
			return "the socket path is too long";
		return NULL;
	}
	if (!strncmp(url, "ssh://", 6))
		return parse_ssh_host(url + 6, NULL, NULL);
	if (strstr(url, "://"))
		return "unsupported scheme (expected ssh://, unix:PATH, direct://, qemu[:RELEASE] or [USER@]HOST[:PORT])";
	return parse_ssh_host(url, NULL, NULL);
}

/* ---- children ---- */

static void remote_on_signal(int sig)
{
	int saved = errno;
	if (sig != SIGCHLD) {
		remote_sig.count++;
		remote_sig.last = sig;
	}
	if (remote_sig.wake[1] >= 0 && write(remote_sig.wake[1], "", 1) < 0) {
		/* the pipe is full: poll wakes anyway */
	}
	errno = saved;
}

/*
 * Start argv with stdin in (-1: /dev/null), stdout out and stderr err (-1:
 * stap's own), in a process group of its own, with PR_SET_PDEATHSIG. The
 * fds given are closed here. Returns the pid, or 0 if fork failed.
 */
static pid_t spawn(struct vec *argv, int in, int out, int err)
{
	pid_t parent = getpid();
	vec_push(argv, NULL);
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "stap: fork: %s\n", strerror(errno));
		pid = 0;
	} else if (pid == 0) {
		static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD, SIGALRM };
		sigset_t none;
		for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
			signal(sigs[i], SIG_DFL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		setpgid(0, 0);
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) < 0 || getppid() != parent)
			_exit(125);
		if (in < 0)
			in = open("/dev/null", O_RDONLY);
		if (in >= 0 && in != 0)
			dup2(in, 0);
		if (out >= 0 && out != 1)
			dup2(out, 1);
		if (err >= 0 && err != 2)
			dup2(err, 2);
		execvp(argv->items[0], (char **)argv->items);
		fprintf(stderr, "stap: cannot run %s: %s\n", (char *)argv->items[0], strerror(errno));
		_exit(127);
	}
	argv->n--;	/* the NULL */
	if (in > 2)
		close(in);
	if (out > 2)
		close(out);
	if (err > 2)
		close(err);
	return pid;
}

/* A pipe whose ends stap keeps are close-on-exec; r and w get its ends. */
static bool make_pipe(int *r, int *w)
{
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) < 0) {
		fprintf(stderr, "stap: pipe: %s\n", strerror(errno));
		return false;
	}
	*r = fds[0];
	*w = fds[1];
	return true;
}

/* ssh's words: $STAPC_SSH (split at spaces; e.g. "ssh -F ./config"), else "ssh". */
static void ssh_words(struct vec *argv, const struct target *t, bool master)
{
	const char *cmd = getenv("STAPC_SSH");
	char *words = ast_strdup(cmd && *cmd ? cmd : "ssh");
	for (char *w = strtok(words, " \t"); w; w = strtok(NULL, " \t"))
		vec_push(argv, w);
	vec_push(argv, "-o");
	vec_push(argv, master ? "ControlMaster=yes" : "ControlMaster=no");
	vec_push(argv, "-o");
	vec_push(argv, ast_printf("ControlPath=%s", t->control));
	if (master) {
		/* no prompts: many hosts at once cannot share one terminal */
		vec_push(argv, "-o");
		vec_push(argv, "BatchMode=yes");
		vec_push(argv, "-o");
		vec_push(argv, "ConnectTimeout=15");
		/* a host that stops answering is noticed in 15 s */
		vec_push(argv, "-o");
		vec_push(argv, "ServerAliveInterval=5");
		vec_push(argv, "-o");
		vec_push(argv, "ServerAliveCountMax=3");
	}
	if (t->port) {
		vec_push(argv, "-p");
		vec_push(argv, (char *)t->port);
	}
	vec_push(argv, (char *)t->host);
}

/* s in single quotes for sh. */
static const char *sh_quote(const char *s)
{
	const char *out = "'";
	for (const char *p = s; *p; p++)
		out = ast_printf("%s%s", out, *p == '\'' ? "'\\''" : ast_strndup(p, 1));
	return ast_printf("%s'", out);
}

static double now_sec(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The last non-empty line of file path (an ssh log), or "". */
static const char *last_line(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512];
	const char *last = "";
	if (!f)
		return last;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (*line)
			last = ast_strdup(line);
	}
	fclose(f);
	return last;
}

static void target_fail(struct target *t, const char *why)
{
	if (t->failure)
		return;
	t->failure = why;
	fprintf(stderr, "stap: target %d (%s): %s\n", t->index, t->name, why);
}

/* ---- 1. connect ---- */

static void connect_start(struct fleet *f, struct target *t)
{
	int in_r, in_w, out_r, out_w;
	struct vec argv = {0};

	t->control = ast_printf("%s/ssh-%d", f->dir, t->index);
	t->log = ast_printf("%s/ssh-%d.log", f->dir, t->index);
	int log = open(t->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (log < 0 || !make_pipe(&in_r, &in_w) || !make_pipe(&out_r, &out_w)) {
		target_fail(t, "cannot set up its connection");
		return;
	}
	ssh_words(&argv, t, true);
	/* the release and machine, then wait for stdin to end: the master lives as long as that */
	vec_push(&argv, "uname -r; uname -m; exec cat >/dev/null");
	t->master = spawn(&argv, in_r, out_w, log);
	t->master_in = in_w;
	t->master_out = out_r;
	if (!t->master) {
		close(in_w);
		close(out_r);
		t->master_out = t->master_in = -1;
		target_fail(t, "cannot start ssh");
	}
}

/* The master printed something: two lines make a release and a machine. */
static void connect_read(struct target *t)
{
	ssize_t got = read(t->master_out, t->probe + t->probe_len, sizeof(t->probe) - 1 - t->probe_len);
	if (got > 0) {
		t->probe_len += (size_t)got;
		t->probe[t->probe_len] = '\0';
		char *nl = strchr(t->probe, '\n');
		if (!nl || !strchr(nl + 1, '\n')) {
			if (t->probe_len < sizeof(t->probe) - 1)
				return;
		} else {
			*nl = '\0';
			nl[1 + strcspn(nl + 1, "\n")] = '\0';
			t->release = ast_strdup(t->probe);
			t->arch = ast_strdup(nl + 1);
			close(t->master_out);
			t->master_out = -1;
			return;
		}
	}
	if (got < 0 && errno == EINTR)
		return;
	close(t->master_out);
	t->master_out = -1;
	const char *why = last_line(t->log);
	target_fail(t, *why ? ast_printf("cannot connect: %s", why) : "cannot connect (ssh gave no reason)");
}

/* ---- unix: endpoints (agent/agent_wire.h) ---- */

static void stream_take(struct fleet *f, struct target *t, struct stream *st, const char *data, size_t n);
static void stream_flush(struct fleet *f, struct target *t, struct stream *st);
static bool read_whole(const char *path, const char **data, size_t *size);

/* Connect to a unix:PATH target; its agent's hello comes on t->sock. */
static void unix_connect(struct target *t)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", t->url + 5);
	t->sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (t->sock < 0 || connect(t->sock, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		target_fail(t, ast_printf("cannot connect: %s", errno == EAGAIN ? "the endpoint is busy (another stap?)"
										   : strerror(errno)));
		if (t->sock >= 0)
			close(t->sock);
		t->sock = -1;
		return;
	}
	t->heard = now_sec();
}

/* The stream to an agent is over: why (NULL after its exit status) fails the target; its last partial lines. */
static void unix_end(struct fleet *f, struct target *t, const char *why)
{
	if (why)
		target_fail(t, why);
	if (t->sock >= 0)
		close(t->sock);
	if (t->session_in >= 0)
		close(t->session_in);
	t->sock = t->session_in = -1;
	free(t->rbuf);
	t->rbuf = NULL;
	t->rlen = 0;
	stream_flush(f, t, &t->out);
	stream_flush(f, t, &t->err);
}

/* One frame from the agent. */
static void unix_frame(struct fleet *f, struct target *t, int type, const char *data, size_t len)
{
	char magic[32], release[128], machine[64];
	switch (type) {
	case AGENT_HELLO:
		if (t->release)
			break;
		if (sscanf(ast_strndup(data, len), "%31s %127s %63s", magic, release, machine) != 3 ||
		    strcmp(magic, AGENT_MAGIC)) {
			unix_end(f, t, ast_printf("cannot connect: the endpoint is not a stapc-agent (it said '%.40s')",
						  ast_strndup(data, len)));
			break;
		}
		t->release = ast_strdup(release);
		t->arch = ast_strdup(machine);
		break;
	case AGENT_OUT:
	case AGENT_ERR:
		stream_take(f, t, type == AGENT_OUT ? &t->out : &t->err, data, len);
		break;
	case AGENT_EXIT:
		t->status = atoi(ast_strndup(data, len));
		unix_end(f, t, NULL);
		break;
	default:
		break;	/* AGENT_ALIVE: t->heard is all it says */
	}
}

/* Read what the agent sent and take its whole frames. */
static void unix_read(struct fleet *f, struct target *t)
{
	char chunk[65536];
	ssize_t n = read(t->sock, chunk, sizeof(chunk));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		const char *why = n < 0 ? strerror(errno) : "the endpoint closed the connection";
		unix_end(f, t, ast_printf("%s: %s", t->release ? "connection lost" : "cannot connect", why));
		return;
	}
	t->heard = now_sec();
	t->rbuf = realloc(t->rbuf, t->rlen + (size_t)n);
	if (!t->rbuf) {
		unix_end(f, t, "out of memory");
		return;
	}
	memcpy(t->rbuf + t->rlen, chunk, (size_t)n);
	t->rlen += (size_t)n;
	size_t at = 0;
	while (t->rlen - at >= 5) {
		const unsigned char *h = t->rbuf + at;
		size_t len = (size_t)h[1] << 24 | (size_t)h[2] << 16 | (size_t)h[3] << 8 | h[4];
		if (len > AGENT_FRAME_MAX) {
			unix_end(f, t, "connection lost: a frame longer than a stapc-agent sends");
			return;
		}
		if (t->rlen - at < 5 + len)
			break;
		unix_frame(f, t, h[0], (const char *)h + 5, len);
		if (t->sock < 0)
			return;	/* its exit status, or a bad hello: the buffer is gone */
		at += 5 + len;
	}
	memmove(t->rbuf, t->rbuf + at, t->rlen - at);
	t->rlen -= at;
}

/* Append one frame to the request *buf (of *len bytes). */
static void unix_put(char **buf, size_t *len, int type, const void *data, size_t n)
{
	char *out = ast_alloc(*len + 5 + n);
	memcpy(out, *buf, *len);
	out[*len] = (char)type;
	out[*len + 1] = (char)(n >> 24), out[*len + 2] = (char)(n >> 16);
	out[*len + 3] = (char)(n >> 8), out[*len + 4] = (char)n;
	memcpy(out + *len + 5, data, n);
	*buf = out;
	*len += 5 + n;
}

/*
 * A unix: target's session: the request (staprun's options, the module in
 * frames, its signature if a compile server gave one, the parameters, RUN) is
 * written by session_copy as an ssh session's module is; the agent's frames
 * come back on t->sock.
 */
static void unix_start(struct fleet *f, struct target *t)
{
	const char *ko;
	size_t ko_size, len = 0;
	char *req = "";
	struct vec args = {0};

	if (!read_whole(t->ko, &ko, &ko_size)) {
		target_fail(t, ast_printf("cannot read the module %s", t->ko));
		return;
	}
	run_staprun_options(f->s, &args, NULL);
	for (int i = 0; i < args.n; i++)
		unix_put(&req, &len, AGENT_OPTION, args.items[i], strlen(args.items[i]));
	const char *base = strrchr(t->ko, '/') ? strrchr(t->ko, '/') + 1 : t->ko;
	unix_put(&req, &len, AGENT_NAME, base, strlen(base));
	for (size_t at = 0; at < ko_size; at += AGENT_FRAME_MAX)
		unix_put(&req, &len, AGENT_DATA, ko + at, ko_size - at < AGENT_FRAME_MAX ? ko_size - at : AGENT_FRAME_MAX);
	const char *sig;
	size_t sig_size;
	if (read_whole(ast_printf("%s.sgn", t->ko), &sig, &sig_size) && sig_size <= AGENT_FRAME_MAX)
		unix_put(&req, &len, AGENT_SIG, sig, sig_size);
	args.n = 0;
	vec_push(&args, ast_printf("%s=%d", STP_REMOTE_ID_PARAM, t->index));
	vec_push(&args, ast_printf("%s=%.*s", STP_REMOTE_URI_PARAM, STP_REMOTE_URI_MAX - 1, t->url));
	run_global_params(f->s, &args);
	for (int i = 0; i < args.n; i++)
		unix_put(&req, &len, AGENT_PARAM, args.items[i], strlen(args.items[i]));
	unix_put(&req, &len, AGENT_RUN, "", 0);
	t->session_in = fcntl(t->sock, F_DUPFD_CLOEXEC, 3);
	t->ko_data = req;
	t->ko_size = len;
	t->out = (struct stream){ .fd = -1, .to = f->out_fd };
	t->err = (struct stream){ .fd = -1, .to = 2 };
	t->started = t->session_in >= 0;
	t->copied = false;
	t->heard = now_sec();	/* its ALIVE frames waited in the socket during the build */
	if (!t->started)
		unix_end(f, t, "cannot start its session");
}

/* Ask an agent to end its session as Ctrl-C does; hard: drop the connection (the agent still stops staprun). */
static void unix_stop(struct fleet *f, struct target *t, bool hard)
{
	if (t->sock < 0 || !t->started)
		return;
	if (hard) {
		t->status = 128 + SIGKILL;
		unix_end(f, t, NULL);
	} else if (!t->copied) {
		unix_end(f, t, "stopped before its module arrived");
	} else if (t->session_in >= 0) {
		static const char stop[5] = { AGENT_STOP, 0, 0, 0, 0 };
		if (write(t->session_in, stop, sizeof(stop)) != (ssize_t)sizeof(stop))
			unix_end(f, t, NULL);	/* the stream's end is a stop too */
	}
}

/* Is t still learning its release (an ssh master's output or an agent's hello to come)? */
static bool connecting(const struct target *t)
{
	return t->master_out >= 0 || (t->kind == TARGET_UNIX && t->sock >= 0 && !t->release);
}

/* Learn every target's release and machine, at most f->jobs connections being made at once. */
static void connect_all(struct fleet *f)
{
	int next = 0, busy = 0;
	for (;;) {
		while (busy < f->jobs && next < f->n && !remote_sig.count) {
			struct target *t = &f->t[next++];
			struct utsname u;
			switch (t->kind) {
			case TARGET_SSH:
				connect_start(f, t);
				busy += t->master_out >= 0;
				break;
			case TARGET_UNIX:
				unix_connect(t);
				busy += t->sock >= 0;
				break;
			case TARGET_DIRECT:
				uname(&u);
				t->release = ast_strdup(u.release);
				t->arch = ast_strdup(u.machine);
				break;
			case TARGET_QEMU:
				t->release = t->url[4] == ':' && t->url[5] ? t->url + 5 : run_pick_guest_release();
				t->arch = "x86_64";
				if (!t->release)
					target_fail(t, "no installed kernel with a build tree to boot "
						       "(apt-get install linux-image-cloud-amd64 linux-headers-cloud-amd64)");
				break;
			}
		}
		if (!busy || remote_sig.count)
			return;
		struct pollfd pfd[f->n + 1];
		struct target *who[f->n + 1];
		int np = 0;
		pfd[np++] = (struct pollfd){ .fd = remote_sig.wake[0], .events = POLLIN };
		for (int i = 0; i < f->n; i++)
			if (connecting(&f->t[i])) {
				who[np] = &f->t[i];
				pfd[np++] = (struct pollfd){ .fd = f->t[i].kind == TARGET_UNIX ? f->t[i].sock : f->t[i].master_out,
							     .events = POLLIN };
			}
		if (poll(pfd, (nfds_t)np, 1000) < 0 && errno != EINTR)
			return;
		if (pfd[0].revents) {
			char drain[64];
			while (read(remote_sig.wake[0], drain, sizeof(drain)) > 0) {
			}
		}
		for (int i = 1; i < np; i++) {
			if (pfd[i].revents && who[i]->kind == TARGET_UNIX)
				unix_read(f, who[i]);
			else if (pfd[i].revents)
				connect_read(who[i]);
			else if (who[i]->kind == TARGET_UNIX && now_sec() - who[i]->heard > AGENT_SILENCE_SEC)
				unix_end(f, who[i], ast_printf("cannot connect: no stapc-agent answered in %d s (is one "
							       "running there, or is another stap using it?)", AGENT_SILENCE_SEC));
			busy -= !connecting(who[i]);
		}
	}
}

/* ---- 2. build ---- */

/* One build per distinct release: its directory, its child, its module. */
struct release_build {
	const char *release;	/* the kernel release */
	const char *dir;	/* --remote-build-dir: where NAME.ko lands */
	pid_t pid;		/* the stap -p4 child, 0 when done */
	int out;		/* its stdout (the module's path) */
	const char *ko;		/* the module, NULL if the build failed */
};

/*
 * Build the module once for each release the targets run: `stap -p4 -r R`
 * with stap's own options and script, all releases at once, each through
 * the module cache. Targets of a release with no build tree here fail with
 * the package to install.
 */
static void build_all(struct fleet *f)
{
	struct release_build b[f->n];
	int nb = 0;

	for (int i = 0; i < f->n; i++) {
		struct target *t = &f->t[i];
		if (t->failure || !t->release)
			continue;
		int k = 0;
		while (k < nb && strcmp(b[k].release, t->release))
			k++;
		if (k < nb)
			continue;
		struct stat st;
		b[nb] = (struct release_build){ .release = t->release, .out = -1 };
		/* an arm64 target (uname -m aarch64) from here: stap -a arm64 finds its tree (arch.h) */
		const struct arch *ta = t->arch ? arch_find(t->arch) : NULL;
		bool cross = ta && ta != arch_host();
		if (!f->s->use_server && !cross &&
		    stat(ast_printf("/lib/modules/%s/build/Makefile", t->release), &st) != 0) {
			nb++;
			continue;	/* its targets fail below, by name */
		}
		b[nb].dir = ast_printf("%s/build-%d", f->dir, nb);
		int r, w;
		if (mkdir(b[nb].dir, 0700) != 0 || !make_pipe(&r, &w)) {
			nb++;
			continue;
		}
		struct vec cmd = {0};
		vec_push(&cmd, ast_printf("%s/stap", f->s->bin_dir));
		/* stap's own command line after these: options may follow the script, "--" ends them */
		vec_push(&cmd, "-p4");
		vec_push(&cmd, "-r");
		vec_push(&cmd, (char *)t->release);
		if (cross) {
			vec_push(&cmd, "-a");
			vec_push(&cmd, (char *)ta->name);
		}
		vec_push(&cmd, ast_printf("--remote-build-dir=%s", b[nb].dir));
		for (int a = 1; a < f->s->argc; a++)
			vec_push(&cmd, f->s->argv[a]);
		if (f->s->verbose)
			fprintf(stderr, "stap: building the module for kernel %s\n", t->release);
		b[nb].pid = spawn(&cmd, -1, w, -1);
		b[nb].out = r;
		nb++;
	}
	/* wait for every build; a stop signal stops them all (each is a stap that cleans up) */
	int stopped = 0;
	for (int k = 0; k < nb; k++) {
		while (b[k].pid > 0) {
			int status;
			pid_t got = waitpid(b[k].pid, &status, 0);
			if (got == b[k].pid) {
				char path[PATH_MAX];
				ssize_t n = read(b[k].out, path, sizeof(path) - 1);
				if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && n > 0) {
					path[n] = '\0';
					path[strcspn(path, "\n")] = '\0';
					b[k].ko = ast_strdup(path);
				}
				b[k].pid = 0;
			} else if (got < 0 && errno != EINTR) {
				b[k].pid = 0;
			}
			if (remote_sig.count && stopped < (int)remote_sig.count) {
				stopped = remote_sig.count;
				for (int j = 0; j < nb; j++)
					if (b[j].pid > 0)
						kill(-b[j].pid, SIGTERM);
			}
		}
		if (b[k].out >= 0)
			close(b[k].out);
	}
	for (int i = 0; i < f->n; i++) {
		struct target *t = &f->t[i];
		if (t->failure || !t->release)
			continue;
		for (int k = 0; k < nb; k++) {
			if (strcmp(b[k].release, t->release))
				continue;
			if (!b[k].dir)
				target_fail(t, ast_printf("no kernel headers here for its release %s (%s); install "
							  "linux-headers-%s on this host (or pass -r a build tree)",
							  t->release, t->arch, t->release));
			else if (!b[k].ko)
				target_fail(t, remote_sig.count ? "the build was stopped"
						: f->s->use_server ? ast_printf("the compile server built no module for kernel %s "
										 "(its messages are above)", t->release)
						: ast_printf("the module for kernel %s failed to build", t->release));
			else
				t->ko = b[k].ko;
		}
	}
}

/* ---- 3. start ---- */

/*
 * The command an ssh target runs: read the module (exactly size bytes) and
 * its signature file if any (sig_size bytes: a compile server's, which lets a
 * member of stapusr load it there) into a directory of its own, run staprun
 * on it, and stop staprun with SIGTERM when stdin ends. staprun's own stdin
 * is /dev/null (the -c command's too).
 */
static const char *ssh_session_script(struct fleet *f, struct target *t, size_t size, size_t sig_size)
{
	const char *staprun = getenv("STAPC_REMOTE_STAPRUN");
	const char *base = strrchr(t->ko, '/') ? strrchr(t->ko, '/') + 1 : t->ko;
	struct vec args = {0};
	const char *cmd;

	if (!staprun || !*staprun)
		staprun = ast_printf("%s/staprun", f->s->bin_dir);
	run_staprun_options(f->s, &args, NULL);
	cmd = sh_quote(staprun);
	for (int i = 0; i < args.n; i++)
		cmd = ast_printf("%s %s", cmd, sh_quote(args.items[i]));
	cmd = ast_printf("%s \"$d\"/%s %s=%d %s", cmd, sh_quote(base), STP_REMOTE_ID_PARAM, t->index,
			 sh_quote(ast_printf("%s=%.*s", STP_REMOTE_URI_PARAM, STP_REMOTE_URI_MAX - 1, t->url)));
	args.n = 0;
	run_global_params(f->s, &args);
	for (int i = 0; i < args.n; i++)
		cmd = ast_printf("%s %s", cmd, sh_quote(args.items[i]));
	return ast_printf(
		"d=$(mktemp -d /tmp/stapc.XXXXXX) || exit 125\n"
		"head -c %zu >\"$d\"/%s\n"
		"if [ \"$(wc -c <\"$d\"/%s)\" -ne %zu ]; then rm -rf \"$d\"; echo 'stap: the module did not arrive whole' >&2; exit 125; fi\n"
		"%s"
		"exec 3<&0 </dev/null\n"
		"%s 3<&- &\n"
		"p=$!\n"
		"(read -r x <&3; kill -TERM $p) >/dev/null 2>&1 &\n"
		"w=$!\n"
		"exec 3<&-\n"
		"wait $p; rc=$?\n"
		"kill $w 2>/dev/null\n"
		"rm -rf \"$d\"\n"
		"exit $rc\n",
		size, sh_quote(base), sh_quote(base), size,
		sig_size ? ast_printf("head -c %zu >\"$d\"/%s.sgn\n", sig_size, sh_quote(base)) : "", cmd);
}

static bool read_whole(const char *path, const char **data, size_t *size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	char *buf = ast_alloc((size_t)st.st_size + 1);
	size_t got = 0;
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	*data = buf;
	*size = got;
	return got == (size_t)st.st_size;
}

static void session_start(struct fleet *f, struct target *t)
{
	int out_r, out_w, err_r, err_w, in_r = -1, in_w = -1;
	struct vec argv = {0};

	if (t->kind == TARGET_UNIX) {
		unix_start(f, t);	/* no process here: the agent runs staprun */
		return;
	}
	if (!make_pipe(&out_r, &out_w) || !make_pipe(&err_r, &err_w)) {
		target_fail(t, "cannot set up its session");
		return;
	}
	switch (t->kind) {
	case TARGET_SSH:
		if (!read_whole(t->ko, &t->ko_data, &t->ko_size) || !make_pipe(&in_r, &in_w)) {
			target_fail(t, ast_printf("cannot read the module %s", t->ko));
			close(out_r), close(out_w), close(err_r), close(err_w);
			return;
		}
		fcntl(in_w, F_SETFL, O_NONBLOCK);
		size_t module_size = t->ko_size, sig_size = 0;
		const char *sig;
		if (read_whole(ast_printf("%s.sgn", t->ko), &sig, &sig_size)) {
			/* the module, then its signature file, on the session's stdin */
			char *both = ast_alloc(module_size + sig_size);
			memcpy(both, t->ko_data, module_size);
			memcpy(both + module_size, sig, sig_size);
			t->ko_data = both;
			t->ko_size += sig_size;
		}
		ssh_words(&argv, t, false);
		vec_push(&argv, ast_printf("sh -c %s", sh_quote(ssh_session_script(f, t, module_size, sig_size))));
		break;
	case TARGET_DIRECT:
		vec_push(&argv, ast_printf("%s/staprun", f->s->bin_dir));
		run_staprun_options(f->s, &argv, NULL);
		vec_push(&argv, (char *)t->ko);
		vec_push(&argv, ast_printf("%s=%d", STP_REMOTE_ID_PARAM, t->index));
		vec_push(&argv, ast_printf("%s=%s", STP_REMOTE_URI_PARAM, t->url));
		run_global_params(f->s, &argv);
		break;
	case TARGET_QEMU: {
		char cwd[PATH_MAX];
		const char *slash = strrchr(t->ko, '/');
		vec_push(&argv, ast_printf("%s/stapvm", f->s->bin_dir));
		vec_push(&argv, "-r");
		vec_push(&argv, (char *)t->release);
		vec_push(&argv, "-d");
		vec_push(&argv, ast_strndup(t->ko, (size_t)(slash - t->ko)));
		if (getcwd(cwd, sizeof(cwd))) {
			vec_push(&argv, "-C");
			vec_push(&argv, ast_strdup(cwd));
		}
		vec_push(&argv, "--");
		vec_push(&argv, "staprun");
		run_staprun_options(f->s, &argv, NULL);
		vec_push(&argv, ast_printf("/work/%s", slash + 1));
		vec_push(&argv, ast_printf("%s=%d", STP_REMOTE_ID_PARAM, t->index));
		vec_push(&argv, ast_printf("%s=%s", STP_REMOTE_URI_PARAM, t->url));
		run_global_params(f->s, &argv);
		break;
	}
	case TARGET_UNIX:
		break;	/* unix_start, above */
	}
	t->session = spawn(&argv, in_r, out_w, err_w);
	t->session_in = in_w;
	t->out = (struct stream){ .fd = out_r, .to = f->out_fd };
	t->err = (struct stream){ .fd = err_r, .to = 2 };
	t->started = t->session > 0;
	t->copied = t->kind != TARGET_SSH;
	if (!t->started) {
		target_fail(t, "cannot start its session");
		close(out_r), close(err_r);
		t->out.fd = t->err.fd = -1;
		if (in_w >= 0)
			close(in_w);
		t->session_in = -1;
	}
}

/* Write more of the module to an ssh session; true once all of it is written. */
static void session_copy(struct target *t)
{
	while (t->ko_sent < t->ko_size) {
		ssize_t n = write(t->session_in, t->ko_data + t->ko_sent, t->ko_size - t->ko_sent);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0) {
			/* the session ended before taking the module: its exit says why */
			close(t->session_in);
			t->session_in = -1;
			t->copied = true;
			return;
		}
		t->ko_sent += (size_t)n;
	}
	t->copied = true;	/* stdin stays open: its end is the stop request */
}

/* Ask a target's session to end as Ctrl-C does (end probes, all output, unload). */
static void session_stop(struct fleet *f, struct target *t, bool hard)
{
	if (t->kind == TARGET_UNIX)
		unix_stop(f, t, hard);
	if (!t->session)
		return;
	if (hard) {
		kill(-t->session, SIGKILL);
	} else if (t->kind == TARGET_SSH) {
		if (t->session_in >= 0) {
			close(t->session_in);
			t->session_in = -1;
		}
	} else {
		kill(t->session, SIGTERM);
	}
}

/* ---- 4. merge ---- */

/* Write all of buf (one write unless the fd takes less). */
static void write_all(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			/* a closed stdout (EPIPE): lines are dropped, and every session is asked to end */
			if (n < 0 && errno == EPIPE && !remote_sig.count) {
				remote_sig.last = SIGPIPE;
				remote_sig.count++;
			}
			return;
		}
		buf += n;
		len -= (size_t)n;
	}
}

/* One line (without its newline) to st->to, with "N: " first under --remote-prefix. */
static void emit_line(struct fleet *f, struct target *t, struct stream *st, const char *line, size_t len)
{
	char prefix[24] = "";
	size_t plen = f->s->remote_prefix ? (size_t)snprintf(prefix, sizeof(prefix), "%d: ", t->index) : 0;
	char *buf = malloc(plen + len + 1);
	if (!buf)
		return;
	memcpy(buf, prefix, plen);
	memcpy(buf + plen, line, len);
	buf[plen + len] = '\n';
	write_all(st->to, buf, plen + len + 1);
	free(buf);
}

/* Add n bytes of a stream's output; write each whole line. */
static void stream_take(struct fleet *f, struct target *t, struct stream *st, const char *data, size_t n)
{
	st->buf = realloc(st->buf, st->len + n);
	if (!st->buf) {
		st->len = 0;
		return;
	}
	memcpy(st->buf + st->len, data, n);
	st->len += n;
	size_t start = 0;
	for (size_t i = 0; i < st->len; i++)
		if (st->buf[i] == '\n' || i - start + 1 >= REMOTE_LINE_MAX) {
			emit_line(f, t, st, st->buf + start, i - start + (st->buf[i] != '\n'));
			start = i + 1;
		}
	memmove(st->buf, st->buf + start, st->len - start);
	st->len -= start;
}

/* The stream's end: the rest as a line. */
static void stream_flush(struct fleet *f, struct target *t, struct stream *st)
{
	if (st->len)
		emit_line(f, t, st, st->buf, st->len);
	free(st->buf);
	st->buf = NULL;
	st->len = 0;
}

/* Read what a stream's pipe has; at its end, flush and close it. */
static void stream_read(struct fleet *f, struct target *t, struct stream *st)
{
	char chunk[65536];
	ssize_t n = read(st->fd, chunk, sizeof(chunk));
	if (n < 0 && errno == EINTR)
		return;
	if (n > 0) {
		stream_take(f, t, st, chunk, (size_t)n);
		return;
	}
	stream_flush(f, t, st);
	close(st->fd);
	st->fd = -1;
}

/* A child ended: whose, and what it means. */
static void reap(struct fleet *f, pid_t pid, int status)
{
	for (int i = 0; i < f->n; i++) {
		struct target *t = &f->t[i];
		if (pid == t->master) {
			t->master = 0;
			if (t->started && t->session && !f->stops)
				target_fail(t, ast_printf("connection lost%s%s", *last_line(t->log) ? ": " : "",
							  last_line(t->log)));
		}
		if (pid != t->session)
			continue;
		t->session = 0;
		t->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		if (t->session_in >= 0) {
			close(t->session_in);
			t->session_in = -1;
		}
		if (t->kind == TARGET_SSH && t->status == 255)
			target_fail(t, ast_printf("connection lost%s%s", *last_line(t->log) ? ": " : "",
						  last_line(t->log)));
		else if (t->kind == TARGET_SSH && t->status == 125 && !t->failure)
			target_fail(t, "the session could not start there (see its messages)");
	}
}

/* Start sessions (f->jobs copying at a time), merge their output, stop them on request. */
static void run_all(struct fleet *f)
{
	int next = 0;
	for (;;) {
		int copying = 0, live = 0;
		for (int i = 0; i < f->n; i++) {
			struct target *t = &f->t[i];
			copying += t->started && !t->copied && (t->session || t->sock >= 0);
			live += t->session > 0 || t->out.fd >= 0 || t->err.fd >= 0 || t->sock >= 0;
		}
		while (copying < f->jobs && next < f->n && !f->stops) {
			struct target *t = &f->t[next++];
			if (t->failure || !t->ko)
				continue;
			session_start(f, t);
			if (t->started) {
				live++;
				copying += !t->copied;
			}
		}
		if (!live && (next >= f->n || f->stops))
			return;

		/* a stop: each signal, or -T's time; the third kills what is left */
		bool timed_out = f->deadline > 0 && now_sec() >= f->deadline;
		if ((int)remote_sig.count + timed_out > f->stops) {
			f->stops = (int)remote_sig.count + timed_out;
			if (timed_out)
				f->deadline = 0;
			for (int i = 0; i < f->n; i++)
				session_stop(f, &f->t[i], f->stops >= 3);
		}

		struct pollfd pfd[3 * f->n + 1];
		struct target *who[3 * f->n + 1];
		struct stream *what[3 * f->n + 1];
		int np = 0;
		pfd[np++] = (struct pollfd){ .fd = remote_sig.wake[0], .events = POLLIN };
		for (int i = 0; i < f->n; i++) {
			struct target *t = &f->t[i];
			if (t->session_in >= 0 && !t->copied) {
				who[np] = t, what[np] = NULL;
				pfd[np++] = (struct pollfd){ .fd = t->session_in, .events = POLLOUT };
			}
			if (t->out.fd >= 0) {
				who[np] = t, what[np] = &t->out;
				pfd[np++] = (struct pollfd){ .fd = t->out.fd, .events = POLLIN };
			}
			if (t->err.fd >= 0) {
				who[np] = t, what[np] = &t->err;
				pfd[np++] = (struct pollfd){ .fd = t->err.fd, .events = POLLIN };
			}
			if (t->sock >= 0 && t->started) {
				who[np] = t, what[np] = &t->out;	/* the agent's frames, both streams */
				pfd[np++] = (struct pollfd){ .fd = t->sock, .events = POLLIN };
			}
		}
		int timeout = -1;
		if (f->deadline > 0)
			timeout = (int)((f->deadline - now_sec()) * 1000) + 1;
		if (poll(pfd, (nfds_t)np, timeout < 0 ? 1000 : timeout) < 0 && errno != EINTR)
			return;
		if (pfd[0].revents) {
			char drain[64];
			while (read(remote_sig.wake[0], drain, sizeof(drain)) > 0) {
			}
		}
		for (int i = 1; i < np; i++) {
			if (!pfd[i].revents)
				continue;
			if (what[i] && who[i]->kind == TARGET_UNIX)
				unix_read(f, who[i]);
			else if (what[i])
				stream_read(f, who[i], what[i]);
			else
				session_copy(who[i]);
		}
		for (int i = 0; i < f->n; i++)
			if (f->t[i].sock >= 0 && f->t[i].started && now_sec() - f->t[i].heard > AGENT_SILENCE_SEC)
				unix_end(f, &f->t[i], ast_printf("connection lost: no word from its agent in %d s",
								 AGENT_SILENCE_SEC));
		int status;
		pid_t pid;
		while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
			reap(f, pid, status);
	}
}

/* ---- the driver ---- */

/* End every ssh master (their sessions are over) and wait for them. */
static void disconnect_all(struct fleet *f)
{
	for (int i = 0; i < f->n; i++) {
		struct target *t = &f->t[i];
		if (t->master_in >= 0)
			close(t->master_in);
		t->master_in = -1;
		if (t->master_out >= 0)
			close(t->master_out);
		t->master_out = -1;
		if (t->master > 0)
			kill(t->master, SIGTERM);
		if (t->sock >= 0)
			unix_end(f, t, NULL);	/* -p4, or stopped before it started: the agent waits for the next */
	}
	for (int i = 0; i < f->n; i++) {
		struct target *t = &f->t[i];
		int status;
		while (t->master > 0 && waitpid(t->master, &status, 0) < 0 && errno == EINTR) {
		}
		t->master = 0;
	}
}

static void catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGCHLD };
	struct sigaction sa = { .sa_handler = remote_on_signal };	/* no SA_RESTART */
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old;
		if (sigs[i] != SIGCHLD && sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
	signal(SIGPIPE, SIG_IGN);	/* a closed stdout: write fails, the sessions still end cleanly */
}

static bool fleet_targets(struct fleet *f)
{
	f->n = f->s->remotes.n;
	f->t = ast_alloc(sizeof(*f->t) * (size_t)f->n);
	for (int i = 0; i < f->n; i++) {
		struct target *t = &f->t[i];
		const char *url = f->s->remotes.items[i];
		*t = (struct target){ .index = i, .url = url, .name = url, .master_in = -1, .master_out = -1,
				      .session_in = -1, .out.fd = -1, .err.fd = -1, .sock = -1 };
		if (remote_url_is_qemu(url)) {
			t->kind = TARGET_QEMU;
		} else if (!strncmp(url, "unix:", 5)) {
			t->kind = TARGET_UNIX;
		} else if (!strcmp(url, "direct://")) {
			t->kind = TARGET_DIRECT;
		} else {
			t->kind = TARGET_SSH;
			parse_ssh_host(strncmp(url, "ssh://", 6) ? url : url + 6, &t->host, &t->port);
			t->name = t->port ? ast_printf("%s:%s", t->host, t->port) : t->host;
		}
	}
	return true;
}

int remote_fleet_run(struct session *s)
{
	struct fleet f = { .s = s, .jobs = s->remote_jobs ? s->remote_jobs : REMOTE_DEFAULT_JOBS, .out_fd = 1 };
	int rc = STAP_EXIT_OK;

	if (!(f.dir = session_tmpdir(s)) || !fleet_targets(&f))
		return STAP_EXIT_FAILURE;
	if (s->output_file) {
		f.out_fd = open(s->output_file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (f.out_fd < 0) {
			fprintf(stderr, "stap: cannot open %s: %s\n", s->output_file, strerror(errno));
			return STAP_EXIT_FAILURE;
		}
	}
	if (pipe2(remote_sig.wake, O_CLOEXEC | O_NONBLOCK) < 0) {
		fprintf(stderr, "stap: pipe: %s\n", strerror(errno));
		return STAP_EXIT_FAILURE;
	}
	catch_signals();
	/* four descriptors per target (two for ssh's master and session, two streams): lift the soft limit */
	struct rlimit nofile;
	if (getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur < nofile.rlim_max) {
		nofile.rlim_cur = nofile.rlim_max;
		setrlimit(RLIMIT_NOFILE, &nofile);
	}
	double start = now_sec();
	connect_all(&f);
	double connected = now_sec();
	if (!remote_sig.count)
		build_all(&f);
	double built = now_sec();
	if (!remote_sig.count && s->last_pass == 4) {
		for (int i = 0; i < f.n; i++)
			if (f.t[i].ko)
				printf("%d: %s %s\n", i, f.t[i].release, f.t[i].ko);
	} else if (!remote_sig.count) {
		run_all(&f);
	}
	disconnect_all(&f);
	if (s->verbose)
		fprintf(stderr, "stap: %d targets: connected in %.1f ms, built in %.1f ms, ran in %.1f ms\n", f.n,
			(connected - start) * 1e3, (built - connected) * 1e3, (now_sec() - built) * 1e3);
	for (int i = 0; i < f.n; i++) {
		struct target *t = &f.t[i];
		if (remote_sig.count && !t->started && !t->failure)
			target_fail(t, ast_printf("not started: stopped by SIG%s", sigabbrev_np(remote_sig.last)));
		if (t->failure)
			rc = STAP_EXIT_FAILURE;
		else if (t->status && rc == STAP_EXIT_OK)
			rc = t->status;
	}
	if (f.out_fd > 2)
		close(f.out_fd);
	return rc;
}
