/*
 * use_server.c - stap --use-server[=SPEC], --trust-servers=SPEC, --list-servers:
 * passes 1-4 on a stapc-server, pass 5 here (man stap; docs/security.md).
 *
 * SPEC is unix:PATH (a server on this host: trusted as the socket's
 * permissions allow) or HOST:PORT (TLS; the server's certificate must be
 * trusted: ~/.systemtap/stapc/trusted-servers/SHA256.crt, or the same under
 * /etc/stapc/trusted-servers for every user). --trust-servers=HOST:PORT
 * fetches the certificate and trusts it for this user; with "signer," in
 * front (root only) staprun also trusts the modules it signs
 * (/etc/stapc/trusted-signers). The script, its arguments, the target's
 * kernel release and the privilege level go to the server; the server's
 * messages come back as if stap had printed them, and at -p4 the module
 * and its signature (NAME.ko, NAME.ko.sgn). A run (pass 5) loads the signed
 * module with staprun here. With --remote, stap asks once per kernel release
 * of the fleet (remote_ssh.c runs `stap -p4 -r RELEASE --remote-build-dir=DIR
 * --use-server...`): the module and its signature land in DIR, and go to each
 * target of that release, which needs neither compiler nor headers.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <openssl/pem.h>
#include <openssl/ssl.h>

#include "run.h"
#include "privilege.h"
#include "use_server.h"
#include "wire.h"

#define DEFAULT_SERVER "unix:/run/stapc-server.sock"

/* A connection: the BIO to talk through, and the TLS state if any. */
struct conn {
	BIO *bio;
	SSL_CTX *ctx;
	X509 *peer;        /* the server's certificate (TLS), NULL on a Unix socket */
};

static const char *user_trust_dir(void)
{
	const char *home = getenv("HOME");
	return ast_printf("%s/.systemtap/stapc/trusted-servers", home && *home ? home : "/root");
}

static int tcp_connect(const char *spec)
{
	const char *colon = strrchr(spec, ':');
	if (!colon) {
		fprintf(stderr, "stap: --use-server: '%s' is not unix:PATH or HOST:PORT\n", spec);
		return -1;
	}
	const char *host = ast_strndup(spec, (size_t)(colon - spec));
	struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *ai;
	int rc = getaddrinfo(host, colon + 1, &hints, &ai);
	if (rc) {
		fprintf(stderr, "stap: --use-server: cannot resolve %s: %s\n", spec, gai_strerror(rc));
		return -1;
	}
	int fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, ai->ai_addr, ai->ai_addrlen) < 0) {
		fprintf(stderr, "stap: --use-server: cannot connect to %s: %s\n", spec, strerror(errno));
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
	freeaddrinfo(ai);
	return fd;
}

static bool open_conn(const char *spec, struct conn *c)
{
	memset(c, 0, sizeof(*c));
	if (!strncmp(spec, "unix:", 5)) {
		struct sockaddr_un a = {.sun_family = AF_UNIX};
		int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		snprintf(a.sun_path, sizeof(a.sun_path), "%s", spec + 5);
		if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
			fprintf(stderr, "stap: --use-server: cannot connect to %s: %s (is stapc-server running?)\n", spec,
				strerror(errno));
			if (fd >= 0)
				close(fd);
			return false;
		}
		c->bio = BIO_new_socket(fd, BIO_CLOSE);
		return c->bio != NULL;
	}
	int fd = tcp_connect(spec);
	if (fd < 0)
		return false;
	c->ctx = SSL_CTX_new(TLS_client_method());
	SSL_CTX_set_min_proto_version(c->ctx, TLS1_3_VERSION);
	SSL *ssl = SSL_new(c->ctx);
	SSL_set_fd(ssl, fd);
	if (SSL_connect(ssl) != 1) {
		fprintf(stderr, "stap: --use-server: TLS with %s failed\n", spec);
		SSL_free(ssl);
		close(fd);
		return false;
	}
	c->peer = SSL_get1_peer_certificate(ssl);
	c->bio = BIO_new(BIO_f_ssl());
	BIO_set_ssl(c->bio, ssl, BIO_CLOSE);
	return c->peer != NULL;
}

static void close_conn(struct conn *c)
{
	if (c->bio)
		BIO_free_all(c->bio);
	X509_free(c->peer);
	SSL_CTX_free(c->ctx);
}

