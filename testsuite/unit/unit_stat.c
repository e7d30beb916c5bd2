/* unit_stat.c - user-space tests of runtime/stat.c: per-CPU merge, extractors, exact variance, buckets, chart rendering, statistics arrays. */

#include "kshim.h"
#include "runtime_api.h"
#include "lock.c"
#include "string.c"
#include "map.c"

/* Output goes to a buffer the tests compare. */
static char out_buf[65536];
static size_t out_len;

static void _stp_print(const char *s)
{
	size_t n = strlen(s);

	if (out_len + n < sizeof(out_buf)) {
		memcpy(out_buf + out_len, s, n + 1);
		out_len += n;
	}
}

static void _stp_print_char(char ch)
{
	char s[2] = { ch, '\0' };

	_stp_print(s);
}

static void _stp_printf(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	_stp_print(buf);
}

#include "stat.c"
#include "unit.h"

int shim_fail_countdown;
long shim_live_allocations;
int shim_nr_cpus = 4;
int shim_cpu;

static const struct _stp_stat_layout no_hist = { STP_HIST_NONE, 0, 0, 0, 0 };
static const struct _stp_stat_layout log_hist = { STP_HIST_LOG, 0, 0, 0, STP_HIST_LOG_BUCKETS };

static const char *take_output(void)
{
	static char copy[sizeof(out_buf)];

	memcpy(copy, out_buf, out_len + 1);
	out_len = 0;
	out_buf[0] = '\0';
	return copy;
}

/* An error message, or "(none)". */
static const char *err(const char *e)
{
	return e ? e : "(none)";
}

static int64_t get(const struct _stp_stat *st, enum _stp_stat_op op)
{
	int64_t v = -12345;

	CHECK(_stp_stat_extract(st, op, &v) == NULL);
	return v;
}

/* Values added on different CPUs come back merged; empty aggregates are errors for min/max/avg. */
static void test_scalar(void)
{
	struct _stp_pstat *p = _stp_pstat_new(&no_hist);
	const struct _stp_stat *st;
	int64_t v = 7;

	CHECK(p != NULL);
	st = _stp_pstat_aggregate(p);
	CHECK(get(st, STP_STAT_COUNT) == 0);
	CHECK(get(st, STP_STAT_SUM) == 0);
	CHECK_STR(err(_stp_stat_extract(st, STP_STAT_MIN, &v)), "empty aggregate");
	CHECK_STR(err(_stp_stat_extract(st, STP_STAT_MAX, &v)), "empty aggregate");
	CHECK_STR(err(_stp_stat_extract(st, STP_STAT_AVG, &v)), "empty aggregate");
	CHECK_STR(err(_stp_stat_extract(st, STP_STAT_VARIANCE, &v)), "empty aggregate");
	CHECK(v == 7);

	shim_cpu = 0;
	CHECK(_stp_pstat_add(p, 5) == STP_STAT_OK);
	CHECK(_stp_pstat_add(p, -3) == STP_STAT_OK);
	shim_cpu = 3;
	CHECK(_stp_pstat_add(p, 100) == STP_STAT_OK);
	shim_cpu = 1;
	CHECK(_stp_pstat_add(p, 0) == STP_STAT_OK);
	st = _stp_pstat_aggregate(p);
	CHECK(get(st, STP_STAT_COUNT) == 4);
	CHECK(get(st, STP_STAT_SUM) == 102);
	CHECK(get(st, STP_STAT_MIN) == -3);
	CHECK(get(st, STP_STAT_MAX) == 100);
	CHECK(get(st, STP_STAT_AVG) == 25);
	/* values 5 -3 100 0: mean 25.5, squared deviations sum 7433, /3 = 2477.67 */
	CHECK(get(st, STP_STAT_VARIANCE) == 2477);

	/* a CPU whose slot is held by someone else: the reader gives up, the writer too */
	CHECK(_stp_write_trylock(&p->slots[3]->lock));
	CHECK(_stp_pstat_aggregate(p) == NULL);
	shim_cpu = 3;
	CHECK(_stp_pstat_add(p, 1) == STP_STAT_BUSY);
	CHECK(_stp_pstat_clear(p) == STP_STAT_BUSY);
	_stp_write_unlock(&p->slots[3]->lock);

	CHECK(_stp_pstat_clear(p) == STP_STAT_OK);
	st = _stp_pstat_aggregate(p);
	CHECK(get(st, STP_STAT_COUNT) == 0);
	_stp_pstat_free(p);

	/* a single value: min = max = avg, variance 0; negative average truncates toward 0 */
	p = _stp_pstat_new(&no_hist);
	CHECK(_stp_pstat_add(p, -7) == STP_STAT_OK);
	st = _stp_pstat_aggregate(p);
	CHECK(get(st, STP_STAT_VARIANCE) == 0);
	CHECK(_stp_pstat_add(p, 0) == STP_STAT_OK);
	st = _stp_pstat_aggregate(p);
	CHECK(get(st, STP_STAT_AVG) == -3);
	_stp_pstat_free(p);
}

