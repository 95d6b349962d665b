// OpenSSL's libcrypto, from Debian's libssl3: signature checks and the SHA digests of
// provisioning profiles, certificates and code signatures (Provisioning's LibCryptoCalls).
// Certificates themselves are read by Provisioning with swift-asn1: OpenSSL 3.0's d2i_X509
// decodes the public key through its provider decoders, 140–290 µs a certificate.
#define OPENSSL_SUPPRESS_DEPRECATED  // d2i_RSA_PUBKEY, d2i_EC_PUBKEY: see CLibCrypto's shim.h
#include "LazyLibrary.h"

#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/sha.h>
#include <openssl/x509.h>

#define CRYPTO_FUNCTIONS(X, V)                                                                                   \
    X(int, OPENSSL_init_crypto, (uint64_t opts, const OPENSSL_INIT_SETTINGS *settings), (opts, settings))        \
    X(RSA *, d2i_RSA_PUBKEY, (RSA **a, const unsigned char **in, long len), (a, in, len))                       \
    X(EC_KEY *, d2i_EC_PUBKEY, (EC_KEY **a, const unsigned char **in, long len), (a, in, len))                  \
    V(RSA_free, (RSA *r), (r))                                                                                   \
    V(EC_KEY_free, (EC_KEY *key), (key))                                                                         \
    X(EVP_PKEY *, EVP_PKEY_new, (void), ())                                                                      \
    X(int, EVP_PKEY_assign, (EVP_PKEY *pkey, int type, void *key), (pkey, type, key))                            \
    V(EVP_PKEY_free, (EVP_PKEY *pkey), (pkey))                                                                   \
    X(EVP_MD_CTX *, EVP_MD_CTX_new, (void), ())                                                                  \
    V(EVP_MD_CTX_free, (EVP_MD_CTX *ctx), (ctx))                                                                 \
    X(int, EVP_DigestVerifyInit, (EVP_MD_CTX *ctx, EVP_PKEY_CTX **pctx, const EVP_MD *type, ENGINE *e, EVP_PKEY *pkey), (ctx, pctx, type, e, pkey)) \
    X(int, EVP_DigestVerify, (EVP_MD_CTX *ctx, const unsigned char *sigret, size_t siglen, const unsigned char *tbs, size_t tbslen), (ctx, sigret, siglen, tbs, tbslen)) \
    X(const EVP_MD *, EVP_sha1, (void), ())                                                                      \
    X(const EVP_MD *, EVP_sha256, (void), ())                                                                    \
    X(const EVP_MD *, EVP_sha384, (void), ())                                                                    \
    X(const EVP_MD *, EVP_sha512, (void), ())                                                                    \
    X(unsigned char *, SHA1, (const unsigned char *d, size_t n, unsigned char *md), (d, n, md))                  \
    X(unsigned char *, SHA256, (const unsigned char *d, size_t n, unsigned char *md), (d, n, md))                \
    X(unsigned char *, SHA384, (const unsigned char *d, size_t n, unsigned char *md), (d, n, md))                \
    X(unsigned char *, SHA512, (const unsigned char *d, size_t n, unsigned char *md), (d, n, md))                \
    V(ERR_clear_error, (void), ())

LAZY_LIBRARY(crypto, "libcrypto.so.3", "libssl3", CRYPTO_FUNCTIONS);

#define CRYPTO_FORWARD(result, name, parameters, arguments) LAZY_FORWARD(crypto, result, name, parameters, arguments)
#define CRYPTO_FORWARD_VOID(name, parameters, arguments) LAZY_FORWARD_VOID(crypto, name, parameters, arguments)
CRYPTO_FUNCTIONS(CRYPTO_FORWARD, CRYPTO_FORWARD_VOID)
