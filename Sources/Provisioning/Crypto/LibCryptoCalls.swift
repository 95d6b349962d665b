internal import CLibCrypto
import BinaryReading
import Glibc
import PropertyList

// Every libcrypto call devkit makes goes through this file: the one place that knows
// OpenSSL's types, its return conventions (1 for yes, 0 or less for no), which results are
// borrowed from a certificate and which are the caller's to free, and its error queue.
// Glibc is imported for `struct tm` (ASN1_TIME_to_tm).

enum LibCrypto {
    /// A certificate parsed from the whole of `der`; the caller frees it (`free`).
    static func parseCertificate(_ der: [UInt8]) throws(DecodeError) -> OpaquePointer {
        ERR_clear_error()
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            guard let certificate = d2i_X509(nil, &cursor, buffer.count) else { return nil }
            // d2i reads one certificate; bytes after it mean the DER was not one.
            guard let start = buffer.baseAddress, cursor == start + buffer.count else {
                X509_free(certificate)
                return nil
            }
            return certificate
        }
        guard let parsed else {
            throw DecodeError(section: "X.509", offset: 0, reason: "not a DER certificate (\(lastError() ?? "trailing bytes after it"))")
        }
        return parsed
    }

    static func free(_ certificate: OpaquePointer) { X509_free(certificate) }

    /// OpenSSL's reason for the last failure, emptying its queue.
    private static func lastError() -> String? {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return nil }
        var text = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &text, text.count)
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    // ---- names

    enum Name { case subject, issuer }
    enum NameAttribute { case commonName, organizationalUnit }

    private static func name(_ certificate: OpaquePointer, _ which: Name) -> OpaquePointer? {
        switch which {
        case .subject: X509_get_subject_name(certificate)
        case .issuer: X509_get_issuer_name(certificate)
        }
    }

    /// The first `attribute` of the name as UTF-8 text, unescaped (`Co., Ltd.`).
    static func attribute(_ attribute: NameAttribute, of which: Name, in certificate: OpaquePointer) -> String? {
        guard let name = name(certificate, which) else { return nil }
        let nid = switch attribute {
        case .commonName: NID_commonName
        case .organizationalUnit: NID_organizationalUnitName
        }
        let index = X509_NAME_get_index_by_NID(name, nid, -1)
        guard index >= 0, let entry = X509_NAME_get_entry(name, index), let data = X509_NAME_ENTRY_get_data(entry) else { return nil }
        var utf8: UnsafeMutablePointer<UInt8>?
        let count = ASN1_STRING_to_UTF8(&utf8, data)
        guard count >= 0, let utf8 else { return nil }
        defer { CRYPTO_free(utf8, nil, 0) }
        return String(decoding: UnsafeBufferPointer(start: utf8, count: Int(count)), as: UTF8.self)
    }

    /// The whole name as RFC 2253 text (`CN=…,OU=…,O=…,C=US`), most specific first, with
    /// UTF-8 left as it is (XN_FLAG_RFC2253 without ASN1_STRFLGS_ESC_MSB, which would write
    /// each byte over 127 as `\XX`; the macro itself is not imported into Swift).
    private static let nameTextFlags = UInt(ASN1_STRFLGS_ESC_2253 | ASN1_STRFLGS_ESC_CTRL | ASN1_STRFLGS_UTF8_CONVERT
        | ASN1_STRFLGS_DUMP_UNKNOWN | ASN1_STRFLGS_DUMP_DER) | UInt(XN_FLAG_SEP_COMMA_PLUS | XN_FLAG_DN_REV | XN_FLAG_DUMP_UNKNOWN_FIELDS)

    static func text(of which: Name, in certificate: OpaquePointer) -> String {
        guard let name = name(certificate, which), let bio = BIO_new(BIO_s_mem()) else { return "" }
        defer { BIO_free(bio) }
        guard X509_NAME_print_ex(bio, name, 0, nameTextFlags) >= 0 else { return "" }
        var bytes: UnsafeMutablePointer<CChar>?
        let count = BIO_ctrl(bio, BIO_CTRL_INFO, 0, &bytes)  // BIO_get_mem_data
        guard count > 0, let bytes else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The name's DER, as the certificate encodes it.
    static func der(of which: Name, in certificate: OpaquePointer) -> [UInt8] {
        guard let name = name(certificate, which) else { return [] }
        var out: UnsafeMutablePointer<UInt8>?
        let count = i2d_X509_NAME(name, &out)
        guard count > 0, let out else { return [] }
        defer { CRYPTO_free(out, nil, 0) }
        return Array(UnsafeBufferPointer(start: out, count: Int(count)))
    }

    /// Whether `a`'s subject is `b`'s issuer (OpenSSL's comparison of canonical encodings).
    static func subject(of a: OpaquePointer, isIssuerOf b: OpaquePointer) -> Bool {
        guard let subject = X509_get_subject_name(a), let issuer = X509_get_issuer_name(b) else { return false }
        return X509_NAME_cmp(subject, issuer) == 0
    }

    // ---- fields

    /// The serial number's magnitude, big-endian.
    static func serialNumber(of certificate: OpaquePointer) -> [UInt8] {
        guard let serial = X509_get0_serialNumber(certificate) else { return [] }
        return bytes(of: serial)
    }

    /// notBefore (`notAfter` false) or notAfter; nil when the time does not read as a date.
    static func validity(of certificate: OpaquePointer, notAfter: Bool) -> PlistDate? {
        guard let time = notAfter ? X509_get0_notAfter(certificate) : X509_get0_notBefore(certificate) else { return nil }
        var fields = tm()
        guard ASN1_TIME_to_tm(time, &fields) == 1 else { return nil }
        return PlistDate(year: Int(fields.tm_year) + 1900, month: Int(fields.tm_mon) + 1, day: Int(fields.tm_mday),
                         hour: Int(fields.tm_hour), minute: Int(fields.tm_min), second: Int(fields.tm_sec))
    }

    /// The subjectKeyIdentifier extension's key identifier, when present.
    static func subjectKeyIdentifier(of certificate: OpaquePointer) -> [UInt8]? {
        guard let identifier = X509_get0_subject_key_id(certificate) else { return nil }
        return bytes(of: identifier)
    }

    private static func bytes(of string: UnsafePointer<ASN1_STRING>) -> [UInt8] {
        let count = Int(ASN1_STRING_length(string))
        guard count > 0, let data = ASN1_STRING_get0_data(string) else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: count))
    }

    // ---- signatures

    enum KeyKind { case rsa, ec }

    /// Whether `certificate`'s signature verifies with `issuer`'s public key.
    static func isSignature(of certificate: OpaquePointer, madeBy issuer: OpaquePointer) -> Bool {
        defer { ERR_clear_error() }
        guard let key = X509_get0_pubkey(issuer) else { return false }
        return X509_verify(certificate, key) == 1
    }

    /// Whether `signature` over `bytes` verifies with the certificate's key, which must be of
    /// kind `kind`, the digest `digest` (PKCS #1 v1.5 for RSA, DER ECDSA-Sig-Value for EC).
    static func verify(signature: [UInt8], over bytes: [UInt8], digest: DigestAlgorithm, kind: KeyKind,
                       with certificate: OpaquePointer) -> Bool {
        defer { ERR_clear_error() }
        guard let key = X509_get0_pubkey(certificate), let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        let expected = switch kind {
        case .rsa: EVP_PKEY_RSA
        case .ec: EVP_PKEY_EC
        }
        guard EVP_PKEY_get_base_id(key) == expected else { return false }
        let md = switch digest {
        case .sha1: EVP_sha1()
        case .sha256: EVP_sha256()
        case .sha384: EVP_sha384()
        case .sha512: EVP_sha512()
        }
        guard EVP_DigestVerifyInit(context, nil, md, nil, key) == 1 else { return false }
        return EVP_DigestVerify(context, signature, signature.count, bytes, bytes.count) == 1
    }

    // ---- digests

    /// The digest of `bytes` (OpenSSL's one-shot functions: no context to allocate).
    static func digest(_ algorithm: DigestAlgorithm, _ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        // An empty buffer may have no address; OpenSSL wants one even for no bytes.
        let empty: UInt8 = 0
        return withUnsafePointer(to: empty) { fallback in
            digest(algorithm, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? fallback, bytes.count)
        }
    }

    private static func digest(_ algorithm: DigestAlgorithm, _ base: UnsafePointer<UInt8>, _ count: Int) -> [UInt8] {
        let length = switch algorithm {
        case .sha1: Int(SHA_DIGEST_LENGTH)
        case .sha256: Int(SHA256_DIGEST_LENGTH)
        case .sha384: Int(SHA384_DIGEST_LENGTH)
        case .sha512: Int(SHA512_DIGEST_LENGTH)
        }
        return [UInt8](unsafeUninitializedCapacity: length) { out, written in
            switch algorithm {
            case .sha1: _ = SHA1(base, count, out.baseAddress)
            case .sha256: _ = SHA256(base, count, out.baseAddress)
            case .sha384: _ = SHA384(base, count, out.baseAddress)
            case .sha512: _ = SHA512(base, count, out.baseAddress)
            }
            written = length
        }
    }
}
