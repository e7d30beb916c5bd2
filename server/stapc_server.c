/*
 * stapc_server.c - stapc-server: compile scripts for users who may not, and
 * sign the modules, so that staprun lets members of stapusr load them
 * (man stap, --use-server and UNPRIVILEGED USERS; docs/security.md).
 *
 *   stapc-server [-d DIR] [-l unix:PATH | -l [ADDRESS:]PORT]... [-j JOBS] [--stap PATH]
 *
 * DIR (default /var/lib/stapc-server, or ~/.stapc-server when not root)
 * holds the server's key and certificate (made on first start: Ed25519,
 * self-signed) and its module cache. Each -l is a Unix socket (the single
 * host case: anyone who can open it may ask) or a TCP port, spoken over TLS
 * with that certificate. A connection is served in a child process, at most
 * JOBS (default 2) at once, each bounded in time (SERVER_TIMEOUT) and size
 * (wire.h): the child runs `stap --privilege=LEVEL -r RELEASE ... -p N` in a
 * fresh directory and returns its status, output and, at -p4, the module and
 * its signature. What the level forbids, stap itself refuses; options that
 * would reach past the script (-I, -B, -R, --sysroot...) are refused here,
 * and -D and -g only at stapdev.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "wire.h"

#define SERVER_MAX_LISTEN 8
#define SERVER_TIMEOUT 900        /* seconds a request may take, compile included */
#define SERVER_MAX_ARGS 64
#define SERVER_OUTPUT_MAX (1u << 20)

struct server {
	const char *dir;           /* key, certificate, cache */
	const char *stap;          /* the stap to run */
	int jobs;                  /* connections served at once */
	EVP_PKEY *key;
	X509 *cert;
	SSL_CTX *tls;
	int fds[SERVER_MAX_LISTEN];
	bool is_tcp[SERVER_MAX_LISTEN];
	int nfds;
};

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("stapc-server: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

/* ---- Key and certificate ---- */

static void make_identity(struct server *sv, const char *keypath, const char *certpath)
{
	EVP_PKEY_CTX *pc = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, NULL);
	EVP_PKEY *key = NULL;
	if (!pc || EVP_PKEY_keygen_init(pc) != 1 || EVP_PKEY_keygen(pc, &key) != 1)
		die("cannot make a key");
	EVP_PKEY_CTX_free(pc);
	X509 *cert = X509_new();
	char host[256] = "localhost", cn[300];
	gethostname(host, sizeof(host) - 1);
	snprintf(cn, sizeof(cn), "stapc-server %s", host);
	ASN1_INTEGER_set(X509_get_serialNumber(cert), (long)time(NULL));
	X509_gmtime_adj(X509_getm_notBefore(cert), 0);
	X509_gmtime_adj(X509_getm_notAfter(cert), 3650L * 24 * 3600);
	X509_set_pubkey(cert, key);
	X509_NAME *name = X509_get_subject_name(cert);
	X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, (const unsigned char *)cn, -1, -1, 0);
	X509_set_issuer_name(cert, name);
	if (X509_sign(cert, key, NULL) <= 0)
		die("cannot sign the certificate");
	int fd = open(keypath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f || !PEM_write_PrivateKey(f, key, NULL, NULL, 0, NULL, NULL) || fclose(f))
		die("cannot write %s: %s", keypath, strerror(errno));
	f = fopen(certpath, "we");
	if (!f || !PEM_write_X509(f, cert) || fclose(f))
		die("cannot write %s: %s", certpath, strerror(errno));
	sv->key = key;
	sv->cert = cert;
}

static void load_identity(struct server *sv)
{
	char keypath[PATH_MAX], certpath[PATH_MAX];
	snprintf(keypath, sizeof(keypath), "%s/server.key", sv->dir);
	snprintf(certpath, sizeof(certpath), "%s/server.crt", sv->dir);
	if (mkdir(sv->dir, 0700) < 0 && errno != EEXIST)
		die("cannot create %s: %s", sv->dir, strerror(errno));
	FILE *f = fopen(keypath, "re");
	if (!f) {
		make_identity(sv, keypath, certpath);
		fprintf(stderr, "stapc-server: made the key and certificate %s\n", certpath);
	} else {
		sv->key = PEM_read_PrivateKey(f, NULL, NULL, NULL);
		fclose(f);
		f = fopen(certpath, "re");
		sv->cert = f ? PEM_read_X509(f, NULL, NULL, NULL) : NULL;
		if (f)
			fclose(f);
		if (!sv->key || !sv->cert)
			die("cannot read %s and %s", keypath, certpath);
	}
	sv->tls = SSL_CTX_new(TLS_server_method());
	if (!sv->tls || SSL_CTX_use_certificate(sv->tls, sv->cert) != 1 || SSL_CTX_use_PrivateKey(sv->tls, sv->key) != 1)
		die("cannot set up TLS");
	SSL_CTX_set_min_proto_version(sv->tls, TLS1_3_VERSION);
	char fp[65];
	wire_cert_fingerprint(sv->cert, fp);
	fprintf(stderr, "stapc-server: certificate %s (trust it with: stap --trust-servers=HOST:PORT)\n", fp);
}

