import BinaryReading
import PropertyList
import SwiftASN1

/// Reads an X.509 certificate (RFC 5280 §4.1) from swift-asn1's DER node tree into an
/// `X509Certificate`: the fields devkit shows and the parts a signature check needs. Written
/// here rather than taken from swift-certificates, which needs swift-crypto's vendored
/// BoringSSL (a third of every release build), or from libcrypto, whose 3.0 `d2i_X509`
/// costs 140–290 µs a certificate decoding the key. Each step names the offset (within
/// the certificate) of the element it did not expect, through CMSDecoding's readers.
enum X509Decoding {
    /// The certificate in `der`; an error's offset is within it, its section "X.509".
    static func certificate(_ der: [UInt8]) throws(DecodeError) -> X509Certificate {
        do { return try fields(der) } catch {
            var error = error
            error.section = "X.509"  // CMSDecoding's readers name their own format
            throw error
        }
    }

    private static func fields(_ der: [UInt8]) throws(DecodeError) -> X509Certificate {
        let root: ASN1Node
        do { root = try DER.parse(der) } catch {
            // swift-asn1 does not say where it stopped; the structure scan does (as for CMS).
            let scan = BERStructureScan.firstError(in: der, whole: "certificate")
            throw DecodeError(section: "X.509", offset: scan?.offset ?? 0, reason: "not a DER certificate: \(scan?.reason ?? "\(error)")")
        }
        // Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signatureValue }
        try CMSDecoding.expectUniversal(root, .sequence, "Certificate")
        var certificate = try CMSDecoding.children(of: root, "Certificate")
        let tbsNode = try certificate.next("tbsCertificate")
        try CMSDecoding.expectUniversal(tbsNode, .sequence, "TBSCertificate")
        let signatureAlgorithmNode = try certificate.next("signatureAlgorithm")
        let signatureAlgorithm = try CMSDecoding.algorithm(signatureAlgorithmNode, "Certificate.signatureAlgorithm")
        let signature = try bitString(certificate.next("signatureValue"), "Certificate.signatureValue")

        var tbs = try CMSDecoding.children(of: tbsNode, "TBSCertificate")
        var node = try tbs.next("serialNumber")
        if node.identifier.tagClass == .contextSpecific, node.identifier.tagNumber == 0 { node = try tbs.next("serialNumber") }  // version
        let serial = try CMSDecoding.integer(node, "TBSCertificate.serialNumber")
        let signedAlgorithmNode = try tbs.next("signature")
        _ = try CMSDecoding.algorithm(signedAlgorithmNode, "TBSCertificate.signature")
        let issuerNode = try tbs.next("issuer")
        let issuer = try name(issuerNode, "TBSCertificate.issuer")
        var validity = try CMSDecoding.children(of: tbs.next("validity"), "TBSCertificate.validity")
        let notBefore = try time(validity.next("notBefore"), "Validity.notBefore")
        let notAfter = try time(validity.next("notAfter"), "Validity.notAfter")
        let subjectNode = try tbs.next("subject")
        let subject = try name(subjectNode, "TBSCertificate.subject")
        let keyNode = try tbs.next("subjectPublicKeyInfo")
        try CMSDecoding.expectUniversal(keyNode, .sequence, "TBSCertificate.subjectPublicKeyInfo")
        var key = try CMSDecoding.children(of: keyNode, "SubjectPublicKeyInfo")
        let keyAlgorithm = try CMSDecoding.algorithm(key.next("algorithm"), "SubjectPublicKeyInfo.algorithm")
        var keyIdentifier: [UInt8]?
        while let field = tbs.nextIfPresent() {  // issuerUniqueID [1], subjectUniqueID [2], extensions [3]
            guard field.identifier.tagClass == .contextSpecific, field.identifier.tagNumber == 3 else { continue }
            keyIdentifier = try subjectKeyIdentifier(field)
        }
        return X509Certificate(
            der: der, serialNumber: Array(serial), subject: subject, issuer: issuer,
            subjectDER: Array(subjectNode.encodedBytes), issuerDER: Array(issuerNode.encodedBytes),
            notValidBefore: notBefore, notValidAfter: notAfter,
            publicKeyInfo: Array(keyNode.encodedBytes), publicKeyAlgorithm: keyAlgorithm,
            signedBytes: Array(tbsNode.encodedBytes), signatureAlgorithm: signatureAlgorithm,
            signatureAlgorithmIsSigned: signatureAlgorithmNode.encodedBytes.elementsEqual(signedAlgorithmNode.encodedBytes), signature: signature,
            subjectKeyIdentifier: keyIdentifier)
    }

    /// Name ::= SEQUENCE OF RelativeDistinguishedName (a SET OF AttributeTypeAndValue).
    static func name(_ node: ASN1Node, _ what: String) throws(DecodeError) -> [[X509Certificate.Attribute]] {
        try CMSDecoding.expectUniversal(node, .sequence, what)
        var rdns = try CMSDecoding.children(of: node, what)
        var result: [[X509Certificate.Attribute]] = []
        while let rdnNode = rdns.nextIfPresent() {
            try CMSDecoding.expectUniversal(rdnNode, .set, what)
            var attributes = try CMSDecoding.children(of: rdnNode, what)
            var rdn: [X509Certificate.Attribute] = []
            while let attributeNode = attributes.nextIfPresent() {
                try CMSDecoding.expectUniversal(attributeNode, .sequence, what)
                var parts = try CMSDecoding.children(of: attributeNode, what)
                let type = try CMSDecoding.oid(parts.next("type"), what)
                let valueNode = try parts.next("value")
                let text = directoryString(valueNode)
                rdn.append(X509Certificate.Attribute(type: type, value: text ?? "#" + Hex.upper(valueNode.encodedBytes), isText: text != nil))
            }
            result.append(rdn)
        }
        return result
    }

