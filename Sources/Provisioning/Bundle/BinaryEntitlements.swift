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
