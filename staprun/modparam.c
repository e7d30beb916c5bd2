/* modparam.c - read a loaded module's flag parameter (shared by staprun and stapio). */
#include <limits.h>
#include <stdio.h>

#include "modparam.h"

bool stp_module_flag(const char *module, const char *param)
{
	char path[PATH_MAX], value[8] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/%s/parameters/%s", module, param);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (!fgets(value, sizeof(value), f))
		value[0] = '\0';
	fclose(f);
	return value[0] == '1';
}
