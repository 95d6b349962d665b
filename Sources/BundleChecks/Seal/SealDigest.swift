import Crypto
import ObjectFile

/// The digests of a code signature, through swift-crypto: the one place BundleChecks hashes.
enum SealDigest {
    /// One digest of a borrowed buffer (swift-crypto's public `update(bufferPointer:)`; its
    /// one-shot `hash(bufferPointer:)` is not public, and `hash(data:)` would need Foundation's
    /// `DataProtocol` conformance of the buffer).
    static func digest<H: HashFunction>(_: H.Type, _ bytes: UnsafeRawBufferPointer) -> H.Digest {
        var hasher = H()
        hasher.update(bufferPointer: bytes)
        return hasher.finalize()
    }

    /// The digest of `bytes` in the CodeDirectory's algorithm, as the slot stores it (the
    /// truncated type keeps SHA-256's first 20 bytes).
    static func hash(_ bytes: UnsafeRawBufferPointer, _ type: CodeDirectory.HashType) -> [UInt8] {
        switch type {
        case .sha1: Array(digest(Insecure.SHA1.self, bytes))
        case .sha256: Array(digest(SHA256.self, bytes))
        case .sha256Truncated: Array(digest(SHA256.self, bytes).prefix(20))
        case .sha384: Array(digest(SHA384.self, bytes))
        }
    }

    static func hash(_ bytes: [UInt8], _ type: CodeDirectory.HashType) -> [UInt8] {
        bytes.withUnsafeBytes { hash($0, type) }
    }

    /// True when `stored` equals the digest of `bytes`; compares without keeping the digest.
    static func matches(_ stored: ArraySlice<UInt8>, _ bytes: UnsafeRawBufferPointer, _ type: CodeDirectory.HashType) -> Bool {
        switch type {
        case .sha1: digest(Insecure.SHA1.self, bytes).withUnsafeBytes { stored.elementsEqual($0) }
        case .sha256: digest(SHA256.self, bytes).withUnsafeBytes { stored.elementsEqual($0) }
        case .sha256Truncated: digest(SHA256.self, bytes).withUnsafeBytes { stored.elementsEqual($0.prefix(20)) }
        case .sha384: digest(SHA384.self, bytes).withUnsafeBytes { stored.elementsEqual($0) }
        }
    }

    /// The code's cdhash: its CodeDirectory's digest in its own algorithm, cut to 20 bytes
    /// (what CodeResources seals nested code by).
    static func cdhash(_ directory: CodeDirectory) -> [UInt8] {
        Array(hash(directory.bytes, directory.hashType).prefix(20))
    }

    /// SHA-1 and SHA-256 of a resource file (CodeResources' `hash` and `hash2`).
    static func sha1(_ bytes: UnsafeRawBufferPointer) -> [UInt8] { Array(digest(Insecure.SHA1.self, bytes)) }
    static func sha256(_ bytes: UnsafeRawBufferPointer) -> [UInt8] { Array(digest(SHA256.self, bytes)) }
}
