import BinaryReading
import System
import Crypto
import SwiftASN1
import X509

/// The outcome of checking a SignedData: each step separately, so a report can say which
/// one failed.
public struct SignatureCheck: Sendable, Equatable {
    /// Did the content's digest equal the signed `message-digest` attribute?
    public var digest: StepResult
    /// Did the signature over the signed attributes verify with the signer's certificate?
    public var signature: StepResult
    /// Does the signer's certificate chain to a trusted root?
    public var chain: ChainResult
    /// The signer's certificate and the issuers found for it, signer first.
    public var signerChain: [CertificateSummary]

    /// Digest and signature both valid, and the chain not refused.
    public var isValid: Bool {
        guard digest == .valid, signature == .valid else { return false }
        if case .untrusted = chain { return false }
        return true
    }

    /// The first failure, in words; nil when valid.
    public var failure: String? {
        if case .invalid(let why) = digest { return why }
        if case .invalid(let why) = signature { return why }
        if case .untrusted(let why) = chain { return "certificate chain not trusted: \(why)" }
        return nil
    }

    /// One line: "signature valid, chain not verified (no trust roots given)".
    public var summary: String {
        if let failure { return "INVALID: \(failure)" }
        switch chain {
        case .notVerified: return "signature valid, chain not verified (no trust roots given)"
        case .trusted(let root): return "signature valid, chain verified to \"\(root)\""
        case .untrusted: return "INVALID"
        }
    }
}

public enum StepResult: Sendable, Equatable {
    case valid
    case invalid(String)
}

public enum ChainResult: Sendable, Equatable {
    /// No trust roots were given, so the chain was not checked.
    case notVerified
    /// The chain ends at this trusted root (its common name).
    case trusted(root: String)
    /// Trust roots were given and no path reaches one.
    case untrusted(String)
}

/// Certificates the user trusts (`--trust-roots DIR`), parsed.
public struct TrustRoots: Sendable {
    public var certificates: [Certificate]

    public init(certificates: [Certificate]) { self.certificates = certificates }

    /// Reads a PEM file (one or more certificates) or a DER certificate.
    public static func certificates(inFile bytes: [UInt8]) throws -> [Certificate] {
        if bytes.first == 0x30 { return [try Certificate(derEncoded: bytes)] }
        let documents = try PEMDocument.parseMultiple(pemString: String(decoding: bytes, as: UTF8.self))
        return try documents.filter { $0.discriminator == "CERTIFICATE" }.map { try Certificate(derEncoded: $0.derBytes) }
    }

    /// Every certificate in the `.pem`, `.crt`, `.cer` and `.der` files of `directory`.
    public static func load(directory: String) throws(ProvisioningError) -> TrustRoots {
        let names: [String]
        do { names = try FileIO.directoryEntries(directory) } catch {
            throw ProvisioningError(file: directory, message: error.reason)
        }
        var certificates: [Certificate] = []
        for name in names where [".pem", ".crt", ".cer", ".der"].contains(where: { name.lowercased().hasSuffix($0) }) {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            do {
                certificates += try Self.certificates(inFile: try FileIO.read(path))
            } catch {
                throw ProvisioningError(file: path, message: "not a certificate (PEM or DER): \(error)")
            }
        }
        guard !certificates.isEmpty else {
            throw ProvisioningError(file: directory, message: "no certificates (.pem, .crt, .cer, .der) in the trust-roots directory")
        }
        return TrustRoots(certificates: certificates)
    }
}

/// RFC 5652 §5.6 signature verification, with swift-crypto digests and swift-certificates keys.
public enum CMSVerifier {
    /// Checks the first signer of `signedData`; `roots` nil means "do not check the chain".
    public static func verify(_ signedData: CMSSignedData, trustRoots roots: TrustRoots?) throws(DecodeError) -> SignatureCheck {
        let parsed = try signedData.certificates.map { (embedded) throws(DecodeError) -> Certificate in
            do { return try Certificate(derEncoded: embedded.der) } catch {
                throw DecodeError(section: "CMS", offset: embedded.offset, reason: "embedded certificate does not parse: \(error)")
            }
        }
        guard let signer = signedData.signers.first else {
            return SignatureCheck(digest: .invalid("no signer"), signature: .invalid("no signer"), chain: .notVerified, signerChain: [])
        }
        guard let digestAlgorithm = DigestAlgorithm(oid: signer.digestAlgorithm) else {
            throw DecodeError(section: "CMS", offset: signer.offset, reason: "unsupported digest algorithm \(signer.digestAlgorithm)")
        }
        let contentDigest = digestAlgorithm.hash(signedData.content)

        // Which bytes the signature covers, and the digest check when attributes are present.
        let digest: StepResult
        let signedBytes: [UInt8]
        if let attributes = signer.signedAttributesDER {
            if let expected = signer.messageDigest {
                digest = expected == contentDigest ? .valid : .invalid("content digest does not match the signed message-digest attribute (the profile was modified after signing)")
            } else {
                digest = .invalid("signed attributes have no message-digest")
            }
            if let type = signer.signedContentType, type != signedData.contentType {
                throw DecodeError(section: "CMS", offset: signer.offset, reason: "signed content-type attribute \(type) differs from the encapsulated content type \(signedData.contentType)")
            }
            signedBytes = attributes
        } else {
            digest = .valid  // no attributes: the signature itself covers the content
            signedBytes = signedData.content
        }

        guard let signerIndex = parsed.indices.first(where: { matches(parsed[$0], signer.signer) }) else {
            return SignatureCheck(digest: digest, signature: .invalid("the signer's certificate is not in the SignedData"), chain: .notVerified, signerChain: [])
        }
        let signerCertificate = parsed[signerIndex]
        let signature: StepResult
        if let algorithm = signatureAlgorithm(signer.signatureAlgorithm, digest: digestAlgorithm) {
            signature = signerCertificate.publicKey.isValidSignature(signer.signature, for: signedBytes, signatureAlgorithm: algorithm)
                ? .valid : .invalid("the signature does not verify with the signer's certificate \"\(CertificateSummary(signerCertificate, der: signedData.certificates[signerIndex].der).commonName)\"")
        } else {
            signature = .invalid("unsupported signature algorithm \(signer.signatureAlgorithm)")
        }

        let (chain, path) = buildChain(from: signerIndex, certificates: parsed, ders: signedData.certificates.map(\.der), roots: roots)
        return SignatureCheck(digest: digest, signature: signature, chain: chain, signerChain: path)
    }

