/* cache.c - pass 4's module cache: skip kbuild when an identical module was built before. */

/*
 * Design
 * ------
 * A kbuild of even a one-line script takes over a second; looking a module
 * up takes a millisecond. The cache is a flat directory of KEY.ko files,
 * KEY a SHA-256 (cache_key in cache.h says what goes in). Everything that
 * can change the bytes of the module is either hashed itself (generated C,
 * Kbuild text, runtime sources: small, so read in full) or stands in by
 * its identity (size, mtime, inode: the kernel tree's config and symbol
 * files, the compiler binary, which are large and change only when a
 * package is reinstalled).
 *
 * Entries are written to a temporary name and renamed, so concurrent stap
 * runs at worst build the same module twice. A hit sets the entry's mtime;
 * after each store, the oldest entries by mtime are deleted until the
 * total is under the limit ($STAPC_CACHE_SIZE_MB, default
 * CACHE_DEFAULT_LIMIT_MB). --disable-cache neither reads nor writes.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arch.h"
#include "cache.h"
#include "sdt_note.h"
#include "sha256.h"

#define CACHE_FORMAT "stapc module cache 2" /* bump when the key's recipe changes */
#define CACHE_DEFAULT_LIMIT_MB 256

/* Kernel build tree files that identify a tree and its configuration. */
static const char *const cache_tree_files[] = {
	"Makefile", ".config", "include/config/auto.conf", "include/generated/autoconf.h",
	"include/generated/utsrelease.h", "Module.symvers", "scripts/mod/modpost",
};

/* Environment variables kbuild (or Debian's kernel Makefile) reads. */
static const char *const cache_env_vars[] = {
	"ARCH", "CC", "CROSS_COMPILE", "KCFLAGS", "KCPPFLAGS", "KAFLAGS", "LLVM", "LD",
	"KBUILD_EXTRA_SYMBOLS", "DEBIAN_KERNEL_USE_CCACHE", "INSTALL_MOD_STRIP",
};

const char *cache_dir(void)
{
	const char *dir = getenv("STAPC_CACHE_DIR");
	const char *home;

	if (dir && *dir)
		return dir;
	dir = getenv("SYSTEMTAP_DIR");
	if (dir && *dir)
		return ast_printf("%s/cache", dir);
	dir = getenv("XDG_CACHE_HOME");
	if (dir && *dir == '/')
		return ast_printf("%s/stapc", dir);
	home = getenv("HOME");
	if (home && *home)
		return ast_printf("%s/.cache/stapc", home);
	return NULL;
}

/* ---- the key ---- */

/* A labelled field: label, NUL, value, NUL, so fields cannot run into each other. */
static void hash_field(struct sha256 *h, const char *label, const char *value)
{
	sha256_update(h, label, strlen(label) + 1);
	sha256_update(h, value ? value : "", strlen(value ? value : "") + 1);
}

