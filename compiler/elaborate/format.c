/*
 * format.c - printf-style format strings, parsed once at compile time.
 *
 * A conversion is %[flags][width][.precision][length]conv:
 *   flags      any of "-+ #0"
 *   width      digits, or '*' (a long argument before the value)
 *   precision  '.' then digits, or '*' (a long argument before the value)
 *   length     C length modifiers (h l L j z t), accepted and ignored:
 *              every number is 64 bits
 *   conv       d i u x X o   a long, in decimal, hex or octal
 *              s             a string
 *              c             a long, as one character
 *              p             a long, as an address: 0x and 16 hex digits
 *              b             a long, written as raw bytes in host order; the
 *                            width is the byte count (1, 2, 4 or 8; default 8)
 *              m M           a long kernel address: the bytes there, raw (m)
 *                            or as hex digits (M); the precision is the byte
 *                            count (default 1), the width pads the output
 *              %             a '%'
 * Types are checked against the arguments in types.c; codegen.c turns
 * the kernel-printable conversions into one vsnprintf format per run.
 */
#include <string.h>

#include "diag.h"
#include "format.h"

/* Digits or '*' at *p; advances past them. */
static int parse_count(const char **p)
{
	if (**p == '*') {
		(*p)++;
		return FORMAT_STAR;
	}
	if (**p < '0' || **p > '9')
		return FORMAT_NONE;
	int v = 0;
	while (**p >= '0' && **p <= '9') {
		if (v < 100000)
			v = v * 10 + (**p - '0');
		(*p)++;
	}
	return v;
}

/* "%<flags><width>.<precision>" with '*' kept, for the kernel format. */
static const char *kernel_prefix(const struct format_spec *sp)
{
	const char *w = sp->width == FORMAT_STAR ? "*"
			: sp->width == FORMAT_NONE ? "" : ast_printf("%d", sp->width);
	const char *pr = sp->precision == FORMAT_STAR ? ".*"
			 : sp->precision == FORMAT_NONE ? "" : ast_printf(".%d", sp->precision);
	return ast_printf("%%%s%s%s", sp->flags, w, pr);
}

bool format_parse(const char *fmt, struct srcloc loc, struct vec *specs, bool report)
{
	const char *p = fmt;
	for (;;) {
		const char *start = p;
		while (*p && *p != '%')
			p++;
		struct format_spec *sp = ast_alloc(sizeof(*sp));
		sp->literal = ast_strndup(start, (size_t)(p - start));
		sp->loc = loc;
		sp->width = FORMAT_NONE;
		sp->precision = FORMAT_NONE;
		vec_push(specs, sp);
		if (!*p)
			return true;
		const char *conv_start = p++;
		const char *flags_start = p;
		while (*p && strchr("-+ #0", *p))
			p++;
		sp->flags = ast_strndup(flags_start, (size_t)(p - flags_start));
		sp->width = parse_count(&p);
		if (*p == '.') {
			p++;
			sp->precision = parse_count(&p);
			if (sp->precision == FORMAT_NONE)
				sp->precision = 0; /* "%.s": precision 0, as in C */
		}
		while (*p && strchr("hlLjzt", *p))
			p++;
		int len = (int)(p - conv_start) + (*p && *p != '\n' ? 1 : 0);
		sp->text = ast_strndup(conv_start, (size_t)len);
		if (!*p || !strchr("diuxXoscpbmM%", *p)) {
			if (report)
				diag_error(loc, "invalid format conversion '%s' (expected one of %%d %%i %%u %%x %%X %%o "
					   "%%s %%c %%p %%b %%m %%M %%%%)", sp->text);
			return false;
		}
		sp->conv = *p++;
		const char *prefix = kernel_prefix(sp);
		switch (sp->conv) {
		case 'd':
		case 'i':
			sp->kernel = ast_printf("%slld", prefix);
			break;
		case 'u':
		case 'x':
		case 'X':
		case 'o':
			sp->kernel = ast_printf("%sll%c", prefix, sp->conv);
			break;
		case 's':
		case 'c':
			sp->kernel = ast_printf("%s%c", prefix, sp->conv);
			break;
		case 'p':
			/* pointers print as 0x and 16 hex digits, unhashed */
			sp->kernel = strcmp(prefix, "%") ? ast_printf("%sllx", prefix) : "0x%016llx";
			break;
		case '%':
			sp->kernel = "%%";
			break;
		case 'b':
			if (sp->width == FORMAT_STAR || (sp->width != FORMAT_NONE && sp->width != 1 && sp->width != 2 &&
							 sp->width != 4 && sp->width != 8)) {
				if (report)
					diag_error(loc, "format '%s': the width of %%b is its byte count: 1, 2, 4 or 8",
						   sp->text);
				return false;
			}
			break;
		default: /* m, M */
			break;
		}
	}
}
