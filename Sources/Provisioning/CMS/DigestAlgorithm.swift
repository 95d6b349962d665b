/// The digest algorithms of CMS signers and code signatures, computed by libcrypto.
public enum DigestAlgorithm: Sendable {
    case sha1, sha256, sha384, sha512

    /// The algorithm a SignerInfo names.
    init?(oid: OID) {
        switch oid.dotted {
        case "1.3.14.3.2.26": self = .sha1
        case "2.16.840.1.101.3.4.2.1": self = .sha256
        case "2.16.840.1.101.3.4.2.2": self = .sha384
        case "2.16.840.1.101.3.4.2.3": self = .sha512
        default: return nil
        }
    }

    public func hash(_ bytes: UnsafeRawBufferPointer) -> [UInt8] { LibCrypto.digest(self, bytes) }

    public func hash(_ bytes: [UInt8]) -> [UInt8] { bytes.withUnsafeBytes { hash($0) } }
}
