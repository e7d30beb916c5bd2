/* json.c - a bounded JSON parser into per-message memory, and an escaping writer (json.h). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

/* A block of a region's memory. */
struct json_chunk {
	struct json_chunk *next; /* older chunk */
	size_t used, size;       /* bytes handed out, bytes in data */
	_Alignas(16) unsigned char data[]; /* the memory */
};

/* The parser's position in the text. */
struct json_parser {
	struct json_region *region; /* where values go */
	const char *p, *end;        /* next byte, end of the text */
	const char *err;            /* first error, or NULL */
	int depth;                  /* arrays and objects open */
};

static void *region_alloc(struct json_region *r, size_t size)
{
	size = (size + 15) & ~(size_t)15;
	struct json_chunk *c = r->chunks;
	if (!c || c->size - c->used < size) {
		size_t want = size > 65536 ? size : 65536;
		c = malloc(sizeof(*c) + want);
		if (!c) {
			fputs("stap: out of memory\n", stderr);
			exit(1);
		}
		c->size = want;
		c->used = 0;
		c->next = r->chunks;
		r->chunks = c;
	}
	void *out = c->data + c->used;
	c->used += size;
	return out;
}

void json_region_free(struct json_region *r)
{
	while (r->chunks) {
		struct json_chunk *next = r->chunks->next;
		free(r->chunks);
		r->chunks = next;
	}
}

static struct json *fail(struct json_parser *jp, const char *why)
{
	if (!jp->err)
		jp->err = why;
	return NULL;
}

static void skip_blanks(struct json_parser *jp)
{
	while (jp->p < jp->end && (*jp->p == ' ' || *jp->p == '\t' || *jp->p == '\n' || *jp->p == '\r'))
		jp->p++;
}

static struct json *new_value(struct json_parser *jp, enum json_kind kind)
{
	struct json *v = region_alloc(jp->region, sizeof(*v));
	memset(v, 0, sizeof(*v));
	v->kind = kind;
	return v;
}