    /// A directory string's text; nil for any other value (or one that does not decode).
    static func directoryString(_ node: ASN1Node) -> String? {
        guard node.identifier.tagClass == .universal, case .primitive(let bytes) = node.content else { return nil }
        switch node.identifier.tagNumber {
        case 12, 19, 22, 26: return String(decoding: bytes, as: UTF8.self)  // UTF8, Printable, IA5, Visible
        case 20: return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))  // Teletex, read as Latin-1
        case 30:  // BMPString: UTF-16, big-endian
            guard bytes.count % 2 == 0 else { return nil }
            let units = stride(from: bytes.startIndex, to: bytes.endIndex, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
            return String(decoding: units, as: UTF16.self)
        case 28:  // UniversalString: UTF-32, big-endian
            guard bytes.count % 4 == 0 else { return nil }
            var scalars = String.UnicodeScalarView()
            for i in stride(from: bytes.startIndex, to: bytes.endIndex, by: 4) {
                let value = bytes[i ..< i + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                guard let scalar = Unicode.Scalar(value) else { return nil }
                scalars.append(scalar)
            }
            return String(scalars)
        default: return nil
        }
    }

    /// Time ::= UTCTime | GeneralizedTime.
    static func time(_ node: ASN1Node, _ what: String) throws(DecodeError) -> PlistDate {
        let date: PlistDate?
        do {
            switch node.identifier {
            case .utcTime:
                let t = try UTCTime(derEncoded: node)
                date = PlistDate(year: t.year, month: t.month, day: t.day, hour: t.hours, minute: t.minutes, second: t.seconds)
            case .generalizedTime:
                let t = try GeneralizedTime(derEncoded: node)
                date = PlistDate(year: t.year, month: t.month, day: t.day, hour: t.hours, minute: t.minutes, second: t.seconds)
            default:
                throw CMSDecoding.error(at: node, "\(what): expected UTCTime or GeneralizedTime, found \(CMSDecoding.describe(node.identifier))")
            }
        } catch let error as DecodeError {
            throw error
        } catch {
            throw CMSDecoding.error(at: node, "\(what): malformed time")
        }
        guard let date else { throw CMSDecoding.error(at: node, "\(what): not a date") }
        return date
    }

    /// A BIT STRING's bytes (signatures are whole bytes).
    static func bitString(_ node: ASN1Node, _ what: String) throws(DecodeError) -> [UInt8] {
        do { return Array(try ASN1BitString(derEncoded: node).bytes) } catch {
            throw CMSDecoding.error(at: node, "\(what): expected a BIT STRING")
        }
    }

    /// extensions [3] EXPLICIT SEQUENCE OF Extension: the subjectKeyIdentifier's key
    /// identifier (an OCTET STRING inside extnValue), when present.
    static func subjectKeyIdentifier(_ node: ASN1Node) throws(DecodeError) -> [UInt8]? {
        var wrapper = try CMSDecoding.children(of: node, "extensions")
        let list = try wrapper.next("Extensions")
        try CMSDecoding.expectUniversal(list, .sequence, "Extensions")
        var extensions = try CMSDecoding.children(of: list, "Extensions")
        while let extensionNode = extensions.nextIfPresent() {
            var parts = try CMSDecoding.children(of: extensionNode, "Extension")
            guard try CMSDecoding.oid(parts.next("extnID"), "Extension.extnID") == "2.5.29.14" else { continue }
            var value = try parts.next("extnValue")
            if value.identifier == .boolean { value = try parts.next("extnValue") }  // critical
            do {
                let inner = try DER.parse(Array(try ASN1OctetString(derEncoded: value).bytes))
                return Array(try ASN1OctetString(derEncoded: inner).bytes)
            } catch {
                throw CMSDecoding.error(at: value, "subjectKeyIdentifier: expected an OCTET STRING")
            }
        }
        return nil
    }

    /// A name as RFC 2253 text: the last RDN first, attributes of one RDN joined by `+`,
    /// values escaped (§2.4), short names for the usual types and the dotted OID otherwise.
    static func text(of name: [[X509Certificate.Attribute]]) -> String {
        name.reversed().map { rdn in
            rdn.map { "\(shortName($0.type))=\($0.isText ? escaped($0.value) : $0.value)" }
                .joined(separator: "+")
        }.joined(separator: ",")
    }

    static func shortName(_ type: OID) -> String {
        switch type.dotted {
        case "2.5.4.3": "CN"
        case "2.5.4.4": "SN"
        case "2.5.4.5": "serialNumber"
        case "2.5.4.6": "C"
        case "2.5.4.7": "L"
        case "2.5.4.8": "ST"
        case "2.5.4.9": "street"
        case "2.5.4.10": "O"
        case "2.5.4.11": "OU"
        case "2.5.4.12": "title"
        case "2.5.4.42": "GN"
        case "0.9.2342.19200300.100.1.1": "UID"
        case "0.9.2342.19200300.100.1.25": "DC"
        case "1.2.840.113549.1.9.1": "emailAddress"
        default: type.dotted
        }
    }

    /// RFC 2253 §2.4: `,+"\<>;` escaped anywhere, `#` and space at the start, space at the end.
    static func escaped(_ value: String) -> String {
        var out = ""
        let scalars = Array(value.unicodeScalars)
        for (i, scalar) in scalars.enumerated() {
            let special = ",+\"\\<>;".unicodeScalars.contains(scalar)
                || (i == 0 && (scalar == "#" || scalar == " ")) || (i == scalars.count - 1 && scalar == " ")
            if special { out.unicodeScalars.append("\\") }
            if scalar.value < 0x20 || scalar.value == 0x7f {
                out += "\\" + Hex.upper([UInt8(scalar.value)])
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
