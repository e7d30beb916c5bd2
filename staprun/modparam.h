/* modparam.h - a loaded module's flag parameters, as staprun and stapio read them. */
#ifndef STAPRUN_MODPARAM_H
#define STAPRUN_MODPARAM_H

#include <stdbool.h>

/* Whether /sys/module/MODULE/parameters/PARAM reads "1" (false if it is missing). */
bool stp_module_flag(const char *module, const char *param);

#endif
