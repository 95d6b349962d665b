import BinaryReading
import ObjectFile
import OrderedCollections
import PropertyList
import SwiftASN1

/// The entitlements a signed Mach-O carries in its code signature, as `codesign -d
/// --entitlements` shows them on macOS.
public struct BinaryEntitlements: Sendable {
    /// The architecture they were read from (the first signed slice).
    public var architecture: String
    /// From the XML blob when present, else from the DER blob.
    public var entitlements: PlistValue
    /// Which blobs the signature had.
    public var hasXML: Bool
    public var hasDER: Bool

    /// Reads the first signed image of `bytes`; nil when no image is signed or none has
    /// entitlements.
    public static func read(_ bytes: [UInt8]) throws(ProvisioningError) -> BinaryEntitlements? {
        do throws(DecodeError) {
            for image in try MachOFile.images(bytes) {
                guard let signature = try CodeSignature.read(bytes, image: image) else { continue }
                let xml = signature.entitlementsXML, der = signature.entitlementsDER
                if let xml {
                    let value: PlistValue
                    do { value = try PropertyListCoding.read(xml).value } catch {
                        let blob = signature.blobs.first { $0.magic == CodeSignature.entitlementsMagic }?.offset ?? 0
                        throw DecodeError(section: "entitlements blob", offset: blob, reason: "the XML does not parse: \(error.message)")
                    }
                    return BinaryEntitlements(architecture: image.architecture, entitlements: value, hasXML: true, hasDER: der != nil)
                }
                if let der {
                    let blob = signature.blobs.first { $0.magic == CodeSignature.derEntitlementsMagic }?.offset ?? 0
                    let value = try DEREntitlements.decode(der, offset: blob)
                    return BinaryEntitlements(architecture: image.architecture, entitlements: value, hasXML: false, hasDER: true)
                }
            }
            return nil
        } catch {
            throw ProvisioningError(error)
        }
    }
}

/// Apple's DER entitlements (`CSMAGIC_EMBEDDED_DER_ENTITLEMENTS`): `[APPLICATION 16] {
/// INTEGER version, [16] dictionary }`, where a dictionary is `[16]` holding SEQUENCE
/// {UTF8String key, value} pairs and values are BOOLEAN, INTEGER, UTF8String, SEQUENCE
/// (array) or `[16]` (dictionary). Parsed with swift-asn1's DER rules.
public enum DEREntitlements {
    static let dictionaryTag = ASN1Identifier(tagWithNumber: 16, tagClass: .contextSpecific)
    static let rootTag = ASN1Identifier(tagWithNumber: 16, tagClass: .application)

    public static func decode(_ bytes: [UInt8], offset base: Int = 0) throws(DecodeError) -> PlistValue {
        let root: ASN1Node
        do { root = try DER.parse(bytes) } catch {
            throw DecodeError(section: "DER entitlements", offset: base, reason: "not DER: \(error)")
        }
        guard root.identifier == rootTag, case .constructed(let fields) = root.content else {
            throw DecodeError(section: "DER entitlements", offset: base, reason: "expected [APPLICATION 16], found tag \(root.identifier)")
        }
        var iterator = fields.makeIterator()
        guard let version = iterator.next(), version.identifier == .integer, let dictionary = iterator.next() else {
            throw DecodeError(section: "DER entitlements", offset: base, reason: "expected a version INTEGER and a dictionary")
        }
        return try value(dictionary, base: base)
    }

    /// swift-asn1 refuses nesting deeper than 50, so this recursion is bounded.
    static func value(_ node: ASN1Node, base: Int) throws(DecodeError) -> PlistValue {
        func fail(_ reason: String) -> DecodeError {
            DecodeError(section: "DER entitlements", offset: base + node.encodedBytes.startIndex, reason: reason)
        }
        do {
            switch node.identifier {
            case .boolean: return .bool(try Bool(derEncoded: node))
            case .integer: return .int(try Int64(derEncoded: node))
            case .utf8String: return .string(String(try ASN1UTF8String(derEncoded: node)))
            case .sequence:
                guard case .constructed(let items) = node.content else { throw fail("primitive SEQUENCE") }
                var array: [PlistValue] = []
                for item in items { array.append(try value(item, base: base)) }
                return .array(array)
            case dictionaryTag:
                guard case .constructed(let pairs) = node.content else { throw fail("primitive dictionary") }
                var dictionary: OrderedDictionary<String, PlistValue> = [:]
                for pair in pairs {
                    guard pair.identifier == .sequence, case .constructed(let kv) = pair.content else { throw fail("dictionary entry is not a SEQUENCE") }
                    var parts = kv.makeIterator()
                    guard let keyNode = parts.next(), let valueNode = parts.next() else { throw fail("dictionary entry without key and value") }
                    let key = String(try ASN1UTF8String(derEncoded: keyNode))
                    dictionary[key] = try value(valueNode, base: base)
                }
                return .dictionary(dictionary)
            default:
                throw fail("unsupported element \(node.identifier)")
            }
        } catch let error as DecodeError {
            throw error
        } catch {
            throw fail("\(error)")
        }
    }
}
