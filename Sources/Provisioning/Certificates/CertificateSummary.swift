import PropertyList

/// What a person checks about a certificate: who it names, its serial and fingerprints, and
/// when it is valid.
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

    public init(_ certificate: X509Certificate) {
        commonName = certificate.commonName ?? certificate.subjectText
        organizationalUnit = certificate.organizationalUnit
        issuerCommonName = certificate.issuerCommonName ?? certificate.issuerText
        serialNumber = Hex.upper(certificate.serialNumber.drop { $0 == 0 })
        sha1Fingerprint = Hex.upper(DigestAlgorithm.sha1.hash(certificate.der))
        sha256Fingerprint = Hex.upper(DigestAlgorithm.sha256.hash(certificate.der))
        notValidBefore = certificate.notValidBefore
        notValidAfter = certificate.notValidAfter
    }
}
