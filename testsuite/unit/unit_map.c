/* unit_map.c - user-space tests of runtime/map.c and runtime/string.c: insert, find, delete, full, clear, sort, truncation. */

#include <sys/mman.h>

#include "kshim.h"
#include "runtime_api.h"
#include "string.c"
#include "map.c"
#include "unit.h"

int shim_fail_countdown;
long shim_live_allocations;

static const enum _stp_type key_long[] = { STP_TYPE_LONG };
static const enum _stp_type key_str[] = { STP_TYPE_STRING };
static const enum _stp_type key_long_str[] = { STP_TYPE_LONG, STP_TYPE_STRING };

static struct _stp_map_node *get_l(struct _stp_map *m, int64_t k)
{
	union _stp_key key = { .n = k };

	return _stp_map_get(m, &key);
}

static struct _stp_map_node *find_l(struct _stp_map *m, int64_t k)
{
	union _stp_key key = { .n = k };

	return _stp_map_find(m, &key);
}

static void del_l(struct _stp_map *m, int64_t k)
{
	union _stp_key key = { .n = k };

	_stp_map_delete(m, &key);
}

static struct _stp_map_node *get_s(struct _stp_map *m, const char *k)
{
	union _stp_key key = { .s = k };

	return _stp_map_get(m, &key);
}

static struct _stp_map_node *find_s(struct _stp_map *m, const char *k)
{
	union _stp_key key = { .s = k };

	return _stp_map_find(m, &key);
}

/* The long keys in iteration order, as "k1 k2 ...". */
static const char *order_l(struct _stp_map *m)
{
	static char buf[4096];
	struct _stp_map_node *n;
	size_t len = 0;

	buf[0] = '\0';
	for (n = _stp_map_first(m); n; n = _stp_map_next(m, n))
		len += snprintf(buf + len, sizeof(buf) - len, "%s%lld", len ? " " : "",
				(long long)_stp_node_key_long(n, 0));
	return buf;
}

static const char *order_s(struct _stp_map *m)
{
	static char buf[4096];
	struct _stp_map_node *n;
	size_t len = 0;

	buf[0] = '\0';
	for (n = _stp_map_first(m); n; n = _stp_map_next(m, n))
		len += snprintf(buf + len, sizeof(buf) - len, "%s%s",
				n == _stp_map_first(m) ? "" : " ", _stp_node_key_str(n, 0));
	return buf;
}

static void test_new_invalid(void)
{
	CHECK(_stp_map_new(0, 1, key_long, STP_TYPE_LONG) == NULL);
	CHECK(_stp_map_new(4, 0, key_long, STP_TYPE_LONG) == NULL);
	CHECK(_stp_map_new(4, STP_MAP_MAX_KEYS + 1, key_long, STP_TYPE_LONG) == NULL);
	_stp_map_free(NULL);
}

static void test_alloc_failure(void)
{
	int i;

	for (i = 1; i <= 3; i++) {
		shim_fail_countdown = i;
		CHECK(_stp_map_new(16, 1, key_long, STP_TYPE_LONG) == NULL);
		CHECK(shim_live_allocations == 0);
	}
	shim_fail_countdown = 0;
}

static void test_insert_find_delete(void)
{
	struct _stp_map *m = _stp_map_new(8, 1, key_long, STP_TYPE_LONG);
	struct _stp_map_node *a, *b;

	CHECK(m != NULL);
	CHECK(_stp_map_size(m) == 0);
	CHECK(_stp_map_first(m) == NULL);
	CHECK(find_l(m, 1) == NULL);

	a = get_l(m, 1);
	CHECK(a && *_stp_node_long(a) == 0);
	*_stp_node_long(a) = 42;
	CHECK(get_l(m, 1) == a);
	CHECK(find_l(m, 1) == a && *_stp_node_long(find_l(m, 1)) == 42);
	b = get_l(m, -7);
	CHECK(b && b != a && _stp_node_key_long(b, 0) == -7);
	get_l(m, 3);
	get_l(m, 100);
	CHECK(_stp_map_size(m) == 4);
	CHECK_STR(order_l(m), "1 -7 3 100");

	del_l(m, 3);		/* middle */
	CHECK_STR(order_l(m), "1 -7 100");
	del_l(m, 1);		/* head */
	CHECK_STR(order_l(m), "-7 100");
	del_l(m, 100);		/* tail */
	CHECK_STR(order_l(m), "-7");
	del_l(m, 12345);	/* absent */
	CHECK(_stp_map_size(m) == 1);
	CHECK(find_l(m, 1) == NULL);

	a = get_l(m, 1);	/* re-inserted: zeroed, at the end */
	CHECK(a && *_stp_node_long(a) == 0);
	CHECK_STR(order_l(m), "-7 1");
	_stp_map_free(m);
	CHECK(shim_live_allocations == 0);
}

