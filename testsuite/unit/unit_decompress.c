/*
 * unit_decompress.c - every kernel payload compression, round trip through the real tools.
 *
 * A buffer that starts like an ELF file and holds x86 call instructions (for
 * xz's BCJ filter), text and noise is compressed at test time with each
 * command-line tool the way kbuild does it (the uncompressed size appended
 * as 4 little-endian bytes), then decoded by decompress() and, wrapped in a
 * minimal bzImage header, by vmlinuz_extract(). Truncated and damaged input,
 * an output ceiling and an unknown magic must each give an error, never a
 * crash. A missing tool fails the test (.ci/setup installs them all).
 */
#define _GNU_SOURCE /* asprintf */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "decompress.h"
#include "unit.h"
#include "vmlinuz.h"

/* One tool: the format it makes and the shell command (stdin to stdout). */
struct tool {
	const char *format;	/* what decompress_format() must say */
	const char *command;	/* as kbuild runs it, with smaller windows for speed */
	size_t size;		/* bytes of test data to feed it */
};

static const struct tool tools[] = {
	{ "gzip", "gzip -n -9", 600 << 10 },
	{ "bzip2", "bzip2 -9", 600 << 10 },
	{ "lzma", "lzma -9", 600 << 10 },
	{ "xz", "xz --check=crc32 --x86 --lzma2=dict=1MiB", 600 << 10 },
	{ "lzo", "lzop -9", 600 << 10 },	/* 256 KiB blocks: several */
	{ "lz4", "lz4 -l -9", 9 << 20 },	/* 8 MiB legacy blocks: two */
	{ "zstd", "zstd -19", 600 << 10 },
};

static char scratch[] = "/tmp/unit_decompress.XXXXXX";

/* Deterministic test data: an ELF-looking start, then mixed content. */
static unsigned char *make_data(size_t size)
{
	unsigned char *d = malloc(size);
	uint32_t x = 12345;
	size_t i = 0;

	memcpy(d, "\177ELF\2\1\1", 7);
	for (i = 7; i < size; i++) {
		x = x * 1103515245 + 12345;
		switch ((i / 4096) % 3) {
		case 0: /* call rel32 with nearby targets, as in code */
			d[i] = i % 5 == 0 ? 0xe8 : (unsigned char)(x >> 24) % 8;
			break;
		case 1: /* text */
			d[i] = "the quick brown fox jumps over the lazy dog "[i % 44];
			break;
		default: /* noise */
			d[i] = (unsigned char)(x >> 16);
			break;
		}
	}
	return d;
}

static void put_le32(unsigned char *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/* Compress data with the tool; returns the malloc'ed result plus kbuild's 4-byte size, or NULL. */
static unsigned char *compress(const struct tool *t, const unsigned char *data, size_t size,
			       size_t *out_len)
{
	char in[128], out[128], *cmd;
	struct stat st;
	FILE *f;

	snprintf(in, sizeof(in), "%s/in", scratch);
	snprintf(out, sizeof(out), "%s/out.%s", scratch, t->format);
	f = fopen(in, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		return NULL;
	if (asprintf(&cmd, "%s < %s > %s", t->command, in, out) < 0)
		return NULL;
	int rc = system(cmd);
	free(cmd);
	if (rc != 0 || stat(out, &st) != 0) {
		fprintf(stderr, "unit_decompress: '%s' failed (is the tool installed? .ci/setup "
			"installs it)\n", t->command);
		return NULL;
	}
	unsigned char *buf = malloc((size_t)st.st_size + 4);
	f = fopen(out, "rb");
	if (!f || fread(buf, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
		free(buf);
		return NULL;
	}
	fclose(f);
	put_le32(buf + st.st_size, (uint32_t)size);
	*out_len = (size_t)st.st_size + 4;
	return buf;
}

/* A minimal bzImage: boot protocol 2.15, one setup sector, the payload right after it. */
static unsigned char *make_bzimage(const unsigned char *payload, size_t len, size_t *image_len)
{
	size_t pm = 2 * 512;
	unsigned char *img = calloc(1, pm + len);

	img[0] = 'M';
	img[1] = 'Z';
	img[0x1f1] = 1;		/* setup_sects */
	memcpy(img + 0x202, "HdrS", 4);
	img[0x206] = 0x0f;	/* version 2.15 */
	img[0x207] = 0x02;
	put_le32(img + 0x248, 0);	/* payload_offset, from the protected-mode part */
	put_le32(img + 0x24c, (uint32_t)len);
	memcpy(img + pm, payload, len);
	*image_len = pm + len;
	return img;
}

static void test_tool(const struct tool *t)
{
	unsigned char *data = make_data(t->size), *packed, *out = NULL, *img;
	size_t packed_len, out_len = 0, img_len;
	const char *err;

	packed = compress(t, data, t->size, &packed_len);
	CHECK(packed != NULL);
	if (!packed) {
		free(data);
		return;
	}
	CHECK(decompress_format(packed, packed_len) && !strcmp(decompress_format(packed, packed_len), t->format));

	/* round trip, with kbuild's appended size after the stream */
	err = decompress(packed, packed_len, 64 << 20, &out, &out_len);
	if (err)
		fprintf(stderr, "%s: %s\n", t->format, err);
	CHECK(err == NULL && out_len == t->size && !memcmp(out, data, t->size));
	free(out);

	/* through the bzImage header, as /boot/vmlinuz-R */
	img = make_bzimage(packed, packed_len, &img_len);
	CHECK(vmlinuz_is_bzimage(img, img_len));
	out = NULL;
	err = vmlinuz_extract(img, img_len, &out, &out_len);
	if (err)
		fprintf(stderr, "%s in a bzImage: %s\n", t->format, err);
	CHECK(err == NULL && out_len == t->size && !memcmp(out, data, t->size));
	free(out);
	free(img);

	/* a ceiling below the real size */
	out = NULL;
	err = decompress(packed, packed_len, t->size / 2, &out, &out_len);
	CHECK(err != NULL && out == NULL);

	/* cut in half: the stream's end is missing */
	out = NULL;
	err = decompress(packed, packed_len / 2, 64 << 20, &out, &out_len);
	if (!err)
		fprintf(stderr, "%s: a truncated stream decoded (%zu bytes)\n", t->format, out_len);
	CHECK(err != NULL && out == NULL);

	/* damaged in the middle: an error, or at least never the original bytes and no crash */
	for (size_t at = 64; at < packed_len - 8; at += packed_len / 7) {
		packed[at] ^= 0x55;
		out = NULL;
		err = decompress(packed, packed_len, 64 << 20, &out, &out_len);
		CHECK(err != NULL || out_len != t->size || memcmp(out, data, t->size));
		free(out);
		packed[at] ^= 0x55;
	}
	free(packed);
	free(data);
}

int main(void)
{
	unsigned char *out = NULL;
	size_t out_len;
	char cmd[128];

	if (!mkdtemp(scratch)) {
		perror("mkdtemp");
		return 1;
	}
	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++)
		test_tool(&tools[i]);

	CHECK(decompress_format((const unsigned char *)"PK\3\4", 4) == NULL);
	CHECK(decompress((const unsigned char *)"PK\3\4 not a kernel", 18, 1 << 20, &out, &out_len) != NULL);
	CHECK(decompress((const unsigned char *)"\x1f", 1, 1 << 20, &out, &out_len) != NULL);

	snprintf(cmd, sizeof(cmd), "rm -rf %s", scratch);
	if (system(cmd) != 0)
		fprintf(stderr, "unit_decompress: could not remove %s\n", scratch);
	return unit_report("unit_decompress");
}
