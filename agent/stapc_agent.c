/*
 * stapc_agent.c - the far end of stap --remote=unix:PATH: takes a module and
 * staprun's options over one stream, runs staprun, streams its output back.
 *
 * Where it listens (docs/remote.md):
 *   --port NAME    a virtio-serial port of this VM, found by its name under
 *                  /sys/class/virtio-ports (QEMU: -device virtserialport,
 *                  name=org.stapc.agent with a socket chardev; the host's stap
 *                  connects to that socket). One session at a time.
 *   --device PATH  the same for a port (or any character device) by path.
 *   --listen PATH  a Unix socket of its own; a process per connection.
 * The conversation is agent_wire.h's. Whoever can open the socket may have
 * staprun run as the agent's user (root, normally): give the socket the
 * permissions of a root shell.
 *
 * A session ends when staprun exits; a stop request, or the stream's end (stap
 * killed, the host's socket closed), makes the agent send staprun SIGTERM,
 * which ends it as Ctrl-C does: end probes, module unloaded. staprun has
 * PR_SET_PDEATHSIG = SIGTERM, so an agent that dies stops it the same way.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <dirent.h>
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
#include <sys/un.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agent_wire.h"

#define AGENT_MAX_WORDS 256	/* options or parameters in one request */

/* One session: the stream, what stap sent so far, and the staprun it started. */
struct agent_session {
	int fd;				/* the stream to stap */
	bool device;			/* fd is a port: its end is a read of 0, and it stays open */
	unsigned char rbuf[5 + AGENT_FRAME_MAX];	/* bytes read, not yet a whole frame */
	size_t rlen;			/* bytes in rbuf */
	bool gone;			/* the stream ended or failed: nothing more is sent */
	char dir[64];			/* the module's directory (mkdtemp), "" until made */
	char *name;			/* NAME.ko, once sent */
	int ko_fd;			/* the module being written, -1 otherwise */
	size_t ko_size;			/* bytes written to it */
	bool has_sig;			/* NAME.ko.sgn was written */
	char *words[2][AGENT_MAX_WORDS]; /* staprun's options [0] and the module parameters [1] */
	int nwords[2];			/* how many of each */
	bool run;			/* AGENT_RUN came */
	bool stop;			/* a stop was asked (AGENT_STOP or the stream's end) */
	pid_t staprun;			/* 0 when not running */
	int out, err;			/* staprun's stdout and stderr, -1 once closed */
};

static const char *agent_staprun;	/* --staprun, or the staprun beside the agent */

static void agent_die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("stapc-agent: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

/* Write one frame; on failure the session counts as gone (its reader left). */
static void agent_send(struct agent_session *a, int type, const void *data, size_t len)
{
	unsigned char head[5] = { (unsigned char)type, (unsigned char)(len >> 24), (unsigned char)(len >> 16),
				  (unsigned char)(len >> 8), (unsigned char)len };
	const unsigned char *parts[2] = { head, data };
	size_t sizes[2] = { sizeof(head), len };

	for (int i = 0; i < 2 && !a->gone; i++) {
		size_t done = 0;
		while (done < sizes[i]) {
			ssize_t n = write(a->fd, parts[i] + done, sizes[i] - done);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				a->gone = true;
				break;
			}
			done += (size_t)n;
		}
	}
}

/* A message of the agent's own, as staprun's stderr would carry it. */
static void agent_say(struct agent_session *a, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(msg, sizeof(msg) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(msg) - 2)
		n = (int)sizeof(msg) - 2;
	msg[n++] = '\n';
	agent_send(a, AGENT_ERR, msg, (size_t)n);
}

/* A module's file name stap may give: NAME.ko, NAME of letters, digits and '_'. */
static bool agent_name_ok(const char *name, size_t len)
{
	if (len < 4 || len > 60 || strcmp(name + len - 3, ".ko"))
		return false;
	for (size_t i = 0; i < len - 3; i++)
		if (!(name[i] == '_' || (name[i] >= '0' && name[i] <= '9') || ((name[i] | 0x20) >= 'a' && (name[i] | 0x20) <= 'z')))
			return false;
	return true;
}

/* Write a whole buffer to path (mode 0644); false on error. */
static bool agent_write_file(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	bool ok = fd >= 0;
	for (size_t done = 0; ok && done < len;) {
		ssize_t n = write(fd, data + done, len - done);
		ok = n > 0;
		done += ok ? (size_t)n : 0;
	}
	if (fd >= 0 && close(fd) != 0)
		ok = false;
	return ok;
}

