import ObjectFile
import Provisioning

/// The digests of a code signature, through Provisioning's `DigestAlgorithm` (libcrypto): the
/// one place BundleChecks hashes.
enum SealDigest {
    /// The digest of `bytes` in the CodeDirectory's algorithm, as the slot stores it (the
    /// truncated type keeps SHA-256's first 20 bytes).
    static func hash(_ bytes: UnsafeRawBufferPointer, _ type: CodeDirectory.HashType) -> [UInt8] {
        switch type {
        case .sha1: DigestAlgorithm.sha1.hash(bytes)
        case .sha256: DigestAlgorithm.sha256.hash(bytes)
        case .sha256Truncated: Array(DigestAlgorithm.sha256.hash(bytes).prefix(20))
        case .sha384: DigestAlgorithm.sha384.hash(bytes)
        }
    }

    static func hash(_ bytes: [UInt8], _ type: CodeDirectory.HashType) -> [UInt8] {
        bytes.withUnsafeBytes { hash($0, type) }
    }

    /// True when `stored` equals the digest of `bytes`.
    static func matches(_ stored: ArraySlice<UInt8>, _ bytes: UnsafeRawBufferPointer, _ type: CodeDirectory.HashType) -> Bool {
        stored.elementsEqual(hash(bytes, type))
    }

    /// The code's cdhash: its CodeDirectory's digest in its own algorithm, cut to 20 bytes
    /// (what CodeResources seals nested code by).
    static func cdhash(_ directory: CodeDirectory) -> [UInt8] {
        Array(hash(directory.bytes, directory.hashType).prefix(20))
    }

    /// SHA-1 and SHA-256 of a resource file (CodeResources' `hash` and `hash2`).
    static func sha1(_ bytes: UnsafeRawBufferPointer) -> [UInt8] { DigestAlgorithm.sha1.hash(bytes) }
    static func sha256(_ bytes: UnsafeRawBufferPointer) -> [UInt8] { DigestAlgorithm.sha256.hash(bytes) }
}
