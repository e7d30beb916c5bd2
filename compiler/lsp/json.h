/*
 * json.h - the JSON of the language server (lsp.c): a parser into a tree
 * whose memory belongs to one message (struct json_region, freed when the
 * message is answered: the server lives as long as the editor, so it cannot
 * use the compiler's never-freed arena), and a writer of escaped strings.
 */
#ifndef STAPC_LSP_JSON_H
#define STAPC_LSP_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The kinds of JSON value. */
enum json_kind {
	JSON_NULL,   /* null */
	JSON_BOOL,   /* true, false */
	JSON_NUMBER, /* any number, as a double */
	JSON_STRING, /* decoded text (\uXXXX as UTF-8), NUL-terminated; may hold NULs, len counts them */
	JSON_ARRAY,  /* items[0..n) */
	JSON_OBJECT, /* keys[i]: items[i], in the order written */
};

/* One value. */
struct json {
	enum json_kind kind;  /* which fields below mean something */
	bool boolean;         /* JSON_BOOL */
	double number;        /* JSON_NUMBER */
	const char *str;      /* JSON_STRING */
	size_t len;           /* JSON_STRING: bytes, without the NUL */
	struct json **items;  /* JSON_ARRAY, JSON_OBJECT: the values */
	const char **keys;    /* JSON_OBJECT: their keys */
	int n;                /* JSON_ARRAY, JSON_OBJECT: how many */
};

/* Values nested deeper than this are refused (bounded recursion). */
#define JSON_MAX_DEPTH 64

/* The memory of one parsed message: chunks, all freed by json_region_free. */
struct json_region {
	struct json_chunk *chunks; /* newest first */
};

/* Parse text[0..len) (one value, blanks around it); NULL with *err saying why. */
struct json *json_parse(struct json_region *r, const char *text, size_t len, const char **err);
/* Free everything json_parse allocated in r; r may be reused. */
void json_region_free(struct json_region *r);

/* obj's member key, or NULL (also when obj is not an object). */
const struct json *json_get(const struct json *obj, const char *key);
/* v's text if v is a string without NULs, else NULL. */
const char *json_string(const struct json *v);
/* Whether v is a number that is a whole int; its value in *out. */
bool json_int(const struct json *v, int *out);

/*
 * Write s[0..len) as a JSON string, quoted: control characters escaped,
 * bytes that are not UTF-8 written as U+FFFD, so any text gives valid JSON.
 */
void json_write_string_n(FILE *out, const char *s, size_t len);
void json_write_string(FILE *out, const char *s);
/* Write v back as JSON (an id or a value the client sent). */
void json_write(FILE *out, const struct json *v);

#endif
