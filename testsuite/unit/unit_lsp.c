/*
 * unit_lsp.c - the language server's pieces that need no compiler (compiler/lsp/): the JSON
 * parser's escapes, limits and errors, the writer's escaping of any bytes into valid JSON,
 * LSP's UTF-16 positions against byte offsets, and file URIs.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "json.c"
#include "lsp_text.c"
#include "unit.h"

/* What json_write_string_n makes of s[0..len). */
static char *written(const char *s, size_t len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	json_write_string_n(f, s, len);
	fclose(f);
	return buf;
}

static void test_parse(void)
{
	struct json_region r = {0};
	const char *err;
	const char *text = "{\"a\": [1, -2.5e0, true, false, null], \"s\": \"q\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\"}";
	struct json *v = json_parse(&r, text, strlen(text), &err);
	CHECK(v && v->kind == JSON_OBJECT && v->n == 2);
	const struct json *a = json_get(v, "a");
	CHECK(a && a->kind == JSON_ARRAY && a->n == 5);
	int i = 0;
	CHECK(json_int(a->items[0], &i) && i == 1);
	CHECK(!json_int(a->items[1], &i) && a->items[1]->number == -2.5);
	CHECK(a->items[2]->kind == JSON_BOOL && a->items[2]->boolean && !a->items[3]->boolean);
	CHECK(a->items[4]->kind == JSON_NULL);
	CHECK_STR(json_string(json_get(v, "s")), "q\"\\/\b\f\n\r\t\xc3\xa9\xf0\x9f\x98\x80");
	/* a lone surrogate is U+FFFD; a NUL inside a string makes it no C string */
	v = json_parse(&r, "\"\\ud800x\"", 9, &err);
	CHECK(v && !strcmp(v->str, "\xef\xbf\xbdx"));
	v = json_parse(&r, "\"a\\u0000b\"", 10, &err);
	CHECK(v && v->len == 3 && !json_string(v));
	static const char *const bad[] = {"", "{", "[1,]", "{\"a\" 1}", "\"\\x\"", "\"\\u12\"", "01x", "1 2", "nul",
					  "\"a\nb\"", "[\"unterminated]", "1e999", "{1: 2}"};
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		err = NULL;
		CHECK(!json_parse(&r, bad[k], strlen(bad[k]), &err) && err);
	}
	char deep[200];
	memset(deep, '[', 100);
	memset(deep + 100, ']', 100);
	CHECK(!json_parse(&r, deep, 200, &err) && !strcmp(err, "nested too deeply"));
	CHECK(json_parse(&r, deep + 100 - JSON_MAX_DEPTH, 2 * JSON_MAX_DEPTH, &err) != NULL);
	CHECK(!json_int(json_parse(&r, "3e10", 4, &err), &i));
	json_region_free(&r);
	CHECK(r.chunks == NULL);
}

static void test_write(void)
{
	CHECK_STR(written("a\"\\\n\t\x01\x7f", 7), "\"a\\\"\\\\\\n\\t\\u0001\\u007f\"");
	CHECK_STR(written("\xc3\xa9\xf0\x9f\x98\x80", 6), "\"\xc3\xa9\xf0\x9f\x98\x80\"");
	/* not UTF-8: a stray continuation byte, an overlong NUL, a truncated sequence, a surrogate */
	CHECK_STR(written("\x80x\xc0\x80\xe2\x82\xed\xa0\x80", 9), "\"\\ufffdx\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\"");
	CHECK_STR(written("a\0b", 3), "\"a\\u0000b\"");
}

static void test_positions(void)
{
	/* "é" is 2 bytes and 1 UTF-16 unit, "😀" 4 bytes and 2 units */
	const char *text = "ab\n\xc3\xa9\xf0\x9f\x98\x80x\n";
	CHECK(lsp_offset(text, 0, 1) == 1);
	CHECK(lsp_offset(text, 1, 0) == 3);
	CHECK(lsp_offset(text, 1, 1) == 5);
	CHECK(lsp_offset(text, 1, 3) == 9);
	CHECK(lsp_offset(text, 1, 99) == 10);	/* clamped to the line's end */
	CHECK(lsp_offset(text, 7, 0) == strlen(text));
	CHECK(lsp_character(text, 1, 6) == 3);
	CHECK(lsp_character(text, 1, 7) == 4);
	CHECK(lsp_character(text, 1, 99) == 4);
	CHECK(lsp_character(text, 9, 0) == 0);
	CHECK(lsp_line_start(text, 2) == text + 11 && lsp_line_start(text, 3) == NULL);
}

static void test_uris(void)
{
	char *p = lsp_uri_path("file:///tmp/a%20b/t%C3%A9st.stp");
	CHECK_STR(p, "/tmp/a b/t\xc3\xa9st.stp");
	free(p);
	p = lsp_uri_path("file://localhost/x");
	CHECK_STR(p, "/x");
	free(p);
	CHECK(lsp_uri_path("untitled:Untitled-1") == NULL);
	CHECK(lsp_uri_path("file:///a%00b") == NULL);
	p = lsp_path_uri("/tmp/a b/t\xc3\xa9st.stp");
	CHECK_STR(p, "file:///tmp/a%20b/t%C3%A9st.stp");
	free(p);
}

int main(void)
{
	test_parse();
	test_write();
	test_positions();
	test_uris();
	return unit_report("unit_lsp");
}
