/* stapvm.h - what stapvm.c shares with userland.c: errors, files and the initramfs writer. */
#ifndef STAPVM_H
#define STAPVM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* An initramfs being written: an uncompressed newc cpio archive. */
struct cpio_writer {
	FILE *f;               /* archive being written */
	const char *path;      /* its file name, for errors */
	unsigned long ino;     /* next inode number */
	char **names;          /* every entry written so far (no leading '/') */
	size_t n_names;        /* entries in names */
	size_t cap_names;      /* allocated slots in names */
};

/* Print "stapvm: error: ...", clean up (stop qemu, remove the scratch dir) and exit 125. */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void *xmalloc(size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
bool is_file(const char *path);
bool is_dir(const char *path);
/* Write s to f as one single-quoted shell word. */
void shell_quote(FILE *f, const char *s);

/* Entries of the archive; name is the path inside it, without a leading '/'. */
bool cpio_has(struct cpio_writer *w, const char *name);
void cpio_add_dir(struct cpio_writer *w, const char *name);
void cpio_add_data(struct cpio_writer *w, const char *name, unsigned perm, const void *data, size_t len);
void cpio_add_symlink(struct cpio_writer *w, const char *name, const char *target);
/* Copy the host file host_path into the archive as name. */
void cpio_add_file(struct cpio_writer *w, const char *name, const char *host_path);

/*
 * userland.c: what the guest sees of the host's programs.
 *
 * A kernel that has the 9p, virtio-pci and overlay modules (Debian's generic
 * and RT kernels) mounts the host's / read-only over 9p; the initramfs then
 * carries only those modules.  Any other kernel gets copies of the files the
 * command needs, with their interpreters and shared libraries.
 */

/* Modules the guest loads to mount the host's / (and, with net, virtio_net's: --hostfwd; with
   serial, virtio_console's: --agent), their names in load order, or NULL when the kernel whose
   modules are in moddir (ROOT/lib/modules/RELEASE) lacks one; *why says which. */
char **userland_9p_modules(const char *moddir, bool net, bool serial, const char **why);
/* Put module name (from userland_9p_modules) of moddir into the archive as stapvm/modules/NAME.ko (decompressed). */
void userland_add_module(struct cpio_writer *w, const char *moddir, const char *name);
/* Copy host file path into the archive at the same path, re-creating each symlink on the way,
   with the interpreter of a script and the loader and libraries of a dynamic ELF (as ldd finds them). */
void userland_add_host_file(struct cpio_writer *w, const char *path);

/* --arch arm64: path at the same path when it is an arm64 ELF (static: no libraries), else nothing. */
void userland_add_arm64_file(struct cpio_writer *w, const char *path);

/* Host userland: the guest's /tmp is its own tmpfs, so a file under the host's /tmp goes into the
   archive as stapvm/tmp/..., which /init copies into that tmpfs. */
void userland_add_tmp_file(struct cpio_writer *w, const char *path);

#endif
