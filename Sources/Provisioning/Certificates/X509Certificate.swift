import BinaryReading
import PropertyList

/// An X.509 certificate parsed by OpenSSL's libcrypto (through LibCryptoCalls): its DER, the
/// names and fields a person checks, and the signature checks a CMS signer and a chain need.
/// Immutable once parsed, so shared between threads (OpenSSL's readers of one `X509` are
/// thread-safe; the extensions it caches on first use are cached under its own lock).
public final class X509Certificate: @unchecked Sendable, Equatable {
    /// The certificate's DER, as given.
    public let der: [UInt8]
    public let notValidBefore: PlistDate
    public let notValidAfter: PlistDate
    private let raw: OpaquePointer

    /// Parses the whole of `der` as one certificate.
    public init(der: [UInt8]) throws(DecodeError) {
        let raw = try LibCrypto.parseCertificate(der)
        guard let notBefore = LibCrypto.validity(of: raw, notAfter: false),
              let notAfter = LibCrypto.validity(of: raw, notAfter: true) else {
            LibCrypto.free(raw)
            throw DecodeError(section: "X.509", offset: 0, reason: "the validity period does not read as dates")
        }
        self.der = der
        self.raw = raw
        notValidBefore = notBefore
        notValidAfter = notAfter
    }

    deinit { LibCrypto.free(raw) }

    /// Two certificates are one when their DER is.
    public static func == (a: X509Certificate, b: X509Certificate) -> Bool { a.der == b.der }

    /// Subject common name (`CN`).
    public var commonName: String? { LibCrypto.attribute(.commonName, of: .subject, in: raw) }
    /// Subject organizational unit (`OU`).
    public var organizationalUnit: String? { LibCrypto.attribute(.organizationalUnit, of: .subject, in: raw) }
    public var issuerCommonName: String? { LibCrypto.attribute(.commonName, of: .issuer, in: raw) }
    /// The subject as RFC 2253 text, for a certificate without a common name.
    public var subjectText: String { LibCrypto.text(of: .subject, in: raw) }
    public var issuerText: String { LibCrypto.text(of: .issuer, in: raw) }
    /// The issuer name's DER (a CMS `issuerAndSerialNumber` names the signer by it).
    public var issuerDER: [UInt8] { LibCrypto.der(of: .issuer, in: raw) }
    /// The serial number, big-endian, without a sign byte.
    public var serialNumber: [UInt8] { LibCrypto.serialNumber(of: raw) }
    public var subjectKeyIdentifier: [UInt8]? { LibCrypto.subjectKeyIdentifier(of: raw) }

    /// Whether this certificate issued `other`: its subject is `other`'s issuer and `other`'s
    /// signature verifies with its key.
    public func issued(_ other: X509Certificate) -> Bool {
        LibCrypto.subject(of: raw, isIssuerOf: other.raw) && LibCrypto.isSignature(of: other.raw, madeBy: raw)
    }

    /// Whether `signature` over `bytes` verifies with this certificate's key, which must be of
    /// kind `key`, with the digest `digest`.
    func verifies(signature: [UInt8], over bytes: [UInt8], digest: DigestAlgorithm, key: LibCrypto.KeyKind) -> Bool {
        LibCrypto.verify(signature: signature, over: bytes, digest: digest, kind: key, with: raw)
    }
}
