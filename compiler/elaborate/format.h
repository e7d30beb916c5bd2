/* format.h - printf-style formats parsed at compile time (format.c). */
#ifndef STAPC_FORMAT_H
#define STAPC_FORMAT_H

#include "ast.h"

/* format.c: a printf-style format parsed at compile time. */
#define FORMAT_NONE (-1)  /* no width or precision given */
#define FORMAT_STAR (-2)  /* '*': taken from the argument list */
struct format_spec {
	const char *literal;   /* text before the conversion, as is */
	char conv;             /* 'd','i','u','x','X','o','s','c','p','b','m','M','%', or 0 at the end */
	const char *text;      /* the conversion as written, e.g. "%-*d", for diagnostics */
	const char *flags;     /* of "-+ #0", as written */
	int width;             /* digits, FORMAT_NONE or FORMAT_STAR */
	int precision;         /* digits, FORMAT_NONE or FORMAT_STAR */
	const char *kernel;    /* kernel vsnprintf conversion ("%-*lld"); NULL for b, m, M */
	struct srcloc loc;     /* of the format string */
};
/* Parse fmt into specs (terminated by conv == 0); false on a bad format (reported if report). */
bool format_parse(const char *fmt, struct srcloc loc, struct vec *specs, bool report);

#endif