/* ---- Listening ---- */

static void listen_on(struct server *sv, const char *spec)
{
	if (sv->nfds == SERVER_MAX_LISTEN)
		die("too many -l");
	int fd;
	if (!strncmp(spec, "unix:", 5)) {
		struct sockaddr_un a = {.sun_family = AF_UNIX};
		if (strlen(spec + 5) >= sizeof(a.sun_path))
			die("socket path too long: %s", spec + 5);
		strcpy(a.sun_path, spec + 5);
		unlink(a.sun_path);
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 || chmod(a.sun_path, 0666) < 0 ||
		    listen(fd, 16) < 0)
			die("cannot listen on %s: %s", spec, strerror(errno));
		sv->is_tcp[sv->nfds] = false;
	} else {
		char host[256] = "", port[32];
		const char *colon = strrchr(spec, ':');
		if (colon) {
			snprintf(host, sizeof(host), "%.*s", (int)(colon - spec), spec);
			snprintf(port, sizeof(port), "%s", colon + 1);
		} else {
			snprintf(port, sizeof(port), "%s", spec);
		}
		struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE}, *ai;
		if (getaddrinfo(*host ? host : NULL, port, &hints, &ai) != 0)
			die("cannot resolve %s", spec);
		fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
		int one = 1;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (fd < 0 || bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 || listen(fd, 16) < 0)
			die("cannot listen on %s: %s", spec, strerror(errno));
		freeaddrinfo(ai);
		sv->is_tcp[sv->nfds] = true;
	}
	sv->fds[sv->nfds++] = fd;
}

/* ---- One request ---- */

#define NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"

/* Only characters of chars (and not empty, not starting with '-' or '.'). */
static bool plain_name(const char *s, const char *chars)
{
	return *s && *s != '-' && *s != '.' && strspn(s, chars) == strlen(s);
}

/* Check the client's stap arguments; NULL if fine, else why not. *pass is -p's value. */
static const char *check_args(char **args, int n, const char *level, int *pass)
{
	bool stapdev = !strcmp(level, "stapdev");
	*pass = 4;
	for (int i = 0; i < n; i++) {
		const char *a = args[i];
		if (!strcmp(a, "--"))
			return NULL;	/* the script's own arguments follow */
		if (!strcmp(a, "-p") && i + 1 < n && strlen(args[i + 1]) == 1 && args[i + 1][0] >= '1' && args[i + 1][0] <= '4') {
			*pass = args[++i][0] - '0';
		} else if (!strcmp(a, "-m") && i + 1 < n && plain_name(args[i + 1], NAME_CHARS)) {
			i++;
		} else if (!strcmp(a, "-D") && i + 1 < n) {
			if (!stapdev)
				return "-D is permitted to the server's clients only at privilege level stapdev";
			i++;
		} else if (!strcmp(a, "-g")) {
			if (!stapdev)
				return "-g is permitted only at privilege level stapdev";
		} else if (strcmp(a, "-u") && strcmp(a, "-w") && strcmp(a, "-W") && strcmp(a, "-v") && strcmp(a, "-k")) {
			return "an option the compile server does not take (it takes -p, -m, -u, -w, -W, -v, and -D and -g at stapdev)";
		}
	}
	return NULL;
}

static char *read_small(const char *path, size_t *len, size_t max)
{
	FILE *f = fopen(path, "re");
	if (!f) {
		*len = 0;
		return strdup("");
	}
	char *buf = malloc(max + 1);
	*len = buf ? fread(buf, 1, max, f) : 0;
	fclose(f);
	if (buf)
		buf[*len] = '\0';
	return buf;
}