/* Reference: floor of the exact sample variance, for values small enough for __int128. */
static int64_t reference_variance(const int64_t *v, int n)
{
	__int128 s = 0, s2 = 0, num, den;

	for (int i = 0; i < n; i++) {
		s += v[i];
		s2 += (__int128)v[i] * v[i];
	}
	num = (__int128)n * s2 - s * s;
	den = (__int128)n * (n - 1);
	return (int64_t)(num / den);	/* num >= 0: truncation is the floor */
}

static void test_variance(void)
{
	static const int64_t big[] = { 4611686018427387904LL, -4611686018427387904LL,
				       3000000000000000000LL, 17 };
	struct _stp_stat *st = calloc(1, _stp_stat_size(&no_hist));
	unsigned int seed = 12345;

	/* random sets spread over CPUs against the reference */
	for (int round = 0; round < 300; round++) {
		int64_t v[64];
		int n = 2 + (int)(seed % 60);
		struct _stp_pstat *p = _stp_pstat_new(&no_hist);

		for (int i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			v[i] = (int64_t)(seed % 2000001) - 1000000;
			if (round % 3 == 0)
				v[i] *= 1003;	/* values near 2^30, variances near 2^58 */
			shim_cpu = i % shim_nr_cpus;
			_stp_pstat_add(p, v[i]);
		}
		CHECK(get(_stp_pstat_aggregate(p), STP_STAT_VARIANCE) == reference_variance(v, n));
		_stp_pstat_free(p);
	}

	/* squares near 2^124: exact in 128 bits where n*sum(v^2) would not be */
	memset(st, 0, _stp_stat_size(&no_hist));
	for (int i = 0; i < 4; i++)
		_stp_stat_add_value(st, &no_hist, big[i]);
	/* computed with exact integers: floor((n*S2 - S^2) / (n*(n-1))) */
	CHECK(get(st, STP_STAT_VARIANCE) == INT64_MAX);	/* ~1.7e37 saturates */
	memset(st, 0, _stp_stat_size(&no_hist));
	_stp_stat_add_value(st, &no_hist, 3000000000LL);
	_stp_stat_add_value(st, &no_hist, 3000000002LL);
	_stp_stat_add_value(st, &no_hist, 3000000007LL);
	/* mean 3000000003, deviations -3 -1 4: 26/2 = 13 */
	CHECK(get(st, STP_STAT_VARIANCE) == 13);
	memset(st, 0, _stp_stat_size(&no_hist));
	_stp_stat_add_value(st, &no_hist, 1);
	_stp_stat_add_value(st, &no_hist, 2);
	/* 0.5 rounds down */
	CHECK(get(st, STP_STAT_VARIANCE) == 0);
	_stp_stat_add_value(st, &no_hist, 4);
	/* 1 2 4: mean 7/3, M2 = 21 - 49/3 = 14/3, /2 = 2.33 */
	CHECK(get(st, STP_STAT_VARIANCE) == 2);
	free(st);
}