/* Take one request frame; false if it is not one stap may send now (the session then ends). */
static bool agent_take(struct agent_session *a, int type, char *data, size_t len)
{
	if (type == AGENT_STOP) {
		a->stop = true;
		return true;
	}
	if (a->run)
		return false;	/* nothing but a stop after RUN */
	switch (type) {
	case AGENT_OPTION:
	case AGENT_PARAM: {
		int k = type == AGENT_PARAM;
		if (a->nwords[k] >= AGENT_MAX_WORDS || memchr(data, '\0', len) || (k == 0 && a->name) || (k == 1 && !a->name))
			return false;
		a->words[k][a->nwords[k]++] = strndup(data, len);
		return true;
	}
	case AGENT_NAME: {
		char path[PATH_MAX];
		if (a->name || !agent_name_ok(data, len)) {
			agent_say(a, "stapc-agent: '%.60s' is not a module's file name (NAME.ko)", data);
			return false;
		}
		if (!mkdtemp(strcpy(a->dir, "/tmp/stapc-agent.XXXXXX"))) {
			agent_say(a, "stapc-agent: cannot make a directory in /tmp: %s", strerror(errno));
			a->dir[0] = '\0';
			return false;
		}
		a->name = strndup(data, len);
		snprintf(path, sizeof(path), "%s/%s", a->dir, a->name);
		a->ko_fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		return a->ko_fd >= 0;
	}
	case AGENT_DATA:
		if (a->ko_fd < 0 || a->ko_size + len > AGENT_MODULE_MAX)
			return false;
		for (size_t done = 0; done < len;) {
			ssize_t n = write(a->ko_fd, data + done, len - done);
			if (n <= 0) {
				agent_say(a, "stapc-agent: cannot write the module: %s", strerror(errno));
				return false;
			}
			done += (size_t)n;
		}
		a->ko_size += len;
		return true;
	case AGENT_SIG: {
		char path[PATH_MAX];
		if (!a->name || a->has_sig)
			return false;
		snprintf(path, sizeof(path), "%s/%s.sgn", a->dir, a->name);
		a->has_sig = agent_write_file(path, data, len);
		return a->has_sig;
	}
	case AGENT_RUN:
		a->run = a->name && a->ko_size > 0;
		return a->run;
	default:
		return false;
	}
}

/* Read what the stream has and take its whole frames; false when the session must end. */
static bool agent_read(struct agent_session *a)
{
	ssize_t n = read(a->fd, a->rbuf + a->rlen, sizeof(a->rbuf) - a->rlen);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (n <= 0) {
		a->gone = true;	/* stap closed it, or was killed: its end is a stop */
		a->stop = true;
		return false;
	}
	a->rlen += (size_t)n;
	while (a->rlen >= 5) {
		size_t len = (size_t)a->rbuf[1] << 24 | (size_t)a->rbuf[2] << 16 | (size_t)a->rbuf[3] << 8 | a->rbuf[4];
		if (len > AGENT_FRAME_MAX)
			return false;
		if (a->rlen < 5 + len)
			break;
		char *data = malloc(len + 1);
		if (!data)
			return false;
		memcpy(data, a->rbuf + 5, len);
		data[len] = '\0';
		bool ok = agent_take(a, a->rbuf[0], data, len);
		free(data);
		if (!ok)
			return false;
		memmove(a->rbuf, a->rbuf + 5 + len, a->rlen - 5 - len);
		a->rlen -= 5 + len;
	}
	return true;
}

