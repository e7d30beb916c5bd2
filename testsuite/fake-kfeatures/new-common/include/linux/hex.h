/* Stand-in: linux/hex.h (6.12 has it too; 7.2's kernel.h no longer includes it). */
extern const char hex_asc[];
char *bin2hex(char *dst, const void *src, size_t count);
