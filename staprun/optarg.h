/* optarg.h - checks of option arguments that staprun and stapio share. */
#ifndef STAPRUN_OPTARG_H
#define STAPRUN_OPTARG_H

#include <stdbool.h>

/* Whether arg is a whole decimal number from lo to hi; if so, *out is it. */
bool stp_optarg_long(const char *arg, long lo, long hi, long *out);

/* Whether arg is one of -C's words: always, never or auto. */
bool stp_optarg_color(const char *arg);

#endif
