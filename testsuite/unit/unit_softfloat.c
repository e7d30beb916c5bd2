/* unit_softfloat.c - runtime/softfloat.c against the host's FPU and C library: arithmetic, comparisons, conversions and decimal strings, on edge cases and random values. */

#include <fenv.h>
#include <math.h>

#include "kshim.h"
#include "softfloat.c"
#include "unit.h"

static int failures_shown;

/* A failed comparison, with the operands (at most 30 printed). */
#define EXPECT(cond, fmt, ...)                                                       \
	do {                                                                         \
		unit_checks++;                                                       \
		if (!(cond)) {                                                       \
			unit_failures++;                                             \
			if (failures_shown++ < 30)                                   \
				fprintf(stderr, "%s:%d: " fmt "\n", __FILE__,        \
					__LINE__, __VA_ARGS__);                      \
		}                                                                    \
	} while (0)

static u64 bits_of(double d)
{
	u64 b;

	memcpy(&b, &d, sizeof(b));
	return b;
}

static double double_of(u64 b)
{
	double d;

	memcpy(&d, &b, sizeof(d));
	return d;
}

/* Equal bit for bit, or both NaN (which NaN the FPU picks is not part of the contract). */
static int same(u64 got, double want)
{
	return isnan(want) ? _stp_fp_is_nan(got) : got == bits_of(want);
}

static u64 rng_state = 0x9e3779b97f4a7c15ULL;

static u64 rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Doubles worth testing: edge cases, then the given number of random ones of several shapes. */
static const u64 edges[] = {
	0, STP_FP_SIGN, 1, STP_FP_SIGN | 1, 0x000fffffffffffffULL, 0x0010000000000000ULL,
	0x0010000000000001ULL, 0x001fffffffffffffULL, 0x7fefffffffffffffULL, 0xffefffffffffffffULL,
	STP_FP_INF, STP_FP_SIGN | STP_FP_INF, 0x7ff8000000000000ULL, 0x7ff0000000000001ULL,
	0xfff8000000000123ULL, 0x3ff0000000000000ULL, 0xbff0000000000000ULL, 0x3ff0000000000001ULL,
	0x3fefffffffffffffULL, 0x3fe0000000000000ULL, 0x4000000000000000ULL, 0x4340000000000000ULL,
	0x4330000000000001ULL, 0x43e0000000000000ULL, 0xc3e0000000000000ULL, 0x43dfffffffffffffULL,
	0xc3e0000000000001ULL, 0x3fe0000000000001ULL, 0x3ff8000000000000ULL, 0x4004000000000000ULL,
	0x0000000000000002ULL, 0x0008000000000000ULL, 0x3cb0000000000000ULL, 0x7fe0000000000000ULL,
};
#define NEDGES (sizeof(edges) / sizeof(edges[0]))

static u64 random_double(void)
{
	u64 r = rng();

	switch (r & 7) {
	case 0:		/* any bits */
		return rng();
	case 1:		/* subnormal or tiny */
		return (rng() & 0x801fffffffffffffULL);
	case 2:		/* huge */
		return (rng() & 0x800fffffffffffffULL) | (0x7fdULL + (rng() & 1)) << 52;
	case 3:		/* a small integer */
		return bits_of((double)(s64)(rng() % 2001) - 1000);
	case 4:		/* a half-integer */
		return bits_of(((double)(s64)(rng() % 2001) - 1000) / 2);
	case 5:		/* an edge */
		return edges[rng() % NEDGES];
	default:	/* an ordinary exponent */
		return (rng() & 0x800fffffffffffffULL) | ((0x3ff - 40 + (rng() % 80)) << 52);
	}
}

/* b near a: the same exponent give or take one, for cancellation and ties. */
static u64 near_double(u64 a)
{
	u64 r = rng();

	if (r & 1)
		return a ^ (rng() & 0x000fffffffffffffULL & (0xffffULL << (rng() % 40))) ^ ((r & 2) ? STP_FP_SIGN : 0);
	return (a + (s64)(rng() % 7) - 3) ^ ((r & 4) ? STP_FP_SIGN : 0);
}