    /// Follows issuers through the embedded certificates (each signature checked) until a
    /// trusted root issued one, a certificate is itself a root, or no issuer is found.
    static func buildChain(from index: Int, certificates: [Certificate], ders: [[UInt8]], roots: TrustRoots?) -> (ChainResult, [CertificateSummary]) {
        var path = [CertificateSummary(certificates[index], der: ders[index])]
        var current = certificates[index]
        var used: Set<Int> = [index]
        // A chain longer than the certificates available would revisit one; the bound also
        // stops a cycle of cross-signed certificates.
        for _ in 0...certificates.count {
            if let roots {
                if roots.certificates.contains(current) {
                    return (.trusted(root: path.last?.commonName ?? ""), path)
                }
                if let root = roots.certificates.first(where: { $0.subject == current.issuer && $0.publicKey.isValidSignature(current.signature, for: current) }) {
                    var serializer = DER.Serializer()
                    try? serializer.serialize(root)
                    let summary = CertificateSummary(root, der: serializer.serializedBytes)
                    path.append(summary)
                    return (.trusted(root: summary.commonName), path)
                }
            }
            guard let next = certificates.indices.first(where: {
                !used.contains($0) && certificates[$0].subject == current.issuer
                    && certificates[$0].publicKey.isValidSignature(current.signature, for: current)
            }) else { break }
            used.insert(next)
            path.append(CertificateSummary(certificates[next], der: ders[next]))
            current = certificates[next]
        }
        guard roots != nil else { return (.notVerified, path) }
        let issuer = CertificateSummary.attribute(.RDNAttributeType.commonName, in: current.issuer) ?? current.issuer.description
        return (.untrusted("no trusted root issued \"\(path.last?.commonName ?? "")\" (issuer \"\(issuer)\")"), path)
    }

    static func matches(_ certificate: Certificate, _ identifier: SignerIdentifier) -> Bool {
        switch identifier {
        case .issuerAndSerialNumber(let issuer, let serial):
            guard Array(certificate.serialNumber.bytes.drop { $0 == 0 }) == Array(serial.drop { $0 == 0 }) else { return false }
            var serializer = DER.Serializer()
            guard (try? serializer.serialize(certificate.issuer)) != nil else { return false }
            return serializer.serializedBytes == issuer
        case .subjectKeyIdentifier(let keyID):
            guard let ski = try? certificate.extensions.subjectKeyIdentifier else { return false }
            return Array(ski.keyIdentifier) == keyID
        }
    }

    /// CMS names the key type (rsaEncryption) and the digest separately; swift-certificates
    /// wants the combined algorithm.
    static func signatureAlgorithm(_ oid: OID, digest: DigestAlgorithm) -> Certificate.SignatureAlgorithm? {
        switch oid.dotted {
        case "1.2.840.113549.1.1.1":  // rsaEncryption
            switch digest {
            case .sha1: return .sha1WithRSAEncryption
            case .sha256: return .sha256WithRSAEncryption
            case .sha384: return .sha384WithRSAEncryption
            case .sha512: return .sha512WithRSAEncryption
            }
        case "1.2.840.10045.2.1":  // id-ecPublicKey
            switch digest {
            case .sha1: return nil
            case .sha256: return .ecdsaWithSHA256
            case .sha384: return .ecdsaWithSHA384
            case .sha512: return .ecdsaWithSHA512
            }
        case "1.2.840.113549.1.1.5": return .sha1WithRSAEncryption
        case "1.2.840.113549.1.1.11": return .sha256WithRSAEncryption
        case "1.2.840.113549.1.1.12": return .sha384WithRSAEncryption
        case "1.2.840.113549.1.1.13": return .sha512WithRSAEncryption
        case "1.2.840.10045.4.3.2": return .ecdsaWithSHA256
        case "1.2.840.10045.4.3.3": return .ecdsaWithSHA384
        case "1.2.840.10045.4.3.4": return .ecdsaWithSHA512
        default: return nil
        }
    }
}

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
