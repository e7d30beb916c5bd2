/* userland.c - the host's programs in the guest: the 9p modules to load, or copies of files and their libraries. */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "decompress.h"
#include "stapvm.h"

#define USERLAND_MAX_LINKS 40 /* symlinks followed for one path, as the kernel's limit */
#define USERLAND_MAX_MODULE (256u << 20) /* bytes a decompressed module may have */

/* The modules mounting the host's / needs; their dependencies come from modules.dep. */
static const char *const userland_needed[] = { "virtio_pci", "9pnet_virtio", "9p", "overlay" };

/* Lines of a text file, or NULL if it cannot be read. */
static char **read_lines(const char *path, size_t *count)
{
	FILE *f = fopen(path, "r");
	char **lines = NULL;
	size_t n = 0, cap = 0;
	char *line = NULL;
	size_t len = 0;
	ssize_t got;

	*count = 0;
	if (!f)
		return NULL;
	while ((got = getline(&line, &len, f)) >= 0) {
		while (got > 0 && (line[got - 1] == '\n' || line[got - 1] == '\r'))
			line[--got] = '\0';
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			lines = realloc(lines, cap * sizeof(*lines));
			if (!lines)
				die("out of memory");
		}
		lines[n++] = xasprintf("%s", line);
	}
	free(line);
	fclose(f);
	*count = n;
	return lines;
}

static void free_lines(char **lines, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
}

/* Module file suffixes: plain, then the compressions kbuild's CONFIG_MODULE_COMPRESS_* write. */
static const char *const module_suffixes[] = { ".ko", ".ko.xz", ".ko.zst", ".ko.gz" };

/* The length of path's module suffix (".ko", ".ko.xz"...), 0 if it has none. */
static size_t module_suffix_len(const char *path, size_t len)
{
	for (size_t i = 0; i < sizeof(module_suffixes) / sizeof(module_suffixes[0]); i++) {
		size_t n = strlen(module_suffixes[i]);

		if (len > n && !memcmp(path + len - n, module_suffixes[i], n))
			return n;
	}
	return 0;
}

/* The kernel's name of the module file path: kernel/fs/9p/9p.ko(.xz) -> 9p (dashes become '_'). */
static char *module_name(const char *path, size_t len)
{
	const char *slash = memrchr(path, '/', len);
	const char *base = slash ? slash + 1 : path;
	size_t n = (size_t)(path + len - base);
	char *name;

	n -= module_suffix_len(base, n);
	name = xasprintf("%.*s", (int)n, base);
	for (char *p = name; *p; p++)
		if (*p == '-')
			*p = '_';
	return name;
}

/* Is module name built into the kernel (listed in modules.builtin)? */
static bool builtin(char **lines, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++) {
		char *m = module_name(lines[i], strlen(lines[i]));
		bool same = !strcmp(m, name);

		free(m);
		if (same)
			return true;
	}
	return false;
}

/* Append name and (first) its dependencies from modules.dep to order, once each. */
static bool add_with_deps(char **dep, size_t ndep, char **bi, size_t nbi, const char *name,
			  char ***order, size_t *norder, int depth)
{
	for (size_t i = 0; i < *norder; i++)
		if (!strcmp((*order)[i], name))
			return true;
	if (builtin(bi, nbi, name))
		return true;
	if (depth > 32)
		return false;
	for (size_t i = 0; i < ndep; i++) {
		char *colon = strchr(dep[i], ':');
		char *m, *rest;
		bool same;

		if (!colon)
			continue;
		m = module_name(dep[i], (size_t)(colon - dep[i]));
		same = !strcmp(m, name);
		free(m);
		if (!same)
			continue;
		/* modules.dep lists the dependencies after the colon; load each first */
		rest = colon + 1;
		while (*rest) {
			size_t len;
			char *d;

			rest += strspn(rest, " \t");
			len = strcspn(rest, " \t");
			if (!len)
				break;
			d = module_name(rest, len);
			if (!add_with_deps(dep, ndep, bi, nbi, d, order, norder, depth + 1)) {
				free(d);
				return false;
			}
			free(d);
			rest += len;
		}
		*order = realloc(*order, (*norder + 2) * sizeof(**order));
		if (!*order)
			die("out of memory");
		(*order)[(*norder)++] = xasprintf("%s", name);
		(*order)[*norder] = NULL;
		return true;
	}
	return false;
}

