/*
 * vmlinuz.c - the vmlinux ELF inside a compressed x86 bzImage (/boot/vmlinuz-R).
 *
 * The boot protocol (Documentation/x86/boot.rst) puts a setup header at
 * 0x1f1; from version 2.08 it records where the compressed kernel sits in the
 * protected-mode part (payload_offset at 0x248, payload_length at 0x24c). The
 * payload is the vmlinux ELF compressed with the kernel's configured method
 * (Debian 12: lz4 for the cloud kernel, xz with the x86 BCJ filter for the
 * generic and RT kernels); decompress.c recognizes each by its magic.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "decompress.h"
#include "vmlinuz.h"

#define VMLINUZ_MAX_ELF ((size_t)1 << 30) /* a vmlinux without DWARF is well under this */

static uint32_t get_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

bool vmlinuz_is_bzimage(const unsigned char *data, size_t len)
{
	return len > 0x250 && data[0] == 'M' && data[1] == 'Z' && !memcmp(data + 0x202, "HdrS", 4);
}

const char *vmlinuz_extract(const unsigned char *data, size_t len, unsigned char **out, size_t *out_len)
{
	if (!vmlinuz_is_bzimage(data, len))
		return "not a bzImage";
	unsigned version = (unsigned)data[0x206] | (unsigned)data[0x207] << 8;
	if (version < 0x208)
		return "boot protocol older than 2.08 (no payload_offset)";
	unsigned setup_sects = data[0x1f1] ? data[0x1f1] : 4;
	size_t pm = (size_t)(setup_sects + 1) * 512;
	size_t off = pm + get_le32(data + 0x248), plen = get_le32(data + 0x24c);
	if (off > len || plen > len - off || plen < 8)
		return "payload outside the file";
	const unsigned char *p = data + off;
	const char *format = decompress_format(p, plen);
	if (!format)
		return "unknown compression of the kernel payload";
	unsigned char *elf;
	size_t elf_len;
	const char *err = decompress(p, plen, VMLINUZ_MAX_ELF, &elf, &elf_len);
	if (err) {
		return ast_printf("%s (a %s-compressed kernel)", err, format);
	}
	if (elf_len < 4 || memcmp(elf, "\177ELF", 4)) {
		free(elf);
		return "the decompressed payload is not an ELF file";
	}
	*out = elf;
	*out_len = elf_len;
	return NULL;
}
