/* staprun.h - declarations shared by staprun's files. */
#ifndef STAPRUN_H
#define STAPRUN_H

#include <stddef.h>

/* The "name=" of the .modinfo section of a module image; 0, or -1 if absent. */
int staprun_modinfo_name(const unsigned char *image, size_t size, char *name, size_t name_size);

#endif
