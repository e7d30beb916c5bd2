/* arch.h - the target architectures stapc builds for: names, kbuild's ARCH, cross compiler, QEMU. */
#ifndef STAPC_ARCH_H
#define STAPC_ARCH_H

#include <stdbool.h>

struct session;

/* One target architecture. */
struct arch {
	const char *name;          /* SystemTap's name (-a, @arch, tapset/linux/NAME): "x86_64", "arm64" */
	const char *uname;         /* uname -m on such a machine: "x86_64", "aarch64" */
	const char *kbuild;        /* kbuild's ARCH=: "x86", "arm64" */
	const char *cross_prefix;  /* Debian's cross compiler prefix (CROSS_COMPILE=) from another host */
	const char *qemu;          /* the QEMU system emulator that runs its kernels */
	const char *config;        /* the kernel config symbol that says a build tree is this arch */
	bool (*is_register)(const char *name); /* a name its register tapset's register() takes */
	const char *registers;     /* those names, for an error message */
};

/* The architecture named NAME (SystemTap's name, uname -m's or kbuild's ARCH), or NULL. */
const struct arch *arch_find(const char *name);

/* The architecture of the machine stap runs on. */
const struct arch *arch_host(void);

/* Whether the target (s->arch) is another architecture than this machine's. */
bool arch_is_cross(const struct session *s);

/*
 * Where another architecture's kernels, headers and userland are unpacked on
 * this machine: $STAPC_ARCH_ROOT, else /var/lib/stapc/NAME/root (stap-prep -a).
 */
const char *arch_root(const struct arch *a);

/*
 * The architecture other than this machine's whose root (arch_root) holds
 * the kernel release: lib/modules/RELEASE there. NULL if none does.
 */
const struct arch *arch_of_release(const char *release);

/* Whether the target (s->arch) is arm64. */
bool arch_is_arm64(const struct session *s);

/*
 * The architecture other than a whose register tapset takes name (and a's
 * does not): register("rax") in a script built for arm64 names x86_64. NULL
 * if a knows the name, or no architecture does.
 */
const struct arch *arch_register_owner(const struct arch *a, const char *name);

/* The names -a accepts, for an error message: "x86_64, arm64". */
const char *arch_names(void);

struct vec;
/*
 * Push onto out (interned paths) every file under dir whose name ends in
 * suffix, recursively: a folder's files sorted by name, then its subfolders
 * in name order; other architectures' folders (tapset/linux/arm64) skipped.
 * The tapset tree's lister: pass 1 reads its *.stpm, pass 2 its *.stp.
 */
void arch_list_files(const char *dir, const char *suffix, const char *arch, struct vec *out);

#endif
