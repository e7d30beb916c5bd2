/* optarg.c - checks of option arguments that staprun and stapio share (optarg.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "optarg.h"

bool stp_optarg_long(const char *arg, long lo, long hi, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

bool stp_optarg_color(const char *arg)
{
	return !strcmp(arg, "always") || !strcmp(arg, "never") || !strcmp(arg, "auto");
}
