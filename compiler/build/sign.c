/*
 * sign.c - stap --sign-module[=DIR]: sign the module built in pass 4 with a
 * Machine Owner Key, for kernels that enforce module signatures (Secure Boot
 * with lockdown, or module.sig_enforce=1; man stap, SECUREBOOT).
 *
 * The key is DIR/signing_key.priv (PEM private key) and
 * DIR/signing_key.x509 (its DER certificate), by default
 * ~/.systemtap/ssl/server/moks/stapc. Without one, a new key pair is made
 * with openssl (RSA 2048, self-signed, CN "stapc module signing key") and
 * stap says how to enroll it (mokutil --import, then a reboot). The target
 * kernel's own scripts/sign-file appends the signature; the module cache
 * keeps the unsigned module, each run signs its copy.
 *
 * A kernel configured for ML-DSA module keys (CONFIG_MODULE_SIG_KEY_TYPE_
 * MLDSA_44, _65 or _87 in its build tree's config) gets an ML-DSA key pair
 * of that size instead, in DIR/ml-dsa-NN (made with openssl >= 3.5, which
 * knows ML-DSA), signed with the kernel's CONFIG_MODULE_SIG_HASH.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sign.h"

/* The kernel's marker after an appended module signature (include/linux/module_signature.h). */
#define SIGN_MAGIC "~Module signature appended~\n"

/* Run argv (argv[0] a path); true on exit status 0. */
static bool run_tool(char *const argv[], bool quiet)
{
	pid_t pid = fork();
	if (pid < 0)
		return false;
	if (pid == 0) {
		if (quiet && (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)))
			_exit(127);
		execvp(argv[0], argv);
		fprintf(stderr, "stap: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return false;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static bool exists(const char *path)
{
	return access(path, R_OK) == 0;
}

/* mkdir -p, mode 0700 for what it creates. */
static bool make_dirs(const char *path)
{
	char *p = ast_strdup(path);
	for (char *slash = strchr(p + 1, '/');; slash = strchr(slash + 1, '/')) {
		if (slash)
			*slash = '\0';
		if (mkdir(p, 0700) < 0 && errno != EEXIST)
			return false;
		if (!slash)
			return true;
		*slash = '/';
	}
}

/* The module key the target kernel's config selects. */
struct sign_key_type {
	const char *alg;  /* openssl's name, "ML-DSA-65", or NULL for RSA */
	const char *hash; /* CONFIG_MODULE_SIG_HASH ("sha256" when unset) */
};

/* Read it from the build tree's include/config/auto.conf, else its .config. */
static struct sign_key_type kernel_key_type(const char *build)
{
	struct sign_key_type t = {NULL, "sha256"};
	FILE *f = fopen(ast_printf("%s/include/config/auto.conf", build), "r");
	if (!f)
		f = fopen(ast_printf("%s/.config", build), "r");
	char line[512], hash[64];
	int bits;
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "CONFIG_MODULE_SIG_KEY_TYPE_MLDSA_%d=y", &bits) == 1)
			t.alg = ast_printf("ML-DSA-%d", bits);
		else if (sscanf(line, "CONFIG_MODULE_SIG_HASH=\"%63[^\"]\"", hash) == 1)
			t.hash = ast_strdup(hash);
	}
	if (f)
		fclose(f);
	return t;
}

/* openssl's first line of `openssl version` (for a message), "" if it has none. */
static const char *openssl_version(void)
{
	char line[256] = "";
	FILE *p = popen("openssl version 2>/dev/null", "r");
	if (p) {
		if (!fgets(line, sizeof(line), p))
			line[0] = '\0';
		pclose(p);
	}
	line[strcspn(line, "\n")] = '\0';
	return ast_strdup(line);
}

/* Whether openssl can make alg's keys; false after a message saying what is needed. */
static bool openssl_knows(const char *alg, const char *release)
{
	char *const argv[] = {"openssl", "genpkey", "-algorithm", (char *)alg, "-out", "/dev/null", NULL};
	if (run_tool(argv, true))
		return true;
	const char *v = openssl_version();
	fprintf(stderr, "stap: --sign-module: kernel %s signs modules with %s keys (CONFIG_MODULE_SIG_KEY_TYPE_MLDSA_%s), "
		"which need OpenSSL 3.5 or later to make; this openssl (%s) cannot: install a newer openssl, "
		"or put an %s key pair in the key directory, or run stap in a newer root (scripts/stap-in-root)\n",
		release ? release : "", alg, alg + 7, *v ? v : "not found", alg);
	return false;
}