static void check_arith(u64 a, u64 b)
{
	volatile double x = double_of(a), y = double_of(b);
	double want;

	EXPECT(same(_stp_fp_add(a, b), x + y), "add %016llx %016llx: %016llx", (unsigned long long)a, (unsigned long long)b, (unsigned long long)_stp_fp_add(a, b));
	EXPECT(same(_stp_fp_sub(a, b), x - y), "sub %016llx %016llx: %016llx", (unsigned long long)a, (unsigned long long)b, (unsigned long long)_stp_fp_sub(a, b));
	EXPECT(same(_stp_fp_mul(a, b), x * y), "mul %016llx %016llx: %016llx", (unsigned long long)a, (unsigned long long)b, (unsigned long long)_stp_fp_mul(a, b));
	EXPECT(same(_stp_fp_div(a, b), x / y), "div %016llx %016llx: %016llx", (unsigned long long)a, (unsigned long long)b, (unsigned long long)_stp_fp_div(a, b));
	/* an exact zero remainder has x's sign (IEEE 754); glibc's sometimes has not */
	want = remainder(x, y);
	if (want == 0)
		want = copysign(0, x);
	EXPECT(same(_stp_fp_rem(a, b), want), "rem %016llx %016llx: %016llx, want %016llx", (unsigned long long)a,
	       (unsigned long long)b, (unsigned long long)_stp_fp_rem(a, b), (unsigned long long)bits_of(want));
	EXPECT(_stp_fp_eq(a, b) == (x == y), "eq %016llx %016llx", (unsigned long long)a, (unsigned long long)b);
	EXPECT(_stp_fp_lt(a, b) == (x < y), "lt %016llx %016llx", (unsigned long long)a, (unsigned long long)b);
	EXPECT(_stp_fp_le(a, b) == (x <= y), "le %016llx %016llx", (unsigned long long)a, (unsigned long long)b);
}

static void check_unary(u64 a)
{
	volatile double x = double_of(a);
	static const int host_mode[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };
	int mode, inexact, rc;
	s64 got;

	EXPECT(same(_stp_fp_sqrt(a), sqrt(x)), "sqrt %016llx: %016llx", (unsigned long long)a, (unsigned long long)_stp_fp_sqrt(a));
	for (mode = 0; mode <= 6; mode++) {
		double want;

		if (mode == 5)
			continue;
		if (mode < 4) {
			fesetround(host_mode[mode]);
			want = nearbyint(x);
			fesetround(FE_TONEAREST);
		} else if (mode == 4) {
			want = round(x);
		} else {
			want = trunc(x);
			if (want != x && fmod(want, 2) == 0)
				want += x > 0 ? 1 : -1;
		}
		rc = _stp_fp_to_s64(a, mode, &got, &inexact);
		if (isnan(x) || want >= 0x1p63 || want < -0x1p63) {
			EXPECT(rc == -1, "to_s64 %016llx mode %d: %d, want out of range", (unsigned long long)a, mode, rc);
		} else {
			EXPECT(rc == 0 && got == (s64)want && inexact == (want != x),
			       "to_s64 %016llx mode %d: %lld (inexact %d), want %.17g", (unsigned long long)a, mode,
			       (long long)got, inexact, want);
		}
	}
}

static void check_decimal(u64 a, int precision)
{
	char got[1024], want[1024];
	u64 back;

	_stp_fp_to_decimal(a, precision, got, sizeof(got));
	snprintf(want, sizeof(want), "%.*f", precision, double_of(a));
	EXPECT(strcmp(got, want) == 0, "to_decimal %016llx %d: \"%s\", want \"%s\"", (unsigned long long)a, precision, got, want);
	/* the shortest round-trip form and a long one both read back to a */
	snprintf(want, sizeof(want), "%.17g", double_of(a));
	EXPECT(_stp_fp_from_decimal(want, &back) == 0 && same(back, double_of(a)),
	       "from_decimal \"%s\": %016llx", want, (unsigned long long)back);
}

/* strtod's answer for s, which must be a valid decimal number. */
static void check_string(const char *s)
{
	u64 got = 0;
	int rc = _stp_fp_from_decimal(s, &got);

	EXPECT(rc == 0 && same(got, strtod(s, NULL)), "from_decimal \"%s\": %d %016llx, want %016llx", s, rc,
	       (unsigned long long)got, (unsigned long long)bits_of(strtod(s, NULL)));
}

static void random_digit_strings(int count)
{
	char s[200];
	int i, j;

	for (i = 0; i < count; i++) {
		int n = 1 + rng() % 130, point = rng() % (n + 1), len = 0;

		if (rng() & 1)
			s[len++] = '-';
		for (j = 0; j < n; j++) {
			if (j == point)
				s[len++] = '.';
			/* runs of 0s and 9s make values next to round numbers */
			s[len++] = (rng() & 3) ? "0123456789"[rng() % 10] : ((rng() & 1) ? '9' : '0');
		}
		len += sprintf(s + len, "e%d", (int)(rng() % 700) - 350);
		check_string(s);
	}
}

/* Decimal strings of values exactly halfway between two doubles: ties must go to even. */
static void halfway_strings(int count)
{
	char s[400];
	int i;

	for (i = 0; i < count; i++) {
		u64 a = random_double() & ~STP_FP_SIGN;
		long double mid;

		if (_stp_fp_is_nan(a) || _stp_fp_is_inf(a) || a == 0x7fefffffffffffffULL)
			continue;
		/* long double holds the midpoint exactly; print it in full (trailing zeros cut) */
		mid = ((long double)double_of(a) + (long double)double_of(a + 1)) / 2;
		snprintf(s, sizeof(s), "%.120Le", mid);
		if (strlen(s) > 135)
			continue;
		check_string(s);
	}
	/* integers between 2^53 and 2^64 whose low bits make a tie */
	for (i = 0; i < count; i++) {
		u64 v = (rng() | (1ULL << 53)) >> (rng() % 10);

		if (v >= (1ULL << 53))
			v = (v & ~0x3ffULL) | (0x200ULL >> (rng() % 9));
		snprintf(s, sizeof(s), "%llu", (unsigned long long)v);
		check_string(s);
	}
}

