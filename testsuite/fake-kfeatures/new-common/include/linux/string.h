/* Stand-in: string.h since 6.8 (6.12, 7.2): strscpy, no strlcpy (named here only in a comment). */
ssize_t sized_strscpy(char *, const char *, size_t);
