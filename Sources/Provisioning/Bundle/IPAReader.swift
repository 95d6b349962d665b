import Diagnostics
import PropertyList
import System
import ZipArchives

/// Reads the app inside an `.ipa` (a zip with `Payload/Name.app/`), in memory: nothing is
/// extracted to disk. The archive is an `UntrustedZip`: entry names that try to leave a
/// directory (`../`, absolute paths) make it an error, and sizes and counts are bounded
/// because the archive's own numbers cannot be trusted.
public enum IPAReader {
    /// Limits that keep a hostile archive from exhausting memory or time.
    public struct Limits: Sendable {
        public var maximumEntries = 200_000
        /// Largest profile or Info.plist read (bytes).
        public var maximumPlistSize = 8 << 20
        /// Largest executable read (bytes).
        public var maximumExecutableSize = 512 << 20
        /// See `UntrustedZip.Limits`.
        public var maximumCompressionRatio = 64
        /// Entries may always inflate to this many bytes, whatever their ratio.
        public var ratioFloor = 16 << 20
        public init() {}

        var zip: UntrustedZip.Limits {
            var zip = UntrustedZip.Limits()
            zip.maximumEntries = maximumEntries
            zip.maximumCompressionRatio = maximumCompressionRatio
            zip.ratioFloor = ratioFloor
            return zip
        }
    }

    /// The archive at `path` opened and checked, and its app's folder (`Payload/App.app/`).
    static func open(_ path: String, limits: Limits) throws(ProvisioningError) -> (zip: UntrustedZip, appRoot: String) {
        let zip: UntrustedZip
        do { zip = try UntrustedZip(path: path, limits: limits.zip, kind: "zip archive (.ipa)") } catch { throw ProvisioningError(error) }
        for name in zip.names {
            let components = name.split(separator: "/", omittingEmptySubsequences: false)
            if components.count >= 3, components[0] == "Payload", components[1].hasSuffix(".app") {
                return (zip, "Payload/\(components[1])/")
            }
        }
        throw ProvisioningError(file: path, message: "no Payload/*.app in the archive (not an .ipa?)")
    }

    public static func read(_ path: String, limits: Limits = Limits()) throws(ProvisioningError) -> AppBundle {
        let (zip, root) = try open(path, limits: limits)
        let entries = zip.entries
        func extract(_ entry: ZipEntry, limit: Int) throws(ProvisioningError) -> [UInt8] {
            do { return try zip.read(entry, limit: limit) } catch { throw ProvisioningError(error) }
        }
        let location = "\(path)!\(root.dropLast())"
        // macOS apps in an archive keep their Contents/ layout.
        let contents = entries[root + "Contents/Info.plist"] != nil ? root + "Contents/" : root
        guard let infoEntry = entries[contents + "Info.plist"] else {
            throw ProvisioningError(file: location, message: "the app has no Info.plist")
        }
        let infoBytes = try extract(infoEntry, limit: limits.maximumPlistSize)
        let info: PlistValue
        do { info = try PropertyListCoding.read(infoBytes).value } catch {
            throw ProvisioningError(file: "\(path)!\(contents)Info.plist", position: error.position, message: error.message)
        }
        let profileName = contents + (contents == root ? "embedded.mobileprovision" : "embedded.provisionprofile")
        var bundle = AppBundle(location: location, infoPlist: info, infoPlistBytes: infoBytes, embeddedProfile: nil, embeddedProfileLocation: "\(path)!\(profileName)", executable: nil)
        if let profile = entries[profileName] {
            bundle.embeddedProfile = try extract(profile, limit: limits.maximumPlistSize)
        }
        if let name = bundle.executableName, let entry = entries[contents + (contents == root ? "" : "MacOS/") + name] {
            bundle.executable = try extract(entry, limit: limits.maximumExecutableSize)
        }
        return bundle
    }
}