static void test_buckets(void)
{
	const struct _stp_stat_layout lin = { STP_HIST_LINEAR, 0, 100, 10, 13 };
	const struct _stp_stat_layout neg = { STP_HIST_LINEAR, -25, 25, 10, 8 };

	CHECK(_stp_stat_bucket_of(&log_hist, 0) == 64);
	CHECK(_stp_stat_bucket_of(&log_hist, 1) == 65);
	CHECK(_stp_stat_bucket_of(&log_hist, 2) == 66);
	CHECK(_stp_stat_bucket_of(&log_hist, 3) == 66);
	CHECK(_stp_stat_bucket_of(&log_hist, 4) == 67);
	CHECK(_stp_stat_bucket_of(&log_hist, INT64_MAX) == 127);
	CHECK(_stp_stat_bucket_of(&log_hist, -1) == 63);
	CHECK(_stp_stat_bucket_of(&log_hist, -2) == 62);
	CHECK(_stp_stat_bucket_of(&log_hist, -3) == 62);
	CHECK(_stp_stat_bucket_of(&log_hist, -4) == 61);
	CHECK(_stp_stat_bucket_of(&log_hist, INT64_MIN) == 0);
	CHECK(_stp_stat_bucket_of(&log_hist, INT64_MIN + 1) == 1);

	CHECK(_stp_stat_bucket_of(&lin, -1) == 0);
	CHECK(_stp_stat_bucket_of(&lin, INT64_MIN) == 0);
	CHECK(_stp_stat_bucket_of(&lin, 0) == 1);
	CHECK(_stp_stat_bucket_of(&lin, 9) == 1);
	CHECK(_stp_stat_bucket_of(&lin, 10) == 2);
	CHECK(_stp_stat_bucket_of(&lin, 100) == 11);	/* the bucket starting at hi */
	CHECK(_stp_stat_bucket_of(&lin, 109) == 11);
	CHECK(_stp_stat_bucket_of(&lin, 110) == 12);
	CHECK(_stp_stat_bucket_of(&lin, INT64_MAX) == 12);
	CHECK(_stp_stat_bucket_of(&neg, -26) == 0);
	CHECK(_stp_stat_bucket_of(&neg, -25) == 1);
	CHECK(_stp_stat_bucket_of(&neg, -16) == 1);
	CHECK(_stp_stat_bucket_of(&neg, -15) == 2);
	CHECK(_stp_stat_bucket_of(&neg, 34) == 6);
	CHECK(_stp_stat_bucket_of(&neg, 35) == 7);

	{
		struct _stp_stat *st = calloc(1, _stp_stat_size(&lin));
		int64_t v = 0;

		_stp_stat_add_value(st, &lin, 35);
		_stp_stat_add_value(st, &lin, 39);
		CHECK(_stp_stat_bucket(st, &lin, 4, &v) == NULL && v == 2);
		CHECK(_stp_stat_bucket(st, &lin, 0, &v) == NULL && v == 0);
		CHECK_STR(err(_stp_stat_bucket(st, &lin, 13, &v)), "histogram bucket index out of range");
		CHECK_STR(err(_stp_stat_bucket(st, &lin, -1, &v)), "histogram bucket index out of range");
		free(st);
	}
}

static struct _stp_stat *hist_of(const struct _stp_stat_layout *l, const int64_t *v, int n)
{
	struct _stp_stat *st = calloc(1, _stp_stat_size(l));

	for (int i = 0; i < n; i++)
		_stp_stat_add_value(st, l, v[i]);
	return st;
}

/*
 * Expected text, built from explicit parts: a header for label width w,
 * rows "label", number of '@', count (count column cw wide), "~" lines.
 */
static char want[8192];

static void want_header(int w)
{
	snprintf(want, sizeof(want), "%*s |--------------------------------------------------"
		 " count\n", w, "value");
}

static void want_row(int w, const char *label, int bars, long long count, int cw)
{
	size_t len = strlen(want);

	len += snprintf(want + len, sizeof(want) - len, "%*s |", w, label);
	for (int i = 0; i < 50; i++)
		want[len++] = i < bars ? '@' : ' ';
	snprintf(want + len, sizeof(want) - len, " %*lld\n", cw, count);
}