static void serve(struct server *sv, BIO *b)
{
	size_t n;
	char *magic = wire_get(b, &n, 64);
	char *release = magic ? wire_get(b, &n, 256) : NULL;
	char *level = release ? wire_get(b, &n, 16) : NULL;
	char *script_name = level ? wire_get(b, &n, 256) : NULL;
	char *count = script_name ? wire_get(b, &n, 8) : NULL;
	int nargs = count ? atoi(count) : -1;
	if (!magic || strcmp(magic, WIRE_MAGIC) || !release || !level || nargs < 0 || nargs > SERVER_MAX_ARGS)
		return;	/* not a client of ours */
	char *args[SERVER_MAX_ARGS + 16];
	for (int i = 0; i < nargs; i++)
		if (!(args[i] = wire_get(b, &n, 4096)))
			return;
	size_t script_len;
	char *script = wire_get(b, &script_len, 4u << 20);
	if (!script)
		return;

	const char *refusal = NULL;
	int pass = 4;
	char build[PATH_MAX];
	if (strcmp(level, "stapusr") && strcmp(level, "stapsys") && strcmp(level, "stapdev"))
		refusal = "unknown privilege level";
	else if (!plain_name(release, NAME_CHARS ".+-"))
		refusal = "bad kernel release";
	else if (snprintf(build, sizeof(build), "/lib/modules/%s/build", release), access(build, R_OK) != 0)
		refusal = "this server has no build tree for that kernel release (install its linux-headers package on the server)";
	else
		refusal = check_args(args, nargs, level, &pass);

	char status[16] = "1";
	char *out = strdup(""), *err = NULL, *module = NULL, *sig = NULL;
	size_t out_len = 0, err_len = 0, module_len = 0;
	const char *modname = "";
	char work[] = "/tmp/stapc-server.XXXXXX";
	if (refusal) {
		if (asprintf(&err, "stapc-server: %s\n", refusal) < 0)
			err = NULL;
		err_len = err ? strlen(err) : 0;
	} else if (!mkdtemp(work)) {
		err = strdup("stapc-server: cannot make a working directory\n");
		err_len = strlen(err);
	} else {
		char path[PATH_MAX + 64];
		/* the client's file name, so messages name it; "<input>" (-e) stays -e */
		bool inline_script = !strcmp(script_name, "<input>") && script_len < 100000;
		if (!plain_name(script_name, NAME_CHARS ".+-"))
			script_name = "script.stp";
		snprintf(path, sizeof(path), "%s/%s", work, script_name);
		FILE *f = fopen(path, "we");
		if (f) {
			fwrite(script, 1, script_len, f);
			fclose(f);
		}
		char *argv[SERVER_MAX_ARGS + 16];
		int k = 0;
		char privilege[32], *rel = release;
		snprintf(privilege, sizeof(privilege), "--privilege=%s", level);
		argv[k++] = (char *)sv->stap;
		argv[k++] = privilege;
		argv[k++] = "-r";
		argv[k++] = rel;
		int split = nargs;
		for (int i = 0; i < nargs; i++)
			if (!strcmp(args[i], "--")) {
				split = i;
				break;
			}
		for (int i = 0; i < split; i++)
			argv[k++] = args[i];
		if (inline_script)
			argv[k++] = "-e";
		argv[k++] = inline_script ? script : script_name;
		for (int i = split + 1; i < nargs; i++)	/* the script's arguments, after "--" */
			argv[k++] = args[i];
		argv[k] = NULL;
		pid_t pid = fork();
		if (pid == 0) {
			char o[PATH_MAX + 16], e[PATH_MAX + 16], cache[PATH_MAX + 16];
			snprintf(o, sizeof(o), "%s/stdout", work);
			snprintf(e, sizeof(e), "%s/stderr", work);
			snprintf(cache, sizeof(cache), "%s/cache", sv->dir);
			if (chdir(work) < 0 || !freopen(o, "w", stdout) || !freopen(e, "w", stderr))
				_exit(127);
			clearenv();
			setenv("PATH", "/usr/sbin:/usr/bin:/sbin:/bin", 1);
			setenv("TMPDIR", work, 1);
			setenv("HOME", work, 1);
			setenv("STAPC_CACHE_DIR", cache, 1);
			execv(sv->stap, argv);
			_exit(127);
		}
		int st = 0;
		while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		snprintf(status, sizeof(status), "%d", WIFEXITED(st) ? WEXITSTATUS(st) : 1);
		snprintf(path, sizeof(path), "%s/stdout", work);
		free(out);
		out = read_small(path, &out_len, SERVER_OUTPUT_MAX);
		snprintf(path, sizeof(path), "%s/stderr", work);
		err = read_small(path, &err_len, SERVER_OUTPUT_MAX);
		if (pass == 4 && WIFEXITED(st) && WEXITSTATUS(st) == 0) {
			/* the one .ko stap -p4 left here */
			DIR *d = opendir(work);
			static char name[NAME_MAX + 1];
			for (struct dirent *e; d && (e = readdir(d));) {
				size_t l = strlen(e->d_name);
				if (l > 3 && !strcmp(e->d_name + l - 3, ".ko") && l < sizeof(name)) {
					snprintf(path, sizeof(path), "%s/%s", work, e->d_name);
					module = read_small(path, &module_len, WIRE_MAX);
					memcpy(name, e->d_name, l - 3);
					name[l - 3] = '\0';
					modname = name;
					sig = module_len ? wire_sign(sv->key, sv->cert, (unsigned char *)module, module_len) : NULL;
					break;
				}
			}
			if (d)
				closedir(d);
		}
		char cmd[PATH_MAX + 32];
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", work);
		if (system(cmd) != 0)
			fprintf(stderr, "stapc-server: cannot remove %s\n", work);
	}
	wire_put_str(b, WIRE_MAGIC);
	wire_put_str(b, status);
	wire_put(b, out ? out : "", out ? out_len : 0);
	wire_put(b, err ? err : "", err ? err_len : 0);
	wire_put_str(b, modname);
	wire_put(b, module ? module : "", module ? module_len : 0);
	wire_put_str(b, sig);
	(void)BIO_flush(b);
}

