/* Stand-in: string.h as 5.10 .. 6.7 declare strlcpy. */
size_t strlcpy(char *, const char *, size_t);
ssize_t strscpy(char *, const char *, size_t);
