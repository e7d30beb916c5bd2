/*
 * decompress.c - the compressions a kernel image payload comes in, by magic.
 *
 * Kbuild compresses vmlinux for a bzImage with the command-line tool of the
 * configured method (CONFIG_KERNEL_GZIP...ZSTD) and appends the uncompressed
 * size as 4 little-endian bytes; every decoder here therefore stops at the
 * end of its first stream or frame and ignores what follows. The formats:
 *
 *   gzip   1f 8b                   zlib (inflate with the gzip wrapper)
 *   bzip2  "BZh"                   libbz2
 *   lzma   5d 00 (.lzma "alone")   liblzma's alone decoder
 *   xz     fd "7zXZ" 00            liblzma's stream decoder (x86 BCJ + LZMA2
 *                                  on x86: the filter chain is in the block
 *                                  header, liblzma applies it)
 *   lzo    89 "LZO" 00 0d 0a 1a 0a  the lzop file format, parsed here;
 *                                  blocks with liblzo2's lzo1x_decompress_safe
 *   lz4    02 21 4c 18             the LZ4 legacy frame (lz4 -l), parsed
 *                                  here; blocks with liblz4
 *   zstd   28 b5 2f fd             libzstd's streaming decoder
 *
 * Output is bounded (max_out): corrupt or hostile input ends with a message,
 * never with unbounded memory.
 */
#include <bzlib.h>
#include <lz4.h>
#include <lzma.h>
#include <lzo/lzo1x.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "decompress.h"

/* A growing output buffer with a ceiling. */
struct outbuf {
	unsigned char *data;	/* malloc'ed bytes */
	size_t len;		/* bytes written */
	size_t cap;		/* bytes allocated */
	size_t max;		/* never grow past this */
};

/* Room for `more` bytes past len (capped at max); false when out of memory or at the cap. */
static bool out_reserve(struct outbuf *o, size_t more)
{
	if (more > o->max - o->len)
		more = o->max - o->len;
	if (!more)
		return false;
	if (o->len + more <= o->cap)
		return true;
	size_t cap = o->cap ? o->cap : 1 << 20;
	while (cap < o->len + more)
		cap *= 2;
	if (cap > o->max)
		cap = o->max;
	unsigned char *p = realloc(o->data, cap);
	if (!p)
		return false;
	o->data = p;
	o->cap = cap;
	return true;
}

static const char *too_big(const struct outbuf *o, const char *what)
{
	return o->len >= o->max ? "the decompressed payload is too large" : what;
}

static uint32_t get_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t get_be32(const unsigned char *p)
{
	return (uint32_t)p[3] | (uint32_t)p[2] << 8 | (uint32_t)p[1] << 16 | (uint32_t)p[0] << 24;
}

