import BinaryReading
import SwiftASN1

/// How a signer names its certificate (RFC 5652 §5.3 `SignerIdentifier`).
public enum SignerIdentifier: Sendable, Equatable {
    /// `issuerAndSerialNumber`: the issuer name's DER and the serial number's content octets.
    case issuerAndSerialNumber(issuer: [UInt8], serialNumber: [UInt8])
    /// `subjectKeyIdentifier [0]`.
    case subjectKeyIdentifier([UInt8])
}
