/* softfloat.c - IEEE-754 double arithmetic and decimal conversion in integers only, for probe context (no FPU); generic C, unit-tested against the host's FPU. */

/*
 * The floating-point tapset (tapset/floatingpoint.stp) holds a double as its
 * 64 bits in a script long. Probe context may not touch the FPU (its state
 * belongs to the interrupted task), so every operation here works on those
 * bits with integer arithmetic:
 *
 *	- add, subtract, multiply, divide and square root are correctly rounded
 *	  to nearest, ties to even (the IEEE default), subnormals included;
 *	- the remainder is IEEE's (x - n*y with n = x/y rounded to nearest even,
 *	  as C's remainder(), not fmod()): always exact;
 *	- an invalid operation (inf - inf, 0 * inf, 0/0, sqrt of a negative,
 *	  remainder by 0) gives x86's default NaN, 0xfff8000000000000; a NaN
 *	  operand comes back quietened;
 *	- decimal conversions in both directions are exact before rounding: the
 *	  digits are worked out with a small fixed-size big integer, so a
 *	  decimal string with at most STP_FP_MAX_DIGITS significant digits is
 *	  read as the nearest double, and a double is printed with
 *	  "%.*f"'s digits, rounded half to even on its exact value.
 *
 * The core is one rounding step, _stp_fp_round_pack(): every operation
 * computes its result as a 64-bit significand times a power of two, with
 * any bits it had to drop folded into the lowest bit ("sticky"), and lets
 * that step round and encode it. Nothing here allocates, sleeps or loops
 * more than a few thousand times; the decimal conversions use at most
 * about 700 bytes of stack.
 */

#define STP_FP_SIGN		(1ULL << 63)
#define STP_FP_INF		0x7ff0000000000000ULL
#define STP_FP_QUIET		(1ULL << 51)		/* the quiet bit of a NaN */
#define STP_FP_DEFAULT_NAN	0xfff8000000000000ULL	/* what x86 gives for an invalid operation */
#define STP_FP_MAX_DIGITS	130	/* significant digits string_to_fp reads exactly */
#define STP_FP_MAX_PRECISION	400	/* digits after the point fp_to_string prints */
#define STP_FP_BIG_LIMBS	56	/* 32-bit limbs of the big integer: 1792 bits */

/* Rounding modes of _stp_fp_to_s64 (the numbering of function::fp_to_long). */
enum _stp_fp_rounding {
	STP_FP_ROUND_NEAR_EVEN = 0,	/* to nearest, ties to even */
	STP_FP_ROUND_MIN_MAG = 1,	/* toward zero */
	STP_FP_ROUND_MIN = 2,		/* toward minus infinity */
	STP_FP_ROUND_MAX = 3,		/* toward plus infinity */
	STP_FP_ROUND_NEAR_MAX_MAG = 4,	/* to nearest, ties away from zero */
	STP_FP_ROUND_ODD = 6,		/* toward zero, then the lowest bit set if inexact */
};

static int _stp_fp_is_nan(u64 a)
{
	return (a & ~STP_FP_SIGN) > STP_FP_INF;
}

static int _stp_fp_is_inf(u64 a)
{
	return (a & ~STP_FP_SIGN) == STP_FP_INF;
}

static int _stp_fp_is_zero(u64 a)
{
	return (a & ~STP_FP_SIGN) == 0;
}

/* The result of an operation with a NaN operand: the first NaN, quietened. */
static u64 _stp_fp_nan_operand(u64 a, u64 b)
{
	return (_stp_fp_is_nan(a) ? a : b) | STP_FP_QUIET;
}

/* x shifted right by n (n >= 0), with any bit shifted out ORed into the lowest bit. */
static u64 _stp_fp_shift_right_jam(u64 x, int n)
{
	if (n == 0)
		return x;
	if (n >= 64)
		return x != 0;
	return (x >> n) | ((x << (64 - n)) != 0);
}

/*
 * The finite, nonzero double a as m * 2^e with m in [2^52, 2^53) (a
 * subnormal's significand is normalized); returns e.
 */
static int _stp_fp_unpack(u64 a, u64 *m)
{
	int biased = (a >> 52) & 0x7ff;
	u64 fraction = a & ((1ULL << 52) - 1);
	int shift;

	if (biased == 0) {
		shift = __builtin_clzll(fraction) - 11;
		*m = fraction << shift;
		return -1074 - shift;
	}
	*m = fraction | (1ULL << 52);
	return biased - 1075;
}

