import BinaryReading
import SwiftASN1

/// A CMS (PKCS #7) SignedData with encapsulated content, as a provisioning profile carries it
/// (RFC 5652 §5). Only what verification and the profile model need is kept.
///
/// Parsed with swift-asn1's BER rules, so both DER and the indefinite lengths that real
/// profiles use are read. Every structural error is a `DecodeError` naming the byte offset.
public struct CMSSignedData: Sendable {
    /// `eContentType`: what the signed content is (id-data for a profile).
    public var contentType: OID
    /// `eContent`: the signed bytes (a profile's XML plist), chunks of a constructed BER
    /// OCTET STRING joined.
    public var content: [UInt8]
    /// Offset of the `eContent` element in the file.
    public var contentOffset: Int
    /// The certificates the signer included (`certificates [0]`), DER, in file order.
    public var certificates: [EmbeddedCertificate]
    /// One per signer (`signerInfos`); profiles have exactly one.
    public var signers: [CMSSignerInfo]

    /// Parses `bytes` as a ContentInfo holding a SignedData.
    /// `detachedContent`: the bytes a detached signature signs (a code signature's primary
    /// CodeDirectory); the SignedData must then carry no content of its own.
    public static func parse(_ bytes: [UInt8], detachedContent: [UInt8]? = nil) throws(DecodeError) -> CMSSignedData {
        guard !bytes.isEmpty else {
            throw DecodeError(section: "CMS", offset: 0, reason: "empty file (expected a CMS SignedData)")
        }
        guard bytes[0] == 0x30 else {
            throw DecodeError(section: "CMS", offset: 0, reason: "not a CMS SignedData: starts with byte 0x\(String(bytes[0], radix: 16)), expected a SEQUENCE (0x30)\(plainPlistHint(bytes))")
        }
        let root: ASN1Node
        do {
            root = try BER.parse(bytes)
        } catch {
            // swift-asn1 does not say where it stopped; the structure scan does.
            throw BERStructureScan.firstError(in: bytes) ?? DecodeError(section: "CMS", offset: 0, reason: "\(error)")
        }
        var signedData = try CMSDecoding.signedData(root, detached: detachedContent != nil)
        if let detachedContent {
            // A signature that carries content of its own does not sign the CodeDirectory.
            guard signedData.content.isEmpty else {
                throw DecodeError(section: "CMS", offset: signedData.contentOffset, reason: "the code signature's CMS carries content of its own instead of signing the CodeDirectory")
            }
            signedData.content = detachedContent
        }
        return signedData
    }

    /// A hint when the file is a bare property list rather than a signed one.
    private static func plainPlistHint(_ bytes: [UInt8]) -> String {
        let head = bytes.prefix(8)
        if head.starts(with: Array("bplist".utf8)) { return "; this is an unsigned binary property list" }
        if head.starts(with: Array("<?xml".utf8)) || head.starts(with: Array("<!DOCTYPE".utf8).prefix(8)) || head.starts(with: Array("<plist".utf8)) {
            return "; this is an unsigned XML property list"
        }
        return ""
    }
}
