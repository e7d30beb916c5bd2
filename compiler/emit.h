/* emit.h - an indenting C writer for pass 3. */
#ifndef STAPC_EMIT_H
#define STAPC_EMIT_H

#include <stdio.h>

struct emitter {
	FILE *out;    /* destination */
	int indent;   /* current depth in tabs */
};

/* Write one line at the current indentation (fmt has no trailing newline). */
void emit_line(struct emitter *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* An empty line. */
void emit_blank(struct emitter *e);
/* Write raw text, no indentation or newline added. */
void emit_raw(struct emitter *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Line + indent++ / indent-- + line. */
void emit_open(struct emitter *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void emit_close(struct emitter *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A C string literal for s (quotes included, escaped). */
const char *emit_c_string(const char *s);

#endif
