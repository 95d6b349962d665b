import BinaryReading
import ObjectFile
import OrderedCollections
import PropertyList
import SwiftASN1

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
