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
