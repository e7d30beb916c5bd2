/*
 * wire.h - what stap --use-server and stapc-server say to each other, and the
 * module signatures the server gives and staprun checks.
 *
 * The conversation is a series of records, each a 4-byte big-endian length
 * and that many bytes, over TLS (TCP) or a plain Unix socket:
 *   request:  "stapc-server-1", RELEASE, LEVEL, SCRIPT NAME ("<input>" for -e), N,
 *             N stap arguments, the script
 *   response: "stapc-server-1", STATUS, stdout, stderr, MODULE NAME,
 *             the module (empty below -p4 or on failure), its signature file
 * A record longer than WIRE_MAX is refused; so is a wrong first record.
 *
 * A signature file (NAME.ko.sgn beside the module) is text:
 *   stapc module signature 1
 *   signer SHA256 (hex, 64 digits) of the signer's certificate (DER)
 *   ed25519 the signature of the whole module file (hex, 128 digits)
 * staprun accepts it when /etc/stapc/trusted-signers/SHA256.crt holds that
 * certificate (PEM) and the signature verifies.
 */
#ifndef STAPC_WIRE_H
#define STAPC_WIRE_H

#include <stdbool.h>
#include <stddef.h>

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/x509.h>

#define WIRE_MAGIC "stapc-server-1"
#define WIRE_MAX (64u << 20)          /* no record is larger: a module is a few MB */
#define WIRE_SIG_HEADER "stapc module signature 1"
#define WIRE_TRUSTED_SIGNERS "/etc/stapc/trusted-signers"

/* Write one record; false on error. */
bool wire_put(BIO *b, const void *data, size_t len);
bool wire_put_str(BIO *b, const char *s);
/* Read one record into a malloc'ed, NUL-terminated buffer; NULL on error or if longer than max. */
char *wire_get(BIO *b, size_t *len, size_t max);

/* The SHA-256 of cert's DER form in hex (65 bytes with the NUL). */
void wire_cert_fingerprint(X509 *cert, char hex[65]);

/* The signature file of data, signed by key whose certificate is cert; malloc'ed, NULL on error. */
char *wire_sign(EVP_PKEY *key, X509 *cert, const unsigned char *data, size_t len);

/*
 * Check sig (a signature file's text) of data against the certificates in
 * the directory trusted_dir (a descriptor: SHA256.crt files). 0 if good;
 * else -1 with why set.
 */
int wire_verify(const char *sig, const unsigned char *data, size_t len, int trusted_dir, const char **why);

#endif
