/* staprun.h - declarations shared by staprun's files. */
#ifndef STAPRUN_H
#define STAPRUN_H

#include <stddef.h>

/* The "name=" of the .modinfo section of a module image; 0, or -1 if absent. */
int staprun_modinfo_name(const unsigned char *image, size_t size, char *name, size_t name_size);

/* "staprun: MESSAGE" on stderr. */
void staprun_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Setuid root for another user (privilege.c): check who may do what before
 * the options are parsed. 0 to go on (with *module_fd >= 0 and module_path
 * set when the module was opened and checked here), -1 after a message.
 */
int staprun_privilege_check(int argc, char **argv, int *module_fd, char *module_path, size_t path_size);

#endif
