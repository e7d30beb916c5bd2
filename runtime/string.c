/* string.c - bounded copy and concatenation of script strings (string_t, MAXSTRINGLEN bytes). */

/*
 * Strings a word at a time. Script strings are short but are measured,
 * copied, hashed and compared on every probe hit, so these read 8 bytes
 * per step instead of one. A word is read whole only when its 8 bytes
 * lie in one page: the page of its first byte is mapped (the string goes
 * on at least that far), so the load cannot fault even where it reads
 * past the terminating NUL; _stp_read_word is read_word_at_a_time, which
 * tells KASAN that is intended. Bytes after the NUL are never used.
 */
#define STP_ONES 0x0101010101010101ull

/* Bytes s[0..7] as a little-endian word (x86: an unaligned load). */
static __always_inline u64 _stp_read_word(const char *s)
{
	return read_word_at_a_time(s);
}

static __always_inline bool _stp_word_in_page(const char *s)
{
	return ((unsigned long)s & (PAGE_SIZE - 1)) <= PAGE_SIZE - 8;
}

/* Index (0..8) of the first NUL byte of the little-endian word w; 8 if none. */
static __always_inline unsigned int _stp_first_nul(u64 w)
{
	u64 z = (w - STP_ONES) & ~w & (STP_ONES << 7);	/* exact up to the first NUL */

	return z ? __builtin_ctzll(z) >> 3 : 8;
}

/*
 * The next up to 8 bytes of s before its NUL, at most room (> 0) of them:
 * their count, and in *w those bytes as a little-endian word, zero above.
 */
static __always_inline unsigned int _stp_str_chunk(const char *s, size_t room, u64 *w)
{
	unsigned int take;

	if (likely(_stp_word_in_page(s))) {
		*w = _stp_read_word(s);
		take = _stp_first_nul(*w);
	} else {
		*w = 0;
		for (take = 0; take < 8 && take < room && s[take]; take++)
			*w |= (u64)(u8)s[take] << (8 * take);
	}
	if (take > room)
		take = room;
	if (take < 8)
		*w &= (1ull << (8 * take)) - 1;
	return take;
}

/* Length of s, counting at most max bytes. */
static size_t _stp_strnlen(const char *s, size_t max)
{
	size_t n = 0;
	u64 w;

	while (n < max) {
		unsigned int take = _stp_str_chunk(s + n, max - n, &w);

		n += take;
		if (take < 8)
			break;
	}
	return n;
}

/*
 * Copy src into the string_t dst, truncated to MAXSTRINGLEN-1 bytes and
 * NUL-terminated. src may overlap dst (s = substr(s, ...)).
 */
static void _stp_strlcpy(char *dst, const char *src)
{
	size_t n = _stp_strnlen(src, MAXSTRINGLEN - 1);

	if (dst + n <= src || src + n <= dst)
		memcpy(dst, src, n);
	else if (dst != src)
		memmove(dst, src, n);
	dst[n] = '\0';
}

/*
 * Append src to the string_t dst, truncated to MAXSTRINGLEN-1 bytes in
 * all and NUL-terminated. src may be dst itself (s .= s): its length is
 * taken before anything is written.
 */
static void _stp_strlcat(char *dst, const char *src)
{
	size_t have = _stp_strnlen(dst, MAXSTRINGLEN - 1);
	size_t room = MAXSTRINGLEN - 1 - have;
	size_t n = _stp_strnlen(src, room);

	memmove(dst + have, src, n);
	dst[have + n] = '\0';
}

/* Append src to b, truncated at b->size bytes in all. */
static void _stp_strbuf_append(struct _stp_strbuf *b, const char *src)
{
	size_t n = _stp_strnlen(src, b->size - b->len);

	memcpy(b->text + b->len, src, n);
	b->len += n;
	b->text[b->len] = '\0';
}

/* Make b's text src, truncated at b->size bytes. */
static void _stp_strbuf_set(struct _stp_strbuf *b, const char *src)
{
	b->len = 0;
	_stp_strbuf_append(b, src);
}

/* ---- The string tapset (tapset/string.stp) ---- */

/* substr: at most length bytes of s from byte start (0-based); "" when out of range. */
static void _stp_substr(char *dst, const char *s, int64_t start, int64_t length)
{
	size_t len = _stp_strnlen(s, MAXSTRINGLEN - 1);
	size_t n;

	if (start < 0 || length <= 0 || (u64)start >= len) {
		dst[0] = '\0';
		return;
	}
	n = len - (size_t)start;
	if ((u64)length < n)
		n = (size_t)length;
	memmove(dst, s + start, n);
	dst[n] = '\0';
}

/* strpos: byte offset of the first needle in haystack, or -1; "" is found at 0. */
static int64_t _stp_strpos(const char *haystack, const char *needle)
{
	const char *p = strstr(haystack, needle);

	return p ? (int64_t)(p - haystack) : -1;
}

/*
 * str_replace: every non-overlapping needle in s, left to right, replaced
 * by with; truncated to MAXSTRINGLEN-1 bytes. An empty needle changes
 * nothing. dst may not overlap the inputs.
 */
