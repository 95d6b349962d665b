import BinaryReading
import SwiftASN1

/// Walks swift-asn1's node tree for the SignedData fields. Each step checks the element it
/// expects and names the offset of the one it found instead.
enum CMSDecoding {
    /// `detached`: the content is signed but not carried (a code signature's CMS blob signs
    /// the CodeDirectory beside it); an absent eContent is then allowed and read as empty.
    static func signedData(_ root: ASN1Node, detached: Bool = false) throws(DecodeError) -> CMSSignedData {
        var contentInfo = try children(of: root, "ContentInfo")
        let contentType = try oid(contentInfo.next("contentType"), "ContentInfo.contentType")
        guard contentType == .signedData else {
            throw error(at: root, "not a CMS SignedData: content type is \(contentType), expected \(OID.signedData) (signedData)")
        }
        let explicit = try contentInfo.next("content [0]")
        try expectContextTag(explicit, 0, "ContentInfo.content")
        var wrapper = try children(of: explicit, "ContentInfo.content")
        let signedDataNode = try wrapper.next("SignedData")
        var fields = try children(of: signedDataNode, "SignedData")

        _ = try integer(fields.next("version"), "SignedData.version")
        let digestAlgorithms = try fields.next("digestAlgorithms")
        try expectUniversal(digestAlgorithms, .set, "SignedData.digestAlgorithms")

        // encapContentInfo: SEQUENCE { eContentType, eContent [0] EXPLICIT OCTET STRING OPTIONAL }
        let encapNode = try fields.next("encapContentInfo")
        var encap = try children(of: encapNode, "EncapsulatedContentInfo")
        let eContentType = try oid(encap.next("eContentType"), "EncapsulatedContentInfo.eContentType")
        let content: [UInt8]
        let contentOffset: Int
        if let eContentWrapper = encap.nextIfPresent() {
            try expectContextTag(eContentWrapper, 0, "eContent")
            var eContentChildren = try children(of: eContentWrapper, "eContent")
            let octets = try eContentChildren.next("eContent OCTET STRING")
            do {
                content = Array(try ASN1OctetString(berEncoded: octets).bytes)
            } catch {
                throw self.error(at: octets, "eContent is not an OCTET STRING: \(error)")
            }
            contentOffset = offset(of: eContentWrapper)
        } else if detached {
            (content, contentOffset) = ([], offset(of: encapNode))
        } else {
            throw error(at: encapNode, "the SignedData has no encapsulated content (a detached signature, not a profile)")
        }

        var certificates: [EmbeddedCertificate] = []
        var next = fields.nextIfPresent()
        if let node = next, node.identifier.tagClass == .contextSpecific, node.identifier.tagNumber == 0 {
            var certs = try children(of: node, "certificates")
            while let cert = certs.nextIfPresent() {
                certificates.append(EmbeddedCertificate(der: Array(cert.encodedBytes), offset: offset(of: cert)))
            }
            next = fields.nextIfPresent()
        }
        if let node = next, node.identifier.tagClass == .contextSpecific, node.identifier.tagNumber == 1 {
            next = fields.nextIfPresent()  // crls: not used for profiles
        }
        guard let signerInfosNode = next else {
            throw error(at: signedDataNode, "SignedData has no signerInfos")
        }
        try expectUniversal(signerInfosNode, .set, "SignedData.signerInfos")
        var signerNodes = try children(of: signerInfosNode, "signerInfos")
        var signers: [CMSSignerInfo] = []
        while let node = signerNodes.nextIfPresent() {
            signers.append(try signerInfo(node))
        }
        guard !signers.isEmpty else { throw error(at: signerInfosNode, "SignedData has no signers") }
        return CMSSignedData(
            contentType: eContentType, content: content, contentOffset: contentOffset,
            certificates: certificates, signers: signers)
    }

