/* emit.c - an indenting C writer for pass 3. */
#include <stdarg.h>
#include <string.h>

#include "ast.h"
#include "emit.h"

static void vline(struct emitter *e, const char *fmt, va_list ap)
{
	for (int i = 0; i < e->indent; i++)
		fputc('\t', e->out);
	vfprintf(e->out, fmt, ap);
	fputc('\n', e->out);
}

void emit_line(struct emitter *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vline(e, fmt, ap);
	va_end(ap);
}

void emit_blank(struct emitter *e)
{
	fputc('\n', e->out);
}

void emit_raw(struct emitter *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(e->out, fmt, ap);
	va_end(ap);
}

void emit_open(struct emitter *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vline(e, fmt, ap);
	va_end(ap);
	e->indent++;
}

void emit_close(struct emitter *e, const char *fmt, ...)
{
	va_list ap;
	e->indent--;
	va_start(ap, fmt);
	vline(e, fmt, ap);
	va_end(ap);
}

const char *emit_c_string(const char *s)
{
	size_t len = strlen(s);
	char *buf = ast_alloc(len * 4 + 3), *p = buf;
	*p++ = '"';
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		switch (ch) {
		case '"': *p++ = '\\'; *p++ = '"'; break;
		case '\\': *p++ = '\\'; *p++ = '\\'; break;
		case '\n': *p++ = '\\'; *p++ = 'n'; break;
		case '\t': *p++ = '\\'; *p++ = 't'; break;
		case '\r': *p++ = '\\'; *p++ = 'r'; break;
		default:
			if (ch < 32 || ch >= 127 || ch == '?') {
				/* octal escapes: never run into a following digit; '?' avoids trigraphs */
				p += sprintf(p, "\\%03o", ch);
			} else {
				*p++ = (char)ch;
			}
		}
	}
	*p++ = '"';
	*p = '\0';
	return buf;
}
