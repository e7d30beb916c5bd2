/* wire.c - records of the compile-server conversation, and module signatures (wire.h). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/pem.h>
#include <openssl/sha.h>

#include "wire.h"

static bool write_all(BIO *b, const void *data, size_t len)
{
	const unsigned char *p = data;
	while (len) {
		int n = BIO_write(b, p, len > (1u << 30) ? 1 << 30 : (int)len);
		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}

static bool read_all(BIO *b, void *data, size_t len)
{
	unsigned char *p = data;
	while (len) {
		int n = BIO_read(b, p, len > (1u << 30) ? 1 << 30 : (int)len);
		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}

bool wire_put(BIO *b, const void *data, size_t len)
{
	unsigned char head[4] = {(unsigned char)(len >> 24), (unsigned char)(len >> 16), (unsigned char)(len >> 8),
				 (unsigned char)len};
	return len <= WIRE_MAX && write_all(b, head, 4) && write_all(b, data, len);
}

bool wire_put_str(BIO *b, const char *s)
{
	return wire_put(b, s ? s : "", s ? strlen(s) : 0);
}

char *wire_get(BIO *b, size_t *len, size_t max)
{
	unsigned char head[4];
	if (!read_all(b, head, 4))
		return NULL;
	size_t n = (size_t)head[0] << 24 | (size_t)head[1] << 16 | (size_t)head[2] << 8 | head[3];
	if (n > max || n > WIRE_MAX)
		return NULL;
	char *data = malloc(n + 1);
	if (!data || !read_all(b, data, n)) {
		free(data);
		return NULL;
	}
	data[n] = '\0';
	if (len)
		*len = n;
	return data;
}

static void to_hex(const unsigned char *p, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", p[i]);
}

void wire_cert_fingerprint(X509 *cert, char hex[65])
{
	unsigned char *der = NULL, md[SHA256_DIGEST_LENGTH];
	int n = i2d_X509(cert, &der);
	hex[0] = '\0';
	if (n <= 0)
		return;
	SHA256(der, (size_t)n, md);
	OPENSSL_free(der);
	to_hex(md, sizeof(md), hex);
}

char *wire_sign(EVP_PKEY *key, X509 *cert, const unsigned char *data, size_t len)
{
	unsigned char sig[64];
	size_t siglen = sizeof(sig);
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	bool ok = ctx && EVP_DigestSignInit(ctx, NULL, NULL, NULL, key) == 1 &&
		  EVP_DigestSign(ctx, sig, &siglen, data, len) == 1 && siglen == sizeof(sig);
	EVP_MD_CTX_free(ctx);
	if (!ok)
		return NULL;
	char fp[65], hex[129];
	wire_cert_fingerprint(cert, fp);
	to_hex(sig, sizeof(sig), hex);
	char *text = NULL;
	if (asprintf(&text, "%s\nsigner %s\ned25519 %s\n", WIRE_SIG_HEADER, fp, hex) < 0)
		return NULL;
	return text;
}

static bool from_hex(const char *s, unsigned char *out, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned v;
		if (sscanf(s + 2 * i, "%2x", &v) != 1)
			return false;
		out[i] = (unsigned char)v;
	}
	return true;
}

int wire_verify(const char *sig, const unsigned char *data, size_t len, int trusted_dir, const char **why)
{
	char fp[65], hex[129];
	size_t hl = strlen(WIRE_SIG_HEADER);
	if (strncmp(sig, WIRE_SIG_HEADER, hl) || sig[hl] != '\n' ||
	    sscanf(sig + hl + 1, "signer %64[0-9a-f]\ned25519 %128[0-9a-f]", fp, hex) != 2 || strlen(fp) != 64 ||
	    strlen(hex) != 128) {
		*why = "the signature file is not a stapc module signature";
		return -1;
	}
	char name[80];
	snprintf(name, sizeof(name), "%s.crt", fp);
	int fd = openat(trusted_dir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (!f) {
		if (fd >= 0)
			close(fd);
		*why = "its signer is not a trusted signer (no such certificate in " WIRE_TRUSTED_SIGNERS ")";
		return -1;
	}
	X509 *cert = PEM_read_X509(f, NULL, NULL, NULL);
	fclose(f);
	char have[65] = "";
	if (cert)
		wire_cert_fingerprint(cert, have);
	if (!cert || strcmp(have, fp)) {
		X509_free(cert);
		*why = "the trusted signer's certificate file does not hold that certificate";
		return -1;
	}
	unsigned char raw[64];
	EVP_PKEY *key = X509_get_pubkey(cert);
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	bool ok = key && ctx && from_hex(hex, raw, sizeof(raw)) && EVP_DigestVerifyInit(ctx, NULL, NULL, NULL, key) == 1 &&
		  EVP_DigestVerify(ctx, raw, sizeof(raw), data, len) == 1;
	EVP_MD_CTX_free(ctx);
	EVP_PKEY_free(key);
	X509_free(cert);
	if (!ok) {
		*why = "the signature does not match the module (changed since it was signed?)";
		return -1;
	}
	return 0;
}
