/* sha256.h - SHA-256 (FIPS 180-4), for the module cache's keys. */
#ifndef STAPC_SHA256_H
#define STAPC_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_DIGEST_SIZE 32

/* A running hash: sha256_init, any number of sha256_update, sha256_final. */
struct sha256 {
	uint32_t state[8];   /* chaining value H0..H7 */
	uint64_t length;     /* bytes hashed so far */
	uint8_t block[64];   /* input waiting for a full block */
	size_t used;         /* bytes in block */
};

void sha256_init(struct sha256 *h);
void sha256_update(struct sha256 *h, const void *data, size_t len);
void sha256_final(struct sha256 *h, uint8_t digest[SHA256_DIGEST_SIZE]);

/* The digest as 64 lowercase hex digits and a NUL. */
void sha256_hex(const uint8_t digest[SHA256_DIGEST_SIZE], char hex[2 * SHA256_DIGEST_SIZE + 1]);

#endif