static void want_text(const char *text)
{
	strcat(want, text);
}

static void test_render(void)
{
	/* linear, with under- and overflow rows, scale 1 */
	{
		const struct _stp_stat_layout l = { STP_HIST_LINEAR, 0, 30, 10, 6 };
		const int64_t v[] = { -5, 0, 1, 12, 12, 12, 25, 39, 40, 1000 };
		struct _stp_stat *st = hist_of(&l, v, 10);

		_stp_stat_print_hist(st, &l);
		want_header(5);
		want_row(5, "<0", 1, 1, 1);
		want_row(5, "0", 2, 2, 1);
		want_row(5, "10", 3, 3, 1);
		want_row(5, "20", 1, 1, 1);
		want_row(5, "30", 1, 1, 1);
		want_row(5, ">30", 2, 2, 1);
		want_text("\n");
		CHECK_STR(take_output(), want);
		free(st);
	}
	/* log with negative values and zero: two empty rows of context each side */
	{
		const int64_t v[] = { -5, -1, 0, 0, 0, 1, 6 };
		struct _stp_stat *st = hist_of(&log_hist, v, 7);

		_stp_stat_print_hist(st, &log_hist);
		want_header(5);
		want_row(5, "-16", 0, 0, 1);
		want_row(5, "-8", 0, 0, 1);
		want_row(5, "-4", 1, 1, 1);
		want_row(5, "-2", 0, 0, 1);
		want_row(5, "-1", 1, 1, 1);
		want_row(5, "0", 3, 3, 1);
		want_row(5, "1", 1, 1, 1);
		want_row(5, "2", 0, 0, 1);
		want_row(5, "4", 1, 1, 1);
		want_row(5, "8", 0, 0, 1);
		want_row(5, "16", 0, 0, 1);
		want_text("\n");
		CHECK_STR(take_output(), want);
		free(st);
	}
	/* elided middle run; scale ceil(120/50) = 3; count column as wide as 120 */
	{
		const struct _stp_stat_layout l = { STP_HIST_LINEAR, 0, 1000, 10, 103 };
		struct _stp_stat *st = calloc(1, _stp_stat_size(&l));

		for (int i = 0; i < 120; i++)
			_stp_stat_add_value(st, &l, 30);
		for (int i = 0; i < 7; i++)
			_stp_stat_add_value(st, &l, 95);
		_stp_stat_print_hist(st, &l);
		want_header(5);
		want_row(5, "10", 0, 0, 3);
		want_row(5, "20", 0, 0, 3);
		want_row(5, "30", 40, 120, 3);
		want_row(5, "40", 0, 0, 3);
		want_row(5, "50", 0, 0, 3);
		want_text("      ~\n");
		want_row(5, "70", 0, 0, 3);
		want_row(5, "80", 0, 0, 3);
		want_row(5, "90", 2, 7, 3);
		want_row(5, "100", 0, 0, 3);
		want_row(5, "110", 0, 0, 3);
		want_text("\n");
		CHECK_STR(take_output(), want);
		free(st);
	}
	/* the widest label in range sets the column, even when elided */
	{
		const int64_t v[] = { -4096, -2 };
		struct _stp_stat *st = hist_of(&log_hist, v, 2);

		_stp_stat_print_hist(st, &log_hist);
		want_header(6);
		want_row(6, "-16384", 0, 0, 1);
		want_row(6, "-8192", 0, 0, 1);
		want_row(6, "-4096", 1, 1, 1);
		want_row(6, "-2048", 0, 0, 1);
		want_row(6, "-1024", 0, 0, 1);
		want_text("       ~\n");
		want_row(6, "-8", 0, 0, 1);
		want_row(6, "-4", 0, 0, 1);
		want_row(6, "-2", 1, 1, 1);
		want_row(6, "-1", 0, 0, 1);
		want_row(6, "0", 0, 0, 1);
		want_text("\n");
		CHECK_STR(take_output(), want);
		free(st);
	}
	/* no negative rows when every value is >= 0 */
	{
		const int64_t v[] = { 1, 2, 3, 4 };
		struct _stp_stat *st = hist_of(&log_hist, v, 4);

		_stp_stat_print_hist(st, &log_hist);
		want_header(5);
		want_row(5, "0", 0, 0, 1);
		want_row(5, "1", 1, 1, 1);
		want_row(5, "2", 2, 2, 1);
		want_row(5, "4", 1, 1, 1);
		want_row(5, "8", 0, 0, 1);
		want_row(5, "16", 0, 0, 1);
		want_text("\n");
		CHECK_STR(take_output(), want);
		free(st);
	}
	/* the top of the log scale, and an empty histogram */
	{
		const int64_t v[] = { INT64_MAX };
		struct _stp_stat *st = hist_of(&log_hist, v, 1);

		_stp_stat_print_hist(st, &log_hist);
		want_header(19);
		want_row(19, "1152921504606846976", 0, 0, 1);
		want_row(19, "2305843009213693952", 0, 0, 1);
		want_row(19, "4611686018427387904", 1, 1, 1);
		want_text("\n");
		CHECK_STR(take_output(), want);
		memset(st, 0, _stp_stat_size(&log_hist));
		_stp_stat_print_hist(st, &log_hist);
		want_header(5);
		want_text("\n");
		CHECK_STR(take_output(), want);
		free(st);
	}
	/* 50 '@' for the fullest bucket when it is a multiple of 50 */
	{
		const struct _stp_stat_layout l = { STP_HIST_LINEAR, 0, 10, 10, 4 };
		struct _stp_stat *st = calloc(1, _stp_stat_size(&l));

		for (int i = 0; i < 1650; i++)
			_stp_stat_add_value(st, &l, 3);
		for (int i = 0; i < 33; i++)
			_stp_stat_add_value(st, &l, 12);
		_stp_stat_print_hist(st, &l);
		want_header(5);
		want_row(5, "0", 50, 1650, 4);
		want_row(5, "10", 1, 33, 4);
		want_text("\n");
		CHECK_STR(take_output(), want);
		free(st);
	}
}

