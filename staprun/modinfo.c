/* modinfo.c - read the module name the kernel will use from a .ko's .modinfo section. */

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "staprun.h"

/*
 * The kernel names a module after the object it was built from
 * (KBUILD_MODNAME), recorded as "name=..." in .modinfo; the file may
 * since have been renamed. Returns 0 and fills name, or -1 if the file
 * is not a 64-bit ELF with that entry (the caller falls back to the
 * file name).
 */
int staprun_modinfo_name(const unsigned char *image, size_t size, char *name, size_t name_size)
{
	return staprun_modinfo_get(image, size, "name", name, name_size);
}

int staprun_modinfo_get(const unsigned char *image, size_t size, const char *key, char *name, size_t name_size)
{
	size_t klen = strlen(key);
	const Elf64_Ehdr *eh = (const void *)image;
	const Elf64_Shdr *sh, *strsec;
	size_t i;

	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shentsize != sizeof(*sh) ||
	    eh->e_shoff > size || eh->e_shnum > (size - eh->e_shoff) / sizeof(*sh) ||
	    eh->e_shstrndx >= eh->e_shnum)
		return -1;
	sh = (const void *)(image + eh->e_shoff);
	strsec = &sh[eh->e_shstrndx];
	if (strsec->sh_offset > size || strsec->sh_size > size - strsec->sh_offset)
		return -1;

	for (i = 0; i < eh->e_shnum; i++) {
		const char *data, *p, *end;

		if (sh[i].sh_name >= strsec->sh_size ||
		    strncmp((const char *)image + strsec->sh_offset + sh[i].sh_name, ".modinfo",
			    strsec->sh_size - sh[i].sh_name) != 0)
			continue;
		if (sh[i].sh_offset > size || sh[i].sh_size > size - sh[i].sh_offset)
			return -1;
		data = (const char *)image + sh[i].sh_offset;
		end = data + sh[i].sh_size;
		for (p = data; p < end; p += strnlen(p, end - p) + 1) {
			size_t len = strnlen(p, end - p);

			if (len > klen && len < (size_t)(end - p) && strncmp(p, key, klen) == 0 && p[klen] == '=' &&
			    len - klen - 1 < name_size) {
				memcpy(name, p + klen + 1, len - klen - 1);
				name[len - klen - 1] = '\0';
				return 0;
			}
		}
		return -1;
	}
	return -1;
}
