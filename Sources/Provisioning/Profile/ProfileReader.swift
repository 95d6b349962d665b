import BinaryReading
import OrderedCollections
import PropertyList

/// Reads `.mobileprovision` / `.provisionprofile` bytes: CMS parse, signature check, payload.
public enum ProfileReader {
    public static func read(_ bytes: [UInt8], trustRoots: TrustRoots? = nil) throws(ProvisioningError) -> SignedProfile {
        let signedData: CMSSignedData
        let check: SignatureCheck
        do throws(DecodeError) {
            signedData = try CMSSignedData.parse(bytes)
            guard signedData.contentType == .data else {
                throw DecodeError(section: "CMS", offset: signedData.contentOffset, reason: "the signed content type is \(signedData.contentType), expected \(OID.data) (id-data) for a profile")
            }
            check = try CMSVerifier.verify(signedData, trustRoots: trustRoots)
        } catch {
            throw ProvisioningError(error)
        }
        let profile = try payload(signedData.content, contentOffset: signedData.contentOffset)
        let encoding: ProfileEncoding = bytes.count > 1 && bytes[1] == 0x80 ? .berIndefiniteLength : .der
        return SignedProfile(profile: profile, signature: check, encoding: encoding)
    }

    /// Builds the model from the signed plist.
    static func payload(_ content: [UInt8], contentOffset: Int) throws(ProvisioningError) -> ProvisioningProfile {
        let document: PlistDocument
        do {
            document = try PropertyListCoding.read(content)
        } catch {
            let place = error.position.map { " at \($0)" } ?? ""
            let failure = ProvisioningError(position: .byteOffset(contentOffset), message: "the signed property list does not parse\(place): \(error.message)")
            throw failure
        }
        return try model(document.value)
    }

    /// The profile model from a payload dictionary; `ExpirationDate` is required, the other
    /// fields are read when present and of the right type.
    public static func model(_ value: PlistValue) throws(ProvisioningError) -> ProvisioningProfile {
        guard case .dictionary(let dict) = value else {
            throw ProvisioningError(message: "the profile's property list is a \(value.typeName), expected a dictionary")
        }
        guard case .date(let expiration)? = dict["ExpirationDate"] else {
            throw ProvisioningError(message: "the profile has no ExpirationDate date")
        }
        func string(_ key: String) -> String? {
            if case .string(let s)? = dict[key] { return s }
            return nil
        }
        func strings(_ key: String) -> [String] {
            guard case .array(let items)? = dict[key] else { return [] }
            return items.compactMap { if case .string(let s) = $0 { s } else { nil } }
        }
        var entitlements: OrderedDictionary<String, PlistValue> = [:]
        if case .dictionary(let e)? = dict["Entitlements"] { entitlements = e }
        var creation: PlistDate?
        if case .date(let d)? = dict["CreationDate"] { creation = d }
        var ttl: Int64?
        if case .integer(let n)? = dict["TimeToLive"] { ttl = n.int64Value }
        var allDevices = false
        if case .bool(let b)? = dict["ProvisionsAllDevices"] { allDevices = b }
        var certificates: [DeveloperCertificate] = []
        if case .array(let items)? = dict["DeveloperCertificates"] {
            for (index, item) in items.enumerated() {
                guard case .data(let der) = item else {
                    certificates.append(.unreadable(index: index, reason: "a \(item.typeName), not data"))
                    continue
                }
                do throws(DecodeError) {
                    certificates.append(.parsed(CertificateSummary(try X509Certificate(der: der))))
                } catch {
                    certificates.append(.unreadable(index: index, reason: error.reason))
                }
            }
        }
        return ProvisioningProfile(
            name: string("Name") ?? "", appIDName: string("AppIDName"), uuid: string("UUID") ?? "",
            teamName: string("TeamName"), teamIdentifiers: strings("TeamIdentifier"),
            applicationIdentifierPrefixes: strings("ApplicationIdentifierPrefix"), platforms: strings("Platform"),
            creationDate: creation, expirationDate: expiration, timeToLive: ttl, entitlements: entitlements,
            provisionedDevices: strings("ProvisionedDevices"), provisionsAllDevices: allDevices,
            developerCertificates: certificates, payload: value)
    }
}
