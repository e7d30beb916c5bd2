/* format.c - printf pieces the kernel's vsnprintf lacks (%b, %m, %M), writing to the output or to a string. */

/*
 * The translator splits a script format into runs that vsnprintf can print
 * (everything but %b %m %M) and the conversions below. Each writer appends
 * to dst, a string_t, truncating at MAXSTRINGLEN-1 bytes, or to this CPU's
 * print buffer when dst is NULL.
 */

/* Fault-safe read of n bytes of kernel memory; 0 or -EFAULT. */
static int _stp_read_kernel(void *to, unsigned long addr, size_t n)
{
	return copy_from_kernel_nofault(to, (const void *)addr, n) ? -EFAULT : 0;
}

/* Append n bytes to the string_t dst (stopping at a NUL byte) or print them. */
static void _stp_format_bytes(char *dst, const char *s, size_t n)
{
	size_t have, room;

	if (!dst) {
		_stp_print_bytes(s, n);
		return;
	}
	have = _stp_strnlen(dst, MAXSTRINGLEN - 1);
	room = MAXSTRINGLEN - 1 - have;
	n = _stp_strnlen(s, n < room ? n : room);
	memcpy(dst + have, s, n);
	dst[have + n] = '\0';
}

static void _stp_format_cat(char *dst, const char *fmt, ...)
{
	va_list ap;
	size_t have;

	va_start(ap, fmt);
	if (dst) {
		have = _stp_strnlen(dst, MAXSTRINGLEN - 1);
		vsnprintf(dst + have, MAXSTRINGLEN - have, fmt, ap);
	} else {
		_stp_vprintf(fmt, ap);
	}
	va_end(ap);
}

/* %b: the low `bytes` bytes of v (1, 2, 4 or 8), in host byte order. */
static void _stp_format_binary(char *dst, int64_t v, int bytes)
{
	union {
		u8 b1;
		u16 b2;
		u32 b4;
		u64 b8;
		char raw[8];
	} u;

	switch (bytes) {
	case 1: u.b1 = (u8)v; break;
	case 2: u.b2 = (u16)v; break;
	case 4: u.b4 = (u32)v; break;
	default: u.b8 = (u64)v; bytes = 8; break;
	}
	_stp_format_bytes(dst, u.raw, bytes);
}

/* Spaces for padding, written a chunk at a time. */
static void _stp_format_pad(char *dst, long n)
{
	static const char spaces[] = "                                ";

	while (n > 0) {
		long chunk = n < (long)sizeof(spaces) - 1 ? n : (long)sizeof(spaces) - 1;

		_stp_format_bytes(dst, spaces, chunk);
		n -= chunk;
	}
}

/* The byte count %m / %M write: len clamped to what the destination holds. */
static long _stp_format_memory_len(const char *dst, int64_t len, int hex)
{
	long limit = dst ? MAXSTRINGLEN - 1 : STP_PRINT_BUF_SIZE;

	if (hex)
		limit /= 2;
	if (len < 0)
		return 0;
	return len > limit ? limit : (long)len;
}

/* Can every byte %m / %M would write be read? 0 or -EFAULT. */
static int _stp_format_memory_check(const char *dst, int64_t addr, int64_t len, int hex)
{
	char chunk[32];
	long done, n;

	len = _stp_format_memory_len(dst, len, hex);
	for (done = 0; done < len; done += n) {
		n = min_t(long, len - done, sizeof(chunk));
		if (_stp_read_kernel(chunk, (unsigned long)addr + done, n))
			return -EFAULT;
	}
	return 0;
}

/*
 * %m and %M: len bytes of kernel memory at addr, raw or as two lowercase
 * hex digits each, padded with spaces to width (on the right if left).
 * len is clamped to what the destination can hold. Reads are fault-safe;
 * the translator calls _stp_format_memory_check for every %m and %M of a
 * format before it writes any of it, so a bad address prints nothing.
 */
static void _stp_format_memory(char *dst, int64_t addr, int64_t len, int64_t width, int left, int hex)
{
	static const char digits[] = "0123456789abcdef";
	char chunk[32], text[64];
	long done, n, out_len;

	len = _stp_format_memory_len(dst, len, hex);
	out_len = hex ? 2 * len : len;
	if (!left)
		_stp_format_pad(dst, width - out_len);
	for (done = 0; done < len; done += n) {
		long i;

		n = min_t(long, len - done, sizeof(chunk));
		if (_stp_read_kernel(chunk, (unsigned long)addr + done, n))
			memset(chunk, 0, n); /* unmapped since the check: zeros rather than stale bytes */
		if (!hex) {
			_stp_format_bytes(dst, chunk, n);
			continue;
		}
		for (i = 0; i < n; i++) {
			text[2 * i] = digits[(u8)chunk[i] >> 4];
			text[2 * i + 1] = digits[(u8)chunk[i] & 15];
		}
		_stp_format_bytes(dst, text, 2 * n);
	}
	if (left)
		_stp_format_pad(dst, width - out_len);
}