static bool hash_file_contents(struct sha256 *h, const char *path)
{
	char buf[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		sha256_update(h, buf, (size_t)n);
	close(fd);
	return n == 0;
}

/* A file's identity without reading it: size, mtime, inode; "missing" if absent. */
static void hash_file_identity(struct sha256 *h, const char *label, const char *path)
{
	struct stat st;

	if (stat(path, &st) != 0) {
		hash_field(h, label, "missing");
		return;
	}
	hash_field(h, label, ast_printf("%lld %lld.%09ld %llu %llu", (long long)st.st_size,
					(long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
					(unsigned long long)st.st_ino, (unsigned long long)st.st_dev));
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* What a tree walk does with each regular file: sub its path relative to the root. */
typedef bool (*tree_file_fn)(struct sha256 *h, const char *sub, const char *path, const struct stat *st);

/* Every regular file under root/rel, in name order (subdirectories in place), handed to fn. */
static bool walk_tree(struct sha256 *h, const char *root, const char *rel, tree_file_fn fn)
{
	const char *dir = *rel ? ast_printf("%s/%s", root, rel) : root;
	DIR *d = opendir(dir);
	struct vec names = {0};
	struct dirent *e;
	bool ok = true;

	if (!d)
		return false;
	while ((e = readdir(d)) != NULL)
		if (e->d_name[0] != '.')
			vec_push(&names, ast_strdup(e->d_name));
	closedir(d);
	if (names.n)
		vec_sort(&names, compare_names);
	for (int i = 0; i < names.n && ok; i++) {
		const char *sub = *rel ? ast_printf("%s/%s", rel, (char *)names.items[i])
				       : (const char *)names.items[i];
		const char *path = ast_printf("%s/%s", root, sub);
		struct stat st;

		if (stat(path, &st) != 0)
			return false;
		if (S_ISDIR(st.st_mode))
			ok = walk_tree(h, root, sub, fn);
		else if (S_ISREG(st.st_mode))
			ok = fn(h, sub, path, &st);
	}
	return ok;
}

/* A file's path and contents. */
static bool hash_contents(struct sha256 *h, const char *sub, const char *path, const struct stat *st)
{
	(void)st;
	hash_field(h, "runtime file", sub);
	return hash_file_contents(h, path);
}

/* A file's path and identity: size, mtime, ctime, inode, device (no contents). */
static bool hash_identity(struct sha256 *h, const char *sub, const char *path, const struct stat *st)
{
	(void)path;
	hash_field(h, sub, ast_printf("%lld %lld.%09ld %lld.%09ld %llu %llu", (long long)st->st_size,
				      (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec,
				      (long long)st->st_ctim.tv_sec, st->st_ctim.tv_nsec,
				      (unsigned long long)st->st_ino, (unsigned long long)st->st_dev));
	return true;
}

/*
 * The runtime tree's contents as a SHA-256 in hex. Hashing its ~400 KB on
 * every run was a third of a cached -p4; so the digest is remembered in the
 * cache directory (one small file per runtime directory, holding the tree's
 * identity, every file's size, mtime, ctime and inode, and the digest) and
 * used again while that identity is unchanged. ctime cannot be set back,
 * so an edited file is always hashed again.
 */
static bool runtime_digest(const char *runtime_dir, char hex[CACHE_KEY_LEN + 1])
{
	uint8_t digest[SHA256_DIGEST_SIZE];
	char ident[CACHE_KEY_LEN + 1], where[CACHE_KEY_LEN + 1], line[2 * CACHE_KEY_LEN + 3];
	struct sha256 h;
	const char *dir = cache_dir(), *memo = NULL;
	FILE *f;

	sha256_init(&h);
	if (!walk_tree(&h, runtime_dir, "", hash_identity))
		return false;
	sha256_final(&h, digest);
	sha256_hex(digest, ident);
	if (dir) {
		sha256_init(&h);
		hash_field(&h, "runtime dir", runtime_dir);
		sha256_final(&h, digest);
		sha256_hex(digest, where);
		memo = ast_printf("%s/runtime-%.16s", dir, where);
		f = fopen(memo, "r");
		if (f) {
			bool hit = fgets(line, sizeof(line), f) && strlen(line) == 2 * CACHE_KEY_LEN + 2 &&
				   !strncmp(line, ident, CACHE_KEY_LEN) && line[CACHE_KEY_LEN] == ' ';
			fclose(f);
			if (hit) {
				memcpy(hex, line + CACHE_KEY_LEN + 1, CACHE_KEY_LEN);
				hex[CACHE_KEY_LEN] = '\0';
				if (strspn(hex, "0123456789abcdef") == CACHE_KEY_LEN)
					return true;
			}
		}
	}
	sha256_init(&h);
	if (!walk_tree(&h, runtime_dir, "", hash_contents))
		return false;
	sha256_final(&h, digest);
	sha256_hex(digest, hex);
	if (memo && cache_make_dirs(dir)) {
		char *tmp = ast_printf("%s.tmp%d", memo, (int)getpid());
		f = fopen(tmp, "w");
		if (f && fprintf(f, "%s %s\n", ident, hex) > 0 && fclose(f) == 0) {
			if (rename(tmp, memo) != 0)
				unlink(tmp);
		} else {
			if (f)
				fclose(f);
			unlink(tmp);
		}
	}
	return true;
}

const char *kbuild_compiler(const struct session *s)
{
	FILE *f = fopen(ast_printf("%s/include/config/auto.conf", s->kernel_build), "r");
	char line[1024], name[256] = "";

	if (f) {
		while (fgets(line, sizeof(line), f))
			if (!strncmp(line, "CONFIG_CC_VERSION_TEXT=", 23)) {
				sscanf(line + 23 + (line[23] == '"'), "%255[^ \"\n]", name);
				break;
			}
		fclose(f);
	}
	return ast_printf("%s%s", arch_is_cross(s) ? s->arch->cross_prefix : "", *name ? name : "gcc");
}

const char *find_in_path(const char *name)
{
	const char *path = getenv("PATH");
	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t len = strcspn(p, ":");
		const char *candidate = ast_printf("%.*s/%s", (int)len, p, name);

		if (len && access(candidate, X_OK) == 0)
			return candidate;
		p += len + (p[len] == ':');
	}
	return NULL;
}

/* The compiler kbuild runs: its name and the identity of the binary make finds on PATH. */
static void hash_compiler(struct sha256 *h, const struct session *s)
{
	const char *name = kbuild_compiler(s), *path = find_in_path(name);

	hash_field(h, "compiler", name);
	hash_field(h, "compiler path", path ? path : "not found");
	if (path)
		hash_file_identity(h, "compiler binary", path);
}

bool cache_key(struct session *s, const char *kbuild_text, char key[CACHE_KEY_LEN + 1])
{
	uint8_t digest[SHA256_DIGEST_SIZE];
	char tree_digest[CACHE_KEY_LEN + 1];
	struct sha256 h;
	char *tree;

	sha256_init(&h);
	hash_field(&h, "format", CACHE_FORMAT);
	hash_field(&h, "stapc version", STAPC_VERSION);
	hash_field(&h, "module", s->module_name);
	hash_field(&h, "kbuild", kbuild_text);
	hash_field(&h, "generated C", "");
	if (!hash_file_contents(&h, s->c_file))
		return false;
	if (!runtime_digest(s->runtime_dir, tree_digest))
		return false;
	hash_field(&h, "runtime tree", tree_digest);
	hash_field(&h, "release", s->release);
	tree = realpath(s->kernel_build, NULL);
	hash_field(&h, "kernel build tree", tree ? tree : s->kernel_build);
	free(tree);
	for (size_t i = 0; i < sizeof(cache_tree_files) / sizeof(cache_tree_files[0]); i++)
		hash_file_identity(&h, cache_tree_files[i],
				   ast_printf("%s/%s", s->kernel_build, cache_tree_files[i]));
	hash_compiler(&h, s);
	for (size_t i = 0; i < sizeof(cache_env_vars) / sizeof(cache_env_vars[0]); i++)
		hash_field(&h, cache_env_vars[i], getenv(cache_env_vars[i]));
	sha256_final(&h, digest);
	sha256_hex(digest, key);
	return true;
}

/* ---- entries ---- */

/* Copy from to a temporary file beside to, then rename it into place. */
static bool copy_atomically(const char *from, const char *to)
{
	char *tmp = ast_printf("%s.tmp%d", to, (int)getpid());
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC);
	int out = in < 0 ? -1 : open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	ssize_t n = -1;
	bool ok = out >= 0;

	while (ok && (n = read(in, buf, sizeof(buf))) > 0)
		ok = write(out, buf, (size_t)n) == n;
	ok = ok && n == 0;
	if (in >= 0)
		close(in);
	if (out >= 0 && close(out) != 0)
		ok = false;
	if (!ok || rename(tmp, to) != 0) {
		if (out >= 0)
			unlink(tmp);
		return false;
	}
	return true;
}

bool cache_fetch(struct session *s, const char *key, const char *dest)
{
	const char *dir = cache_dir();
	const char *entry;

	if (!dir)
		return false;
	entry = ast_printf("%s/%s.ko", dir, key);
	if (!copy_atomically(entry, dest))
		return false;
	utimensat(AT_FDCWD, entry, NULL, 0);	/* most recently used */
	/* stap.cache_get: the cache holds no C, so source_path is the run's generated C */
	STAPC_MARK2(stap, cache_get, entry, s->c_file);
	if (s->verbose)
		fprintf(stderr, "Pass 4: using the cached module %s\n", entry);
	return true;
}

/* mkdir -p, private to the user. */
bool cache_make_dirs(const char *path)
{
	char *p = ast_strdup(path);

	for (char *slash = strchr(p + 1, '/');; slash = strchr(slash + 1, '/')) {
		if (slash)
			*slash = '\0';
		if (mkdir(p, 0700) != 0 && errno != EEXIST)
			return false;
		if (!slash)
			return true;
		*slash = '/';
	}
}

struct cache_entry {
	const char *path;   /* DIR/KEY.ko */
	off_t size;         /* bytes */
	struct timespec used; /* mtime: last store or hit */
};

static int compare_age(const void *a, const void *b)
{
	const struct cache_entry *x = *(struct cache_entry *const *)a;
	const struct cache_entry *y = *(struct cache_entry *const *)b;

	if (x->used.tv_sec != y->used.tv_sec)
		return x->used.tv_sec < y->used.tv_sec ? -1 : 1;
	return (x->used.tv_nsec > y->used.tv_nsec) - (x->used.tv_nsec < y->used.tv_nsec);
}

static long long cache_limit_bytes(void)
{
	const char *env = getenv("STAPC_CACHE_SIZE_MB");
	char *end;
	long long mb = env && *env ? strtoll(env, &end, 10) : CACHE_DEFAULT_LIMIT_MB;

	if (env && *env && (*end || mb < 0))
		mb = CACHE_DEFAULT_LIMIT_MB;
	return mb << 20;
}

/* Delete the least recently used entries (never keep) while over the limit. */
static void cache_trim(struct session *s, const char *dir, const char *keep)
{
	long long limit = cache_limit_bytes(), total = 0;
	struct vec entries = {0};
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);
		struct cache_entry *ce;
		struct stat st;

		if (len != CACHE_KEY_LEN + 3 || strcmp(e->d_name + CACHE_KEY_LEN, ".ko") != 0)
			continue;
		ce = ast_alloc(sizeof(*ce));
		ce->path = ast_printf("%s/%s", dir, e->d_name);
		if (stat(ce->path, &st) != 0)
			continue;
		ce->size = st.st_size;
		ce->used = st.st_mtim;
		total += st.st_size;
		if (strcmp(ce->path, keep) != 0)
			vec_push(&entries, ce);
	}
	closedir(d);
	if (total <= limit)
		return;
	if (entries.n)
		vec_sort(&entries, compare_age);
	for (int i = 0; i < entries.n && total > limit; i++) {
		struct cache_entry *ce = entries.items[i];

		STAPC_MARK1(stap, cache_clean, ce->path);
		if (unlink(ce->path) == 0) {
			total -= ce->size;
			if (s->verbose > 1)
				fprintf(stderr, "Pass 4: cache over its limit: removed %s\n", ce->path);
		}
	}
}

