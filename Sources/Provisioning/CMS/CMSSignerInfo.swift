import BinaryReading
import SwiftASN1

/// One `SignerInfo` (RFC 5652 §5.3).
public struct CMSSignerInfo: Sendable {
    public var signer: SignerIdentifier
    public var digestAlgorithm: OID
    /// The signed attributes as DER with the SET OF tag (0x31): the bytes the signature covers
    /// (RFC 5652 §5.4); nil when the signature covers the content directly.
    public var signedAttributesDER: [UInt8]?
    /// The `content-type` signed attribute.
    public var signedContentType: OID?
    /// The `message-digest` signed attribute.
    public var messageDigest: [UInt8]?
    public var signatureAlgorithm: OID
    public var signature: [UInt8]
    /// Offset of this SignerInfo in the file.
    public var offset: Int
}
