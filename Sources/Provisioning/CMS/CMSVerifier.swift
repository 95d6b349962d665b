import BinaryReading
import System
import SwiftASN1

/// RFC 5652 §5.6 signature verification: certificates read by X509Decoding, signatures and
/// digests checked by libcrypto.
public enum CMSVerifier {
    /// Checks the first signer of `signedData`; `roots` nil means "do not check the chain".
    public static func verify(_ signedData: CMSSignedData, trustRoots roots: TrustRoots?) throws(DecodeError) -> SignatureCheck {
        let parsed = try signedData.certificates.map { (embedded) throws(DecodeError) -> X509Certificate in
            do throws(DecodeError) { return try X509Certificate(der: embedded.der) } catch {
                throw DecodeError(section: "CMS", offset: embedded.offset, reason: "embedded certificate does not parse: \(error.reason)")
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
        if let (key, digest) = signatureAlgorithm(signer.signatureAlgorithm, digest: digestAlgorithm) {
            signature = signerCertificate.verifies(signature: signer.signature, over: signedBytes, digest: digest, key: key)
                ? .valid : .invalid("the signature does not verify with the signer's certificate \"\(CertificateSummary(signerCertificate).commonName)\"")
        } else {
            signature = .invalid("unsupported signature algorithm \(signer.signatureAlgorithm)")
        }

        let (chain, path) = buildChain(from: signerIndex, certificates: parsed, roots: roots)
        return SignatureCheck(digest: digest, signature: signature, chain: chain, signerChain: path)
    }

    /// Follows issuers through the embedded certificates (each signature checked) until a
    /// trusted root issued one, a certificate is itself a root, or no issuer is found.
    static func buildChain(from index: Int, certificates: [X509Certificate], roots: TrustRoots?) -> (ChainResult, [CertificateSummary]) {
        var path = [CertificateSummary(certificates[index])]
        var current = certificates[index]
        var used: Set<Int> = [index]
        // A chain longer than the certificates available would revisit one; the bound also
        // stops a cycle of cross-signed certificates.
        for _ in 0...certificates.count {
            if let roots {
                if roots.certificates.contains(current) {
                    return (.trusted(root: path.last?.commonName ?? ""), path)
                }
                if let root = roots.certificates.first(where: { $0.issued(current) }) {
                    let summary = CertificateSummary(root)
                    path.append(summary)
                    return (.trusted(root: summary.commonName), path)
                }
            }
            guard let next = certificates.indices.first(where: { !used.contains($0) && certificates[$0].issued(current) }) else { break }
            used.insert(next)
            path.append(CertificateSummary(certificates[next]))
            current = certificates[next]
        }
        guard roots != nil else { return (.notVerified, path) }
        let issuer = current.issuerCommonName ?? current.issuerText
        return (.untrusted("no trusted root issued \"\(path.last?.commonName ?? "")\" (issuer \"\(issuer)\")"), path)
    }

    static func matches(_ certificate: X509Certificate, _ identifier: SignerIdentifier) -> Bool {
        switch identifier {
        case .issuerAndSerialNumber(let issuer, let serial):
            guard Array(certificate.serialNumber.drop { $0 == 0 }) == Array(serial.drop { $0 == 0 }) else { return false }
            return certificate.issuerDER == issuer
        case .subjectKeyIdentifier(let keyID):
            return certificate.subjectKeyIdentifier == keyID
        }
    }

    /// CMS names the key type (rsaEncryption) and the digest separately, or both in one
    /// algorithm (sha256WithRSAEncryption, whose digest then wins); nil: not one devkit checks.
    static func signatureAlgorithm(_ oid: OID, digest: DigestAlgorithm) -> (LibCrypto.KeyKind, DigestAlgorithm)? {
        switch oid.dotted {
        case "1.2.840.113549.1.1.1": (.rsa, digest)  // rsaEncryption
        case "1.2.840.10045.2.1": digest == .sha1 ? nil : (.ec, digest)  // id-ecPublicKey
        default: X509Certificate.signatureAlgorithm(oid)
        }
    }
}