/*
 * The double nearest to sig * 2^e (ties to even), with the sign bit sign.
 * sig is nonzero; its lowest bit may be a sticky bit standing for nonzero
 * bits below it, in which case sig is at least 2^54 (so the sticky bit stays
 * below the rounding position). Overflow gives infinity, underflow a
 * subnormal or zero.
 */
static u64 _stp_fp_round_pack(u64 sign, int e, u64 sig)
{
	int shift = __builtin_clzll(sig);
	int biased;
	u64 m, rest;

	sig <<= shift;			/* now in [2^63, 2^64): m is its top 53 bits */
	e -= shift;
	biased = e + 1086;
	if (biased >= 0x7ff)
		return sign | STP_FP_INF;
	if (biased <= 0) {		/* subnormal: units of 2^-1074, no implicit bit */
		sig = _stp_fp_shift_right_jam(sig, 1 - biased);
		biased = 1;
	}
	m = sig >> 11;
	rest = sig & 0x7ff;
	if (rest > 0x400 || (rest == 0x400 && (m & 1)))
		m++;
	/* m's implicit bit (2^52) adds one to the exponent field; a carry out of rounding, one more */
	return sign | ((((u64)biased - 1) << 52) + m);
}

static u64 _stp_fp_add(u64 a, u64 b)
{
	u64 sa = a & STP_FP_SIGN, sb = b & STP_FP_SIGN;
	u64 ma, mb;
	int ea, eb;

	if (_stp_fp_is_nan(a) || _stp_fp_is_nan(b))
		return _stp_fp_nan_operand(a, b);
	if (_stp_fp_is_inf(a))
		return _stp_fp_is_inf(b) && sa != sb ? STP_FP_DEFAULT_NAN : a;
	if (_stp_fp_is_inf(b))
		return b;
	if (_stp_fp_is_zero(a))
		return _stp_fp_is_zero(b) ? (a & b) : b;	/* -0 only for -0 + -0 */
	if (_stp_fp_is_zero(b))
		return a;
	ea = _stp_fp_unpack(a, &ma) - 10;	/* ten guard bits below the significand */
	eb = _stp_fp_unpack(b, &mb) - 10;
	ma <<= 10;
	mb <<= 10;
	if (ea < eb || (ea == eb && ma < mb)) {	/* make |a| >= |b| */
		u64 t = ma; int te = ea; u64 ts = sa;

		ma = mb; ea = eb; sa = sb;
		mb = t; eb = te; sb = ts;
	}
	mb = _stp_fp_shift_right_jam(mb, ea - eb);
	if (sa == sb)
		return _stp_fp_round_pack(sa, ea, ma + mb);
	/*
	 * A shift of one place or none is exact; a longer one leaves
	 * ma - mb >= 2^61, so the sticky bit is below the rounding position.
	 */
	ma -= mb;
	if (!ma)
		return 0;			/* x - x is +0 when rounding to nearest */
	return _stp_fp_round_pack(sa, ea, ma);
}

static u64 _stp_fp_sub(u64 a, u64 b)
{
	if (_stp_fp_is_nan(b))
		return _stp_fp_nan_operand(a, b);
	return _stp_fp_add(a, b ^ STP_FP_SIGN);
}