char **userland_9p_modules(const char *moddir, bool net, bool serial, const char **why)
{
	char *dep_path = xasprintf("%s/modules.dep", moddir);
	char *bi_path = xasprintf("%s/modules.builtin", moddir);
	size_t ndep, nbi, norder = 0;
	char **dep = read_lines(dep_path, &ndep);
	char **bi = read_lines(bi_path, &nbi);
	char **order = xmalloc(sizeof(*order));

	order[0] = NULL;
	*why = NULL;
	if (!dep)
		*why = "no modules.dep";
	for (size_t i = 0; dep && !*why && i < sizeof(userland_needed) / sizeof(userland_needed[0]); i++)
		if (!add_with_deps(dep, ndep, bi, nbi, userland_needed[i], &order, &norder, 0))
			*why = userland_needed[i];
	if (net && dep && !*why && !add_with_deps(dep, ndep, bi, nbi, "virtio_net", &order, &norder, 0))
		*why = "virtio_net";
	if (serial && dep && !*why && !add_with_deps(dep, ndep, bi, nbi, "virtio_console", &order, &norder, 0))
		*why = "virtio_console";
	free_lines(dep, ndep);
	free_lines(bi, nbi);
	free(dep_path);
	free(bi_path);
	if (*why) {
		free_lines(order, norder);
		return NULL;
	}
	return order;
}

/* A compressed module file, decompressed on the host: the guest's busybox insmod reads plain ELF only. */
static void add_decompressed(struct cpio_writer *w, const char *inner, const char *host)
{
	FILE *f = fopen(host, "rb");
	unsigned char *in = NULL, *out = NULL;
	size_t len = 0, cap = 0, out_len = 0, got;
	const char *why;

	if (!f)
		die("%s: %s", host, strerror(errno));
	do {
		if (len == cap) {
			cap = cap ? 2 * cap : 1 << 20;
			in = realloc(in, cap);
			if (!in)
				die("out of memory");
		}
		got = fread(in + len, 1, cap - len, f);
		len += got;
	} while (got > 0);
	if (ferror(f))
		die("%s: read error", host);
	fclose(f);
	why = decompress(in, len, USERLAND_MAX_MODULE, &out, &out_len);
	if (why)
		die("%s: cannot decompress the module: %s", host, why);
	cpio_add_data(w, inner, 0644, out, out_len);
	free(in);
	free(out);
}

void userland_add_module(struct cpio_writer *w, const char *moddir, const char *name)
{
	char *dep_path = xasprintf("%s/modules.dep", moddir);
	size_t ndep;
	char **dep = read_lines(dep_path, &ndep);
	bool found = false;

	for (size_t i = 0; dep && i < ndep && !found; i++) {
		char *colon = strchr(dep[i], ':');
		char *m;

		if (!colon)
			continue;
		m = module_name(dep[i], (size_t)(colon - dep[i]));
		if (!strcmp(m, name)) {
			char *host = xasprintf("%s/%.*s", moddir, (int)(colon - dep[i]), dep[i]);
			char *inner = xasprintf("stapvm/modules/%s.ko", name);

			if (module_suffix_len(dep[i], (size_t)(colon - dep[i])) == 3)
				cpio_add_file(w, inner, host);
			else
				add_decompressed(w, inner, host);
			free(host);
			free(inner);
			found = true;
		}
		free(m);
	}
	free_lines(dep, ndep);
	free(dep_path);
	if (!found)
		die("module %s not found in %s/modules.dep", name, moddir);
}

static void add_closure(struct cpio_writer *w, const char *path, int depth, bool libraries);

/*
 * Add the host file at path to the archive at the same path: each directory on
 * the way as a directory, each symlink as the same symlink (then followed), the
 * file itself last.  Returns the real path of the file (malloc'ed), or NULL
 * when it is missing or not a regular file.
 */
static char *add_path(struct cpio_writer *w, const char *path, int links)
{
	char done[PATH_MAX] = ""; /* the real directory reached so far, "" for / */
	const char *p = path;

	if (links > USERLAND_MAX_LINKS)
		die("%s: too many levels of symbolic links", path);
	while (*p) {
		size_t len;
		char next[PATH_MAX], host[PATH_MAX + 1];
		struct stat st;

		p += strspn(p, "/");
		len = strcspn(p, "/");
		if (!len)
			break;
		if (len == 1 && p[0] == '.') {
			p += len;
			continue;
		}
		if (len == 2 && p[0] == '.' && p[1] == '.') {
			char *slash = strrchr(done, '/');

			if (slash)
				*slash = '\0';
			else
				done[0] = '\0';
			p += len;
			continue;
		}
		if ((size_t)snprintf(next, sizeof(next), "%s%s%.*s", done, *done ? "/" : "", (int)len,
				     p) >= sizeof(next))
			die("%s: path too long", path);
		snprintf(host, sizeof(host), "/%s", next);
		p += len;
		if (lstat(host, &st) < 0)
			return NULL;
		if (S_ISLNK(st.st_mode)) {
			char target[PATH_MAX];
			ssize_t n = readlink(host, target, sizeof(target) - 1);
			char *rest;
			char *real;

			if (n < 0)
				return NULL;
			target[n] = '\0';
			if (!cpio_has(w, next))
				cpio_add_symlink(w, next, target);
			rest = target[0] == '/' ? xasprintf("%s%s", target, p)
						: xasprintf("/%s%s%s%s", done, *done ? "/" : "", target, p);
			real = add_path(w, rest, links + 1);
			free(rest);
			return real;
		}
		if (S_ISDIR(st.st_mode)) {
			if (!cpio_has(w, next))
				cpio_add_dir(w, next);
			snprintf(done, sizeof(done), "%s", next);
			continue;
		}
		if (!S_ISREG(st.st_mode) || p[strspn(p, "/")])
			return NULL;
		if (!cpio_has(w, next))
			cpio_add_file(w, next, host);
		return xasprintf("%s", host);
	}
	return NULL; /* a directory */
}

