import BinaryReading
import PropertyList

/// An X.509 certificate (RFC 5280), read by X509Decoding with swift-asn1: its DER, the names
/// and fields a person checks, and what checking a signature by it or of it needs (its key,
/// the signed bytes). The signatures themselves are checked by libcrypto (LibCryptoCalls).
public struct X509Certificate: Sendable, Equatable {
    /// One attribute of a name: its type and its value as text.
    public struct Attribute: Sendable, Equatable {
        public var type: OID
        /// The directory string's text, or, for a value of another type, `#` and its DER in
        /// hex (RFC 2253 §2.4).
        public var value: String
        /// Whether `value` is the attribute's text (false: the hex form).
        public var isText: Bool
    }

    /// The certificate's DER, as given.
    public let der: [UInt8]
    /// The serial number's content octets (big-endian two's complement).
    public let serialNumber: [UInt8]
    /// Subject and issuer: their relative distinguished names in encoded order, each one or
    /// more attributes; and their DER, compared byte for byte to match an issuer.
    public let subject: [[Attribute]]
    public let issuer: [[Attribute]]
    let subjectDER: [UInt8]
    /// The issuer name's DER (a CMS `issuerAndSerialNumber` names the signer by it).
    public let issuerDER: [UInt8]
    public let notValidBefore: PlistDate
    public let notValidAfter: PlistDate
    /// The SubjectPublicKeyInfo's DER and its algorithm.
    let publicKeyInfo: [UInt8]
    let publicKeyAlgorithm: OID
    /// The TBSCertificate's DER (what the issuer signed), the algorithm and the signature.
    let signedBytes: [UInt8]
    let signatureAlgorithm: OID
    /// Whether the algorithm outside the signed bytes is the one inside them (RFC 5280
    /// §4.1.1.2): the outer one is not signed, so a certificate whose two differ is not trusted.
    let signatureAlgorithmIsSigned: Bool
    let signature: [UInt8]
    /// The subjectKeyIdentifier extension's key identifier, when present.
    public let subjectKeyIdentifier: [UInt8]?

    /// Two certificates are one when their DER is.
    public static func == (a: X509Certificate, b: X509Certificate) -> Bool { a.der == b.der }

    static let commonNameType: OID = "2.5.4.3"
    static let organizationalUnitType: OID = "2.5.4.11"

    /// Subject common name (`CN`).
    public var commonName: String? { Self.first(Self.commonNameType, in: subject) }
    /// Subject organizational unit (`OU`): the team identifier on Apple developer certificates.
    public var organizationalUnit: String? { Self.first(Self.organizationalUnitType, in: subject) }
    public var issuerCommonName: String? { Self.first(Self.commonNameType, in: issuer) }
    /// The subject as RFC 2253 text (`CN=…,OU=…,O=…,C=US`), for a certificate without a common name.
    public var subjectText: String { X509Decoding.text(of: subject) }
    public var issuerText: String { X509Decoding.text(of: issuer) }

    static func first(_ type: OID, in name: [[Attribute]]) -> String? {
        for rdn in name {
            for attribute in rdn where attribute.type == type { return attribute.value }
        }
        return nil
    }

    /// The kind of this certificate's key; nil for one devkit does not check with.
    var keyKind: LibCrypto.KeyKind? {
        switch publicKeyAlgorithm.dotted {
        case "1.2.840.113549.1.1.1": .rsa  // rsaEncryption
        case "1.2.840.10045.2.1": .ec  // id-ecPublicKey
        default: nil
        }
    }

    /// Whether this certificate issued `other`: its subject is `other`'s issuer, byte for
    /// byte, and `other`'s signature verifies with its key under the algorithm it signed.
    public func issued(_ other: X509Certificate) -> Bool {
        guard subjectDER == other.issuerDER, other.signatureAlgorithmIsSigned, let (kind, digest) = Self.signatureAlgorithm(other.signatureAlgorithm) else { return false }
        return verifies(signature: other.signature, over: other.signedBytes, digest: digest, key: kind)
    }

    /// Whether `signature` over `bytes` verifies with this certificate's key, which must be of
    /// kind `key`, with the digest `digest`.
    func verifies(signature: [UInt8], over bytes: [UInt8], digest: DigestAlgorithm, key: LibCrypto.KeyKind) -> Bool {
        guard keyKind == key else { return false }
        return LibCrypto.verify(signature: signature, over: bytes, digest: digest, kind: key, publicKeyInfo: publicKeyInfo)
    }

    /// The key kind and digest of a signature algorithm that names both (RFC 4055, RFC 5758);
    /// nil for one devkit does not check (RSA-PSS, Ed25519, ECDSA with SHA-1).
    static func signatureAlgorithm(_ oid: OID) -> (LibCrypto.KeyKind, DigestAlgorithm)? {
        switch oid.dotted {
        case "1.2.840.113549.1.1.5": (.rsa, .sha1)
        case "1.2.840.113549.1.1.11": (.rsa, .sha256)
        case "1.2.840.113549.1.1.12": (.rsa, .sha384)
        case "1.2.840.113549.1.1.13": (.rsa, .sha512)
        case "1.2.840.10045.4.3.2": (.ec, .sha256)
        case "1.2.840.10045.4.3.3": (.ec, .sha384)
        case "1.2.840.10045.4.3.4": (.ec, .sha512)
        default: nil
        }
    }
}

// In an extension, so the struct keeps its memberwise initializer (X509Decoding builds with it).
extension X509Certificate {
    /// Parses the whole of `der` as one certificate.
    public init(der: [UInt8]) throws(DecodeError) {
        self = try X509Decoding.certificate(der)
    }
}