static const char *decode_gzip(const unsigned char *in, size_t len, struct outbuf *o)
{
	z_stream z = {0};
	if (len > UINT32_MAX || inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return "cannot initialize zlib";
	z.next_in = (unsigned char *)in;
	z.avail_in = (uInt)len;
	int rc = Z_OK;
	while (rc == Z_OK && out_reserve(o, 1 << 20)) {
		z.next_out = o->data + o->len;
		z.avail_out = (uInt)(o->cap - o->len);
		rc = inflate(&z, Z_NO_FLUSH);
		o->len = o->cap - z.avail_out;
	}
	inflateEnd(&z);
	return rc == Z_STREAM_END ? NULL : too_big(o, "corrupt gzip data");
}

static const char *decode_bzip2(const unsigned char *in, size_t len, struct outbuf *o)
{
	bz_stream z = {0};
	if (len > UINT32_MAX || BZ2_bzDecompressInit(&z, 0, 0) != BZ_OK)
		return "cannot initialize libbz2";
	z.next_in = (char *)in;
	z.avail_in = (unsigned)len;
	int rc = BZ_OK;
	while (rc == BZ_OK && out_reserve(o, 1 << 20)) {
		z.next_out = (char *)o->data + o->len;
		z.avail_out = (unsigned)(o->cap - o->len);
		rc = BZ2_bzDecompress(&z);
		o->len = o->cap - z.avail_out;
		if (rc == BZ_OK && z.avail_in == 0 && z.avail_out)
			rc = BZ_UNEXPECTED_EOF; /* input ended inside the stream */
	}
	BZ2_bzDecompressEnd(&z);
	return rc == BZ_STREAM_END ? NULL : too_big(o, "corrupt bzip2 data");
}

/* Run an initialized liblzma decoder (xz or lzma-alone) to the end of its stream. */
static const char *run_lzma(lzma_stream *z, const unsigned char *in, size_t len, struct outbuf *o,
			    const char *corrupt)
{
	z->next_in = in;
	z->avail_in = len;
	lzma_ret rc = LZMA_OK;
	while (rc == LZMA_OK && out_reserve(o, 1 << 20)) {
		z->next_out = o->data + o->len;
		z->avail_out = o->cap - o->len;
		rc = lzma_code(z, LZMA_FINISH);
		o->len = o->cap - z->avail_out;
	}
	lzma_end(z);
	return rc == LZMA_STREAM_END ? NULL : too_big(o, corrupt);
}

/* One xz stream (not LZMA_CONCATENATED: the appended size is not a stream). */
static const char *decode_xz(const unsigned char *in, size_t len, struct outbuf *o)
{
	lzma_stream z = LZMA_STREAM_INIT;
	if (lzma_stream_decoder(&z, UINT64_MAX, 0) != LZMA_OK)
		return "cannot initialize liblzma";
	return run_lzma(&z, in, len, o, "corrupt xz data");
}

static const char *decode_lzma(const unsigned char *in, size_t len, struct outbuf *o)
{
	lzma_stream z = LZMA_STREAM_INIT;
	if (lzma_alone_decoder(&z, UINT64_MAX) != LZMA_OK)
		return "cannot initialize liblzma";
	return run_lzma(&z, in, len, o, "corrupt lzma data");
}

/*
 * The LZ4 legacy frame: the magic, then (le32 size, block) pairs, each block
 * independent and at most 8 MiB decompressed; a repeated magic starts a new
 * frame. It ends where the input does, or where a "size" cannot be a block
 * (the kernel's appended length: at most 4 bytes may be left).
 */
static const char *decode_lz4(const unsigned char *in, size_t len, struct outbuf *o)
{
	enum { LEGACY_MAGIC = 0x184c2102, LEGACY_BLOCK = 8 << 20 };
	size_t pos = 4;
	while (len - pos >= 4) {
		uint32_t n = get_le32(in + pos);
		if (n == LEGACY_MAGIC) {
			pos += 4;
			continue;
		}
		if (n == 0 || n > len - pos - 4 || n > (uint32_t)LZ4_compressBound(LEGACY_BLOCK))
			break;
		if (!out_reserve(o, LEGACY_BLOCK))
			return too_big(o, "out of memory");
		size_t room = o->cap - o->len < LEGACY_BLOCK ? o->cap - o->len : LEGACY_BLOCK;
		int got = LZ4_decompress_safe((const char *)in + pos + 4, (char *)o->data + o->len, (int)n,
					      (int)room);
		if (got < 0)
			return "corrupt LZ4 data";
		o->len += (size_t)got;
		pos += 4 + n;
	}
	if (len - pos > 4)
		return "truncated LZ4 data"; /* more than kbuild's appended size is left */
	return o->len ? NULL : "empty LZ4 payload";
}

/* lzop's header flags that change what follows (lzop's F_* constants). */
enum {
	LZOP_ADLER32_D = 0x1,	  /* each block: adler32 of the decompressed data */
	LZOP_ADLER32_C = 0x2,	  /* each compressed block: adler32 of its bytes */
	LZOP_EXTRA_FIELD = 0x40,  /* header: an extra field (len, data, checksum) */
	LZOP_CRC32_D = 0x100,	  /* as ADLER32_D, with crc32 */
	LZOP_CRC32_C = 0x200,	  /* as ADLER32_C, with crc32 */
	LZOP_FILTER = 0x800,	  /* header: a 4-byte filter id (never by the kernel) */
};

/* A bounds-checked reader over the lzop file. */
struct reader {
	const unsigned char *p, *end;
};

static bool take(struct reader *r, size_t n, const unsigned char **at)
{
	if ((size_t)(r->end - r->p) < n)
		return false;
	*at = r->p;
	r->p += n;
	return true;
}

/*
 * The lzop file format: a 9-byte magic; version, library version, (version
 * needed, from 0x0940), method, (level, from 0x0940), flags, (filter), mode,
 * mtime low, (mtime high, from 0x0940), name length and name, header
 * checksum, (extra field). Then blocks: be32 decompressed size (0 ends),
 * be32 compressed size, the checksums the flags ask for, the data; a block
 * whose two sizes are equal is stored as is.
 */
static const char *decode_lzo(const unsigned char *in, size_t len, struct outbuf *o)
{
	struct reader r = { in + 9, in + len };
	const unsigned char *at;
	if (lzo_init() != LZO_E_OK)
		return "cannot initialize liblzo2";
	if (!take(&r, 4, &at))
		return "truncated lzop header";
	unsigned version = (unsigned)at[0] << 8 | at[1];
	if (version >= 0x0940 && !take(&r, 2, &at))
		return "truncated lzop header";
	if (!take(&r, 1, &at))
		return "truncated lzop header";
	unsigned method = at[0];
	if (method < 1 || method > 3)
		return "lzop method is not LZO1X";
	if ((version >= 0x0940 && !take(&r, 1, &at)) || !take(&r, 4, &at))
		return "truncated lzop header";
	uint32_t flags = get_be32(at);
	if (((flags & LZOP_FILTER) && !take(&r, 4, &at)) || !take(&r, 8, &at) ||
	    (version >= 0x0940 && !take(&r, 4, &at)) || !take(&r, 1, &at))
		return "truncated lzop header";
	if (!take(&r, at[0], &at) || !take(&r, 4, &at))
		return "truncated lzop header";
	if (flags & LZOP_EXTRA_FIELD) {
		if (!take(&r, 4, &at) || !take(&r, get_be32(at), &at) || !take(&r, 4, &at))
			return "truncated lzop header";
	}
	for (;;) {
		if (!take(&r, 4, &at))
			return "truncated lzop data";
		uint32_t dst_len = get_be32(at);
		if (dst_len == 0)
			return o->len ? NULL : "empty lzop payload";
		if (!take(&r, 4, &at))
			return "truncated lzop data";
		uint32_t src_len = get_be32(at);
		const unsigned char *sum_d = NULL;
		if ((flags & LZOP_ADLER32_D) && !take(&r, 4, &sum_d))
			return "truncated lzop data";
		if ((flags & LZOP_CRC32_D) && !take(&r, 4, &at))
			return "truncated lzop data";
		if (src_len < dst_len && (flags & LZOP_ADLER32_C) && !take(&r, 4, &at))
			return "truncated lzop data";
		if (src_len < dst_len && (flags & LZOP_CRC32_C) && !take(&r, 4, &at))
			return "truncated lzop data";
		if (src_len > dst_len || !take(&r, src_len, &at))
			return "corrupt lzop data";
		if (dst_len > o->max - o->len || !out_reserve(o, dst_len) || o->cap - o->len < dst_len)
			return too_big(o, "out of memory");
		unsigned char *dst = o->data + o->len;
		if (src_len == dst_len) {
			memcpy(dst, at, dst_len);
		} else {
			lzo_uint got = dst_len;
			if (lzo1x_decompress_safe(at, src_len, dst, &got, NULL) != LZO_E_OK || got != dst_len)
				return "corrupt lzop data";
		}
		if (sum_d && lzo_adler32(1, dst, dst_len) != get_be32(sum_d))
			return "lzop checksum mismatch";
		o->len += dst_len;
	}
}

static const char *decode_zstd(const unsigned char *in, size_t len, struct outbuf *o)
{
	ZSTD_DStream *z = ZSTD_createDStream();
	if (!z)
		return "cannot initialize libzstd";
	ZSTD_inBuffer src = { in, len, 0 };
	size_t rc = 1;
	while (rc != 0 && out_reserve(o, 1 << 20)) {
		ZSTD_outBuffer dst = { o->data, o->cap, o->len };
		size_t before_in = src.pos, before_out = dst.pos;
		rc = ZSTD_decompressStream(z, &dst, &src);
		o->len = dst.pos;
		if (ZSTD_isError(rc))
			break;
		if (rc != 0 && src.pos == before_in && dst.pos == before_out)
			break; /* no progress: the input ended inside the frame */
	}
	ZSTD_freeDStream(z);
	return rc == 0 ? NULL : too_big(o, "corrupt zstd data");
}

/* One compression: its name, its magic, its decoder. */
struct format {
	const char *name;		/* as in CONFIG_KERNEL_<NAME>, lower case */
	const char *magic;		/* leading bytes */
	size_t magic_len;		/* bytes of magic */
	const char *(*decode)(const unsigned char *in, size_t len, struct outbuf *o);
};

static const struct format formats[] = {
	{ "gzip", "\x1f\x8b", 2, decode_gzip },
	{ "bzip2", "BZh", 3, decode_bzip2 },
	{ "lzma", "\x5d\x00", 2, decode_lzma },
	{ "xz", "\xfd" "7zXZ\0", 6, decode_xz },
	{ "lzo", "\x89" "LZO\0\r\n\x1a\n", 9, decode_lzo },
	{ "lz4", "\x02\x21\x4c\x18", 4, decode_lz4 },
	{ "zstd", "\x28\xb5\x2f\xfd", 4, decode_zstd },
};

static const struct format *find_format(const unsigned char *data, size_t len)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (len >= formats[i].magic_len && !memcmp(data, formats[i].magic, formats[i].magic_len))
			return &formats[i];
	return NULL;
}

const char *decompress_format(const unsigned char *data, size_t len)
{
	const struct format *f = find_format(data, len);
	return f ? f->name : NULL;
}

const char *decompress(const unsigned char *in, size_t len, size_t max_out, unsigned char **out,
		       size_t *out_len)
{
	const struct format *f = find_format(in, len);
	if (!f)
		return "unknown compression";
	struct outbuf o = { .max = max_out };
	const char *err = f->decode(in, len, &o);
	if (err) {
		free(o.data);
		return err;
	}
	*out = o.data;
	*out_len = o.len;
	return NULL;
}
