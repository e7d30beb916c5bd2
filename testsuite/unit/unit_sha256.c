/* unit_sha256.c - compiler/sha256.c against FIPS 180-4 example digests, whole and in pieces. */
#include <stdlib.h>
#include <string.h>

#include "sha256.h"
#include "unit.h"

static const char *digest_of(const void *data, size_t len, size_t piece)
{
	static char hex[2 * SHA256_DIGEST_SIZE + 1];
	uint8_t digest[SHA256_DIGEST_SIZE];
	const char *p = data;
	struct sha256 h;

	sha256_init(&h);
	while (len > 0) {
		size_t n = piece && piece < len ? piece : len;

		sha256_update(&h, p, n);
		p += n;
		len -= n;
	}
	sha256_final(&h, digest);
	sha256_hex(digest, hex);
	return hex;
}

int main(void)
{
	static const char two_blocks[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	size_t million = 1000000;
	char *a = malloc(million);

	CHECK_STR(digest_of("", 0, 0),
		  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	CHECK_STR(digest_of("abc", 3, 0),
		  "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	/* 56 bytes: the padding needs a second block. */
	for (size_t piece = 0; piece <= 57; piece += 1)
		CHECK_STR(digest_of(two_blocks, strlen(two_blocks), piece),
			  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	/* 55 and 64 bytes: the edges of the one- and two-block paddings. */
	CHECK_STR(digest_of(two_blocks, 55, 7),
		  "aa353e009edbaebfc6e494c8d847696896cb8b398e0173a4b5c1b636292d87c7");
	CHECK(a != NULL);
	memset(a, 'a', million);
	CHECK_STR(digest_of(a, 64, 0),
		  "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
	CHECK_STR(digest_of(a, million, 0),
		  "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	CHECK_STR(digest_of(a, million, 4093),
		  "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	free(a);
	return unit_report("unit_sha256");
}
