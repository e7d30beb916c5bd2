/*
 * kernel.c - which files describe the -r target kernel, and opening them once.
 *
 * Every lookup is made against the target named by -r (a release, or a build
 * tree), never the running kernel:
 *
 *   DWARF  vmlinux:  DIR/vmlinux (-r DIR), /usr/lib/debug/boot/vmlinux-R,
 *                    /usr/lib/debug/lib/modules/R/vmlinux
 *          modules:  /usr/lib/debug/lib/modules/R/kernel/.../NAME.ko, DIR/.../NAME.ko
 *          (Debian: package linux-image-R-dbg)
 *   BTF    vmlinux:  DIR/vmlinux, /boot/vmlinuz-R (compressed, see vmlinuz.c),
 *                    the DWARF vmlinux's .BTF section
 *          modules:  /lib/modules/R/kernel/.../NAME.ko (split BTF over vmlinux's)
 *   exported symbols: BUILD/Module.symvers
 *
 * The choice between them: --debuginfo=auto (DWARF when installed, else
 * BTF), --debuginfo=btf or --debuginfo=dwarf; the environment variable
 * STAPC_DEBUGINFO gives the default.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kernel.h"

/* One opened target binary, by module name and source. */
struct cached {
	const char *module;
	enum dbg_source source;
	struct debuginfo *di;   /* NULL if it could not be opened */
	const char *err;
};
static struct vec cache; /* of struct cached * */

static bool exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* NAME.ko under dir, recursively; '-' and '_' are the same in module names. */
static const char *find_ko(const char *dir, const char *name, int depth)
{
	DIR *d = opendir(dir);
	if (!d || depth > 8) {
		if (d)
			closedir(d);
		return NULL;
	}
	const char *found = NULL;
	struct dirent *e;
	while (!found && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		const char *path = ast_printf("%s/%s", dir, e->d_name);
		size_t n = strlen(e->d_name);
		if (n > 3 && !strcmp(e->d_name + n - 3, ".ko")) {
			bool same = n - 3 == strlen(name);
			for (size_t i = 0; same && i < n - 3; i++) {
				char a = e->d_name[i] == '-' ? '_' : e->d_name[i], b = name[i] == '-' ? '_' : name[i];
				same = a == b;
			}
			if (same)
				found = path;
			continue;
		}
		struct stat st;
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			found = find_ko(path, name, depth + 1);
	}
	closedir(d);
	return found;
}

enum kernel_dbg_mode kernel_dbg_mode(const char *arg)
{
	const char *v = arg ? arg : getenv("STAPC_DEBUGINFO");
	if (!v || !*v || !strcmp(v, "auto"))
		return KERNEL_DBG_AUTO;
	if (!strcmp(v, "btf"))
		return KERNEL_DBG_BTF;
	if (!strcmp(v, "dwarf"))
		return KERNEL_DBG_DWARF;
	return KERNEL_DBG_INVALID;
}

static bool is_build_tree(struct session *s)
{
	return strchr(s->release, '/') != NULL || (s->kernel_build && exists(ast_printf("%s/vmlinux", s->kernel_build)));
}

static const char *dwarf_path(struct session *s, const char *module)
{
	const char *r = s->release;
	if (!strcmp(module, "kernel")) {
		const char *candidates[] = {
			is_build_tree(s) ? ast_printf("%s/vmlinux", s->kernel_build) : NULL,
			ast_printf("/usr/lib/debug/boot/vmlinux-%s", r),
			ast_printf("/usr/lib/debug/lib/modules/%s/vmlinux", r),
		};
		for (size_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++)
			if (candidates[i] && exists(candidates[i]))
				return candidates[i];
		return NULL;
	}
	const char *ko = find_ko(ast_printf("/usr/lib/debug/lib/modules/%s/kernel", r), module, 0);
	if (!ko && is_build_tree(s))
		ko = find_ko(s->kernel_build, module, 0);
	return ko;
}