static void test_full_and_clear(void)
{
	struct _stp_map *m = _stp_map_new(4, 1, key_long, STP_TYPE_LONG);
	int i;

	for (i = 0; i < 4; i++)
		CHECK(get_l(m, i) != NULL);
	CHECK(get_l(m, 4) == NULL);	/* full */
	CHECK(get_l(m, 2) != NULL);	/* existing still found */
	CHECK(_stp_map_size(m) == 4);
	del_l(m, 0);
	CHECK(get_l(m, 4) != NULL);	/* room again */
	CHECK_STR(order_l(m), "1 2 3 4");

	_stp_map_clear(m);
	CHECK(_stp_map_size(m) == 0);
	CHECK(_stp_map_first(m) == NULL);
	CHECK(find_l(m, 2) == NULL);
	for (i = 10; i < 14; i++)
		CHECK(get_l(m, i) != NULL);
	CHECK(get_l(m, 14) == NULL);
	CHECK_STR(order_l(m), "10 11 12 13");
	_stp_map_free(m);
}

static void test_sort_by_value_stable(void)
{
	struct _stp_map *m = _stp_map_new(16, 1, key_long, STP_TYPE_LONG);
	/* key: value */
	static const int64_t vals[][2] = {
		{ 1, 5 }, { 2, 3 }, { 3, 5 }, { 4, -1 }, { 5, 3 }, { 6, 5 }, { 7, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
		*_stp_node_long(get_l(m, vals[i][0])) = vals[i][1];

	_stp_map_sort(m, 0, 1);
	CHECK_STR(order_l(m), "4 7 2 5 1 3 6");
	_stp_map_sort(m, 0, -1);
	CHECK_STR(order_l(m), "1 3 6 2 5 7 4");	/* ties in insertion order */
	_stp_map_sort(m, 1, 1);
	CHECK_STR(order_l(m), "1 2 3 4 5 6 7");
	_stp_map_sort(m, 1, -1);
	CHECK_STR(order_l(m), "7 6 5 4 3 2 1");
	_stp_map_sort(m, 0, -1);
	CHECK_STR(order_l(m), "1 3 6 2 5 7 4");	/* whatever order came before */
	_stp_map_sort(m, 0, 1);
	CHECK_STR(order_l(m), "4 7 2 5 1 3 6");

	/* Iteration after a sort, then insert: the new entry goes last. */
	get_l(m, 100);
	CHECK_STR(order_l(m), "4 7 2 5 1 3 6 100");
	del_l(m, 1);
	CHECK_STR(order_l(m), "4 7 2 5 3 6 100");
	_stp_map_sort(m, 9, 1);		/* no such column: unchanged */
	CHECK_STR(order_l(m), "4 7 2 5 3 6 100");
	_stp_map_sort(m, 0, 0);		/* back to insertion order */
	CHECK_STR(order_l(m), "2 3 4 5 6 7 100");
	get_l(m, 1);			/* re-inserted: now the newest */
	_stp_map_sort(m, 1, 1);
	_stp_map_sort(m, 0, 0);
	CHECK_STR(order_l(m), "2 3 4 5 6 7 100 1");
	_stp_map_free(m);
}

static void test_sort_keys(void)
{
	struct _stp_map *m = _stp_map_new(16, 1, key_str, STP_TYPE_LONG);
	struct _stp_map *l = _stp_map_new(16, 1, key_long, STP_TYPE_LONG);
	static const char *words[] = { "pear", "apple", "Zebra", "apples", "", "10", "9" };
	static const int64_t nums[] = { 10, 9, -3, 100, 0, -20 };
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		get_s(m, words[i]);
	_stp_map_sort(m, 1, 1);
	CHECK_STR(order_s(m), " 10 9 Zebra apple apples pear");
	_stp_map_sort(m, 1, -1);
	CHECK_STR(order_s(m), "pear apples apple Zebra 9 10 ");

	for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
		get_l(l, nums[i]);
	_stp_map_sort(l, 1, 1);
	CHECK_STR(order_l(l), "-20 -3 0 9 10 100");	/* numeric, not text order */
	_stp_map_free(m);
	_stp_map_free(l);
}

static void test_multi_key_and_string_values(void)
{
	struct _stp_map *m = _stp_map_new(16, 2, key_long_str, STP_TYPE_STRING);
	union _stp_key k[2];
	struct _stp_map_node *n;
	char got[256] = "";

	k[0].n = 1; k[1].s = "b";
	_stp_strlcpy(_stp_node_str(_stp_map_get(m, k)), "zz");
	k[0].n = 1; k[1].s = "a";
	_stp_strlcpy(_stp_node_str(_stp_map_get(m, k)), "mm");
	k[0].n = 0; k[1].s = "b";
	_stp_strlcpy(_stp_node_str(_stp_map_get(m, k)), "aa");
	CHECK(_stp_map_size(m) == 3);
	k[0].n = 1; k[1].s = "a";
	n = _stp_map_find(m, k);
	CHECK(n && strcmp(_stp_node_str(n), "mm") == 0);
	k[0].n = 0; k[1].s = "a";
	CHECK(_stp_map_find(m, k) == NULL);

	_stp_map_sort(m, 2, 1);		/* by the string key; ties stay in order */
	for (n = _stp_map_first(m); n; n = _stp_map_next(m, n))
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "[%lld,%s]=%s ",
			 (long long)_stp_node_key_long(n, 0), _stp_node_key_str(n, 1),
			 _stp_node_str(n));
	CHECK_STR(got, "[1,a]=mm [1,b]=zz [0,b]=aa ");
	_stp_map_sort(m, 0, 1);		/* by string value */
	got[0] = '\0';
	for (n = _stp_map_first(m); n; n = _stp_map_next(m, n))
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s ", _stp_node_str(n));
	CHECK_STR(got, "aa mm zz ");
	_stp_map_free(m);
}

static void test_string_truncation(void)
{
	struct _stp_map *m = _stp_map_new(8, 1, key_str, STP_TYPE_LONG);
	char longkey[300], other[300];
	struct _stp_map_node *n;

	memset(longkey, 'x', sizeof(longkey) - 1);
	longkey[sizeof(longkey) - 1] = '\0';
	memcpy(other, longkey, sizeof(other));
	other[200] = 'y';	/* differs only past the stored prefix */

	n = get_s(m, longkey);
	CHECK(n && strlen(_stp_node_key_str(n, 0)) == MAXSTRINGLEN - 1);
	CHECK(find_s(m, longkey) == n);
	CHECK(find_s(m, other) == n);
	CHECK(get_s(m, other) == n && _stp_map_size(m) == 1);
	longkey[MAXSTRINGLEN - 1] = '\0';	/* exactly the stored prefix */
	CHECK(find_s(m, longkey) == n);
	longkey[MAXSTRINGLEN - 2] = '\0';	/* one shorter: another key */
	CHECK(find_s(m, longkey) == NULL);

	CHECK(get_s(m, NULL) == get_s(m, ""));	/* NULL reads as "" */
	CHECK(get_s(m, "ab") != get_s(m, "abc"));
	_stp_map_free(m);
}

/* Random operations against a plain array model; then a large stable sort. */
static void test_random_against_model(void)
{
	enum { CAP = 512, RANGE = 700, OPS = 200000 };
	static int64_t model[RANGE];	/* value + 1, or 0 when absent */
	struct _stp_map *m = _stp_map_new(CAP, 1, key_long, STP_TYPE_LONG);
	struct _stp_map_node *n, *prev;
	unsigned int count = 0, seed = 12345, i, seen;
	int ok = 1;

	for (i = 0; i < OPS && ok; i++) {
		int64_t k;
		int op;

		seed = seed * 1103515245u + 12345u;
		k = (seed >> 8) % RANGE;
		op = (seed >> 20) % 3;
		if (op < 2) {
			n = get_l(m, k);
			if (!model[k]) {
				if (count == CAP) {
					ok &= n == NULL;
					continue;
				}
				count++;
			}
			ok &= n != NULL;
			if (n) {
				*_stp_node_long(n) = (seed >> 4) % 50;
				model[k] = *_stp_node_long(n) + 1;
			}
		} else {
			del_l(m, k);
			if (model[k])
				count--;
			model[k] = 0;
		}
		ok &= _stp_map_size(m) == count;
	}
	CHECK(ok);
	for (seen = 0, n = _stp_map_first(m); n; n = _stp_map_next(m, n), seen++)
		ok &= model[_stp_node_key_long(n, 0)] == *_stp_node_long(n) + 1;
	CHECK(ok && seen == count);

	/* Sort by value after a key sort: ties must come in insertion order. */
	_stp_map_sort(m, 1, -1);
	_stp_map_sort(m, 0, 1);
	for (prev = NULL, n = _stp_map_first(m); n; prev = n, n = _stp_map_next(m, n)) {
		if (!prev)
			continue;
		ok &= *_stp_node_long(prev) <= *_stp_node_long(n);
		if (*_stp_node_long(prev) == *_stp_node_long(n))
			ok &= prev->inserted < n->inserted;
		ok &= n->prev == prev;
	}
	CHECK(ok && m->tail == prev);
	_stp_map_free(m);
}

static void test_strings(void)
{
	char s[MAXSTRINGLEN];
	char big[400];

	_stp_strlcpy(s, "hello");
	CHECK_STR(s, "hello");
	_stp_strlcat(s, " world");
	CHECK_STR(s, "hello world");
	_stp_strlcat(s, s);
	CHECK_STR(s, "hello worldhello world");

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	_stp_strlcpy(s, big);
	CHECK(strlen(s) == MAXSTRINGLEN - 1);
	_stp_strlcpy(s, "abc");
	_stp_strlcat(s, big);
	CHECK(strlen(s) == MAXSTRINGLEN - 1 && strncmp(s, "abca", 4) == 0);
	_stp_strlcat(s, "more");
	CHECK(strlen(s) == MAXSTRINGLEN - 1);
	_stp_strlcpy(s, "abcdef");
	_stp_strlcpy(s, s + 2);	/* overlapping */
	CHECK_STR(s, "cdef");
}

/* A full wrapping map replaces its oldest entry by insertion, even after a sort or a delete. */
static void test_wrap(void)
{
	struct _stp_map *m = _stp_map_new(3, 1, key_long, STP_TYPE_LONG);
	struct _stp_map_node *n;
	int64_t order[3];
	int i = 0;

	_stp_map_set_wrap(m);
	*_stp_node_long(get_l(m, 1)) = 10;
	*_stp_node_long(get_l(m, 2)) = 20;
	*_stp_node_long(get_l(m, 3)) = 30;
	_stp_map_sort(m, 0, -1);	/* iteration order 3 2 1: must not change the age */
	CHECK(get_l(m, 4) != NULL);	/* evicts 1, the oldest */
	CHECK(find_l(m, 1) == NULL);
	CHECK(_stp_map_size(m) == 3);
	CHECK(get_l(m, 2) != NULL);	/* an update does not make 2 younger */
	CHECK(get_l(m, 5) != NULL);	/* evicts 2 */
	CHECK(find_l(m, 2) == NULL);
	del_l(m, 3);
	CHECK(get_l(m, 6) != NULL);	/* room again: nothing evicted */
	CHECK(find_l(m, 4) != NULL && find_l(m, 5) != NULL && find_l(m, 6) != NULL);
	CHECK(get_l(m, 7) != NULL);	/* evicts 4 */
	_stp_map_sort(m, 0, 0);
	for (n = _stp_map_first(m); n && i < 3; n = _stp_map_next(m, n))
		order[i++] = _stp_node_key_long(n, 0);
	CHECK(i == 3 && order[0] == 5 && order[1] == 6 && order[2] == 7);
	/* many more: the hash chains stay consistent */
	for (i = 100; i < 1100; i++)
		CHECK(get_l(m, i) != NULL);
	CHECK(_stp_map_size(m) == 3);
	CHECK(find_l(m, 1097) && find_l(m, 1098) && find_l(m, 1099) && !find_l(m, 1096));
	_stp_map_free(m);

	/* without wrap a full map still refuses */
	m = _stp_map_new(1, 1, key_long, STP_TYPE_LONG);
	CHECK(get_l(m, 1) != NULL);
	CHECK(get_l(m, 2) == NULL);
	_stp_map_free(m);
}

/* Wildcard keys: find and delete every entry that matches the other keys. */
static void test_wildcards(void)
{
	struct _stp_map *m = _stp_map_new(16, 2, key_long_str, STP_TYPE_LONG);
	union _stp_key k[2];
	int64_t i;

	for (i = 0; i < 4; i++) {
		k[0].n = i;
		k[1].s = "a";
		CHECK(_stp_map_get(m, k) != NULL);
		k[1].s = i % 2 ? "b" : "c";
		CHECK(_stp_map_get(m, k) != NULL);
	}
	CHECK(_stp_map_size(m) == 8);
	k[0].n = 0;
	k[1].s = "b";
	CHECK(_stp_map_find_matching(m, k, 1) != NULL);	/* [*, "b"] */
	k[1].s = "z";
	CHECK(_stp_map_find_matching(m, k, 1) == NULL);	/* [*, "z"] */
	k[0].n = 3;
	CHECK(_stp_map_find_matching(m, k, 2) != NULL);	/* [3, *] */
	CHECK(_stp_map_find_matching(m, k, 3) != NULL);	/* [*, *] */
	k[1].s = "a";
	_stp_map_delete_matching(m, k, 1);		/* delete [*, "a"] */
	CHECK(_stp_map_size(m) == 4);
	CHECK(_stp_map_find_matching(m, k, 1) == NULL);
	k[0].n = 1;
	_stp_map_delete_matching(m, k, 2);		/* delete [1, *] */
	CHECK(_stp_map_size(m) == 3);
	k[1].s = "b";
	CHECK(_stp_map_find(m, k) == NULL);
	k[0].n = 3;
	CHECK(_stp_map_find(m, k) != NULL);
	_stp_map_delete_matching(m, k, 3);		/* delete [*, *] */
	CHECK(_stp_map_size(m) == 0 && _stp_map_first(m) == NULL);
	CHECK(_stp_map_get(m, k) != NULL);		/* the free list is intact */
	_stp_map_free(m);
}

/*
 * Word-at-a-time reads (string.c): strings of every length 0..MAXSTRINGLEN+
 * placed so that they end at the last byte before an unmapped page, and so
 * that they straddle two mapped pages, at every alignment. Reading a word
 * that crosses into the guard page would crash the test; lengths, copies,
 * hashes and lookups must not depend on where the string lies.
 */
static void test_word_reads_at_page_edges(void)
{
	const size_t page = PAGE_SIZE;
	char *base = mmap(NULL, 3 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct _stp_map *m = _stp_map_new(1024, 1, key_str, STP_TYPE_LONG);
	char ref[MAXSTRINGLEN + 16], out[MAXSTRINGLEN];
	int ok = 1;

	CHECK(base != MAP_FAILED && m != NULL);
	if (base == MAP_FAILED || !m)
		return;
	CHECK(mprotect(base + 2 * page, page, PROT_NONE) == 0);
	for (size_t len = 0; len < sizeof(ref) - 1; len++) {
		size_t want = len < MAXSTRINGLEN - 1 ? len : MAXSTRINGLEN - 1;
		struct _stp_map_node *n;
		char *at[3];

		for (size_t i = 0; i < len; i++)
			ref[i] = (char)('a' + (i * 7 + i / 26) % 26);
		ref[len] = '\0';
		n = get_s(m, ref);
		/* The NUL is the last mapped byte; then across the page 0/1 edge at 3 offsets. */
		at[0] = base + 3 * page - page - len - 1;
		at[1] = base + page - len / 2 - 1;
		at[2] = base + page - 3;
		for (int j = 0; j < 3; j++) {
			memcpy(at[j], ref, len + 1);
			ok &= _stp_strnlen(at[j], MAXSTRINGLEN - 1) == want;
			_stp_strlcpy(out, at[j]);
			ok &= strlen(out) == want && memcmp(out, ref, want) == 0;
			ok &= n && find_s(m, at[j]) == n;
		}
	}
	CHECK(ok);
	CHECK(_stp_map_size(m) == MAXSTRINGLEN);	/* lengths past MAXSTRINGLEN-1 collapse */
	_stp_map_free(m);
	munmap(base, 3 * page);
}

int main(void)
{
	test_wrap();
	test_wildcards();
	test_new_invalid();
	test_alloc_failure();
	test_insert_find_delete();
	test_full_and_clear();
	test_sort_by_value_stable();
	test_sort_keys();
	test_multi_key_and_string_values();
	test_string_truncation();
	test_random_against_model();
	test_strings();
	test_word_reads_at_page_edges();
	CHECK(shim_live_allocations == 0);
	return unit_report("unit_map");
}
