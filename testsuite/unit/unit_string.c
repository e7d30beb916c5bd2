/* unit_string.c - user-space tests of the string tapset's helpers in runtime/string.c. */

#include "kshim.h"
#include "runtime_api.h"
#include "string.c"
#include "unit.h"

static void test_substr_strpos(void)
{
	char s[MAXSTRINGLEN];

	_stp_substr(s, "hello world", 6, 5);
	CHECK_STR(s, "world");
	_stp_substr(s, "hello", 1, 100);
	CHECK_STR(s, "ello");
	_stp_substr(s, "hello", 5, 1);
	CHECK_STR(s, "");
	_stp_substr(s, "hello", -1, 2);
	CHECK_STR(s, "");
	_stp_substr(s, "hello", 0, 0);
	CHECK_STR(s, "");
	_stp_strlcpy(s, "abcdef");
	_stp_substr(s, s, 2, 3);	/* in place */
	CHECK_STR(s, "cde");
	CHECK(_stp_strpos("hello", "ll") == 2);
	CHECK(_stp_strpos("hello", "x") == -1);
	CHECK(_stp_strpos("hello", "") == 0);
}

static void test_str_replace(void)
{
	char s[MAXSTRINGLEN];
	char big[200];

	_stp_str_replace(s, "a-b-c", "-", "+=");
	CHECK_STR(s, "a+=b+=c");
	_stp_str_replace(s, "aaa", "aa", "b");
	CHECK_STR(s, "ba");
	_stp_str_replace(s, "abc", "", "x");
	CHECK_STR(s, "abc");
	_stp_str_replace(s, "abc", "abc", "");
	CHECK_STR(s, "");
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	_stp_str_replace(s, "xy", "y", big);	/* grows past MAXSTRINGLEN: truncated */
	CHECK(strlen(s) == MAXSTRINGLEN - 1 && s[0] == 'x');
}

static void test_strtol(void)
{
	int64_t v = 0;

	CHECK(_stp_strtol("123", 10, &v) && v == 123);
	CHECK(_stp_strtol("-42xyz", 10, &v) && v == -42);
	CHECK(_stp_strtol("ff", 16, &v) && v == 255);
	CHECK(_stp_strtol("0x1F", 16, &v) && v == 31);
	CHECK(_stp_strtol("0x10", 0, &v) && v == 16);
	CHECK(_stp_strtol("010", 0, &v) && v == 8);
	CHECK(_stp_strtol("101", 2, &v) && v == 5);
	CHECK(_stp_strtol("zz", 36, &v) && v == 35 * 36 + 35);
	CHECK(_stp_strtol("", 10, &v) && v == 0);
	CHECK(_stp_strtol("18446744073709551615", 10, &v) && v == -1);
	CHECK(!_stp_strtol("1", 1, &v));
	CHECK(!_stp_strtol("1", 37, &v));
}

static void test_text_str(void)
{
	char s[MAXSTRINGLEN];

	_stp_text_str(s, "a\tb\n\"q\"\\\x01\xff", 0, 0);
	CHECK_STR(s, "a\\tb\\n\\\"q\\\"\\\\\\001\\377");
	_stp_text_str(s, "hello", 0, 1);
	CHECK_STR(s, "\"hello\"");
	_stp_text_str(s, "hello world", 8, 1);	/* 3 bytes of text fit */
	CHECK_STR(s, "\"hel\"...");
	_stp_text_str(s, "hello", 7, 1);	/* exactly fits */
	CHECK_STR(s, "\"hello\"");
	_stp_text_str(s, "hello", 3, 0);
	CHECK_STR(s, "hel");
	_stp_text_str(s, "ab\ncd", 3, 0);	/* the escape is not cut */
	CHECK_STR(s, "ab");
	_stp_text_str(s, "abcdef", 2, 1);	/* quoted needs 5 at least */
	CHECK_STR(s, "\"\"...");
}

static void test_tokenize(void)
{
	struct _stp_tokenize_state st = { { 0 }, 0 };
	char s[MAXSTRINGLEN];

	_stp_tokenize(s, "  one two,,three ", " ,", &st);
	CHECK_STR(s, "one");
	_stp_tokenize(s, "", " ,", &st);
	CHECK_STR(s, "two");
	_stp_tokenize(s, "", " ,", &st);
	CHECK_STR(s, "three");
	_stp_tokenize(s, "", " ,", &st);
	CHECK_STR(s, "");
	_stp_tokenize(s, "", " ,", &st);
	CHECK_STR(s, "");
	_stp_tokenize(s, "a:b", ":", &st);	/* a new input starts over */
	CHECK_STR(s, "a");
	_stp_tokenize(s, "", "", &st);	/* no delimiters: the rest */
	CHECK_STR(s, "b");
	_stp_tokenize(s, "x", "", &st);
	CHECK_STR(s, "x");
}

/* The long $value of a procfs .read.maxsize(N) probe: set, append, truncation at size, len kept. */
static void test_strbuf(void)
{
	char text[11];
	struct _stp_strbuf b = { .text = text, .size = 10, .len = 0 };

	_stp_strbuf_set(&b, "abc");
	CHECK_STR(text, "abc");
	CHECK(b.len == 3);
	_stp_strbuf_append(&b, "defg");
	_stp_strbuf_append(&b, "");
	CHECK_STR(text, "abcdefg");
	CHECK(b.len == 7);
	_stp_strbuf_append(&b, "hijkl");	/* cut at 10 bytes */
	CHECK_STR(text, "abcdefghij");
	CHECK(b.len == 10);
	_stp_strbuf_append(&b, "x");		/* full: unchanged */
	CHECK_STR(text, "abcdefghij");
	_stp_strbuf_set(&b, "0123456789abc");
	CHECK_STR(text, "0123456789");
	_stp_strbuf_set(&b, "");
	CHECK_STR(text, "");
	CHECK(b.len == 0);
}

int main(void)
{
	test_substr_strpos();
	test_str_replace();
	test_strtol();
	test_text_str();
	test_tokenize();
	test_strbuf();
	return unit_report("unit_string");
}
