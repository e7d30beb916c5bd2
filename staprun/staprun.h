/* staprun.h - declarations shared by staprun's files. */
#ifndef STAPRUN_H
#define STAPRUN_H

#include <stdbool.h>
#include <stddef.h>

/* The "name=" of the .modinfo section of a module image; 0, or -1 if absent. */
int staprun_modinfo_name(const unsigned char *image, size_t size, char *name, size_t name_size);
/* The value of "key=" in .modinfo; 0, or -1 if absent. */
int staprun_modinfo_get(const unsigned char *image, size_t size, const char *key, char *name, size_t name_size);

/*
 * staprun -R: rename the module old in its image to new_name (shorter than
 * MODULE_NAME_LEN): the name of .gnu.linkonce.this_module's struct module,
 * which must hold old, and .modinfo's "name=", rewritten when new_name fits
 * in old's room, else renamed away so the kernel takes the struct's name.
 * Returns 0, or -1 if the image is not laid out as expected.
 */
int staprun_modinfo_rename(unsigned char *image, size_t size, const char *old, const char *new_name);

/* "staprun: MESSAGE" on stderr. */
void staprun_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Setuid root for another user (privilege.c): check who may do what before
 * the options are parsed. 0 to go on (with *module_fd >= 0 and module_path
 * set when the module was opened and checked here), -1 after a message.
 */
int staprun_privilege_check(int argc, char **argv, int *module_fd, char *module_path, size_t path_size,
			    unsigned char **image, size_t *image_len);


#endif
