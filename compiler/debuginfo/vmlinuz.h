/* vmlinuz.h - extract the vmlinux ELF from a compressed x86 bzImage. */
#ifndef STAPC_VMLINUZ_H
#define STAPC_VMLINUZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* True if data looks like an x86 bzImage ("MZ", "HdrS" at 0x202). */
bool vmlinuz_is_bzimage(const unsigned char *data, size_t len);

/* Decompress the payload into a malloc'ed buffer (*out, *out_len, the
   caller frees); NULL on success, else why it failed. */
const char *vmlinuz_extract(const unsigned char *data, size_t len, unsigned char **out, size_t *out_len);

#endif