static void fixed_cases(void)
{
	char buf[1024];
	u64 v;

	/* 2^53 + 1 is a tie between 2^53 and 2^53 + 2: to even */
	CHECK(_stp_fp_from_decimal("9007199254740993", &v) == 0 && v == 0x4340000000000000ULL);
	CHECK(_stp_fp_from_decimal("  -1.5e3\n", &v) == 0 && v == bits_of(-1500.0));
	CHECK(_stp_fp_from_decimal("-Infinity", &v) == 0 && v == (STP_FP_SIGN | STP_FP_INF));
	CHECK(_stp_fp_from_decimal("NaN", &v) == 0 && _stp_fp_is_nan(v));
	CHECK(_stp_fp_from_decimal("4.9406564584124654e-324", &v) == 0 && v == 1);
	CHECK(_stp_fp_from_decimal("2.4703282292062328e-324", &v) == 0 && v == 1);
	CHECK(_stp_fp_from_decimal("2.4703282292062327e-324", &v) == 0 && v == 0);
	CHECK(_stp_fp_from_decimal("1e400", &v) == 0 && v == STP_FP_INF);
	CHECK(_stp_fp_from_decimal(".5", &v) == 0 && v == bits_of(0.5));
	CHECK(_stp_fp_from_decimal("5.", &v) == 0 && v == bits_of(5.0));
	CHECK(_stp_fp_from_decimal("", &v) == -1);
	CHECK(_stp_fp_from_decimal(".", &v) == -1);
	CHECK(_stp_fp_from_decimal("1e", &v) == -1);
	CHECK(_stp_fp_from_decimal("1.2.3", &v) == -1);
	CHECK(_stp_fp_from_decimal("12abc", &v) == -1);
	CHECK(_stp_fp_from_decimal("0x10", &v) == -1);
	CHECK(_stp_fp_from_decimal("--1", &v) == -1);
	/* a long tail of digits past the exact ones still says "more than half" */
	check_string("1.00000000000000011102230246251565404236316680908203125000000000000000000000000000000000000000000000000000000000000000000000001");
	check_string("0.500000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001e-323");

	_stp_fp_to_decimal(bits_of(2.5), 0, buf, sizeof(buf));
	CHECK_STR(buf, "2");
	_stp_fp_to_decimal(bits_of(-0.0), 3, buf, sizeof(buf));
	CHECK_STR(buf, "-0.000");
	_stp_fp_to_decimal(bits_of(1e300), 2, buf, 20);	/* cut to the buffer */
	CHECK_STR(buf, "1000000000000000052");
	_stp_fp_to_decimal(1, STP_FP_MAX_PRECISION, buf, sizeof(buf));
	snprintf(buf + 512, 512, "%.*f", STP_FP_MAX_PRECISION, double_of(1));
	CHECK_STR(buf, buf + 512);

	/* float to double: a subnormal float, a NaN's payload, infinity */
	CHECK(_stp_fp_from_f32(0x00000001) == bits_of(0x1p-149));
	CHECK(_stp_fp_from_f32(0x7fc00001) == (0x7ff8000000000000ULL | (1ULL << 29)));
	CHECK(_stp_fp_from_f32(0xff800000) == (STP_FP_SIGN | STP_FP_INF));
}

int main(void)
{
	int i, j;

	fixed_cases();
	for (i = 0; i < (int)NEDGES; i++) {
		for (j = 0; j < (int)NEDGES; j++)
			check_arith(edges[i], edges[j]);
		check_unary(edges[i]);
		check_decimal(edges[i], 20);
	}
	for (i = 0; i < 1000000; i++) {
		u64 a = random_double(), b = (rng() & 1) ? random_double() : near_double(a);

		check_arith(a, b);
		if (i % 4 == 0)
			check_unary(a);
	}
	for (i = 0; i < 200000; i++) {
		u32 f = (u32)rng();
		float ff;
		s64 v = (s64)rng() >> (rng() % 64);

		memcpy(&ff, &f, sizeof(ff));
		EXPECT(same(_stp_fp_from_f32(f), (double)ff), "from_f32 %08x", f);
		EXPECT(same(_stp_fp_from_s64(v), (double)v), "from_s64 %lld", (long long)v);
	}
	for (i = 0; i < 100000; i++)
		check_decimal(random_double(), rng() % 40);
	for (i = 0; i < 2000; i++)
		check_decimal(random_double(), rng() % (STP_FP_MAX_PRECISION + 1));
	random_digit_strings(100000);
	halfway_strings(50000);
	return unit_report("unit_softfloat");
}