/* A certificate file named by its fingerprint in dir. */
static bool trusted_in(const char *dir, const char *fp)
{
	return access(ast_printf("%s/%s.crt", dir, fp), R_OK) == 0;
}

static bool write_file(const char *path, const void *data, size_t len, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	bool ok = fd >= 0 && write(fd, data, len) == (ssize_t)len;
	if (fd >= 0 && close(fd) < 0)
		ok = false;
	if (!ok)
		fprintf(stderr, "stap: cannot write %s: %s\n", path, strerror(errno));
	return ok;
}

/* The stap arguments the server gets: compile options from the session, then the script's. */
static void request_args(struct session *s, struct vec *out)
{
	vec_push(out, "-p");
	vec_push(out, ast_printf("%d", s->last_pass < 4 ? s->last_pass : 4));
	if (s->module_name) {
		vec_push(out, "-m");
		vec_push(out, (void *)s->module_name);
	}
	if (s->guru)
		vec_push(out, "-g");
	if (s->unoptimized)
		vec_push(out, "-u");
	if (s->suppress_warnings)
		vec_push(out, "-w");
	if (s->warnings_as_errors)
		vec_push(out, "-W");
	for (int i = 0; i < s->verbose && i < 3; i++)
		vec_push(out, "-v");
	for (int i = 0; i < s->defines.n; i++) {
		const struct define *d = s->defines.items[i];
		vec_push(out, "-D");
		vec_push(out, d->value ? ast_printf("%s=%s", d->name, d->value) : (void *)d->name);
	}
	vec_push(out, "--");
	for (int i = 0; i < s->script_args.n; i++)
		vec_push(out, s->script_args.items[i]);
}

int use_server_run(struct session *s)
{
	const char *spec = s->use_server && *s->use_server ? s->use_server : DEFAULT_SERVER;
	struct conn c;
	if (!open_conn(spec, &c)) {
		if (s->use_server_auto)
			fprintf(stderr, "stap: a member of stapusr who is not in stapdev compiles scripts on a compile server "
				"(see man stap, --use-server), and none answers at %s: ask an administrator to start "
				"stapc-server (cp %s/stapc-server.service /etc/systemd/system && systemctl enable --now "
				"stapc-server), or name one with --use-server=HOST:PORT\n", spec, STAPC_DATADIR);
		return STAP_EXIT_FAILURE;
	}
	if (c.peer) {
		char fp[65];
		wire_cert_fingerprint(c.peer, fp);
		if (!trusted_in(user_trust_dir(), fp) && !trusted_in("/etc/stapc/trusted-servers", fp)) {
			fprintf(stderr, "stap: --use-server: the server %s (certificate %s) is not trusted: trust it first "
				"with stap --trust-servers=%s\n", spec, fp, spec);
			close_conn(&c);
			return STAP_EXIT_FAILURE;
		}
	}
	struct vec args = {0};
	request_args(s, &args);
	bool sent = wire_put_str(c.bio, WIRE_MAGIC) && wire_put_str(c.bio, s->release) &&
		    wire_put_str(c.bio, privilege_name(s->privilege)) &&
		    wire_put_str(c.bio, strrchr(s->script_path, '/') ? strrchr(s->script_path, '/') + 1 : s->script_path) &&
		    wire_put_str(c.bio, ast_printf("%d", args.n));
	for (int i = 0; sent && i < args.n; i++)
		sent = wire_put_str(c.bio, args.items[i]);
	sent = sent && wire_put_str(c.bio, s->script_text) && BIO_flush(c.bio) == 1;
	size_t out_len, err_len, mod_len, n;
	char *magic = sent ? wire_get(c.bio, &n, 64) : NULL;
	char *status = magic ? wire_get(c.bio, &n, 16) : NULL;
	char *out = status ? wire_get(c.bio, &out_len, WIRE_MAX) : NULL;
	char *err = out ? wire_get(c.bio, &err_len, WIRE_MAX) : NULL;
	char *name = err ? wire_get(c.bio, &n, 256) : NULL;
	char *module = name ? wire_get(c.bio, &mod_len, WIRE_MAX) : NULL;
	char *sig = module ? wire_get(c.bio, &n, 4096) : NULL;
	close_conn(&c);
	if (!sig || strcmp(magic, WIRE_MAGIC)) {
		fprintf(stderr, "stap: --use-server: the conversation with %s broke off\n", spec);
		return STAP_EXIT_FAILURE;
	}
	fwrite(err, 1, err_len, stderr);
	int rc = atoi(status);
	if (rc != 0 || s->last_pass < 4) {
		fwrite(out, 1, out_len, stdout);
		return rc ? STAP_EXIT_FAILURE : STAP_EXIT_OK;
	}
	if (!mod_len || !*name || strchr(name, '/')) {
		fprintf(stderr, "stap: --use-server: %s returned no module\n", spec);
		return STAP_EXIT_FAILURE;
	}
	const char *dir = s->remote_build_dir ? s->remote_build_dir : s->last_pass == 4 ? "." : session_tmpdir(s);
	if (!dir)
		return STAP_EXIT_FAILURE;
	const char *ko = ast_printf("%s/%s.ko", dir, name);
	if (!write_file(ko, module, mod_len, 0644) || (*sig && !write_file(ast_printf("%s.sgn", ko), sig, strlen(sig), 0644)))
		return STAP_EXIT_FAILURE;
	s->module_name = ast_strdup(name);
	s->ko_path = ko;
	if (s->last_pass == 4) {
		char cwd[4096];
		if (ko[0] == '/')
			printf("%s\n", ko);
		else
			printf("%s/%s.ko\n", getcwd(cwd, sizeof(cwd)) ? cwd : ".", name);
		return STAP_EXIT_OK;
	}
	return run_module(s);
}

