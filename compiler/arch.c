/* arch.c - the table of target architectures and the host's place in it. */
#include <stdlib.h>
#include <string.h>
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