    static func signerInfo(_ node: ASN1Node) throws(DecodeError) -> CMSSignerInfo {
        var fields = try children(of: node, "SignerInfo")
        _ = try integer(fields.next("version"), "SignerInfo.version")
        let sidNode = try fields.next("sid")
        let signer: SignerIdentifier
        if sidNode.identifier.tagClass == .contextSpecific, sidNode.identifier.tagNumber == 0 {
            signer = .subjectKeyIdentifier(Array(try primitive(sidNode, "SignerInfo.sid [0]")))
        } else {
            var sid = try children(of: sidNode, "IssuerAndSerialNumber")
            let issuer = try sid.next("issuer")
            let serial = try sid.next("serialNumber")
            try expectUniversal(serial, .integer, "IssuerAndSerialNumber.serialNumber")
            signer = .issuerAndSerialNumber(issuer: Array(issuer.encodedBytes), serialNumber: Array(try primitive(serial, "serialNumber")))
        }
        let digestAlgorithm = try algorithm(fields.next("digestAlgorithm"), "SignerInfo.digestAlgorithm")

        var attributesDER: [UInt8]?
        var contentType: OID?
        var messageDigest: [UInt8]?
        var current = try fields.next("signatureAlgorithm")
        if current.identifier.tagClass == .contextSpecific, current.identifier.tagNumber == 0 {
            let attributes = current
            // The signature covers the DER of the SET OF, not the [0] IMPLICIT form (RFC 5652
            // §5.4): same bytes with the tag replaced. An indefinite length is not DER.
            var der = Array(attributes.encodedBytes)
            guard der.count >= 2, der[1] != 0x80 else {
                throw error(at: attributes, "signed attributes use an indefinite length, which is not DER")
            }
            der[0] = 0x31
            attributesDER = der
            var list = try children(of: attributes, "signedAttrs")
            while let attribute = list.nextIfPresent() {
                var parts = try children(of: attribute, "Attribute")
                let type = try oid(parts.next("attrType"), "Attribute.attrType")
                var values = try children(of: parts.next("attrValues"), "Attribute.attrValues")
                let first = try values.next("attribute value")
                switch type {
                case .contentTypeAttribute: contentType = try oid(first, "content-type attribute")
                case .messageDigestAttribute:
                    try expectUniversal(first, .octetString, "message-digest attribute")
                    messageDigest = Array(try primitive(first, "message-digest attribute"))
                default: break
                }
            }
            current = try fields.next("signatureAlgorithm")
        }
        let signatureAlgorithm = try algorithm(current, "SignerInfo.signatureAlgorithm")
        let signatureNode = try fields.next("signature")
        try expectUniversal(signatureNode, .octetString, "SignerInfo.signature")
        return CMSSignerInfo(
            signer: signer, digestAlgorithm: digestAlgorithm, signedAttributesDER: attributesDER,
            signedContentType: contentType, messageDigest: messageDigest,
            signatureAlgorithm: signatureAlgorithm, signature: Array(try primitive(signatureNode, "SignerInfo.signature")),
            offset: offset(of: node))
    }

    // MARK: - Element helpers

    /// Children of a constructed node, reading with errors that name the parent's offset.
    struct Children {
        var iterator: ASN1NodeCollection.Iterator
        let parent: ASN1Node
        let what: String

        mutating func next(_ field: String) throws(DecodeError) -> ASN1Node {
            guard let node = iterator.next() else {
                throw CMSDecoding.error(at: parent, "\(what) ends before its \(field)")
            }
            return node
        }

        mutating func nextIfPresent() -> ASN1Node? { iterator.next() }
    }

    static func children(of node: ASN1Node, _ what: String) throws(DecodeError) -> Children {
        guard case .constructed(let collection) = node.content else {
            throw error(at: node, "\(what) should be a constructed element, found a primitive \(describe(node.identifier))")
        }
        return Children(iterator: collection.makeIterator(), parent: node, what: what)
    }

    static func primitive(_ node: ASN1Node, _ what: String) throws(DecodeError) -> ArraySlice<UInt8> {
        guard case .primitive(let bytes) = node.content else {
            throw error(at: node, "\(what) should be a primitive element")
        }
        return bytes
    }

    static func oid(_ node: ASN1Node, _ what: String) throws(DecodeError) -> OID {
        try expectUniversal(node, .objectIdentifier, what)
        do {
            return OID(try ASN1ObjectIdentifier(derEncoded: node).description)
        } catch {
            throw self.error(at: node, "\(what): malformed object identifier")
        }
    }

    static func integer(_ node: ASN1Node, _ what: String) throws(DecodeError) -> ArraySlice<UInt8> {
        try expectUniversal(node, .integer, what)
        return try primitive(node, what)
    }

    /// An AlgorithmIdentifier's OID (parameters are NULL or absent for the algorithms used).
    static func algorithm(_ node: ASN1Node, _ what: String) throws(DecodeError) -> OID {
        try expectUniversal(node, .sequence, what)
        var parts = try children(of: node, what)
        return try oid(parts.next("algorithm"), what)
    }

    static func expectUniversal(_ node: ASN1Node, _ identifier: ASN1Identifier, _ what: String) throws(DecodeError) {
        guard node.identifier == identifier else {
            throw error(at: node, "\(what): expected \(describe(identifier)), found \(describe(node.identifier))")
        }
    }

    static func expectContextTag(_ node: ASN1Node, _ number: UInt, _ what: String) throws(DecodeError) {
        guard node.identifier.tagClass == .contextSpecific, node.identifier.tagNumber == number else {
            throw error(at: node, "\(what): expected [\(number)], found \(describe(node.identifier))")
        }
    }

    static func describe(_ identifier: ASN1Identifier) -> String {
        switch identifier {
        case .sequence: "SEQUENCE"
        case .set: "SET"
        case .integer: "INTEGER"
        case .objectIdentifier: "OBJECT IDENTIFIER"
        case .octetString: "OCTET STRING"
        case .null: "NULL"
        default:
            switch identifier.tagClass {
            case .contextSpecific: "[\(identifier.tagNumber)]"
            case .application: "[APPLICATION \(identifier.tagNumber)]"
            case .private: "[PRIVATE \(identifier.tagNumber)]"
            case .universal: "universal tag \(identifier.tagNumber)"
            }
        }
    }

    /// The node's offset in the file: swift-asn1's slices keep the indices of the parsed array.
    static func offset(of node: ASN1Node) -> Int { node.encodedBytes.startIndex }

    static func error(at node: ASN1Node, _ reason: String) -> DecodeError {
        DecodeError(section: "CMS", offset: offset(of: node), reason: reason)
    }
}