/* The interpreter a "#!" script names, or NULL. */
static char *script_interpreter(const char *path)
{
	char line[PATH_MAX + 2];
	FILE *f = fopen(path, "r");
	char *interp = NULL;

	if (!f)
		return NULL;
	if (fgets(line, sizeof(line), f) && line[0] == '#' && line[1] == '!') {
		char *s = line + 2;

		s += strspn(s, " \t");
		s[strcspn(s, " \t\r\n")] = '\0';
		if (*s == '/')
			interp = xasprintf("%s", s);
	}
	fclose(f);
	return interp;
}

/* The loader and libraries of a dynamic ELF, as ldd lists them (nothing for a static one). */
static void add_libraries(struct cpio_writer *w, const char *path, int depth)
{
	char *cmd = NULL;
	size_t cmdlen;
	FILE *q = open_memstream(&cmd, &cmdlen);
	FILE *ldd;
	char line[PATH_MAX + 128];

	if (!q)
		die("out of memory");
	fputs("ldd -- ", q);
	shell_quote(q, path);
	fputs(" 2>/dev/null", q);
	fclose(q);
	ldd = popen(cmd, "r");
	free(cmd);
	if (!ldd)
		die("cannot run ldd: %s", strerror(errno));
	/* "\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x...)" or "\t/lib64/ld-linux-x86-64.so.2 (0x...)" */
	while (fgets(line, sizeof(line), ldd)) {
		char *arrow = strstr(line, "=> ");
		char *lib = arrow ? arrow + 3 : line + strspn(line, " \t");
		char *end = strstr(lib, " (0x");

		if (*lib != '/' || !end)
			continue;
		*end = '\0';
		add_closure(w, lib, depth + 1, false); /* ldd listed the whole closure */
	}
	pclose(ldd);
}

/* path, and what running it needs: a script's interpreter, an ELF's loader and libraries. */
static void add_closure(struct cpio_writer *w, const char *path, int depth, bool libraries)
{
	char *real, *interp;

	if (depth > 8)
		return;
	real = add_path(w, path, 0);
	if (!real)
		die("%s: no such file (named for the guest)", path);
	interp = script_interpreter(real);
	if (interp) {
		add_closure(w, interp, depth + 1, true);
		free(interp);
	} else if (libraries) {
		add_libraries(w, real, depth);
	}
	free(real);
}

void userland_add_host_file(struct cpio_writer *w, const char *path)
{
	if (path[0] != '/')
		die("%s: a file for the guest must be an absolute path", path);
	add_closure(w, path, 0, true);
}

void userland_add_tmp_file(struct cpio_writer *w, const char *path)
{
	char *inner = xasprintf("stapvm%s", path);

	for (char *slash = strchr(inner, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (!cpio_has(w, inner))
			cpio_add_dir(w, inner);
		*slash = '/';
	}
	if (!is_file(path))
		die("%s: no such file (named for the guest)", path);
	if (!cpio_has(w, inner))
		cpio_add_file(w, inner, path);
	free(inner);
}

/* --arch arm64: path when it is an arm64 ELF (a cross-built static test program), alone. */
void userland_add_arm64_file(struct cpio_writer *w, const char *path)
{
	Elf64_Ehdr eh;
	int fd = open(path, O_RDONLY);
	bool arm64 = fd >= 0 && pread(fd, &eh, sizeof(eh), 0) == sizeof(eh) &&
		     !memcmp(eh.e_ident, ELFMAG, SELFMAG) && eh.e_machine == EM_AARCH64;

	if (fd >= 0)
		close(fd);
	if (arm64 && path[0] == '/')
		add_closure(w, path, 0, false);
}
