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
 *   BTF    vmlinux:  DIR/vmlinux, /sys/kernel/btf/vmlinux (when R is the
 *                    running kernel), /boot/vmlinuz-R or, where a kernel
 *                    package ships it only there (Debian from 7.2 on),
 *                    /lib/modules/R/vmlinuz (compressed: gzip, bzip2, lzma,
 *                    xz, lzo, lz4 or zstd, see vmlinuz.c), the DWARF
 *                    vmlinux's .BTF section
 *          modules:  /lib/modules/R/kernel/.../NAME.ko (split BTF over vmlinux's)
 *   exported symbols: BUILD/Module.symvers
 *
 * The choice between them: --debuginfo=auto (DWARF when installed, else
 * BTF), --debuginfo=btf or --debuginfo=dwarf; the environment variable
 * STAPC_DEBUGINFO gives the default.
 */
#include <dirent.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "arch.h"
#include "decompress.h"
#include "kernel.h"
#include "kindex.h"
#include "ktext.h"

#define KERNEL_MAX_MODULE_BYTES (512u << 20) /* a decompressed module's largest size */

/* One opened target binary, by module name and source. */
struct cached {
	const char *module;
	enum dbg_source source;
	struct debuginfo *di;   /* NULL if it could not be opened */
	const char *err;
};
/* What one session has read of its target kernel (session.kernel_files). */
struct kernel_files {
	struct vec opened;           /* of struct cached *: debuginfo by module and source */
	struct vec dep_modules;      /* of struct dep_module *: the target's modules.dep */
	bool dep_loaded;             /* dep_modules was read */
	struct vec module_functions; /* of struct module_functions * */
	struct vec module_tp;        /* of struct module_tp_classes * */
	struct strmap text_symbols;  /* System.map's function symbols: name -> (void *)1 */
	int text_symbols_read;       /* 0 not yet, 1 read, -1 no real System.map found */
	struct kindex *text_symbols_index; /* the same from the System.map's index (kindex.c), or NULL */
	struct vec header_types;     /* of struct header_types * (headers.c): @cast header modules compiled */
};


static struct kernel_files *kernel_files(struct session *s)
{
	if (!s->kernel_files)
		s->kernel_files = ast_alloc(sizeof(*s->kernel_files));
	return s->kernel_files;
}

struct vec *kernel_header_types(struct session *s)
{
	return &kernel_files(s)->header_types;
}

static bool exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* NAME.ko under dir, recursively; '-' and '_' are the same in module names. */
/* Module file suffixes: plain, then the compressions kbuild writes (CONFIG_MODULE_COMPRESS_*: 6.12's .ko.xz). */
static const char *const ko_suffixes[] = { ".ko", ".ko.xz", ".ko.zst", ".ko.gz" };

/* The length of name's module suffix, 0 if it has none. */
static size_t ko_suffix_len(const char *name)
{
	size_t len = strlen(name);
	for (size_t i = 0; i < sizeof(ko_suffixes) / sizeof(ko_suffixes[0]); i++) {
		size_t n = strlen(ko_suffixes[i]);
		if (len > n && !strcmp(name + len - n, ko_suffixes[i]))
			return n;
	}
	return 0;
}

/*
 * A module file as ELF to read: path itself for a plain .ko, a compressed
 * one decompressed once into the session's directory. NULL if it cannot be.
 */
static const char *plain_ko(struct session *s, const char *path)
{
	if (!path || ko_suffix_len(path) == 3)
		return path;
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	const char *dir = session_tmpdir(s);
	if (!dir)
		return NULL;
	const char *out_path = ast_printf("%s/kmod-%.*s.ko", dir, (int)(strlen(base) - ko_suffix_len(base)), base);
	if (exists(out_path))
		return out_path;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	unsigned char *in = NULL, *out = NULL;
	size_t out_len = 0;
	bool ok = fd >= 0 && fstat(fd, &st) == 0 && (in = malloc((size_t)st.st_size + 1)) != NULL &&
		  read(fd, in, (size_t)st.st_size) == st.st_size &&
		  !decompress(in, (size_t)st.st_size, KERNEL_MAX_MODULE_BYTES, &out, &out_len);
	if (fd >= 0)
		close(fd);
	free(in);
	FILE *f = ok ? fopen(out_path, "wb") : NULL;
	ok = f && fwrite(out, 1, out_len, f) == out_len;
	if (f && fclose(f) != 0)
		ok = false;
	free(out);
	if (!ok)
		unlink(out_path);
	return ok ? out_path : NULL;
}

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
		size_t n = strlen(e->d_name), suffix = ko_suffix_len(e->d_name);
		if (suffix) {
			bool same = n - suffix == strlen(name);
			for (size_t i = 0; same && i < n - suffix; i++) {
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

static int compare_names(const void *a, const void *b);

/* One module of /lib/modules/R/modules.dep. */
struct dep_module {
	const char *name;       /* the file's name without .ko, '-' as '_' */
	const char *rel;        /* its path under /lib/modules/R ("kernel/fs/ext4/ext4.ko") */
};

/* The target kernel's files are under this prefix here ("" for /; -a: arch_root). */
static const char *kroot(const struct session *s)
{
	return s->kernel_root ? s->kernel_root : "";
}

/* The target's modules.dep, read once: struct dep_module *, by name. */
static const struct vec *dep_modules(struct session *s)
{
	struct vec *mods = &kernel_files(s)->dep_modules;
	if (kernel_files(s)->dep_loaded)
		return mods;
	kernel_files(s)->dep_loaded = true;
	FILE *f = fopen(ast_printf("%s/lib/modules/%s/modules.dep", kroot(s), s->release), "r");
	char line[4096];
	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = '\0';
		const char *base = strrchr(line, '/') ? strrchr(line, '/') + 1 : line;
		size_t n = strlen(base), suffix = ko_suffix_len(base);
		if (!suffix)
			continue;
		struct dep_module *m = ast_alloc(sizeof(*m));
		m->name = kernel_module_name(ast_strndup(base, n - suffix));
		m->rel = ast_strdup(line);
		vec_push(mods, m);
	}
	if (f)
		fclose(f);
	return mods;
}

/* dir/REL of module from modules.dep, if that file exists. */
static const char *dep_ko(struct session *s, const char *dir, const char *module)
{
	const struct vec *mods = dep_modules(s);
	const char *name = kernel_module_name(module);
	for (int i = 0; i < mods->n; i++) {
		const struct dep_module *m = mods->items[i];
		if (!strcmp(m->name, name)) {
			const char *path = ast_printf("%s/%s", dir, m->rel);
			/* a -dbg package keeps a compressed module's DWARF as a plain .ko */
			const char *plain = ast_printf("%.*s.ko", (int)(strlen(path) - ko_suffix_len(path)), path);
			return exists(path) ? path : exists(plain) ? plain : NULL;
		}
	}
	return NULL;
}

void kernel_modules_matching(struct session *s, const char *glob, struct vec *out)
{
	const struct vec *mods = dep_modules(s);
	const char *name_glob = kernel_module_name(glob);
	for (int i = 0; i < mods->n; i++) {
		const struct dep_module *m = mods->items[i];
		if (dbg_glob_match(name_glob, m->name))
			vec_push(out, (void *)m->name);
	}
	vec_sort(out, compare_names);
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
		/* -r DIR's own vmlinux first; for a release, its -dbg package's before the build tree's,
		 * which from 6.12 Debian's headers ship with BTF alone (for modules' BTF) */
		const char *tree = is_build_tree(s) ? ast_printf("%s/vmlinux", s->kernel_build) : NULL;
		bool dir = strchr(r, '/') != NULL;
		const char *candidates[] = {
			dir ? tree : NULL,
			ast_printf("%s/usr/lib/debug/boot/vmlinux-%s", kroot(s), r),
			ast_printf("%s/usr/lib/debug/lib/modules/%s/vmlinux", kroot(s), r),
			dir ? NULL : tree,
		};
		for (size_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++)
			if (candidates[i] && exists(candidates[i]))
				return candidates[i];
		return NULL;
	}
	const char *ko = dep_ko(s, ast_printf("%s/usr/lib/debug/lib/modules/%s", kroot(s), r), module);
	if (!ko)
		ko = find_ko(ast_printf("%s/usr/lib/debug/lib/modules/%s/kernel", kroot(s), r), module, 0);
	if (!ko && is_build_tree(s))
		ko = find_ko(s->kernel_build, module, 0);
	return ko;
}

/* The running kernel's own BTF, when -r names the running kernel (raw BTF, no decompression). */
static const char *running_btf(struct session *s)
{
	struct utsname u;
	if (is_build_tree(s) || uname(&u) != 0 || strcmp(u.release, s->release))
		return NULL;
	return "/sys/kernel/btf/vmlinux";
}

/* A module's file as installed (maybe compressed: plain_ko reads it), NULL if the target has none. */
static const char *module_ko(struct session *s, const char *module)
{
	const char *ko = dep_ko(s, ast_printf("%s/lib/modules/%s", kroot(s), s->release), module);
	if (!ko)
		ko = find_ko(ast_printf("%s/lib/modules/%s/kernel", kroot(s), s->release), module, 0);
	if (!ko && is_build_tree(s))
		ko = find_ko(s->kernel_build, module, 0);
	return ko;
}

static const char *btf_path(struct session *s, const char *module)
{
	if (!strcmp(module, "kernel")) {
		const char *candidates[] = {
			is_build_tree(s) ? ast_printf("%s/vmlinux", s->kernel_build) : NULL,
			running_btf(s),
			ast_printf("%s/boot/vmlinuz-%s", kroot(s), s->release),
			ast_printf("%s/lib/modules/%s/vmlinuz", kroot(s), s->release),
			dwarf_path(s, "kernel"),
		};
		for (size_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++)
			if (candidates[i] && exists(candidates[i]))
				return candidates[i];
		return NULL;
	}
	return plain_ko(s, module_ko(s, module));
}

/* Module names compare with '-' and '_' alike (kbuild's KBUILD_MODNAME uses '_'). */
static bool same_module_name(const char *a, size_t alen, const char *b)
{
	if (alen != strlen(b))
		return false;
	for (size_t i = 0; i < alen; i++)
		if ((a[i] == '-' ? '_' : a[i]) != (b[i] == '-' ? '_' : b[i]))
			return false;
	return true;
}

const char *kernel_module_name(const char *module)
{
	char *name = ast_strdup(module);
	for (char *p = name; *p; p++)
		if (*p == '-')
			*p = '_';
	return name;
}

/* Listed in /lib/modules/R/modules.builtin ("kernel/fs/binfmt_script.ko" lines). */
static bool is_builtin(struct session *s, const char *module)
{
	FILE *f = fopen(ast_printf("%s/lib/modules/%s/modules.builtin", kroot(s), s->release), "r");
	if (!f)
		return false;
	char line[1024];
	bool found = false;
	while (!found && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		const char *base = strrchr(line, '/') ? strrchr(line, '/') + 1 : line;
		size_t n = strlen(base);
		found = n > 3 && !strcmp(base + n - 3, ".ko") && same_module_name(base, n - 3, module);
	}
	fclose(f);
	return found;
}

const char *kernel_module_missing(struct session *s, const char *module)
{
	if (!strcmp(module, "kernel") ? btf_path(s, module) != NULL : module_ko(s, module) != NULL)
		return NULL;
	if (is_builtin(s, module))
		return ast_printf("module \"%s\" is built into kernel %s: probe its functions as kernel.function(...)",
				  module, s->release);
	return ast_printf("module \"%s\" does not exist for kernel %s (no %s.ko under %s)", module, s->release, module,
			  is_build_tree(s) ? s->kernel_build : ast_printf("%s/lib/modules/%s/kernel", kroot(s), s->release));
}

/* The function symbols of one module's .ko: those a probe can attach to, and those in .init.text. */
struct module_functions {
	const char *module;
	const char *path;       /* the .ko, NULL if the target has none */
	struct vec probeable;   /* of const char *, sorted */
	struct vec init;        /* of const char *, sorted */
};


/* A module file's ELF for reading its sections, or NULL (*fd is then closed or -1). */
static Elf *module_elf_open(const char *path, int *fd)
{
	*fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	if (*fd < 0)
		return NULL;
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(*fd, ELF_C_READ_MMAP, NULL);
	if (!elf) {
		close(*fd);
		*fd = -1;
	}
	return elf;
}

static void module_elf_close(Elf *elf, int fd)
{
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
}

/* The function symbols of the module's ELF file at path (plain_ko's). */
static void read_module_functions(struct module_functions *m, const char *path)
{
	int fd;
	Elf *elf = module_elf_open(path, &fd);
	if (!elf)
		return;
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	while (elf && elf_getshdrstrndx(elf, &shstrndx) == 0 && (scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *data;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			GElf_Shdr text;
			const char *name, *section;
			if (!gelf_getsym(data, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
			    sym.st_shndx == SHN_UNDEF || !(name = elf_strptr(elf, sh.sh_link, sym.st_name)) || !*name ||
			    !gelf_getshdr(elf_getscn(elf, sym.st_shndx), &text))
				continue;
			section = elf_strptr(elf, shstrndx, text.sh_name);
			vec_push(section && !strncmp(section, ".init", 5) ? &m->init : &m->probeable, ast_strdup(name));
		}
	}
	module_elf_close(elf, fd);
	vec_sort(&m->probeable, compare_names);
	vec_sort(&m->init, compare_names);
}

static bool say_indexing(struct session *s);

/* What a module's symbol or BTF index is built from. */
struct module_index_source {
	struct session *s;
	const char *ko; /* the module's file as installed */
};

/*
 * The symbol index of a module ("symbols-module-NAME", keyed by the file's
 * identity): its function names, each once, prefixed '+' when a probe can
 * attach to it and '-' when it is in .init.text, as one sorted name list.
 */
static bool build_module_symbols_index(void *arg, struct kindex_writer *w)
{
	const struct module_index_source *src = arg;
	const char *plain = plain_ko(src->s, src->ko);
	if (!plain)
		return false;
	struct module_functions m = {0};
	read_module_functions(&m, plain);
	struct vec names = {0};
	for (int i = 0; i < m.probeable.n; i++)
		vec_push(&names, ast_printf("+%s", (const char *)m.probeable.items[i]));
	for (int i = 0; i < m.init.n; i++)
		vec_push(&names, ast_printf("-%s", (const char *)m.init.items[i]));
	vec_sort(&names, compare_names);
	kindex_names_add(w, &names);
	return true;
}

/* m's function lists from the module's symbol index; false if there is none that holds together. */
static bool indexed_module_functions(struct session *s, struct module_functions *m)
{
	struct module_index_source src = {s, m->path};
	struct kindex *k = kindex_open(s->release, ast_printf("symbols-module-%s", kernel_module_name(m->module)),
				       m->path, say_indexing(s), build_module_symbols_index, &src);
	size_t n = kindex_names_count(k);
	for (size_t i = 0; i < n; i++) {
		const char *name = kindex_names_at(k, i);
		if (!name || (*name != '+' && *name != '-')) {
			m->probeable.n = m->init.n = 0;
			return false;
		}
		vec_push(*name == '+' ? &m->probeable : &m->init, (void *)(name + 1));
	}
	return n > 0;
}

static struct module_functions *module_functions(struct session *s, const char *module)
{
	struct vec *cache = &kernel_files(s)->module_functions;
	for (int i = 0; i < cache->n; i++) {
		struct module_functions *m = cache->items[i];
		if (!strcmp(m->module, module))
			return m;
	}
	struct module_functions *m = ast_alloc(sizeof(*m));
	m->module = ast_strdup(module);
	m->path = module_ko(s, module);
	if (m->path && !indexed_module_functions(s, m))
		read_module_functions(m, plain_ko(s, m->path));
	vec_push(cache, m);
	return m;
}

static bool has_name(const struct vec *sorted, const char *name)
{
	return sorted->n && bsearch(&name, sorted->items, (size_t)sorted->n, sizeof(void *), compare_names);
}

const char *kernel_module_function_missing(struct session *s, const char *module, const char *function)
{
	struct module_functions *m = module_functions(s, module);
	if (!m->path)
		return kernel_module_missing(s, module);
	if (has_name(&m->probeable, function))
		return NULL;
	if (has_name(&m->init, function))
		return ast_printf("function %s of module %s is in .init.text, which is freed before a probe can attach",
				  function, module);
	return ast_printf("module %s has no function %s (no such symbol in %s)", module, function, m->path);
}

/*
 * The kernel's function symbols from a real System.map of the target (the
 * build tree's, the -dbg package's, or /boot's unless it is Debian's
 * placeholder); NULL if none is found.
 */
/* Is building an index worth a line on stderr? For a person at a terminal, or with -v. */
static bool say_indexing(struct session *s)
{
	return s->verbose > 0 || isatty(STDERR_FILENO);
}

/* Read path's function symbols (System.map format) into syms; how many (0: a placeholder or no file). */
static int read_system_map(const char *path, struct strmap *syms, struct vec *names)
{
	FILE *f = path ? fopen(path, "r") : NULL;
	char line[512], type, name[400];
	unsigned long long addr;
	int n = 0;
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %399s", &addr, &type, name) != 3)
			continue;
		if (addr == ~0ULL)
			break; /* "The real System.map is in the linux-image-<version>-dbg package" */
		if ((type == 't' || type == 'T' || type == 'w' || type == 'W') && !strmap_get(syms, name)) {
			const char *copy = ast_strdup(name);
			*strmap_slot(syms, copy) = (void *)1;
			if (names)
				vec_push(names, (void *)copy);
			n++;
		}
	}
	if (f)
		fclose(f);
	return n;
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool build_sysmap_index(void *arg, struct kindex_writer *w)
{
	struct strmap syms = {0};
	struct vec names = {0};
	read_system_map(arg, &syms, &names);
	vec_sort(&names, compare_strings);
	kindex_names_add(w, &names); /* none: a placeholder, the next file is tried */
	return true;
}

/* The System.map files of the target kernel, in the order they are tried. */
#define SYSTEM_MAPS 3
static void system_maps(struct session *s, const char *out[SYSTEM_MAPS])
{
	out[0] = is_build_tree(s) ? ast_printf("%s/System.map", s->kernel_build) : NULL;
	out[1] = ast_printf("%s/usr/lib/debug/boot/System.map-%s", kroot(s), s->release);
	out[2] = ast_printf("%s/boot/System.map-%s", kroot(s), s->release);
}

/* The function symbols of a real System.map of the target: through its index, or read into a table. */
static struct kernel_files *kernel_text_symbols(struct session *s)
{
	struct kernel_files *kf = kernel_files(s);
	if (kf->text_symbols_read)
		return kf->text_symbols_read > 0 ? kf : NULL;
	kf->text_symbols_read = -1;
	const char *candidates[SYSTEM_MAPS];
	system_maps(s, candidates);
	for (int i = 0; i < SYSTEM_MAPS && kf->text_symbols_read < 0; i++) {
		if (!candidates[i] || access(candidates[i], R_OK) != 0)
			continue;
		static const char *const kinds[SYSTEM_MAPS] = {"symbols-build", "symbols-dbg", "symbols-boot"};
		struct kindex *k = kindex_open(s->release, kinds[i], candidates[i], say_indexing(s), build_sysmap_index,
					       (void *)candidates[i]);
		bool listed;
		kindex_names_has(k, "", &listed);
		if (listed) {
			if (kindex_names_count(k)) {
				kf->text_symbols_index = k;
				kf->text_symbols_read = 1;
			}
		} else if (read_system_map(candidates[i], &kf->text_symbols, NULL) > 0) {
			kf->text_symbols_read = 1;
		}
	}
	return kf->text_symbols_read > 0 ? kf : NULL;
}

/* Is name a function symbol of the table kf holds? */
static bool text_symbol(struct kernel_files *kf, const char *name)
{
	bool listed;
	if (kf->text_symbols_index)
		return kindex_names_has(kf->text_symbols_index, name, &listed);
	return strmap_get(&kf->text_symbols, name) != NULL;
}

int kernel_function_names(struct session *s, const char *prefix, int max, struct vec *out)
{
	struct kernel_files *kf = kernel_text_symbols(s);
	size_t plen = strlen(prefix);
	int matched = 0;
	if (kf && kf->text_symbols_index) {	/* sorted: the first name at or after prefix, then its run */
		struct kindex *k = kf->text_symbols_index;
		size_t lo = 0, hi = kindex_names_count(k), n = hi;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			const char *name = kindex_names_at(k, mid);
			if (name && strcmp(name, prefix) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (size_t i = lo; i < n; i++) {
			const char *name = kindex_names_at(k, i);
			if (!name || strncmp(name, prefix, plen))
				break;
			if (matched++ < max)
				vec_push(out, (void *)name);
		}
		return matched;
	}
	if (!kf)
		return 0;
	const char *candidates[SYSTEM_MAPS];	/* no index: the map's names read again */
	struct strmap syms = {0};
	struct vec names = {0};
	system_maps(s, candidates);
	for (int i = 0; i < SYSTEM_MAPS && !names.n; i++)
		if (candidates[i] && access(candidates[i], R_OK) == 0)
			read_system_map(candidates[i], &syms, &names);
	vec_sort(&names, compare_strings);
	for (int i = 0; i < names.n; i++)
		if (!strncmp(names.items[i], prefix, plen) && (!i || strcmp(names.items[i], names.items[i - 1])) &&
		    matched++ < max)
			vec_push(out, names.items[i]);
	return matched;
}

bool kernel_symbol_known(struct session *s, const char *name)
{
	struct kernel_files *kf = kernel_text_symbols(s);
	return kf && text_symbol(kf, name);
}

const char *kernel_symbol_missing(struct session *s, const char *name)
{
	struct kernel_files *kf = kernel_text_symbols(s);
	if (!kf || text_symbol(kf, name))
		return NULL;
	return ast_printf("kernel %s has no function symbol '%s' (its System.map)", s->release, name);
}

bool kernel_data_symbol_known(struct session *s, const char *name)
{
	const char *candidates[SYSTEM_MAPS];
	system_maps(s, candidates);
	for (size_t i = 0; i < SYSTEM_MAPS; i++) {
		FILE *f = candidates[i] ? fopen(candidates[i], "r") : NULL;
		char line[512], type, sym[400];
		unsigned long long addr;
		bool found = false;
		while (f && !found && fgets(line, sizeof(line), f)) {
			if (sscanf(line, "%llx %c %399s", &addr, &type, sym) != 3 || addr == ~0ULL)
				continue;
			found = strchr("DdBbRrGgSsVv", type) && !strcmp(sym, name);
		}
		if (f)
			fclose(f);
		if (found)
			return true;
	}
	return false;
}

bool kernel_has_symbol_table(struct session *s)
{
	return kernel_text_symbols(s) != NULL;
}

/* Does di describe an out-of-line function name? */
static bool describes_function(struct debuginfo *di, const char *name)
{
	struct vec funcs = {0};
	dbg_functions(di, name, NULL, false, &funcs);
	return funcs.n > 0;
}

const char *kernel_function_unknown(struct session *s, const char *name)
{
	static const char *const entries[] = {"__x64_sys_", "__ia32_sys_", "__x64_compat_sys_", "__ia32_compat_sys_"};
	const char *err = NULL, *missing = kernel_symbol_missing(s, name);
	if (missing || kernel_has_symbol_table(s))
		return missing;
	if (strchr(name, '.'))
		return NULL; /* a compiler's clone (finish_task_switch.isra.0): debuginfo never names one */
	struct debuginfo *di = kernel_debuginfo(s, "kernel", &err);
	if (!di || describes_function(di, name))
		return NULL; /* nothing to check against (the load will say), or described */
	/* exported (Module.symvers) though the BTF leaves it out, as 5.10's does vsnprintf; a variable fails at load */
	if (dbg_is_exported(di, name))
		return NULL;
	for (size_t i = 0; i < sizeof(entries) / sizeof(entries[0]); i++) {
		size_t n = strlen(entries[i]);
		/* a system call's entry, which BTF leaves out: its body (__do_sys_) or sign-extender (__se_sys_) vouches */
		if (!strncmp(name, entries[i], n) &&
		    (describes_function(di, ast_join("__do_sys_", "", name + n)) ||
		     describes_function(di, ast_join("__se_sys_", "", name + n))))
			return NULL;
	}
	return ast_printf("kernel %s has no function '%s' in its %s (%s), and no System.map to look for the symbol "
			  "in (install linux-image-%s-dbg for it)", s->release, name,
			  di->source == DBG_SOURCE_DWARF ? "DWARF" : "BTF", di->path, s->release);
}

const char *kernel_module_data_symbol_unique(struct session *s, const char *module, const char *name)
{
	const char *path = btf_path(s, module);
	int fd;
	Elf *elf = module_elf_open(path, &fd);
	if (!elf)
		return kernel_module_missing(s, module);
	Elf_Scn *scn = NULL;
	int n = 0;
	while (elf && (scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *data;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize || !(data = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *sname;
			if (gelf_getsym(data, (int)i, &sym) && GELF_ST_TYPE(sym.st_info) == STT_OBJECT &&
			    sym.st_shndx != SHN_UNDEF && (sname = elf_strptr(elf, sh.sh_link, sym.st_name)) &&
			    !strcmp(sname, name))
				n++;
		}
	}
	module_elf_close(elf, fd);
	if (n == 1)
		return NULL;
	return n ? ast_printf("module %s has %d data symbols named %s: the loaded module's would be ambiguous", module, n,
			      name)
		 : ast_printf("module %s has no data symbol %s in %s (a variable the compiler kept in a register, or "
			      "merged away, has none)", module, name, path);
}

bool kernel_module_has_function(struct session *s, const char *module, const char *glob)
{
	struct module_functions *m = module_functions(s, module);
	if (!dbg_is_glob(glob))
		return has_name(&m->probeable, glob);
	for (int i = 0; i < m->probeable.n; i++)
		if (dbg_glob_match(glob, m->probeable.items[i]))
			return true;
	return false;
}

/*
 * The event classes of one module's tracepoints, from its .ko: each entry of
 * section __bpf_raw_tp_map (struct bpf_raw_event_map) starts with the
 * address of the event's struct tracepoint (a relocation to
 * __tracepoint_NAME) followed by that of its BPF entry point __bpf_trace_CLASS
 * (a relocation to that symbol, or to its section plus an offset).
 */
struct module_tp_classes {
	const char *module;
	struct strmap classes;  /* tracepoint name -> class name */
};

/* The name of the function symbol of section shndx at value, NULL if none. */
static const char *function_at(Elf *elf, Elf_Data *symtab, size_t nsyms, size_t strndx, size_t shndx, uint64_t value)
{
	for (size_t i = 0; i < nsyms; i++) {
		GElf_Sym sym;
		if (gelf_getsym(symtab, (int)i, &sym) && GELF_ST_TYPE(sym.st_info) == STT_FUNC &&
		    sym.st_shndx == shndx && sym.st_value == value)
			return elf_strptr(elf, strndx, sym.st_name);
	}
	return NULL;
}

static void read_module_tp_classes(struct module_tp_classes *m, const char *path)
{
	int fd;
	Elf *elf = module_elf_open(path, &fd);
	if (!elf)
		return;
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	while (elf && elf_getshdrstrndx(elf, &shstrndx) == 0 && (scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh, target, symsh;
		Elf_Data *rela, *symtab;
		const char *target_name;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || !sh.sh_entsize ||
		    !gelf_getshdr(elf_getscn(elf, sh.sh_info), &target) ||
		    !(target_name = elf_strptr(elf, shstrndx, target.sh_name)) || strcmp(target_name, "__bpf_raw_tp_map") ||
		    !gelf_getshdr(elf_getscn(elf, sh.sh_link), &symsh) || !symsh.sh_entsize ||
		    !(rela = elf_getdata(scn, NULL)) || !(symtab = elf_getdata(elf_getscn(elf, sh.sh_link), NULL)))
			continue;
		size_t nrela = sh.sh_size / sh.sh_entsize, nsyms = symsh.sh_size / symsh.sh_entsize;
		for (size_t i = 0; i < nrela; i++) {
			GElf_Rela tp_rel, fn_rel;
			GElf_Sym tp_sym, fn_sym;
			const char *tp_name, *fn_name = NULL;
			if (!gelf_getrela(rela, (int)i, &tp_rel) ||
			    !gelf_getsym(symtab, (int)GELF_R_SYM(tp_rel.r_info), &tp_sym) ||
			    !(tp_name = elf_strptr(elf, symsh.sh_link, tp_sym.st_name)) ||
			    strncmp(tp_name, "__tracepoint_", 13))
				continue;
			for (size_t j = 0; j < nrela && !fn_name; j++) {
				if (!gelf_getrela(rela, (int)j, &fn_rel) || fn_rel.r_offset != tp_rel.r_offset + 8 ||
				    !gelf_getsym(symtab, (int)GELF_R_SYM(fn_rel.r_info), &fn_sym))
					continue;
				fn_name = GELF_ST_TYPE(fn_sym.st_info) == STT_SECTION
						  ? function_at(elf, symtab, nsyms, symsh.sh_link, fn_sym.st_shndx,
								fn_sym.st_value + (uint64_t)fn_rel.r_addend)
						  : elf_strptr(elf, symsh.sh_link, fn_sym.st_name);
			}
			if (fn_name && !strncmp(fn_name, "__bpf_trace_", 12))
				*strmap_slot(&m->classes, ast_strdup(tp_name + 13)) = ast_strdup(fn_name + 12);
		}
	}
	module_elf_close(elf, fd);
}

const char *kernel_module_tracepoint_class(struct session *s, const char *module, const char *tracepoint)
{
	struct module_tp_classes *m = NULL;
	struct vec *cache = &kernel_files(s)->module_tp;
	for (int i = 0; i < cache->n && !m; i++) {
		struct module_tp_classes *c = cache->items[i];
		if (!strcmp(c->module, module))
			m = c;
	}
	if (!m) {
		m = ast_alloc(sizeof(*m));
		m->module = ast_strdup(module);
		vec_push(cache, m);
		const char *ko = btf_path(s, module);
		if (ko)
			read_module_tp_classes(m, ko);
	}
	return strmap_get(&m->classes, tracepoint);
}


static int compare_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Module.symvers: "crc<TAB>symbol<TAB>module<TAB>EXPORT_SYMBOL[_GPL]<TAB>namespace". */
static void read_exports(const char *path, const char *module, struct vec *out)
{
	FILE *f = fopen(path, "r");
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
			vec_push(out, ast_strdup(sym));
	}
	fclose(f);
	vec_sort(out, compare_names);
}

/* Which exports an index is built from: those of module in Module.symvers at path. */
struct exports_source {
	const char *path;
	const char *module; /* "kernel" or a module's name */
};

static bool build_exports_index(void *arg, struct kindex_writer *w)
{
	const struct exports_source *src = arg;
	struct vec names = {0};
	read_exports(src->path, src->module, &names);
	kindex_names_add(w, &names);
	return true;
}

static void load_exports(struct session *s, struct debuginfo *di, const char *module)
{
	const char *path = ast_printf("%s/Module.symvers", s->kernel_build);
	struct exports_source src = {path, module};
	/* the module's name as written: read_exports compares it as it is */
	const char *kind = !strcmp(module, "kernel") ? "exports" : ast_printf("exports-module-%s", module);
	struct kindex *k = !strchr(module, '/') && access(path, R_OK) == 0
		? kindex_open(s->release, kind, path, say_indexing(s), build_exports_index, &src) : NULL;
	size_t n = kindex_names_count(k);
	for (size_t i = 0; i < n; i++) {
		const char *name = kindex_names_at(k, i);
		if (!name) { /* an index that does not hold together: the file, as without one */
			di->exported.n = 0;
			break;
		}
		vec_push(&di->exported, (void *)name);
	}
	if (!k || (n && !di->exported.n))
		read_exports(path, module, &di->exported);
}

static bool build_btf_index(void *arg, struct kindex_writer *w)
{
	unsigned char *raw;
	size_t len;
	if (dbg_btf_extract(arg, &raw, &len))
		return false;
	kindex_add(w, KINDEX_BTF, raw, len);
	free(raw);
	return true;
}

static bool build_dwarf_index(void *arg, struct kindex_writer *w)
{
	struct debuginfo *di = arg;
	ktext_index(di->path, w); /* a vmlinux without __mcount_loc: ktext reads it each time */
	return dbg_dwarf_index(di, w);
}

/*
 * The kernel image's debuginfo at path, through its index (kindex.c) when
 * there is one: BTF from the index's copy instead of the decompressed
 * vmlinuz; DWARF with the index of its inline instances.
 */
static struct debuginfo *open_kernel(struct session *s, const char *path, enum dbg_source source, const char **err)
{
	if (source == DBG_SOURCE_DWARF) {
		const char *why;
		struct kindex *k = kindex_load(s->release, "dwarf", path, &why);
		struct debuginfo *di = dbg_open_dwarf_indexed(path, k, err);
		if (di && !k)
			di->index = kindex_build(s->release, "dwarf", path, why, say_indexing(s), build_dwarf_index, di);
		return di;
	}
	const void *raw;
	size_t len;
	struct kindex *k = strncmp(path, "/sys/", 5)
		? kindex_open(s->release, "btf", path, say_indexing(s), build_btf_index, (void *)path) : NULL;
	if (kindex_section(k, KINDEX_BTF, &raw, &len))
		return dbg_open_btf_raw(path, raw, len, err);
	return dbg_open_btf(path, NULL, err);
}

static bool build_module_dwarf_index(void *arg, struct kindex_writer *w)
{
	return dbg_dwarf_index(arg, w);
}

/*
 * A module's DWARF (its -dbg .ko at path) with an index of its own, named
 * "dwarf-module-NAME" and keyed like the kernel's by the file's build-id and
 * identity: the inline instances, subprograms, typedefs and symbols that
 * would otherwise be found by walking every CU of the module on each run.
 * libdwfl lays a relocatable object's sections out the same way each time,
 * so the addresses it stores hold for the next run.
 */
static struct debuginfo *open_module_dwarf(struct session *s, const char *module, const char *path, const char **err)
{
	const char *why;
	const char *kind = ast_printf("dwarf-module-%s", kernel_module_name(module));
	struct kindex *k = kindex_load(s->release, kind, path, &why);
	struct debuginfo *di = dbg_open_dwarf_indexed(path, k, err);
	if (di && !k)
		di->index = kindex_build(s->release, kind, path, why, say_indexing(s), build_module_dwarf_index, di);
	return di;
}

static bool build_module_btf_index(void *arg, struct kindex_writer *w)
{
	const struct module_index_source *src = arg;
	const char *plain = plain_ko(src->s, src->ko);
	return plain && build_btf_index((void *)plain, w);
}

/*
 * A module's split BTF over base, from ko (its file as installed): through
 * an index of its own ("btf-module-NAME", keyed by the file's identity), so
 * a compressed module (6.12's .ko.xz) is not decompressed on every run.
 */
static struct debuginfo *open_module_btf(struct session *s, const char *module, const char *ko, struct debuginfo *base,
					 const char **err)
{
	struct module_index_source src = {s, ko};
	struct kindex *k = kindex_open(s->release, ast_printf("btf-module-%s", kernel_module_name(module)), ko,
				       say_indexing(s), build_module_btf_index, &src);
	const void *raw;
	size_t len;
	struct debuginfo *di = NULL;
	if (kindex_section(k, KINDEX_BTF, &raw, &len))
		di = dbg_open_btf_split_raw(ko, raw, len, base, err);
	if (!di) {
		const char *plain = plain_ko(s, ko);
		if (!plain) {
			*err = ast_printf("cannot decompress %s", ko);
			return NULL;
		}
		di = dbg_open_btf(plain, base, err);
	}
	if (di)
		di->path = ko;
	return di;
}

static struct debuginfo *open_cached(struct session *s, const char *module, enum dbg_source source, const char **err)
{
	struct vec *cache = &kernel_files(s)->opened;
	for (int i = 0; i < cache->n; i++) {
		struct cached *c = cache->items[i];
		if (!strcmp(c->module, module) && c->source == source) {
			*err = c->err;
			return c->di;
		}
	}
	struct cached *c = ast_alloc(sizeof(*c));
	c->module = ast_strdup(module);
	c->source = source;
	vec_push(cache, c);
	const char *path = source == DBG_SOURCE_DWARF ? dwarf_path(s, module)
			   : !strcmp(module, "kernel") ? btf_path(s, module) : module_ko(s, module);
	if (!path) {
		c->err = source == DBG_SOURCE_DWARF
			? ast_printf("no DWARF debuginfo for %s of kernel %s (install the package linux-image-%s-dbg)",
				     !strcmp(module, "kernel") ? "the kernel" : ast_printf("module %s", module), s->release,
				     s->release)
			: ast_printf("no BTF for %s of kernel %s (looked for %s)",
				     !strcmp(module, "kernel") ? "the kernel" : ast_printf("module %s", module), s->release,
				     !strcmp(module, "kernel") ? ast_printf("%s/boot/vmlinuz-%s and %s/lib/modules/%s/vmlinuz", kroot(s), s->release, kroot(s), s->release)
							       : ast_printf("%s/lib/modules/%s/kernel/.../%s.ko", kroot(s), s->release, module));
		*err = c->err;
		return NULL;
	}
	if (!strcmp(module, "kernel")) {
		c->di = open_kernel(s, path, source, &c->err);
		if (!c->di && source == DBG_SOURCE_DWARF && !strchr(s->release, '/') && !strstr(path, "/usr/lib/debug/"))
			c->err = ast_printf("no DWARF debuginfo for the kernel of kernel %s (install the package "
					    "linux-image-%s-dbg; %s has none)", s->release, s->release, path);
	} else if (source == DBG_SOURCE_DWARF) {
		c->di = open_module_dwarf(s, module, path, &c->err);
	} else {
		struct debuginfo *base = NULL;
		if (strcmp(module, "kernel")) {
			base = open_cached(s, "kernel", DBG_SOURCE_BTF, err);
			if (!base) {
				c->err = *err;
				return NULL;
			}
		}
		c->di = open_module_btf(s, module, path, base, &c->err);
	}
	if (c->di) {
		c->di->module = c->module;
		if (source != DBG_SOURCE_DWARF)	/* BTF does not say which machine */
			c->di->arm64 = s->arch && !strcmp(s->arch->name, "arm64");
		load_exports(s, c->di, module);
		if (s->verbose >= 2)
			fprintf(stderr, "debuginfo: %s of %s from %s\n",
				source == DBG_SOURCE_DWARF ? "DWARF" : "BTF", module, path);
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