static const char *btf_path(struct session *s, const char *module)
{
	if (!strcmp(module, "kernel")) {
		const char *candidates[] = {
			is_build_tree(s) ? ast_printf("%s/vmlinux", s->kernel_build) : NULL,
			ast_printf("/boot/vmlinuz-%s", s->release),
			dwarf_path(s, "kernel"),
		};
		for (size_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++)
			if (candidates[i] && exists(candidates[i]))
				return candidates[i];
		return NULL;
	}
	const char *ko = find_ko(ast_printf("/lib/modules/%s/kernel", s->release), module, 0);
	if (!ko && is_build_tree(s))
		ko = find_ko(s->kernel_build, module, 0);
	return ko;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Module.symvers: "crc<TAB>symbol<TAB>module<TAB>EXPORT_SYMBOL[_GPL]<TAB>namespace". */
static void load_exports(struct session *s, struct debuginfo *di, const char *module)
{
	FILE *f = fopen(ast_printf("%s/Module.symvers", s->kernel_build), "r");
	if (!f)
		return;
	char line[1024];
	while (fgets(line, sizeof(line), f)) {
		char *crc = strtok(line, "\t\n"), *sym = strtok(NULL, "\t\n"), *owner = strtok(NULL, "\t\n");
		if (!crc || !sym || !owner)
			continue;
		const char *base = strrchr(owner, '/') ? strrchr(owner, '/') + 1 : owner;
		bool mine = !strcmp(module, "kernel") ? !strcmp(owner, "vmlinux") : !strcmp(base, module);
		if (mine)
			vec_push(&di->exported, ast_strdup(sym));
	}
	fclose(f);
	qsort(di->exported.items, (size_t)di->exported.n, sizeof(void *), compare_names);
}

static struct debuginfo *open_cached(struct session *s, const char *module, enum dbg_source source, const char **err)
{
	for (int i = 0; i < cache.n; i++) {
		struct cached *c = cache.items[i];
		if (!strcmp(c->module, module) && c->source == source) {
			*err = c->err;
			return c->di;
		}
	}
	struct cached *c = ast_alloc(sizeof(*c));
	c->module = ast_strdup(module);
	c->source = source;
	vec_push(&cache, c);
	const char *path = source == DBG_SOURCE_DWARF ? dwarf_path(s, module) : btf_path(s, module);
	if (!path) {
		c->err = source == DBG_SOURCE_DWARF
			? ast_printf("no DWARF debuginfo for %s of kernel %s (install the package linux-image-%s-dbg)",
				     !strcmp(module, "kernel") ? "the kernel" : ast_printf("module %s", module), s->release,
				     s->release)
			: ast_printf("no BTF for %s of kernel %s (looked for %s)",
				     !strcmp(module, "kernel") ? "the kernel" : ast_printf("module %s", module), s->release,
				     !strcmp(module, "kernel") ? ast_printf("/boot/vmlinuz-%s", s->release)
							       : ast_printf("/lib/modules/%s/kernel/.../%s.ko", s->release, module));
		*err = c->err;
		return NULL;
	}
	if (source == DBG_SOURCE_DWARF) {
		c->di = dbg_open_dwarf(path, &c->err);
	} else {
		struct debuginfo *base = NULL;
		if (strcmp(module, "kernel")) {
			base = open_cached(s, "kernel", DBG_SOURCE_BTF, err);
			if (!base) {
				c->err = *err;
				return NULL;
			}
		}
		c->di = dbg_open_btf(path, base, &c->err);
	}
	if (c->di) {
		c->di->module = c->module;
		load_exports(s, c->di, module);
	}
	*err = c->err;
	return c->di;
}

struct debuginfo *kernel_debuginfo(struct session *s, const char *module, const char **err)
{
	enum kernel_dbg_mode mode = kernel_dbg_mode(s->debuginfo_mode);
	if (mode == KERNEL_DBG_BTF)
		return open_cached(s, module, DBG_SOURCE_BTF, err);
	struct debuginfo *di = open_cached(s, module, DBG_SOURCE_DWARF, err);
	if (di || mode == KERNEL_DBG_DWARF)
		return di;
	const char *dwarf_err = *err;
	di = open_cached(s, module, DBG_SOURCE_BTF, err);
	if (!di)
		*err = ast_printf("%s; %s", dwarf_err, *err);
	return di;
}

const char *kernel_dwarf_missing(struct session *s, const char *module)
{
	const char *err = NULL;
	if (kernel_dbg_mode(s->debuginfo_mode) == KERNEL_DBG_BTF)
		return ast_printf("--debuginfo=btf turns it off (it comes from the package linux-image-%s-dbg)", s->release);
	if (open_cached(s, module, DBG_SOURCE_DWARF, &err))
		return NULL;
	return err;
}