static int hex4(const char *p)
{
	int v = 0;
	for (int i = 0; i < 4; i++) {
		char c = p[i];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

/* Append code point cp as UTF-8 at out; bytes written. */
static int put_utf8(char *out, uint32_t cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | cp >> 18);
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* One \uXXXX escape (a surrogate pair takes two) at jp->p, after the 'u'; the code point or -1. */
static long unicode_escape(struct json_parser *jp)
{
	if (jp->end - jp->p < 4 || hex4(jp->p) < 0)
		return -1;
	long cp = hex4(jp->p);
	jp->p += 4;
	if (cp >= 0xd800 && cp < 0xdc00 && jp->end - jp->p >= 6 && jp->p[0] == '\\' && jp->p[1] == 'u') {
		int lo = hex4(jp->p + 2);
		if (lo >= 0xdc00 && lo < 0xe000) {
			jp->p += 6;
			return 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
		}
	}
	return cp >= 0xd800 && cp < 0xe000 ? 0xfffd : cp;
}

/* A string at jp->p (its opening quote); escapes decoded. */
static struct json *parse_string(struct json_parser *jp)
{
	const char *start = ++jp->p;
	while (jp->p < jp->end && *jp->p != '"')
		jp->p += *jp->p == '\\' ? 2 : 1;
	if (jp->p >= jp->end)
		return fail(jp, "unterminated string");
	const char *stop = jp->p;
	char *out = region_alloc(jp->region, (size_t)(stop - start) + 1), *o = out;
	for (jp->p = start; jp->p < stop;) {
		char c = *jp->p++;
		if ((unsigned char)c < 0x20)
			return fail(jp, "control character in a string");
		if (c != '\\') {
			*o++ = c;
			continue;
		}
		c = *jp->p++;
		const char *simple = strchr("\"\\/bfnrt", c);
		if (c && simple) {
			*o++ = "\"\\/\b\f\n\r\t"[simple - "\"\\/bfnrt"];
		} else if (c == 'u') {
			long cp = unicode_escape(jp);
			if (cp < 0 || jp->p > stop)
				return fail(jp, "bad \\u escape");
			o += put_utf8(o, (uint32_t)cp);
		} else {
			return fail(jp, "bad escape in a string");
		}
	}
	jp->p = stop + 1;
	*o = 0;
	struct json *v = new_value(jp, JSON_STRING);
	v->str = out;
	v->len = (size_t)(o - out);
	return v;
}

static struct json *parse_value(struct json_parser *jp);

/* The members of an array or object, from after its opening bracket. */
static struct json *parse_container(struct json_parser *jp, bool object)
{
	if (++jp->depth > JSON_MAX_DEPTH)
		return fail(jp, "nested too deeply");
	struct json *v = new_value(jp, object ? JSON_OBJECT : JSON_ARRAY);
	int cap = 0;
	jp->p++;
	skip_blanks(jp);
	if (jp->p < jp->end && *jp->p == (object ? '}' : ']')) {
		jp->p++;
		jp->depth--;
		return v;
	}
	for (;;) {
		const char *key = NULL;
		if (object) {
			skip_blanks(jp);
			struct json *k = jp->p < jp->end && *jp->p == '"' ? parse_string(jp) : fail(jp, "expected a key");
			skip_blanks(jp);
			if (!k || jp->p >= jp->end || *jp->p++ != ':')
				return fail(jp, "expected ':' after a key");
			key = k->str;
		}
		struct json *item = parse_value(jp);
		if (!item)
			return NULL;
		if (v->n == cap) {
			int ncap = cap ? cap * 2 : 8;
			struct json **items = region_alloc(jp->region, sizeof(*items) * (size_t)ncap);
			const char **keys = region_alloc(jp->region, sizeof(*keys) * (size_t)ncap);
			if (v->n) {
				memcpy(items, v->items, sizeof(*items) * (size_t)v->n);
				memcpy(keys, v->keys, sizeof(*keys) * (size_t)v->n);
			}
			v->items = items;
			v->keys = keys;
			cap = ncap;
		}
		v->keys[v->n] = key;
		v->items[v->n++] = item;
		skip_blanks(jp);
		if (jp->p < jp->end && *jp->p == ',') {
			jp->p++;
			continue;
		}
		if (jp->p < jp->end && *jp->p == (object ? '}' : ']')) {
			jp->p++;
			jp->depth--;
			return v;
		}
		return fail(jp, object ? "expected ',' or '}'" : "expected ',' or ']'");
	}
}

static struct json *parse_number(struct json_parser *jp)
{
	char buf[64];
	size_t n = 0;
	while (jp->p < jp->end && n < sizeof(buf) - 1 && strchr("+-0123456789.eE", *jp->p) && *jp->p)
		buf[n++] = *jp->p++;
	buf[n] = 0;
	char *endp;
	double d = strtod(buf, &endp);
	if (!n || *endp || !isfinite(d))
		return fail(jp, "bad number");
	struct json *v = new_value(jp, JSON_NUMBER);
	v->number = d;
	return v;
}

static bool word(struct json_parser *jp, const char *w)
{
	size_t n = strlen(w);
	if ((size_t)(jp->end - jp->p) < n || memcmp(jp->p, w, n))
		return false;
	jp->p += n;
	return true;
}

static struct json *parse_value(struct json_parser *jp)
{
	skip_blanks(jp);
	if (jp->p >= jp->end)
		return fail(jp, "unexpected end of input");
	switch (*jp->p) {
	case '"': return parse_string(jp);
	case '{': return parse_container(jp, true);
	case '[': return parse_container(jp, false);
	}
	if (word(jp, "null"))
		return new_value(jp, JSON_NULL);
	if (word(jp, "true") || word(jp, "false")) {
		struct json *v = new_value(jp, JSON_BOOL);
		v->boolean = jp->p[-1] == 'e' && jp->p[-2] == 'u';
		return v;
	}
	return parse_number(jp);
}

struct json *json_parse(struct json_region *r, const char *text, size_t len, const char **err)
{
	struct json_parser jp = {.region = r, .p = text, .end = text + len};
	struct json *v = parse_value(&jp);
	skip_blanks(&jp);
	if (v && jp.p != jp.end)
		v = fail(&jp, "text after the value");
	*err = v ? NULL : jp.err ? jp.err : "malformed JSON";
	return v;
}

const struct json *json_get(const struct json *obj, const char *key)
{
	if (!obj || obj->kind != JSON_OBJECT)
		return NULL;
	for (int i = 0; i < obj->n; i++)
		if (!strcmp(obj->keys[i], key))
			return obj->items[i];
	return NULL;
}

const char *json_string(const struct json *v)
{
	return v && v->kind == JSON_STRING && strlen(v->str) == v->len ? v->str : NULL;
}

bool json_int(const struct json *v, int *out)
{
	if (!v || v->kind != JSON_NUMBER || v->number != floor(v->number) || v->number < -2147483648.0 ||
	    v->number > 2147483647.0)
		return false;
	*out = (int)v->number;
	return true;
}

/* The length of the UTF-8 sequence at s (at most n bytes), 0 if it is not one. */
static size_t utf8_length(const unsigned char *s, size_t n)
{
	size_t len = s[0] < 0x80 ? 1 : (s[0] & 0xe0) == 0xc0 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3 : (s[0] & 0xf8) == 0xf0 ? 4 : 0;
	if (!len || len > n || (len == 2 && s[0] < 0xc2))
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((len == 3 && s[0] == 0xe0 && s[1] < 0xa0) || (len == 4 && s[0] == 0xf0 && s[1] < 0x90) ||
	    (len == 4 && (s[0] > 0xf4 || (s[0] == 0xf4 && s[1] >= 0x90))) || (len == 3 && s[0] == 0xed && s[1] >= 0xa0))
		return 0;
	return len;
}

void json_write_string_n(FILE *out, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	fputc('"', out);
	for (size_t i = 0; i < len;) {
		unsigned char c = u[i];
		if (c == '"' || c == '\\') {
			fprintf(out, "\\%c", c);
		} else if (c == '\n') {
			fputs("\\n", out);
		} else if (c == '\t') {
			fputs("\\t", out);
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(out, "\\u%04x", c);
		} else if (c >= 0x80) {
			size_t n = utf8_length(u + i, len - i);
			if (!n) {
				fputs("\\ufffd", out);
				i++;
				continue;
			}
			fwrite(u + i, 1, n, out);
			i += n;
			continue;
		} else {
			fputc(c, out);
		}
		i++;
	}
	fputc('"', out);
}

void json_write_string(FILE *out, const char *s)
{
	json_write_string_n(out, s ? s : "", s ? strlen(s) : 0);
}

void json_write(FILE *out, const struct json *v)
{
	if (!v) {
		fputs("null", out);
		return;
	}
	switch (v->kind) {
	case JSON_NULL: fputs("null", out); break;
	case JSON_BOOL: fputs(v->boolean ? "true" : "false", out); break;
	case JSON_NUMBER:
		if (v->number == floor(v->number) && fabs(v->number) < 1e15)
			fprintf(out, "%lld", (long long)v->number);
		else
			fprintf(out, "%.17g", v->number);
		break;
	case JSON_STRING: json_write_string_n(out, v->str, v->len); break;
	case JSON_ARRAY:
	case JSON_OBJECT:
		fputc(v->kind == JSON_ARRAY ? '[' : '{', out);
		for (int i = 0; i < v->n; i++) {
			if (i)
				fputc(',', out);
			if (v->kind == JSON_OBJECT) {
				json_write_string(out, v->keys[i]);
				fputc(':', out);
			}
			json_write(out, v->items[i]);
		}
		fputc(v->kind == JSON_ARRAY ? ']' : '}', out);
		break;
	}
}
