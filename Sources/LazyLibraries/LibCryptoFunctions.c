// OpenSSL's libcrypto, from Debian's libssl3: X.509 certificates, signature checks and the
// digests of provisioning profiles and code signatures (Provisioning's LibCryptoCalls).
#include "LazyLibrary.h"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#define CRYPTO_FUNCTIONS(X, V)                                                                                   \
    X(X509 *, d2i_X509, (X509 **a, const unsigned char **in, long len), (a, in, len))                           \
    V(X509_free, (X509 *a), (a))                                                                                 \
    X(X509_NAME *, X509_get_subject_name, (const X509 *a), (a))                                                  \
    X(X509_NAME *, X509_get_issuer_name, (const X509 *a), (a))                                                   \
    X(int, X509_NAME_cmp, (const X509_NAME *a, const X509_NAME *b), (a, b))                                      \
    X(int, X509_NAME_get_index_by_NID, (const X509_NAME *name, int nid, int lastpos), (name, nid, lastpos))      \
    X(X509_NAME_ENTRY *, X509_NAME_get_entry, (const X509_NAME *name, int loc), (name, loc))                     \
    X(ASN1_STRING *, X509_NAME_ENTRY_get_data, (const X509_NAME_ENTRY *ne), (ne))                                \
    X(int, X509_NAME_print_ex, (BIO *out, const X509_NAME *nm, int indent, unsigned long flags), (out, nm, indent, flags)) \
    X(int, i2d_X509_NAME, (const X509_NAME *a, unsigned char **out), (a, out))                                   \
    X(const ASN1_INTEGER *, X509_get0_serialNumber, (const X509 *x), (x))                                        \
    X(const ASN1_TIME *, X509_get0_notBefore, (const X509 *x), (x))                                              \
    X(const ASN1_TIME *, X509_get0_notAfter, (const X509 *x), (x))                                               \
    X(int, ASN1_TIME_to_tm, (const ASN1_TIME *s, struct tm *tm), (s, tm))                                        \
    X(const ASN1_OCTET_STRING *, X509_get0_subject_key_id, (X509 *x), (x))                                       \
    X(EVP_PKEY *, X509_get0_pubkey, (const X509 *x), (x))                                                        \
    X(int, X509_verify, (X509 *a, EVP_PKEY *r), (a, r))                                                          \
    X(int, EVP_PKEY_get_base_id, (const EVP_PKEY *pkey), (pkey))                                                 \
    X(int, ASN1_STRING_to_UTF8, (unsigned char **out, const ASN1_STRING *in), (out, in))                         \
    X(const unsigned char *, ASN1_STRING_get0_data, (const ASN1_STRING *x), (x))                                 \
    X(int, ASN1_STRING_length, (const ASN1_STRING *x), (x))                                                      \
    X(int, ASN1_STRING_type, (const ASN1_STRING *x), (x))                                                        \
    V(CRYPTO_free, (void *ptr, const char *file, int line), (ptr, file, line))                                   \
    X(BIO *, BIO_new, (const BIO_METHOD *type), (type))                                                          \
    X(const BIO_METHOD *, BIO_s_mem, (void), ())                                                                 \
    X(long, BIO_ctrl, (BIO *bp, int cmd, long larg, void *parg), (bp, cmd, larg, parg))                          \
    X(int, BIO_free, (BIO *a), (a))                                                                              \
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
    X(unsigned long, ERR_get_error, (void), ())                                                                  \
    V(ERR_error_string_n, (unsigned long e, char *buf, size_t len), (e, buf, len))                               \
    V(ERR_clear_error, (void), ())

LAZY_LIBRARY(crypto, "libcrypto.so.3", "libssl3", CRYPTO_FUNCTIONS);

#define CRYPTO_FORWARD(result, name, parameters, arguments) LAZY_FORWARD(crypto, result, name, parameters, arguments)
#define CRYPTO_FORWARD_VOID(name, parameters, arguments) LAZY_FORWARD_VOID(crypto, name, parameters, arguments)
CRYPTO_FUNCTIONS(CRYPTO_FORWARD, CRYPTO_FORWARD_VOID)
