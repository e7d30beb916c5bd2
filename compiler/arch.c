/* arch.c - the table of target architectures and the host's place in it; the tapset tree's lister, which skips other architectures' folders. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "arch.h"
#include "ast.h"
#include "session.h"

static const struct arch arches[] = {
	{"x86_64", "x86_64", "x86", "x86_64-linux-gnu-", "qemu-system-x86_64", "CONFIG_X86_64"},
	{"arm64", "aarch64", "arm64", "aarch64-linux-gnu-", "qemu-system-aarch64", "CONFIG_ARM64"},
};

const struct arch *arch_find(const char *name)
{
	for (size_t i = 0; i < sizeof(arches) / sizeof(arches[0]); i++)
		if (!strcmp(name, arches[i].name) || !strcmp(name, arches[i].uname) ||
		    !strcmp(name, arches[i].kbuild))
			return &arches[i];
	return NULL;
}

const struct arch *arch_host(void)
{
	struct utsname u;
	const struct arch *a = uname(&u) == 0 ? arch_find(u.machine) : NULL;
	return a ? a : &arches[0];
}

bool arch_is_cross(const struct session *s)
{
	return s->arch && s->arch != arch_host();
}

const char *arch_root(const struct arch *a)
{
	const char *env = getenv("STAPC_ARCH_ROOT");
	if (env && *env)
		return env;
	return ast_printf("/var/lib/stapc/%s/root", a->name);
}

bool arch_is_arm64(const struct session *s)
{
	return s->arch && !strcmp(s->arch->name, "arm64");
}

const char *arch_names(void)
{
	const char *out = "";
	for (size_t i = 0; i < sizeof(arches) / sizeof(arches[0]); i++)
		out = ast_printf("%s%s%s", out, i ? ", " : "", arches[i].name);
	return out;
}

static int compare_file_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * Architecture folders of the tapset tree (tapset/linux/x86_64/...): only the
 * target's own (arch, from -a or the build tree: arch.h) is searched.
 */
static const char *const arch_dirs[] = {
	"x86_64", "i386", "arm", "arm64", "powerpc", "s390", "ia64", "mips", "riscv", "loongarch64",
};

static bool other_arch(const char *name, const char *target)
{
	for (size_t i = 0; i < sizeof(arch_dirs) / sizeof(arch_dirs[0]); i++)
		if (!strcmp(name, arch_dirs[i]))
			return strcmp(name, target) != 0;
	return false;
}

void arch_list_files(const char *dir, const char *suffix, const char *arch, struct vec *out)
{
	DIR *d = opendir(dir);
	struct vec names = {0};
	struct vec subdirs = {0};
	struct dirent *e;
	size_t slen = strlen(suffix);
	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);
		if (e->d_name[0] == '.')
			continue;
		const char *path = ast_printf("%s/%s", dir, e->d_name);
		struct stat st;
		if (stat(path, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			if (!other_arch(e->d_name, arch))
				vec_push(&subdirs, ast_strdup(e->d_name));
		} else if (len > slen && !strcmp(e->d_name + len - slen, suffix)) {
			vec_push(&names, ast_strdup(e->d_name));
		}
	}
	closedir(d);
	if (names.n)
		vec_sort(&names, compare_file_names);
	if (subdirs.n)
		vec_sort(&subdirs, compare_file_names);
	for (int i = 0; i < names.n; i++)
		vec_push(out, (void *)ast_intern(ast_printf("%s/%s", dir, (char *)names.items[i])));
	for (int i = 0; i < subdirs.n; i++)
		arch_list_files(ast_printf("%s/%s", dir, (char *)subdirs.items[i]), suffix, arch, out);
}
