/* arch.c - the table of target architectures and the host's place in it; the tapset tree's lister, which skips other architectures' folders. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "arch.h"
#include "ast.h"
#include "session.h"

/* Whether name is in the NULL-terminated list. */
static bool listed(const char *const *list, const char *name)
{
	for (; *list; list++)
		if (!strcmp(*list, name))
			return true;
	return false;
}

/* tapset/linux/x86_64/registers.stp's names. */
static bool x86_64_register(const char *name)
{
	static const char *const names[] = {
		"rax", "ax", "eax", "rbx", "bx", "ebx", "rcx", "cx", "ecx", "rdx", "dx", "edx",
		"rsi", "si", "esi", "rdi", "di", "edi", "rbp", "bp", "ebp", "rsp", "sp", "esp",
		"rip", "ip", "eip", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
		"flags", "eflags", "orig_ax", "orig_rax", "orig_eax", "cs", "xcs", "ss", "xss", NULL,
	};
	return listed(names, name);
}

/* tapset/linux/arm64/registers.stp's names: x0-x30, w0-w30 and the named ones. */
static bool arm64_register(const char *name)
{
	static const char *const names[] = {"fp", "lr", "sp", "pc", "pstate", "orig_x0", "syscallno", NULL};
	char *end;

	if ((name[0] == 'x' || name[0] == 'w') && name[1] >= '0' && name[1] <= '9' &&
	    (name[1] != '0' || name[2] == '\0'))
		return strtoul(name + 1, &end, 10) <= 30 && !*end;
	return listed(names, name);
}

static const struct arch arches[] = {
	{"x86_64", "x86_64", "x86", "x86_64-linux-gnu-", "qemu-system-x86_64", "CONFIG_X86_64", x86_64_register,
	 "rax/ax/eax ... r8-r15, rip, rsp, flags, orig_ax, cs, ss"},
	{"arm64", "aarch64", "arm64", "aarch64-linux-gnu-", "qemu-system-aarch64", "CONFIG_ARM64", arm64_register,
	 "x0-x30, w0-w30, fp, lr, sp, pc, pstate, orig_x0, syscallno"},
};

const struct arch *arch_register_owner(const struct arch *a, const char *name)
{
	if (a->is_register(name))
		return NULL;
	for (size_t i = 0; i < sizeof(arches) / sizeof(arches[0]); i++)
		if (arches[i].is_register(name))
			return &arches[i];
	return NULL;
}

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

const struct arch *arch_of_release(const char *release)
{
	struct stat st;

	for (size_t i = 0; i < sizeof(arches) / sizeof(arches[0]); i++)
		if (&arches[i] != arch_host() &&
		    stat(ast_printf("%s/lib/modules/%s", arch_root(&arches[i]), release), &st) == 0 && S_ISDIR(st.st_mode))
			return &arches[i];
	return NULL;
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