/* Start staprun OPTIONS DIR/NAME PARAMS with its stdout and stderr to the session. */
static bool agent_start(struct agent_session *a)
{
	int out[2], err[2];
	char *argv[2 * AGENT_MAX_WORDS + 3];
	char path[PATH_MAX];
	int argc = 0;

	close(a->ko_fd);
	a->ko_fd = -1;
	snprintf(path, sizeof(path), "%s/%s", a->dir, a->name);
	argv[argc++] = (char *)agent_staprun;
	for (int i = 0; i < a->nwords[0]; i++)
		argv[argc++] = a->words[0][i];
	argv[argc++] = path;
	for (int i = 0; i < a->nwords[1]; i++)
		argv[argc++] = a->words[1][i];
	argv[argc] = NULL;
	if (pipe2(out, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0) {
		agent_say(a, "stapc-agent: pipe: %s", strerror(errno));
		return false;
	}
	pid_t parent = getpid();
	a->staprun = fork();
	if (a->staprun == 0) {
		int null = open("/dev/null", O_RDONLY);
		signal(SIGPIPE, SIG_DFL);
		if (prctl(PR_SET_PDEATHSIG, SIGTERM) < 0 || getppid() != parent)
			_exit(125);
		dup2(null, 0);
		dup2(out[1], 1);
		dup2(err[1], 2);
		execv(argv[0], argv);
		fprintf(stderr, "stapc-agent: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(out[1]);
	close(err[1]);
	a->out = out[0];
	a->err = err[0];
	if (a->staprun < 0) {
		agent_say(a, "stapc-agent: fork: %s", strerror(errno));
		a->staprun = 0;
		return false;
	}
	return true;
}

/* Pass what one of staprun's pipes has on as frames of type; close it at its end. */
static void agent_forward(struct agent_session *a, int *fd, int type)
{
	char buf[AGENT_FRAME_MAX];
	ssize_t n = read(*fd, buf, sizeof(buf));
	if (n < 0 && errno == EINTR)
		return;
	if (n <= 0) {
		close(*fd);
		*fd = -1;
		return;
	}
	agent_send(a, type, buf, (size_t)n);
}

/* The module's directory and everything in it. */
static void agent_cleanup(struct agent_session *a)
{
	if (a->ko_fd >= 0)
		close(a->ko_fd);
	if (a->dir[0]) {
		char path[PATH_MAX];
		if (a->name) {
			snprintf(path, sizeof(path), "%s/%s.sgn", a->dir, a->name);
			unlink(path);
			snprintf(path, sizeof(path), "%s/%s", a->dir, a->name);
			unlink(path);
		}
		rmdir(a->dir);
	}
	free(a->name);
	for (int k = 0; k < 2; k++)
		for (int i = 0; i < a->nwords[k]; i++)
			free(a->words[k][i]);
}

/* One session on fd, from the hello to staprun's exit status. */
static void agent_serve(int fd, bool device)
{
	struct agent_session *a = calloc(1, sizeof(*a));
	struct utsname u;
	char hello[256];
	int status = 125;

	if (!a)
		return;
	*a = (struct agent_session){ .fd = fd, .device = device, .ko_fd = -1, .out = -1, .err = -1 };
	uname(&u);
	snprintf(hello, sizeof(hello), "%s %s %s", AGENT_MAGIC, u.release, u.machine);
	agent_send(a, AGENT_HELLO, hello, strlen(hello));
	/* the request, up to AGENT_RUN */
	while (!a->gone && !a->stop && !a->run) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int n = poll(&p, 1, AGENT_ALIVE_SEC * 1000);
		if (n == 0)
			agent_send(a, AGENT_ALIVE, "", 0);
		else if (n > 0 && !agent_read(a) && !a->gone)
			break;
	}
	if (a->run && !a->stop && agent_start(a)) {
		bool signalled = false;
		time_t last = time(NULL);
		while (a->out >= 0 || a->err >= 0) {
			struct pollfd p[3] = { { .fd = a->out, .events = POLLIN }, { .fd = a->err, .events = POLLIN },
					       { .fd = a->gone ? -1 : fd, .events = POLLIN } };
			if (a->stop && !signalled) {
				kill(a->staprun, SIGTERM);	/* as Ctrl-C: end probes, all output, unload */
				signalled = true;
			}
			if (poll(p, 3, 1000) < 0 && errno != EINTR)
				break;
			if (p[0].revents)
				agent_forward(a, &a->out, AGENT_OUT);
			if (p[1].revents)
				agent_forward(a, &a->err, AGENT_ERR);
			if (p[2].revents && !agent_read(a))
				a->stop = true;	/* a request it may not send: end the session */
			if (time(NULL) - last >= AGENT_ALIVE_SEC) {
				agent_send(a, AGENT_ALIVE, "", 0);
				last = time(NULL);
			}
		}
		int st;
		while (waitpid(a->staprun, &st, 0) < 0 && errno == EINTR) {
		}
		status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	}
	if (a->run || a->name) {
		char text[16];
		snprintf(text, sizeof(text), "%d", status);
		agent_send(a, AGENT_EXIT, text, strlen(text));
	}
	agent_cleanup(a);
	/* a port stays open: wait for stap to close its end before the next hello */
	while (device && !a->gone) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		if (poll(&p, 1, AGENT_SILENCE_SEC * 1000) <= 0 || (p.revents & POLLHUP))
			break;
		char drain[4096];
		if (read(fd, drain, sizeof(drain)) <= 0)
			break;
	}
	free(a);
}

/* The /dev path of the virtio-serial port called name, or NULL. */
static char *agent_find_port(const char *name)
{
	DIR *d = opendir("/sys/class/virtio-ports");
	char *found = NULL;
	for (struct dirent *e; d && !found && (e = readdir(d));) {
		char path[PATH_MAX], text[256] = "";
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/virtio-ports/%s/name", e->d_name);
		FILE *f = fopen(path, "re");
		if (f && fgets(text, sizeof(text), f) && (text[strcspn(text, "\n")] = '\0', !strcmp(text, name)))
			found = strdup(strcat(strcpy(path, "/dev/"), e->d_name));
		if (f)
			fclose(f);
	}
	if (d)
		closedir(d);
	return found;
}

/* Sessions on a port, one after the other: each begins when the host end is connected. */
static void agent_on_device(const char *path)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		agent_die("cannot open %s: %s", path, strerror(errno));
	fprintf(stderr, "stapc-agent: ready on %s\n", path);
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		if (poll(&p, 1, 0) < 0 && errno != EINTR)
			agent_die("poll %s: %s", path, strerror(errno));
		if (p.revents & (POLLHUP | POLLERR)) {
			usleep(200000);	/* no one at the host's end yet */
			continue;
		}
		agent_serve(fd, true);
		/* the host's end closes: wait for it, so the next hello goes to the next stap */
		for (int i = 0; i < 10 * AGENT_SILENCE_SEC; i++) {
			if (poll(&p, 1, 0) >= 0 && (p.revents & (POLLHUP | POLLERR)))
				break;
			usleep(100000);
		}
	}
}

