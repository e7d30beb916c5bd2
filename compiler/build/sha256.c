/* sha256.c - SHA-256 as specified in FIPS 180-4, section 6.2; no dependencies. */
#include <string.h>

#include "sha256.h"

/* The first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
static const uint32_t sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t rotr(uint32_t x, int n)
{
	return (x >> n) | (x << (32 - n));
}

/* Process one 64-byte block (section 6.2.2). */
static void sha256_block(struct sha256 *h, const uint8_t *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, k;

	for (int t = 0; t < 16; t++)
		w[t] = (uint32_t)p[4 * t] << 24 | (uint32_t)p[4 * t + 1] << 16 |
		       (uint32_t)p[4 * t + 2] << 8 | p[4 * t + 3];
	for (int t = 16; t < 64; t++) {
		uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
		uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);

		w[t] = w[t - 16] + s0 + w[t - 7] + s1;
	}
	a = h->state[0], b = h->state[1], c = h->state[2], d = h->state[3];
	e = h->state[4], f = h->state[5], g = h->state[6], k = h->state[7];
	for (int t = 0; t < 64; t++) {
		uint32_t t1 = k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) +
			      sha256_k[t] + w[t];
		uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));

		k = g, g = f, f = e, e = d + t1;
		d = c, c = b, b = a, a = t1 + t2;
	}
	h->state[0] += a, h->state[1] += b, h->state[2] += c, h->state[3] += d;
	h->state[4] += e, h->state[5] += f, h->state[6] += g, h->state[7] += k;
}

void sha256_init(struct sha256 *h)
{
	static const uint32_t initial[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
		0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(h->state, initial, sizeof(initial));
	h->length = 0;
	h->used = 0;
}

void sha256_update(struct sha256 *h, const void *data, size_t len)
{
	const uint8_t *p = data;

	h->length += len;
	if (h->used) {
		size_t n = 64 - h->used < len ? 64 - h->used : len;

		memcpy(h->block + h->used, p, n);
		h->used += n, p += n, len -= n;
		if (h->used < 64)
			return;
		sha256_block(h, h->block);
		h->used = 0;
	}
	for (; len >= 64; p += 64, len -= 64)
		sha256_block(h, p);
	memcpy(h->block, p, len);
	h->used = len;
}

/* Pad with 0x80, zeros and the 64-bit big-endian bit length (section 5.1.1). */
void sha256_final(struct sha256 *h, uint8_t digest[SHA256_DIGEST_SIZE])
{
	uint64_t bits = h->length * 8;

	h->block[h->used++] = 0x80;
	if (h->used > 56) {
		memset(h->block + h->used, 0, 64 - h->used);
		sha256_block(h, h->block);
		h->used = 0;
	}
	memset(h->block + h->used, 0, 56 - h->used);
	for (int i = 0; i < 8; i++)
		h->block[56 + i] = (uint8_t)(bits >> (56 - 8 * i));
	sha256_block(h, h->block);
	for (int i = 0; i < 8; i++) {
		digest[4 * i] = (uint8_t)(h->state[i] >> 24);
		digest[4 * i + 1] = (uint8_t)(h->state[i] >> 16);
		digest[4 * i + 2] = (uint8_t)(h->state[i] >> 8);
		digest[4 * i + 3] = (uint8_t)h->state[i];
	}
}

void sha256_hex(const uint8_t digest[SHA256_DIGEST_SIZE], char hex[2 * SHA256_DIGEST_SIZE + 1])
{
	static const char digits[] = "0123456789abcdef";

	for (int i = 0; i < SHA256_DIGEST_SIZE; i++) {
		hex[2 * i] = digits[digest[i] >> 4];
		hex[2 * i + 1] = digits[digest[i] & 15];
	}
	hex[2 * SHA256_DIGEST_SIZE] = '\0';
}
