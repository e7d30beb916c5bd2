/* autoconf.h - fake: as 5.10 configures it (BTF for vmlinux; modules had none before 5.11) */
#define CONFIG_DEBUG_INFO_BTF 1