/* The 128-bit product of a and b, as hi:lo. */
static void _stp_fp_mul_128(u64 a, u64 b, u64 *hi, u64 *lo)
{
	u64 al = (u32)a, ah = a >> 32, bl = (u32)b, bh = b >> 32;
	u64 ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	u64 mid = (ll >> 32) + (u32)lh + (u32)hl;

	*lo = (mid << 32) | (u32)ll;
	*hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

static u64 _stp_fp_mul(u64 a, u64 b)
{
	u64 sign = (a ^ b) & STP_FP_SIGN;
	u64 ma, mb, hi, lo;
	int ea, eb;

	if (_stp_fp_is_nan(a) || _stp_fp_is_nan(b))
		return _stp_fp_nan_operand(a, b);
	if (_stp_fp_is_inf(a) || _stp_fp_is_inf(b)) {
		if (_stp_fp_is_zero(a) || _stp_fp_is_zero(b))
			return STP_FP_DEFAULT_NAN;
		return sign | STP_FP_INF;
	}
	if (_stp_fp_is_zero(a) || _stp_fp_is_zero(b))
		return sign;
	ea = _stp_fp_unpack(a, &ma);
	eb = _stp_fp_unpack(b, &mb);
	_stp_fp_mul_128(ma, mb, &hi, &lo);	/* in [2^104, 2^106): keep its top 64 bits */
	hi = (hi << 22) | (lo >> 42) | ((lo & ((1ULL << 42) - 1)) != 0);
	return _stp_fp_round_pack(sign, ea + eb + 42, hi);
}

static u64 _stp_fp_div(u64 a, u64 b)
{
	u64 sign = (a ^ b) & STP_FP_SIGN;
	u64 ma, mb, q = 0;
	int ea, eb, i;

	if (_stp_fp_is_nan(a) || _stp_fp_is_nan(b))
		return _stp_fp_nan_operand(a, b);
	if (_stp_fp_is_inf(a))
		return _stp_fp_is_inf(b) ? STP_FP_DEFAULT_NAN : (sign | STP_FP_INF);
	if (_stp_fp_is_inf(b))
		return sign;
	if (_stp_fp_is_zero(b))
		return _stp_fp_is_zero(a) ? STP_FP_DEFAULT_NAN : (sign | STP_FP_INF);
	if (_stp_fp_is_zero(a))
		return sign;
	ea = _stp_fp_unpack(a, &ma);
	eb = _stp_fp_unpack(b, &mb);
	/* 64 quotient bits of ma / mb, one at a time: q = floor(ma / mb * 2^63) >= 2^62 */
	for (i = 0; i < 64; i++) {
		q <<= 1;
		if (ma >= mb) {
			ma -= mb;
			q |= 1;
		}
		ma <<= 1;
	}
	return _stp_fp_round_pack(sign, ea - eb - 63, q | (ma != 0));
}

static u64 _stp_fp_sqrt(u64 a)
{
	u64 m, r = 0, hi, lo, want_hi;
	int e, bit;

	if (_stp_fp_is_nan(a))
		return a | STP_FP_QUIET;
	if (_stp_fp_is_zero(a))
		return a;			/* sqrt(-0) is -0 */
	if (a & STP_FP_SIGN)
		return STP_FP_DEFAULT_NAN;
	if (_stp_fp_is_inf(a))
		return a;
	e = _stp_fp_unpack(a, &m);
	if (e & 1) {			/* an even exponent halves exactly */
		m <<= 1;
		e--;
	}
	/* r = floor(sqrt(m * 2^74)), 64 bits, one bit at a time */
	want_hi = m << 10;
	for (bit = 63; bit >= 0; bit--) {
		u64 c = r | (1ULL << bit);

		_stp_fp_mul_128(c, c, &hi, &lo);
		if (hi < want_hi || (hi == want_hi && lo == 0))
			r = c;
	}
	_stp_fp_mul_128(r, r, &hi, &lo);
	return _stp_fp_round_pack(0, (e - 74) / 2, r | (hi != want_hi || lo != 0));
}

static u64 _stp_fp_rem(u64 a, u64 b)
{
	u64 sign = a & STP_FP_SIGN;
	u64 ma, mb, q, r;
	int ea, eb, d;

	if (_stp_fp_is_nan(a) || _stp_fp_is_nan(b))
		return _stp_fp_nan_operand(a, b);
	if (_stp_fp_is_inf(a) || _stp_fp_is_zero(b))
		return STP_FP_DEFAULT_NAN;
	if (_stp_fp_is_inf(b) || _stp_fp_is_zero(a))
		return a;
	ea = _stp_fp_unpack(a, &ma);
	eb = _stp_fp_unpack(b, &mb);
	d = ea - eb;
	if (d < -1)
		return a;			/* |a| < |b| / 2 */
	if (d == -1) {			/* the same divisor, in units of 2^ea */
		mb <<= 1;
		eb--;
		d = 0;
	}
	/* |a| = Q * |b| + r * 2^eb: r and the parity of Q, ten bits of Q at a time */
	q = ma / mb;
	r = ma % mb;
	while (d > 0) {
		int k = d < 10 ? d : 10;

		r <<= k;
		q = r / mb;
		r %= mb;
		d -= k;
	}
	if (2 * r > mb || (2 * r == mb && (q & 1))) {	/* n = Q + 1 */
		r = mb - r;
		sign ^= STP_FP_SIGN;
	}
	if (!r)
		return a & STP_FP_SIGN;		/* an exact zero keeps a's sign */
	return _stp_fp_round_pack(sign, eb, r);
}

/* Comparisons are quiet: a NaN compares false with everything; -0 == +0. */
static int _stp_fp_eq(u64 a, u64 b)
{
	if (_stp_fp_is_nan(a) || _stp_fp_is_nan(b))
		return 0;
	return a == b || ((a | b) & ~STP_FP_SIGN) == 0;
}

static int _stp_fp_lt(u64 a, u64 b)
{
	if (_stp_fp_is_nan(a) || _stp_fp_is_nan(b))
		return 0;
	if ((a ^ b) & STP_FP_SIGN)
		return (a & STP_FP_SIGN) && ((a | b) & ~STP_FP_SIGN) != 0;
	return (a & STP_FP_SIGN) ? a > b : a < b;
}

static int _stp_fp_le(u64 a, u64 b)
{
	return _stp_fp_lt(a, b) || _stp_fp_eq(a, b);
}

static u64 _stp_fp_from_s64(s64 v)
{
	if (v == 0)
		return 0;
	if (v < 0)
		return _stp_fp_round_pack(STP_FP_SIGN, 0, -(u64)v);
	return _stp_fp_round_pack(0, 0, (u64)v);
}

/* The single-precision float whose bits are f, as a double (always exact). */
static u64 _stp_fp_from_f32(u32 f)
{
	u64 sign = (u64)(f >> 31) << 63;
	int biased = (f >> 23) & 0xff;
	u64 fraction = f & 0x7fffff;

	if (biased == 0xff)
		return sign | STP_FP_INF | (fraction ? STP_FP_QUIET | (fraction << 29) : 0);
	if (biased == 0)
		return fraction ? _stp_fp_round_pack(sign, -149, fraction) : sign;
	return sign | ((u64)(biased - 127 + 1023) << 52) | (fraction << 29);
}

/*
 * a rounded to an integer in the given mode (enum _stp_fp_rounding): 0 and
 * the integer in *out, *inexact set if it differs from a; -1 for a NaN, an
 * infinity or a result out of the range of s64.
 */
static int _stp_fp_to_s64(u64 a, int mode, s64 *out, int *inexact)
{
	int negative = (a & STP_FP_SIGN) != 0;
	u64 m, whole, up = 0;
	int e, cmp_half;

	*inexact = 0;
	*out = 0;
	if (_stp_fp_is_nan(a) || _stp_fp_is_inf(a))
		return -1;
	if (_stp_fp_is_zero(a))
		return 0;
	e = _stp_fp_unpack(a, &m);
	if (e >= 0) {
		if (e > 10) {			/* |a| >= 2^63: only -2^63 fits */
			if (negative && e == 11 && m == (1ULL << 52)) {
				*out = (s64)STP_FP_SIGN;
				return 0;
			}
			return -1;
		}
		whole = m << e;
	} else {
		u64 rest;

		if (-e > 60) {			/* |a| < 2^-7: below one half */
			whole = 0;
			cmp_half = -1;
			rest = 1;
		} else {
			u64 half = 1ULL << (-e - 1);

			whole = m >> -e;
			rest = m & ((half << 1) - 1);
			cmp_half = rest < half ? -1 : rest > half;
		}
		*inexact = rest != 0;
		switch (mode) {
		case STP_FP_ROUND_NEAR_EVEN:
			up = cmp_half > 0 || (cmp_half == 0 && (whole & 1));
			break;
		case STP_FP_ROUND_MIN:
			up = *inexact && negative;
			break;
		case STP_FP_ROUND_MAX:
			up = *inexact && !negative;
			break;
		case STP_FP_ROUND_NEAR_MAX_MAG:
			up = cmp_half >= 0;
			break;
		case STP_FP_ROUND_ODD:
			if (*inexact)
				whole |= 1;
			break;
		default:			/* STP_FP_ROUND_MIN_MAG */
			break;
		}
		whole += up;
	}
	*out = negative ? -(s64)whole : (s64)whole;
	return 0;
}

/* A nonnegative integer of up to STP_FP_BIG_LIMBS * 32 bits, for the decimal conversions. */
struct _stp_fp_big {
	int n;					/* limbs in use; the top one is nonzero (0 limbs: zero) */
	u32 limb[STP_FP_BIG_LIMBS];		/* least significant first */
};

static void _stp_fp_big_set(struct _stp_fp_big *b, u64 v)
{
	b->n = 0;
	while (v) {
		b->limb[b->n++] = (u32)v;
		v >>= 32;
	}
}

/* b = b * k + add; the callers keep their numbers within the capacity. */
static void _stp_fp_big_mul_add(struct _stp_fp_big *b, u32 k, u32 add)
{
	u64 carry = add;
	int i;

	for (i = 0; i < b->n; i++) {
		carry += (u64)b->limb[i] * k;
		b->limb[i] = (u32)carry;
		carry >>= 32;
	}
	if (carry && b->n < STP_FP_BIG_LIMBS)
		b->limb[b->n++] = (u32)carry;
}

static void _stp_fp_big_mul_pow10(struct _stp_fp_big *b, int n)
{
	for (; n >= 9; n -= 9)
		_stp_fp_big_mul_add(b, 1000000000, 0);
	for (; n > 0; n--)
		_stp_fp_big_mul_add(b, 10, 0);
}

/* b / k, the remainder returned. */
static u32 _stp_fp_big_div_small(struct _stp_fp_big *b, u32 k)
{
	u64 rem = 0;
	int i;

	for (i = b->n - 1; i >= 0; i--) {
		u64 cur = (rem << 32) | b->limb[i];

		b->limb[i] = (u32)(cur / k);
		rem = cur % k;
	}
	while (b->n && !b->limb[b->n - 1])
		b->n--;
	return (u32)rem;
}

static int _stp_fp_big_bits(const struct _stp_fp_big *b)
{
	if (!b->n)
		return 0;
	return 32 * b->n - __builtin_clz(b->limb[b->n - 1]);
}

static int _stp_fp_big_bit(const struct _stp_fp_big *b, int i)
{
	return i / 32 < b->n ? (b->limb[i / 32] >> (i % 32)) & 1 : 0;
}

/* Any of bits 0..n-1 set? */
static int _stp_fp_big_low_bits(const struct _stp_fp_big *b, int n)
{
	int i;

	for (i = 0; i < n / 32 && i < b->n; i++)
		if (b->limb[i])
			return 1;
	if (n % 32 && n / 32 < b->n)
		return (b->limb[n / 32] & ((1U << (n % 32)) - 1)) != 0;
	return 0;
}

static void _stp_fp_big_shift_left(struct _stp_fp_big *b, int n)
{
	int words = n / 32, bits = n % 32, i;

	if (!b->n)
		return;
	b->limb[b->n] = 0;			/* callers leave one spare limb */
	for (i = b->n; i >= 0; i--) {
		u32 v = b->limb[i] << bits;

		if (bits && i > 0)
			v |= b->limb[i - 1] >> (32 - bits);
		if (i + words < STP_FP_BIG_LIMBS)
			b->limb[i + words] = v;
	}
	for (i = 0; i < words; i++)
		b->limb[i] = 0;
	b->n += words + 1;
	if (b->n > STP_FP_BIG_LIMBS)
		b->n = STP_FP_BIG_LIMBS;
	while (b->n && !b->limb[b->n - 1])
		b->n--;
}

static void _stp_fp_big_shift_right(struct _stp_fp_big *b, int n)
{
	int words = n / 32, bits = n % 32, i;

	if (words >= b->n) {
		b->n = 0;
		return;
	}
	for (i = 0; i + words < b->n; i++) {
		u32 v = b->limb[i + words] >> bits;

		if (bits && i + words + 1 < b->n)
			v |= b->limb[i + words + 1] << (32 - bits);
		b->limb[i] = v;
	}
	b->n -= words;
	while (b->n && !b->limb[b->n - 1])
		b->n--;
}

static int _stp_fp_big_cmp(const struct _stp_fp_big *a, const struct _stp_fp_big *b)
{
	int i;

	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	for (i = a->n - 1; i >= 0; i--)
		if (a->limb[i] != b->limb[i])
			return a->limb[i] < b->limb[i] ? -1 : 1;
	return 0;
}

/* a -= b, for a >= b. */
static void _stp_fp_big_sub(struct _stp_fp_big *a, const struct _stp_fp_big *b)
{
	s64 borrow = 0;
	int i;

	for (i = 0; i < a->n; i++) {
		s64 v = (s64)a->limb[i] - (i < b->n ? b->limb[i] : 0) - borrow;

		borrow = v < 0;
		a->limb[i] = (u32)(v + (borrow << 32));
	}
	while (a->n && !a->limb[a->n - 1])
		a->n--;
}

/* Appends c to buf (of size bytes, NUL-terminated), dropping what does not fit. */
static void _stp_fp_put(char *buf, size_t size, size_t *len, char c)
{
	if (*len + 1 < size) {
		buf[(*len)++] = c;
		buf[*len] = '\0';
	}
}

/*
 * a as "%.*f" prints it with precision digits after the point (0 <= precision
 * <= STP_FP_MAX_PRECISION): the exact value rounded half to even; "inf",
 * "nan", with a '-' for a negative sign (so "-0.0"). Cut to fit size bytes.
 */
static void _stp_fp_to_decimal(u64 a, int precision, char *buf, size_t size)
{
	static const u32 pow10[9] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000 };
	struct _stp_fp_big big;
	u32 chunk[STP_FP_BIG_LIMBS * 32 / 29 + 1];	/* base 10^9 digits, least significant first */
	int chunks = 0, digits, exact_digits, width, pos;
	size_t len = 0;
	const char *word = NULL;
	u64 m;
	int e;

	if (size)
		buf[0] = '\0';
	if (a & STP_FP_SIGN)
		_stp_fp_put(buf, size, &len, '-');
	if (_stp_fp_is_nan(a))
		word = "nan";
	else if (_stp_fp_is_inf(a))
		word = "inf";
	if (word) {
		while (*word)
			_stp_fp_put(buf, size, &len, *word++);
		return;
	}
	/* big = |a| * 10^exact_digits rounded to an integer; the rest of the digits are zeros */
	exact_digits = 0;
	if (_stp_fp_is_zero(a)) {
		big.n = 0;
	} else {
		e = _stp_fp_unpack(a, &m);
		_stp_fp_big_set(&big, m);
		if (e >= 0) {
			_stp_fp_big_shift_left(&big, e);
		} else {
			int half, below, odd;

			/* m * 10^-e / 2^-e is an integer: -e digits say it all */
			exact_digits = precision < -e ? precision : -e;
			_stp_fp_big_mul_pow10(&big, exact_digits);
			half = _stp_fp_big_bit(&big, -e - 1);
			below = _stp_fp_big_low_bits(&big, -e - 1);
			_stp_fp_big_shift_right(&big, -e);
			odd = big.n && (big.limb[0] & 1);
			if (half && (below || odd)) {
				if (!big.n)
					_stp_fp_big_set(&big, 1);
				else
					_stp_fp_big_mul_add(&big, 1, 1);
			}
		}
	}
	while (big.n)
		chunk[chunks++] = _stp_fp_big_div_small(&big, 1000000000);
	digits = 0;
	if (chunks) {
		u32 top = chunk[chunks - 1];

		digits = 9 * (chunks - 1);
		while (top) {
			digits++;
			top /= 10;
		}
	}
	width = digits > exact_digits ? digits : exact_digits + 1;
	for (pos = width - 1; pos >= 0; pos--) {
		int d = pos < digits ? chunk[pos / 9] / pow10[pos % 9] % 10 : 0;

		if (pos == exact_digits - 1)
			_stp_fp_put(buf, size, &len, '.');
		_stp_fp_put(buf, size, &len, '0' + d);
	}
	if (precision > exact_digits && exact_digits == 0)
		_stp_fp_put(buf, size, &len, '.');
	for (pos = exact_digits; pos < precision; pos++)
		_stp_fp_put(buf, size, &len, '0');
}

