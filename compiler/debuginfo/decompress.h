/* decompress.h - decode a kernel image payload in any of the compressions kbuild uses. */
#ifndef STAPC_DECOMPRESS_H
#define STAPC_DECOMPRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The compression whose magic starts data ("gzip", "bzip2", "lzma", "xz",
   "lzo", "lz4", "zstd"), or NULL. */
const char *decompress_format(const unsigned char *data, size_t len);

/* Decode the first stream of in (anything after it, such as the size kbuild
   appends, is ignored) into a malloc'ed buffer of at most max_out bytes
   (*out, *out_len; the caller frees). NULL on success, else why it failed. */
const char *decompress(const unsigned char *in, size_t len, size_t max_out, unsigned char **out,
		       size_t *out_len);

#endif