/* The key pair in dir, made if absent (with the enrollment hint); false after a message. */
static bool key_pair(struct session *s, const char *dir, const char *alg, const char **priv, const char **cert)
{
	*priv = ast_printf("%s/signing_key.priv", dir);
	*cert = ast_printf("%s/signing_key.x509", dir);
	if (exists(*priv) && exists(*cert))
		return true;
	if (alg && !openssl_knows(alg, s->release))
		return false;
	if (!make_dirs(dir)) {
		fprintf(stderr, "stap: --sign-module: cannot create %s: %s\n", dir, strerror(errno));
		return false;
	}
	/* ML-DSA signs the certificate whole: no digest is given for it */
	char *const argv[] = {"openssl", "req", "-new", "-x509", "-newkey", alg ? (char *)alg : "rsa:2048", "-nodes",
			      "-days", "36500", "-subj", "/CN=stapc module signing key/", "-outform", "DER",
			      "-keyout", (char *)*priv, "-out", (char *)*cert, alg ? NULL : "-sha256", NULL};
	if (!run_tool(argv, true) || !exists(*priv) || !exists(*cert)) {
		fprintf(stderr, "stap: --sign-module: no key in %s and openssl could not make one "
			"(apt-get install openssl)\n", dir);
		return false;
	}
	chmod(*priv, 0600);
	fprintf(stderr, "stap: --sign-module: made a new signing key in %s. Enroll it once as a Machine Owner Key:\n"
		"  sudo mokutil --import %s\n"
		"and reboot to confirm the enrollment; until then the kernel refuses the modules it signs.\n",
		dir, *cert);
	return true;
}

bool sign_module(struct session *s, const char *ko)
{
	const char *dir = s->sign_key_dir;
	if (!dir) {
		const char *home = getenv("HOME");
		dir = ast_printf("%s/.systemtap/ssl/server/moks/stapc", home && *home ? home : "/root");
	}
	struct sign_key_type type = kernel_key_type(s->kernel_build);
	const char *hash = "sha256";
	if (type.alg) {
		/* its own directory: an RSA key enrolled for other kernels stays */
		dir = ast_printf("%s/ml-dsa-%s", dir, type.alg + 7);
		hash = type.hash;
	}
	const char *priv, *cert;
	if (!key_pair(s, dir, type.alg, &priv, &cert))
		return false;
	const char *tool = ast_printf("%s/scripts/sign-file", s->kernel_build);
	if (access(tool, X_OK) != 0) {
		fprintf(stderr, "stap: --sign-module: no %s (the kernel's headers package has it: "
			"apt-get install linux-headers-%s)\n", tool, s->release ? s->release : "RELEASE");
		return false;
	}
	char *const argv[] = {(char *)tool, (char *)hash, (char *)priv, (char *)cert, (char *)ko, NULL};
	if (!run_tool(argv, false)) {
		fprintf(stderr, "stap: --sign-module: %s failed on %s\n", tool, ko);
		return false;
	}
	/* the marker the kernel looks for ends the file */
	FILE *f = fopen(ko, "rb");
	char tail[sizeof(SIGN_MAGIC) - 1];
	bool ok = f && fseek(f, -(long)sizeof(tail), SEEK_END) == 0 && fread(tail, 1, sizeof(tail), f) == sizeof(tail) &&
		  !memcmp(tail, SIGN_MAGIC, sizeof(tail));
	if (f)
		fclose(f);
	if (!ok) {
		fprintf(stderr, "stap: --sign-module: %s has no signature after sign-file\n", ko);
		return false;
	}
	if (s->verbose)
		fprintf(stderr, "stap: signed %s with %s (%s, %s)\n", ko, cert, type.alg ? type.alg : "RSA", hash);
	return true;
}