static int _stp_fp_match_word(const char **s, const char *word)
{
	const char *p = *s;

	for (; *word; word++, p++)
		if ((*p | 0x20) != *word)
			return 0;
	*s = p;
	return 1;
}

static int _stp_fp_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/*
 * The double nearest to the decimal number in s (ties to even): optional
 * blanks, a sign, digits with an optional point (at least one digit), an
 * optional exponent "e[+-]digits", optional blanks; or "inf", "infinity",
 * "nan" in any case. 0 and the double in *out; -1 if s is not such a number.
 * Exact for up to STP_FP_MAX_DIGITS significant digits; beyond that the
 * digits only say "a little more".
 */
static int _stp_fp_from_decimal(const char *s, u64 *out)
{
	struct _stp_fp_big num, den;
	u64 sign = 0, q = 0;
	int significant = 0, any_digit = 0, seen_point = 0, truncated = 0;
	int exp10 = 0, k, i;

	while (_stp_fp_is_space(*s))
		s++;
	if (*s == '+' || *s == '-')
		sign = *s++ == '-' ? STP_FP_SIGN : 0;
	if (_stp_fp_match_word(&s, "inf")) {
		_stp_fp_match_word(&s, "inity");
		*out = sign | STP_FP_INF;
		goto trailer;
	}
	if (_stp_fp_match_word(&s, "nan")) {
		*out = sign | STP_FP_INF | STP_FP_QUIET;
		goto trailer;
	}
	_stp_fp_big_set(&num, 0);
	for (;; s++) {
		if (*s == '.' && !seen_point) {
			seen_point = 1;
			continue;
		}
		if (*s < '0' || *s > '9')
			break;
		any_digit = 1;
		if (significant == 0 && *s == '0') {	/* a leading zero */
			exp10 -= seen_point;
			continue;
		}
		if (significant < STP_FP_MAX_DIGITS) {
			_stp_fp_big_mul_add(&num, 10, *s - '0');
			significant++;
			exp10 -= seen_point;
		} else {
			truncated |= *s != '0';
			exp10 += !seen_point;
		}
	}
	if (!any_digit)
		return -1;
	if (*s == 'e' || *s == 'E') {
		int exp_sign = 1, exp_value = 0, exp_digits = 0;

		s++;
		if (*s == '+' || *s == '-')
			exp_sign = *s++ == '-' ? -1 : 1;
		for (; *s >= '0' && *s <= '9'; s++, exp_digits++)
			if (exp_value < 100000)
				exp_value = exp_value * 10 + (*s - '0');
		if (!exp_digits)
			return -1;
		exp10 += exp_sign * exp_value;
	}
	if (truncated) {			/* a digit 1 stands for the nonzero digits dropped */
		_stp_fp_big_mul_add(&num, 10, 1);
		significant++;
		exp10--;
	}
	if (!num.n) {
		*out = sign;
	} else if (significant + exp10 > 310) {	/* >= 10^310 */
		*out = sign | STP_FP_INF;
	} else if (significant + exp10 < -325) {	/* < 10^-325, less than half the least subnormal */
		*out = sign;
	} else if (exp10 >= 0) {
		int bits;
		u64 top;

		_stp_fp_big_mul_pow10(&num, exp10);
		bits = _stp_fp_big_bits(&num);
		if (bits <= 64) {
			top = 0;
			for (i = num.n - 1; i >= 0; i--)
				top = (top << 32) | num.limb[i];
			*out = _stp_fp_round_pack(sign, 0, top);
		} else {
			int sticky = _stp_fp_big_low_bits(&num, bits - 64);

			_stp_fp_big_shift_right(&num, bits - 64);
			top = ((u64)num.limb[1] << 32) | num.limb[0];
			*out = _stp_fp_round_pack(sign, bits - 64, top | sticky);
		}
	} else {
		/* num / 10^-exp10 = q * 2^-k: q = floor(num * 2^k / den) in [2^62, 2^64) */
		_stp_fp_big_set(&den, 1);
		_stp_fp_big_mul_pow10(&den, -exp10);
		k = _stp_fp_big_bits(&den) - _stp_fp_big_bits(&num) + 63;
		if (k >= 0)
			_stp_fp_big_shift_left(&num, k);
		else
			_stp_fp_big_shift_left(&den, -k);
		_stp_fp_big_shift_left(&den, 63);
		for (i = 63; i >= 0; i--) {
			if (_stp_fp_big_cmp(&num, &den) >= 0) {
				_stp_fp_big_sub(&num, &den);
				q |= 1ULL << i;
			}
			_stp_fp_big_shift_right(&den, 1);
		}
		*out = _stp_fp_round_pack(sign, -k, q | (num.n != 0));
	}
trailer:
	while (_stp_fp_is_space(*s))
		s++;
	return *s ? -1 : 0;
}