/* Runs at the ends: a leading run of one and a trailing run of two are kept whole. */
static void test_render_edges(void)
{
	const struct _stp_stat_layout l = { STP_HIST_LINEAR, 0, 100, 10, 13 };
	const int64_t v[] = { 10, 40, 45 };
	struct _stp_stat *st = hist_of(&l, v, 3);

	_stp_stat_print_hist(st, &l);
	want_header(5);
	want_row(5, "0", 0, 0, 1);
	want_row(5, "10", 1, 1, 1);
	want_row(5, "20", 0, 0, 1);
	want_row(5, "30", 0, 0, 1);
	want_row(5, "40", 2, 2, 1);
	want_row(5, "50", 0, 0, 1);
	want_row(5, "60", 0, 0, 1);
	want_text("\n");
	CHECK_STR(take_output(), want);
	_stp_stat_print_summary(st);
	CHECK_STR(take_output(), "@count=3 @min=10 @max=45 @sum=95 @avg=31");
	free(st);
}

static const enum _stp_type key_str[] = { STP_TYPE_STRING };
static const enum _stp_type key_long[] = { STP_TYPE_LONG };

static union _stp_key skey(const char *s)
{
	union _stp_key k = { .s = s };

	return k;
}

static void test_pmap(void)
{
	struct _stp_pmap *pm = _stp_pmap_new(3, 1, key_str, &log_hist);
	enum _stp_stat_status status;
	const struct _stp_stat *st;
	struct _stp_map *agg;
	struct _stp_map_node *n;
	union _stp_key k;
	char order[256];
	int found = -1;

	CHECK(pm != NULL);
	shim_cpu = 0;
	k = skey("a");
	CHECK(_stp_pmap_add(pm, &k, 10) == STP_STAT_OK);
	k = skey("b");
	CHECK(_stp_pmap_add(pm, &k, 1) == STP_STAT_OK);
	shim_cpu = 2;
	k = skey("b");
	CHECK(_stp_pmap_add(pm, &k, 2) == STP_STAT_OK);
	CHECK(_stp_pmap_add(pm, &k, 3) == STP_STAT_OK);
	k = skey("c");
	CHECK(_stp_pmap_add(pm, &k, -100) == STP_STAT_OK);

	k = skey("b");
	st = _stp_pmap_element(pm, &k, &found);
	CHECK(found == 1);
	CHECK(get(st, STP_STAT_COUNT) == 3);
	CHECK(get(st, STP_STAT_SUM) == 6);
	CHECK(st->buckets[66] == 2);
	CHECK(_stp_pmap_exists(pm, &k) == 1);
	k = skey("zz");
	CHECK(_stp_pmap_exists(pm, &k) == 0);
	st = _stp_pmap_element(pm, &k, &found);
	CHECK(found == 0);
	CHECK(get(st, STP_STAT_COUNT) == 0);

	/* aggregate, in merge order (CPU 0's keys first), then sorted by @sum descending */
	agg = _stp_pmap_aggregate(pm, &status);
	CHECK(agg != NULL && status == STP_STAT_OK);
	order[0] = '\0';
	for (n = _stp_map_first(agg); n; n = _stp_map_next(agg, n))
		strcat(order, _stp_node_key_str(n, 0));
	CHECK_STR(order, "abc");
	_stp_stat_map_sort(agg, STP_STAT_SUM, -1);
	order[0] = '\0';
	for (n = _stp_map_first(agg); n; n = _stp_map_next(agg, n))
		strcat(order, _stp_node_key_str(n, 0));
	CHECK_STR(order, "abc");
	_stp_stat_map_sort(agg, STP_STAT_COUNT, -1);
	order[0] = '\0';
	for (n = _stp_map_first(agg); n; n = _stp_map_next(agg, n))
		strcat(order, _stp_node_key_str(n, 0));
	CHECK_STR(order, "bac");	/* a and c tie at 1: insertion order */
	_stp_stat_map_sort(agg, STP_STAT_MIN, 1);
	order[0] = '\0';
	for (n = _stp_map_first(agg); n; n = _stp_map_next(agg, n))
		strcat(order, _stp_node_key_str(n, 0));
	CHECK_STR(order, "cba");

	/* a fourth key fits CPU 1's map, but the aggregate holds only 3 */
	shim_cpu = 1;
	k = skey("d");
	CHECK(_stp_pmap_add(pm, &k, 1) == STP_STAT_OK);
	CHECK(_stp_pmap_aggregate(pm, &status) == NULL && status == STP_STAT_FULL);
	CHECK(_stp_pmap_delete(pm, &k) == STP_STAT_OK);
	{
		u64 gen = _stp_pmap_generation(pm);

		CHECK(_stp_pmap_aggregate(pm, &status) != NULL);
		CHECK(_stp_pmap_generation(pm) == gen + 1);
	}
	/* a CPU's map is full */
	shim_cpu = 0;
	k = skey("x");
	CHECK(_stp_pmap_add(pm, &k, 1) == STP_STAT_OK);
	k = skey("y");
	CHECK(_stp_pmap_add(pm, &k, 1) == STP_STAT_FULL);

	/* busy slot */
	CHECK(_stp_write_trylock(&pm->cpus[2].lock));
	k = skey("a");
	CHECK(_stp_pmap_element(pm, &k, NULL) == NULL);
	CHECK(_stp_pmap_exists(pm, &k) == 1);	/* found on CPU 0 before reaching CPU 2 */
	k = skey("zz");
	CHECK(_stp_pmap_exists(pm, &k) == -1);
	CHECK(_stp_pmap_aggregate(pm, &status) == NULL && status == STP_STAT_BUSY);
	CHECK(_stp_pmap_clear(pm) == STP_STAT_BUSY);
	_stp_write_unlock(&pm->cpus[2].lock);

	CHECK(_stp_pmap_clear(pm) == STP_STAT_OK);
	agg = _stp_pmap_aggregate(pm, &status);
	CHECK(agg && _stp_map_size(agg) == 0);
	_stp_pmap_free(pm);

	/* long keys, no histogram */
	pm = _stp_pmap_new(10, 1, key_long, &no_hist);
	for (int i = 0; i < 40; i++) {
		union _stp_key lk = { .n = i % 5 };

		shim_cpu = i % shim_nr_cpus;
		CHECK(_stp_pmap_add(pm, &lk, i) == STP_STAT_OK);
	}
	agg = _stp_pmap_aggregate(pm, &status);
	CHECK(_stp_map_size(agg) == 5);
	_stp_stat_map_sort(agg, STP_STAT_AVG, 1);
	n = _stp_map_first(agg);
	CHECK(_stp_node_key_long(n, 0) == 0 && get(_stp_node_stat(n), STP_STAT_AVG) == 17);
	_stp_pmap_free(pm);
}

