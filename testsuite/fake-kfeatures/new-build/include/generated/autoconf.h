/* autoconf.h - fake: as 6.12 configures it (modules carry BTF) */
#define CONFIG_DEBUG_INFO_BTF 1
#define CONFIG_DEBUG_INFO_BTF_MODULES 1
