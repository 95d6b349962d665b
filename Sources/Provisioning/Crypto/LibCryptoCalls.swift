internal import CLibCrypto

// Every libcrypto call devkit makes goes through this file: the one place that knows
// OpenSSL's types, its return conventions (1 for yes, 0 or less for no), what must be freed
// and its error queue. libcrypto checks signatures and computes digests; certificates are
// read by X509Decoding (swift-asn1), which hands over the key and the signed bytes.

enum LibCrypto {
    /// libcrypto started before its first use without reading openssl.cnf and without the
    /// by-name tables of every cipher and digest: devkit needs no engine or provider that a
    /// configuration could add and looks nothing up by name, and the two cost each process
    /// about 1 ms of its start.
    private static let started = OPENSSL_init_crypto(
        UInt64(OPENSSL_INIT_NO_LOAD_CONFIG | OPENSSL_INIT_NO_ADD_ALL_CIPHERS | OPENSSL_INIT_NO_ADD_ALL_DIGESTS), nil) == 1

    /// The kinds of public key a signature is checked with.
    enum KeyKind: Sendable { case rsa, ec }

    /// Whether `signature` over `bytes` verifies with the key of `publicKeyInfo` (a DER
    /// SubjectPublicKeyInfo of kind `kind`) and the digest `digest`: PKCS #1 v1.5 for RSA, a
    /// DER ECDSA-Sig-Value for EC. A key of another kind, or one that does not decode, fails.
    static func verify(signature: [UInt8], over bytes: [UInt8], digest: DigestAlgorithm, kind: KeyKind,
                       publicKeyInfo: [UInt8]) -> Bool {
        defer { ERR_clear_error() }
        guard started, let key = publicKey(publicKeyInfo, kind), let context = EVP_MD_CTX_new() else { return false }
        defer {
            EVP_MD_CTX_free(context)
            EVP_PKEY_free(key)
        }
        let md = switch digest {
        case .sha1: EVP_sha1()
        case .sha256: EVP_sha256()
        case .sha384: EVP_sha384()
        case .sha512: EVP_sha512()
        }
        guard EVP_DigestVerifyInit(context, nil, md, nil, key) == 1 else { return false }
        return EVP_DigestVerify(context, signature, signature.count, bytes, bytes.count) == 1
    }

    /// The key as an `EVP_PKEY` (the caller frees it), through the RSA and EC decoders: see
    /// CLibCrypto's shim.h for why not `d2i_PUBKEY`. They read the whole SubjectPublicKeyInfo
    /// and refuse one of another algorithm.
    private static func publicKey(_ der: [UInt8], _ kind: KeyKind) -> OpaquePointer? {
        der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            switch kind {
            case .rsa:
                guard let rsa = d2i_RSA_PUBKEY(nil, &cursor, buffer.count) else { return nil }
                if let key = wrap(rsa, EVP_PKEY_RSA) { return key }
                RSA_free(rsa)
            case .ec:
                guard let ec = d2i_EC_PUBKEY(nil, &cursor, buffer.count) else { return nil }
                if let key = wrap(ec, EVP_PKEY_EC) { return key }
                EC_KEY_free(ec)
            }
            return nil
        }
    }

    /// An `EVP_PKEY` owning `key` (an `RSA *` or `EC_KEY *` of `type`); nil leaves `key` the caller's.
    private static func wrap(_ key: OpaquePointer, _ type: Int32) -> OpaquePointer? {
        guard let pkey = EVP_PKEY_new() else { return nil }
        if EVP_PKEY_assign(pkey, type, UnsafeMutableRawPointer(key)) == 1 { return pkey }
        EVP_PKEY_free(pkey)
        return nil
    }

    /// The digest of `bytes` (OpenSSL's one-shot functions: no context to allocate).
    static func digest(_ algorithm: DigestAlgorithm, _ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        _ = started
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