int use_server_trust(const char *spec)
{
	bool signer = false;
	while (!strncmp(spec, "signer,", 7) || !strncmp(spec, "ssl,", 4)) {
		signer |= !strncmp(spec, "signer,", 7);
		spec = strchr(spec, ',') + 1;
	}
	if (!strncmp(spec, "unix:", 5)) {
		fprintf(stderr, "stap: --trust-servers: a server on a Unix socket needs no certificate; give HOST:PORT\n");
		return STAP_EXIT_USAGE;
	}
	if (signer && geteuid() != 0) {
		fprintf(stderr, "stap: --trust-servers=signer,...: only root may make a server a trusted signer\n");
		return STAP_EXIT_FAILURE;
	}
	struct conn c;
	if (!open_conn(spec, &c))
		return STAP_EXIT_FAILURE;
	char fp[65];
	wire_cert_fingerprint(c.peer, fp);
	const char *dirs[2] = {signer ? WIRE_TRUSTED_SIGNERS : user_trust_dir(), NULL};
	int rc = STAP_EXIT_OK;
	for (int i = 0; i < 1; i++) {
		const char *dir = dirs[i];
		if (system(ast_printf("mkdir -p -m 755 '%s'", dir)) != 0) {
			fprintf(stderr, "stap: --trust-servers: cannot create %s\n", dir);
			rc = STAP_EXIT_FAILURE;
			break;
		}
		const char *path = ast_printf("%s/%s.crt", dir, fp);
		FILE *f = fopen(path, "we");
		if (!f || !PEM_write_X509(f, c.peer) || fclose(f)) {
			fprintf(stderr, "stap: --trust-servers: cannot write %s\n", path);
			rc = STAP_EXIT_FAILURE;
			break;
		}
		printf("trusted %s (certificate %s)%s: %s\n", spec, fp, signer ? " as a module signer" : "", path);
	}
	close_conn(&c);
	return rc;
}

int use_server_list(void)
{
	const char *dirs[] = {user_trust_dir(), "/etc/stapc/trusted-servers", WIRE_TRUSTED_SIGNERS};
	const char *what[] = {"trusted by you", "trusted by all users", "trusted module signer"};
	int found = 0;
	for (int i = 0; i < 3; i++) {
		DIR *d = opendir(dirs[i]);
		for (struct dirent *e; d && (e = readdir(d));) {
			size_t l = strlen(e->d_name);
			if (l != 68 || strcmp(e->d_name + 64, ".crt"))
				continue;
			FILE *f = fopen(ast_printf("%s/%s", dirs[i], e->d_name), "re");
			X509 *cert = f ? PEM_read_X509(f, NULL, NULL, NULL) : NULL;
			if (f)
				fclose(f);
			char cn[256] = "?";
			if (cert)
				X509_NAME_get_text_by_NID(X509_get_subject_name(cert), NID_commonName, cn, sizeof(cn));
			printf("%.64s %s (%s)\n", e->d_name, cn, what[i]);
			X509_free(cert);
			found++;
		}
		if (d)
			closedir(d);
	}
	if (!found)
		printf("no trusted servers (stap --trust-servers=HOST:PORT)\n");
	return STAP_EXIT_OK;
}
