import BinaryReading
import System
import Crypto
import SwiftASN1
import X509

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
