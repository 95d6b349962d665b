import Crypto
import PropertyList
import SwiftASN1
import X509

/// What a person checks about a certificate: who it names, its serial and fingerprints, and
/// when it is valid. Built from swift-certificates' parse of the DER.
public struct CertificateSummary: Sendable, Equatable {
    /// Subject common name (`CN`), e.g. "Apple Development: Jane Doe (ABCDE12345)".
    public var commonName: String
    /// Subject organizational unit (`OU`): the team identifier on Apple developer certificates.
    public var organizationalUnit: String?
    /// Issuer common name.
    public var issuerCommonName: String
    /// Serial number, upper-case hex without separators (as Keychain Access shows it).
    public var serialNumber: String
    public var sha1Fingerprint: String
    public var sha256Fingerprint: String
    public var notValidBefore: PlistDate
    public var notValidAfter: PlistDate

    public func isExpired(at now: PlistDate) -> Bool { notValidAfter < now }

    public init(_ certificate: Certificate, der: [UInt8]) {
        commonName = Self.attribute(.RDNAttributeType.commonName, in: certificate.subject) ?? certificate.subject.description
        organizationalUnit = Self.attribute(.RDNAttributeType.organizationalUnitName, in: certificate.subject)
        issuerCommonName = Self.attribute(.RDNAttributeType.commonName, in: certificate.issuer) ?? certificate.issuer.description
        serialNumber = Hex.upper(certificate.serialNumber.bytes.drop { $0 == 0 })
        sha1Fingerprint = Hex.upper(Insecure.SHA1.hash(data: der))
        sha256Fingerprint = Hex.upper(SHA256.hash(data: der))
        notValidBefore = PlistDate(secondsSinceReferenceDate: certificate.notValidBefore.timeIntervalSinceReferenceDate)
        notValidAfter = PlistDate(secondsSinceReferenceDate: certificate.notValidAfter.timeIntervalSinceReferenceDate)
    }

    static func attribute(_ type: ASN1ObjectIdentifier, in name: DistinguishedName) -> String? {
        for rdn in name {
            for attribute in rdn where attribute.type == type {
                return plainText(attribute.value)
            }
        }
        return nil
    }
}

/// The attribute's text without RFC 4514 escaping (`Co., Ltd.`, not `Co.\\, Ltd.`).
private func plainText(_ value: RelativeDistinguishedName.Attribute.Value) -> String {
    let any = ASN1Any(value)
    if let s = try? ASN1UTF8String(asn1Any: any) { return String(s) }
    if let s = try? ASN1PrintableString(asn1Any: any) { return String(s) }
    if let s = try? ASN1IA5String(asn1Any: any) { return String(s) }
    return String(describing: value)
}
