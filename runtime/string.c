/* string.c - bounded copy and concatenation of script strings (string_t, MAXSTRINGLEN bytes). */

/* Length of s, counting at most max bytes. */
static size_t _stp_strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

/*
 * Copy src into the string_t dst, truncated to MAXSTRINGLEN-1 bytes and
 * NUL-terminated. src may overlap dst (s = substr(s, ...)).
 */
static void _stp_strlcpy(char *dst, const char *src)
{
	size_t n = _stp_strnlen(src, MAXSTRINGLEN - 1);

	if (dst != src)
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
