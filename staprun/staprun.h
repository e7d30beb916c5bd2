/* staprun.h - declarations shared by staprun's files. */
#ifndef STAPRUN_H
#define STAPRUN_H

#include <stdbool.h>
#include <stddef.h>

/* The "name=" of the .modinfo section of a module image; 0, or -1 if absent. */
int staprun_modinfo_name(const unsigned char *image, size_t size, char *name, size_t name_size);

/*
 * When the real user is not root (staprun installed setuid): 0 if the user may
 * load (load), attach to, or unload (unload) *module_path, else -1 after a
 * message. A stapusr member's module path is replaced by its resolved form.
 */
int staprun_check_privilege(const char **module_path, bool load, bool unload);

#endif
