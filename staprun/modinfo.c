/* modinfo.c - a .ko's name: read from its .modinfo section, or changed in its image (staprun -R). */

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "staprun.h"

#define STAPRUN_MODULE_NAME_LEN 56	/* the kernel's MODULE_NAME_LEN on 64-bit */
#define STAPRUN_MODULE_NAME_OFFSET 24	/* struct module: state (4, padded to 8), list (16), name */

/* The section called name of a 64-bit ELF image: its bytes and size; NULL if absent or bad. */
static unsigned char *staprun_section(const unsigned char *image, size_t size, const char *name,
				      size_t *len)
{
	const Elf64_Ehdr *eh = (const void *)image;
	const Elf64_Shdr *sh, *strsec;
	size_t i;

	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shentsize != sizeof(*sh) ||
	    eh->e_shoff > size || eh->e_shnum > (size - eh->e_shoff) / sizeof(*sh) ||
	    eh->e_shstrndx >= eh->e_shnum)
		return NULL;
	sh = (const void *)(image + eh->e_shoff);
	strsec = &sh[eh->e_shstrndx];
	if (strsec->sh_offset > size || strsec->sh_size > size - strsec->sh_offset)
		return NULL;
	for (i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_name >= strsec->sh_size ||
		    strncmp((const char *)image + strsec->sh_offset + sh[i].sh_name, name,
			    strsec->sh_size - sh[i].sh_name) != 0)
			continue;
		if (sh[i].sh_offset > size || sh[i].sh_size > size - sh[i].sh_offset)
			return NULL;
		*len = sh[i].sh_size;
		return (unsigned char *)image + sh[i].sh_offset;
	}
	return NULL;
}

/* The "KEY=" entry of .modinfo (the text after "KEY="), or NULL. */
static char *staprun_modinfo_value(const unsigned char *image, size_t size, const char *key)
{
	size_t len, klen = strlen(key);
	char *data = (char *)staprun_section(image, size, ".modinfo", &len), *p, *end;

	if (!data)
		return NULL;
	end = data + len;
	for (p = data; p < end; p += strnlen(p, end - p) + 1) {
		size_t n = strnlen(p, end - p);

		if (n > klen && n < (size_t)(end - p) && strncmp(p, key, klen) == 0 && p[klen] == '=')
			return p + klen + 1;
	}
	return NULL;
}

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
	const char *entry = staprun_modinfo_value(image, size, key);

	if (!entry || strlen(entry) >= name_size)
		return -1;
	strcpy(name, entry);
	return 0;
}

int staprun_modinfo_rename(unsigned char *image, size_t size, const char *old, const char *new_name)
{
	size_t len;
	unsigned char *mod = staprun_section(image, size, ".gnu.linkonce.this_module", &len);
	char *entry = staprun_modinfo_value(image, size, "name");
	char *field;

	if (!mod || len < STAPRUN_MODULE_NAME_OFFSET + STAPRUN_MODULE_NAME_LEN ||
	    strlen(new_name) >= STAPRUN_MODULE_NAME_LEN)
		return -1;
	field = (char *)mod + STAPRUN_MODULE_NAME_OFFSET;
	if (strncmp(field, old, STAPRUN_MODULE_NAME_LEN) != 0)
		return -1;	/* not the layout this was written for */
	memset(field, 0, STAPRUN_MODULE_NAME_LEN);
	memcpy(field, new_name, strlen(new_name));
	if (entry && strlen(new_name) <= strlen(entry))
		memcpy(entry, new_name, strlen(new_name) + 1);
	else if (entry)
		entry[-5] = '_';	/* "_ame=": no name entry, the kernel takes the struct's */
	return 0;
}
