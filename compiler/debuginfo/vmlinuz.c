/*
 * vmlinuz.c - the vmlinux ELF inside a compressed x86 bzImage (/boot/vmlinuz-R).
 *
 * The boot protocol (Documentation/x86/boot.rst) puts a setup header at
 * 0x1f1; from version 2.08 it records where the compressed kernel sits in the
 * protected-mode part (payload_offset at 0x248, payload_length at 0x24c). The
 * payload is the vmlinux ELF compressed with the kernel's configured method,
 * recognized by its magic:
 *
 *   LZ4 legacy frame  02 21 4c 18   (Debian 12's choice: CONFIG_KERNEL_LZ4)
 *   gzip              1f 8b
 *   xz                fd 37 7a 58 5a 00
 *   zstd              28 b5 2f fd   (recognized, reported as unsupported)
 *
 * The LZ4 legacy frame is decoded here (the block format is small and fully
 * specified: lz4/doc/lz4_Block_format.md); gzip and xz use zlib and liblzma.
 */
#include <lzma.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "vmlinuz.h"

static uint32_t get_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A growing output buffer. */
struct outbuf {
	unsigned char *data;
	size_t len, cap;
};

static bool out_reserve(struct outbuf *o, size_t more)
{
	if (o->len + more <= o->cap)
		return true;
	size_t cap = o->cap ? o->cap : 1 << 20;
	while (cap < o->len + more)
		cap *= 2;
	unsigned char *p = realloc(o->data, cap);
	if (!p)
		return false;
	o->data = p;
	o->cap = cap;
	return true;
}

/*
 * One LZ4 block: sequences of (token, literals, offset, match) until the
 * input ends after literals. Matches copy from earlier output of this block
 * (legacy-frame blocks are independent). Every length is bounds-checked.
 */
static bool lz4_block(const unsigned char *in, size_t in_len, struct outbuf *o, size_t max_out)
{
	const unsigned char *ip = in, *iend = in + in_len;
	if (!out_reserve(o, max_out))
		return false;
	unsigned char *base = o->data + o->len, *op = base, *oend = base + max_out;
	while (ip < iend) {
		unsigned token = *ip++;
		size_t lit = token >> 4;
		if (lit == 15) {
			unsigned b;
			do {
				if (ip >= iend)
					return false;
				b = *ip++;
				lit += b;
			} while (b == 255);
		}
		if (lit > (size_t)(iend - ip) || lit > (size_t)(oend - op))
			return false;
		memcpy(op, ip, lit);
		op += lit;
		ip += lit;
		if (ip >= iend)
			break; /* the last sequence has literals only */
		if (iend - ip < 2)
			return false;
		size_t offset = (size_t)ip[0] | (size_t)ip[1] << 8;
		ip += 2;
		if (offset == 0 || offset > (size_t)(op - base))
			return false;
		size_t match = token & 15;
		if (match == 15) {
			unsigned b;
			do {
				if (ip >= iend)
					return false;
				b = *ip++;
				match += b;
			} while (b == 255);
		}
		match += 4;
		if (match > (size_t)(oend - op))
			return false;
		const unsigned char *from = op - offset;
		for (size_t i = 0; i < match; i++) /* overlapping copies repeat a pattern */
			op[i] = from[i];
		op += match;
	}
	o->len += (size_t)(op - base);
	return true;
}

/* LZ4 legacy frame: magic, then (le32 size, block) until the input ends; a repeated magic starts a new frame. */
static const char *lz4_legacy(const unsigned char *in, size_t len, struct outbuf *o)
{
	enum { LEGACY_BLOCK = 8 << 20 };
	size_t pos = 4;
	while (len - pos >= 4) {
		uint32_t n = get_le32(in + pos);
		if (n == 0x184c2102) {
			pos += 4;
			continue;
		}
		if (n > len - pos - 4)
			break; /* the kernel appends the uncompressed size: not a block */
		if (!lz4_block(in + pos + 4, n, o, LEGACY_BLOCK))
			return "corrupt LZ4 data";
		pos += 4 + n;
	}
	return o->len ? NULL : "empty LZ4 payload";
}

static const char *gunzip(const unsigned char *in, size_t len, struct outbuf *o)
{
	z_stream z = {0};
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return "cannot initialize zlib";
	z.next_in = (unsigned char *)in;
	z.avail_in = (uInt)len;
	int rc;
	do {
		if (!out_reserve(o, 1 << 20)) {
			inflateEnd(&z);
			return "out of memory";
		}
		z.next_out = o->data + o->len;
		z.avail_out = (uInt)(o->cap - o->len);
		rc = inflate(&z, Z_NO_FLUSH);
		o->len = o->cap - z.avail_out;
	} while (rc == Z_OK);
	inflateEnd(&z);
	return rc == Z_STREAM_END ? NULL : "corrupt gzip data";
}

static const char *unxz(const unsigned char *in, size_t len, struct outbuf *o)
{
	lzma_stream z = LZMA_STREAM_INIT;
	if (lzma_stream_decoder(&z, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
		return "cannot initialize liblzma";
	z.next_in = in;
	z.avail_in = len;
	lzma_ret rc;
	do {
		if (!out_reserve(o, 1 << 20)) {
			lzma_end(&z);
			return "out of memory";
		}
		z.next_out = o->data + o->len;
		z.avail_out = o->cap - o->len;
		rc = lzma_code(&z, LZMA_FINISH);
		o->len = o->cap - z.avail_out;
	} while (rc == LZMA_OK);
	lzma_end(&z);
	/* the kernel appends the uncompressed size after the stream: trailing data is fine */
	return rc == LZMA_STREAM_END || (rc == LZMA_DATA_ERROR && o->len) ? NULL : "corrupt xz data";
}

bool vmlinuz_is_bzimage(const unsigned char *data, size_t len)
{
	return len > 0x250 && data[0] == 'M' && data[1] == 'Z' && !memcmp(data + 0x202, "HdrS", 4);
}

const char *vmlinuz_extract(const unsigned char *data, size_t len, unsigned char **out, size_t *out_len)
{
	if (!vmlinuz_is_bzimage(data, len))
		return "not a bzImage";
	unsigned version = (unsigned)data[0x206] | (unsigned)data[0x207] << 8;
	if (version < 0x208)
		return "boot protocol older than 2.08 (no payload_offset)";
	unsigned setup_sects = data[0x1f1] ? data[0x1f1] : 4;
	size_t pm = (size_t)(setup_sects + 1) * 512;
	size_t off = pm + get_le32(data + 0x248), plen = get_le32(data + 0x24c);
	if (off > len || plen > len - off || plen < 8)
		return "payload outside the file";
	const unsigned char *p = data + off;
	struct outbuf o = {0};
	const char *err;
	if (!memcmp(p, "\x02\x21\x4c\x18", 4))
		err = lz4_legacy(p, plen, &o);
	else if (p[0] == 0x1f && p[1] == 0x8b)
		err = gunzip(p, plen, &o);
	else if (!memcmp(p, "\xfd" "7zXZ", 6))
		err = unxz(p, plen, &o);
	else if (!memcmp(p, "\x28\xb5\x2f\xfd", 4))
		err = "zstd-compressed kernel: not supported (use -r with a build tree that has vmlinux)";
	else
		err = "unknown compression of the kernel payload";
	if (!err && (o.len < 4 || memcmp(o.data, "\177ELF", 4)))
		err = "the decompressed payload is not an ELF file";
	if (err) {
		free(o.data);
		return err;
	}
	*out = o.data;
	*out_len = o.len;
	return NULL;
}
