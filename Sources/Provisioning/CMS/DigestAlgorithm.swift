import BinaryReading
import System
import Crypto
import SwiftASN1
import X509

/// Digest algorithms a SignerInfo may name.
enum DigestAlgorithm {
    case sha1, sha256, sha384, sha512

    init?(oid: OID) {
        switch oid.dotted {
        case "1.3.14.3.2.26": self = .sha1
        case "2.16.840.1.101.3.4.2.1": self = .sha256
        case "2.16.840.1.101.3.4.2.2": self = .sha384
        case "2.16.840.1.101.3.4.2.3": self = .sha512
        default: return nil
        }
    }

    func hash(_ bytes: [UInt8]) -> [UInt8] {
        switch self {
        case .sha1: Array(Insecure.SHA1.hash(data: bytes))
        case .sha256: Array(SHA256.hash(data: bytes))
        case .sha384: Array(SHA384.hash(data: bytes))
        case .sha512: Array(SHA512.hash(data: bytes))
        }
    }
}
