/* lsp_text.c - LSP positions (lines and UTF-16 units) against byte offsets, and file URIs. */
#include <stdlib.h>
#include <string.h>

#include "lsp.h"

const char *lsp_line_start(const char *text, int line)
{
	const char *p = text;
	for (int i = 0; i < line; i++) {
		p = strchr(p, '\n');
		if (!p)
			return NULL;
		p++;
	}
	return p;
}

/* The bytes of the UTF-8 sequence starting with byte c (1 for a stray byte). */
static int seq_bytes(unsigned char c)
{
	return c >= 0xf0 && c < 0xf8 ? 4 : c >= 0xe0 && c < 0xf0 ? 3 : c >= 0xc0 && c < 0xe0 ? 2 : 1;
}

size_t lsp_offset(const char *text, int line, int character)
{
	const char *p = line < 0 ? text : lsp_line_start(text, line);
	if (!p)
		return strlen(text);
	int units = 0;
	while (*p && *p != '\n' && units < character) {
		int n = seq_bytes((unsigned char)*p);
		units += n == 4 ? 2 : 1;
		for (int i = 0; i < n && *p && *p != '\n'; i++)
			p++;
	}
	return (size_t)(p - text);
}

int lsp_character(const char *text, int line, int col)
{
	const char *p = lsp_line_start(text, line), *start = p;
	if (!p)
		return 0;
	int units = 0;
	while (*p && *p != '\n' && p - start < col) {
		int n = seq_bytes((unsigned char)*p);
		units += n == 4 ? 2 : 1;
		for (int i = 0; i < n && *p && *p != '\n'; i++)
			p++;
	}
	return units;
}

static int hex_digit(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

char *lsp_uri_path(const char *uri)
{
	if (strncmp(uri, "file://", 7))
		return NULL;
	const char *p = uri + 7;
	if (*p != '/')	/* file://host/path: only the local host */
		p = strchr(p, '/');
	if (!p)
		return NULL;
	char *out = malloc(strlen(p) + 1), *o = out;
	if (!out)
		return NULL;
	for (; *p; p++) {
		if (*p == '%' && hex_digit(p[1]) >= 0 && hex_digit(p[2]) >= 0) {
			char c = (char)(hex_digit(p[1]) * 16 + hex_digit(p[2]));
			p += 2;
			if (!c) {	/* a NUL cannot be in a path */
				free(out);
				return NULL;
			}
			*o++ = c;
		} else {
			*o++ = *p;
		}
	}
	*o = 0;
	return out;
}

char *lsp_path_uri(const char *path)
{
	char *out = malloc(strlen(path) * 3 + 8), *o = out;
	if (!out)
		return NULL;
	o += strlen(strcpy(o, "file://"));
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || strchr("/-._~+", *p))
			*o++ = (char)*p;
		else
			o += sprintf(o, "%%%02X", *p);
	}
	*o = 0;
	return out;
}
