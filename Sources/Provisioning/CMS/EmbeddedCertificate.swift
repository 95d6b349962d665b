import BinaryReading
import SwiftASN1

/// A certificate as it appears in the SignedData: its DER bytes and where they start.
public struct EmbeddedCertificate: Sendable {
    public var der: [UInt8]
    public var offset: Int
}