/*
 * stap.cache_add_src and stap.cache_add_nss, once the module is stored: the
 * cache keeps no C file and no signature, so add_src names the generated C
 * whose hash is the entry's key and the entry, and add_nss (with
 * --sign-module only, which signs each run's copy) the module and the entry.
 */
static void mark_cache_added(struct session *s, const char *ko, const char *entry)
{
	STAPC_MARK2(stap, cache_add_src, s->c_file, entry);
	if (s->sign_module)
		STAPC_MARK2(stap, cache_add_nss, ko, entry);
}

void cache_store(struct session *s, const char *key, const char *ko)
{
	const char *dir = cache_dir();
	const char *entry;

	if (!dir || !cache_make_dirs(dir)) {
		if (s->verbose)
			fprintf(stderr, "Pass 4: cannot use the cache directory %s: %s\n",
				dir ? dir : "(no $HOME)", dir ? strerror(errno) : "not set");
		return;
	}
	entry = ast_printf("%s/%s.ko", dir, key);
	STAPC_MARK2(stap, cache_add_mod, ko, entry);
	if (!copy_atomically(ko, entry)) {
		if (s->verbose)
			fprintf(stderr, "Pass 4: cannot store the module in the cache as %s: %s\n",
				entry, strerror(errno));
		return;
	}
	mark_cache_added(s, ko, entry);
	if (s->verbose)
		fprintf(stderr, "Pass 4: cached the module as %s\n", entry);
	cache_trim(s, dir, entry);
}

int cache_clean(struct session *s)
{
	const char *dir = cache_dir();

	if (!dir) {
		fprintf(stderr, "stap: --clean-cache: no cache directory (set STAPC_CACHE_DIR or HOME)\n");
		return STAP_EXIT_FAILURE;
	}
	cache_trim(s, dir, "");
	if (s->verbose)
		fprintf(stderr, "stap: cache %s trimmed to its limit\n", dir);
	return STAP_EXIT_OK;
}