static void serve_connection(struct server *sv, int fd, bool tcp)
{
	alarm(SERVER_TIMEOUT);
	BIO *b;
	if (tcp) {
		SSL *ssl = SSL_new(sv->tls);
		SSL_set_fd(ssl, fd);
		if (SSL_accept(ssl) != 1) {
			SSL_free(ssl);
			return;
		}
		b = BIO_new(BIO_f_ssl());
		BIO_set_ssl(b, ssl, BIO_CLOSE);
	} else {
		b = BIO_new_socket(fd, BIO_NOCLOSE);
	}
	serve(sv, b);
	BIO_free_all(b);
}

int main(int argc, char **argv)
{
	struct server sv = {.jobs = 2};
	static const struct option longopts[] = {
		{"stap", required_argument, NULL, 's'}, {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
	const char *listens[SERVER_MAX_LISTEN];
	int nlisten = 0, c;
	while ((c = getopt_long(argc, argv, "d:l:j:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'd': sv.dir = optarg; break;
		case 'l':
			if (nlisten == SERVER_MAX_LISTEN)
				die("too many -l");
			listens[nlisten++] = optarg;
			break;
		case 'j': sv.jobs = atoi(optarg) > 0 ? atoi(optarg) : 1; break;
		case 's': sv.stap = optarg; break;
		case 'h':
			printf("usage: stapc-server [-d DIR] [-l unix:PATH | -l [ADDRESS:]PORT]... [-j JOBS] [--stap PATH]\n");
			return 0;
		default:
			return 2;
		}
	}
	if (!nlisten)
		die("nothing to listen on: give -l unix:PATH or -l [ADDRESS:]PORT");
	static char home_dir[PATH_MAX], stap[PATH_MAX];
	if (!sv.dir) {
		const char *home = getenv("HOME");
		snprintf(home_dir, sizeof(home_dir), "%s", geteuid() == 0 ? "/var/lib/stapc-server" : "");
		if (geteuid() != 0)
			snprintf(home_dir, sizeof(home_dir), "%s/.stapc-server", home ? home : "/tmp");
		sv.dir = home_dir;
	}
	if (!sv.stap) {
		ssize_t len = readlink("/proc/self/exe", stap, sizeof(stap) - 6);
		if (len <= 0)
			die("cannot find stap: give --stap PATH");
		stap[len] = '\0';
		strcpy(strrchr(stap, '/') + 1, "stap");
		sv.stap = stap;
	}
	signal(SIGPIPE, SIG_IGN);
	load_identity(&sv);
	for (int i = 0; i < nlisten; i++)
		listen_on(&sv, listens[i]);
	fprintf(stderr, "stapc-server: ready\n");
	int running = 0;
	for (;;) {
		while (running > 0 && waitpid(-1, NULL, running >= sv.jobs ? 0 : WNOHANG) > 0)
			running--;
		struct pollfd pfd[SERVER_MAX_LISTEN];
		for (int i = 0; i < sv.nfds; i++)
			pfd[i] = (struct pollfd){.fd = sv.fds[i], .events = POLLIN};
		if (poll(pfd, (nfds_t)sv.nfds, 1000) <= 0)
			continue;
		for (int i = 0; i < sv.nfds; i++) {
			if (!(pfd[i].revents & POLLIN))
				continue;
			int fd = accept4(sv.fds[i], NULL, NULL, SOCK_CLOEXEC);
			if (fd < 0)
				continue;
			pid_t pid = fork();
			if (pid == 0) {
				for (int j = 0; j < sv.nfds; j++)
					close(sv.fds[j]);
				serve_connection(&sv, fd, sv.is_tcp[i]);
				_exit(0);
			}
			close(fd);
			if (pid > 0)
				running++;
		}
	}
}