static void _stp_str_replace(char *dst, const char *s, const char *needle, const char *with)
{
	size_t nlen = strlen(needle);
	const char *p;

	dst[0] = '\0';
	if (!nlen) {
		_stp_strlcpy(dst, s);
		return;
	}
	while ((p = strstr(s, needle)) != NULL) {
		size_t have = _stp_strnlen(dst, MAXSTRINGLEN - 1);
		size_t room = MAXSTRINGLEN - 1 - have;
		size_t n = (size_t)(p - s) < room ? (size_t)(p - s) : room;

		memcpy(dst + have, s, n);
		dst[have + n] = '\0';
		_stp_strlcat(dst, with);
		s = p + nlen;
	}
	_stp_strlcat(dst, s);
}

/*
 * strtol: an optional sign, then digits in base 2..36 (0: 0x... is hex,
 * 0... octal, else decimal; base 16 also takes a 0x prefix), up to the
 * first character that is not one. Wraps on overflow like script
 * arithmetic. Returns false for a bad base.
 */
static bool _stp_strtol(const char *s, int64_t base, int64_t *out)
{
	bool neg = false;
	u64 v = 0;

	if (base != 0 && (base < 2 || base > 36))
		return false;
	if (*s == '+' || *s == '-')
		neg = *s++ == '-';
	if ((base == 0 || base == 16) && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		base = 16;
	} else if (base == 0) {
		base = s[0] == '0' ? 8 : 10;
	}
	for (;; s++) {
		int d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'z')
			d = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'Z')
			d = *s - 'A' + 10;
		else
			break;
		if (d >= base)
			break;
		v = v * (u64)base + (u64)d;
	}
	*out = (int64_t)(neg ? 0 - v : v);
	return true;
}

/* How text_str spells byte c: into esc (at least 5 bytes); returns its length. */
static size_t _stp_text_escape(unsigned char c, char *esc)
{
	static const char plain[] = "\n\t\r\a\b\f\v\"\\";
	static const char named[] = "ntrabfv\"\\";
	const char *p = c ? strchr(plain, c) : NULL;

	if (p) {
		esc[0] = '\\';
		esc[1] = named[p - plain];
		return 2;
	}
	if (c >= 0x20 && c < 0x7f) {
		esc[0] = (char)c;
		return 1;
	}
	esc[0] = '\\';
	esc[1] = (char)('0' + (c >> 6));
	esc[2] = (char)('0' + ((c >> 3) & 7));
	esc[3] = (char)('0' + (c & 7));
	return 4;
}

/*
 * text_strn: s with every byte that is not printable ASCII, and '"' and
 * '\', written as a C escape (\n \t \r \a \b \f \v \" \\, else three
 * octal digits), in at most len bytes (0 or more than fit: MAXSTRINGLEN-1);
 * an escape is never cut. quoted: inside double quotes, and if s did not
 * fit, "... after the closing quote (len is then at least 5).
 */
static void _stp_text_str(char *dst, const char *s, int64_t len, int quoted)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t limit = len <= 0 || len > MAXSTRINGLEN - 1 ? MAXSTRINGLEN - 1 : (size_t)len;
	size_t full = 0, budget, n = 0;
	char esc[5];
	bool cut;

	if (quoted && limit < 5)
		limit = MAXSTRINGLEN - 1 < 5 ? MAXSTRINGLEN - 1 : 5;
	for (; *p; p++)
		full += _stp_text_escape(*p, esc);
	cut = full + (quoted ? 2 : 0) > limit;
	budget = limit - (quoted ? (cut ? 5 : 2) : 0);
	if (budget > limit)
		budget = 0;	/* limit was below the quotes: only quotes fit */
	if (quoted && n < limit)
		dst[n++] = '"';
	for (p = (const unsigned char *)s; *p; p++) {
		size_t e = _stp_text_escape(*p, esc);

		if (n - (quoted ? 1 : 0) + e > budget)
			break;
		memcpy(dst + n, esc, e);
		n += e;
	}
	if (quoted) {
		const char *tail = cut ? "\"..." : "\"";
		size_t t = strlen(tail);

		if (n + t > limit)
			t = limit - n;
		memcpy(dst + n, tail, t);
		n += t;
	}
	dst[n] = '\0';
}

/*
 * tokenize: with a non-empty input, remember a copy of it and start at its
 * beginning; with "" go on where the previous call stopped. Returns the
 * next token (bytes up to one of delim's characters), skipping empty ones;
 * "" when there are no more.
 */
static void _stp_tokenize(char *dst, const char *input, const char *delim, struct _stp_tokenize_state *st)
{
	size_t start, end;

	if (input[0]) {
		_stp_strlcpy(st->buf, input);
		st->pos = 0;
	}
	start = st->pos;
	while (st->buf[start] && strchr(delim, st->buf[start]) && delim[0])
		start++;
	end = start;
	while (st->buf[end] && !(delim[0] && strchr(delim, st->buf[end])))
		end++;
	memcpy(dst, st->buf + start, end - start);
	dst[end - start] = '\0';
	st->pos = st->buf[end] ? end + 1 : end;
}