/* Allocation failures at every step of creation leak nothing. */
/* global s%[2]: each CPU's part evicts its own oldest key; the aggregate holds what every CPU kept */
static void test_pmap_wrap(void)
{
	struct _stp_pmap *pm = _stp_pmap_new(2, 1, key_str, &log_hist);
	enum _stp_stat_status status;
	const struct _stp_stat *st;
	struct _stp_map *agg;
	struct _stp_map_node *n;
	union _stp_key k;
	char order[256];
	int found = -1;

	CHECK(pm != NULL && _stp_pmap_set_wrap(pm) == 0);
	shim_cpu = 0;
	k = skey("a");
	CHECK(_stp_pmap_add(pm, &k, 1) == STP_STAT_OK);
	k = skey("b");
	CHECK(_stp_pmap_add(pm, &k, 2) == STP_STAT_OK);
	k = skey("a");
	CHECK(_stp_pmap_add(pm, &k, 3) == STP_STAT_OK);
	k = skey("c");	/* CPU 0 is full: "a", its oldest, goes */
	CHECK(_stp_pmap_add(pm, &k, 4) == STP_STAT_OK);
	shim_cpu = 2;
	k = skey("a");	/* CPU 2 still counts "a" */
	CHECK(_stp_pmap_add(pm, &k, 5) == STP_STAT_OK);
	k = skey("d");
	CHECK(_stp_pmap_add(pm, &k, 6) == STP_STAT_OK);

	k = skey("a");
	st = _stp_pmap_element(pm, &k, &found);
	CHECK(found == 1);
	CHECK(get(st, STP_STAT_COUNT) == 1);	/* CPU 0's two values left with its entry */
	CHECK(get(st, STP_STAT_SUM) == 5);
	k = skey("b");
	st = _stp_pmap_element(pm, &k, &found);
	CHECK(found == 1 && get(st, STP_STAT_SUM) == 2);

	/* four keys over two CPUs of two entries each: the aggregate has room for all */
	agg = _stp_pmap_aggregate(pm, &status);
	CHECK(agg != NULL && status == STP_STAT_OK);
	order[0] = '\0';
	for (n = _stp_map_first(agg); n; n = _stp_map_next(agg, n))
		strcat(order, _stp_node_key_str(n, 0));
	CHECK_STR(order, "bcad");
	_stp_pmap_free(pm);
}

static void test_alloc_failure(void)
{
	for (int i = 1; i < 20; i++) {
		shim_fail_countdown = i;
		_stp_pmap_free(_stp_pmap_new(4, 1, key_long, &log_hist));
		shim_fail_countdown = i;
		_stp_pstat_free(_stp_pstat_new(&log_hist));
	}
	shim_fail_countdown = 0;
	CHECK(shim_live_allocations == 0);
}

int main(void)
{
	test_scalar();
	test_variance();
	test_buckets();
	test_render();
	test_render_edges();
	test_pmap();
	test_pmap_wrap();
	test_alloc_failure();
	return unit_report("unit_stat");
}