/* Sessions on a Unix socket of the agent's own, a process for each. */
static void agent_listen(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int ls = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (strlen(path) >= sizeof(addr.sun_path))
		agent_die("socket path too long: %s", path);
	strcpy(addr.sun_path, path);
	unlink(path);
	mode_t old = umask(077);	/* the owner alone may connect: it is a root shell */
	if (ls < 0 || bind(ls, (struct sockaddr *)&addr, sizeof(addr)) < 0 || listen(ls, 16) < 0)
		agent_die("cannot listen on %s: %s", path, strerror(errno));
	umask(old);
	signal(SIGCHLD, SIG_IGN);	/* sessions reap themselves */
	fprintf(stderr, "stapc-agent: ready on %s\n", path);
	for (;;) {
		int c = accept4(ls, NULL, NULL, SOCK_CLOEXEC);
		if (c < 0) {
			if (errno != EINTR)
				sleep(1);
			continue;
		}
		pid_t pid = fork();
		if (pid == 0) {
			close(ls);
			signal(SIGCHLD, SIG_DFL);
			agent_serve(c, false);
			_exit(0);
		}
		close(c);
	}
}

static void agent_usage(FILE *f)
{
	fputs("usage: stapc-agent [--staprun PATH] --port NAME | --device PATH | --listen PATH\n"
	      "Runs the modules stap --remote=unix:SOCKET sends (docs/remote.md).\n"
	      "  --port NAME    the virtio-serial port called NAME (e.g. " AGENT_PORT_NAME ")\n"
	      "  --device PATH  a port (character device) by path\n"
	      "  --listen PATH  a Unix socket of its own (mode 0600)\n"
	      "  --staprun PATH the staprun to run (default: the one beside stapc-agent)\n",
	      f);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "port", required_argument, NULL, 'p' },
		{ "device", required_argument, NULL, 'd' },
		{ "listen", required_argument, NULL, 'l' },
		{ "staprun", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *port = NULL, *device = NULL, *listen_path = NULL;
	int c;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'p': port = optarg; break;
		case 'd': device = optarg; break;
		case 'l': listen_path = optarg; break;
		case 's': agent_staprun = optarg; break;
		case 'h': agent_usage(stdout); return 0;
		default: agent_usage(stderr); return 2;
		}
	}
	if (optind != argc || !!port + !!device + !!listen_path != 1) {
		agent_usage(stderr);
		return 2;
	}
	if (!agent_staprun) {
		char self[PATH_MAX];
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		if (n <= 0)
			agent_die("cannot find its own directory: give --staprun");
		self[n] = '\0';
		*strrchr(self, '/') = '\0';
		agent_staprun = strdup(strcat(self, "/staprun"));
	}
	if (access(agent_staprun, X_OK) != 0)
		agent_die("cannot run %s: %s", agent_staprun, strerror(errno));
	signal(SIGPIPE, SIG_IGN);	/* a closed stream: write fails, the session ends */
	if (port) {
		for (int i = 0; i < 50 && !(device = agent_find_port(port)); i++)
			usleep(100000);	/* the port may still be coming up */
		if (!device)
			agent_die("no virtio-serial port called %s (QEMU: -device virtserialport,name=%s)", port, port);
	}
	if (device)
		agent_on_device(device);
	else
		agent_listen(listen_path);
	return 1;
}
