import Foundation
import PropertyList
import ZIPFoundation

/// Reads the app inside an `.ipa` (a zip with `Payload/Name.app/`), in memory: nothing is
/// extracted to disk, so no entry name can write outside a directory. Entry names that try
/// (`../`, absolute paths) make the archive an error all the same, and sizes and counts are
/// bounded because the archive's own numbers cannot be trusted (a zip bomb lies in them).
///
/// ZIPFoundation reads the archive; it works on Foundation's `URL` and `Data`, which is why
/// this one file imports Foundation.
public enum IPAReader {
    /// Limits that keep a hostile archive from exhausting memory or time.
    public struct Limits: Sendable {
        public var maximumEntries = 200_000
        /// Largest profile or Info.plist read (bytes).
        public var maximumPlistSize = 8 << 20
        /// Largest executable read (bytes).
        public var maximumExecutableSize = 512 << 20
        /// An entry may inflate to at most this many times its stored size (once past
        /// `ratioFloor`): machine code and plists deflate 2-5×, zeros about 1,000×, so a 511 MiB
        /// executable of zeros in a 0.5 MB archive took 533 MB (issue 15 §5). With it, memory
        /// stays within a fixed multiple of the archive's size.
        public var maximumCompressionRatio = 64
        /// Entries may always inflate to this many bytes, whatever their ratio.
        public var ratioFloor = 16 << 20
        public init() {}
    }

    public static func read(_ path: String, limits: Limits = Limits()) throws(ProvisioningError) -> AppBundle {
        let archive: Archive
        do { archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read) } catch {
            throw ProvisioningError(file: path, message: "not a readable zip archive (.ipa): \(error)")
        }
        // One pass over the central directory: check every name, find the app's files.
        var count = 0
        var appRoot: String?
        var entries: [String: Entry] = [:]
        for entry in archive {
            count += 1
            guard count <= limits.maximumEntries else {
                throw ProvisioningError(file: path, message: "more than \(limits.maximumEntries) entries; refusing the archive")
            }
            let name = entry.path
            let components = name.split(separator: "/", omittingEmptySubsequences: false)
            guard !name.hasPrefix("/"), !name.contains("\\"), !components.contains("..") else {
                throw ProvisioningError(file: path, message: "entry \"\(name)\" has an unsafe path (absolute or with ../); refusing the archive")
            }
            if appRoot == nil, components.count >= 3, components[0] == "Payload", components[1].hasSuffix(".app") {
                appRoot = "Payload/\(components[1])/"
            }
            entries[name] = entry
        }
        guard let root = appRoot else {
            throw ProvisioningError(file: path, message: "no Payload/*.app in the archive (not an .ipa?)")
        }
        let location = "\(path)!\(root.dropLast())"
        // macOS apps in an archive keep their Contents/ layout.
        let contents = entries[root + "Contents/Info.plist"] != nil ? root + "Contents/" : root
        guard let infoEntry = entries[contents + "Info.plist"] else {
            throw ProvisioningError(file: location, message: "the app has no Info.plist")
        }
        let infoBytes = try extract(infoEntry, from: archive, limit: limits.maximumPlistSize, limits: limits, archivePath: path)
        let info: PlistValue
        do { info = try PropertyListCoding.read(infoBytes).value } catch {
            throw ProvisioningError(file: "\(path)!\(contents)Info.plist", position: error.position, message: error.message)
        }
        let profileName = contents + (contents == root ? "embedded.mobileprovision" : "embedded.provisionprofile")
        var bundle = AppBundle(location: location, infoPlist: info, infoPlistBytes: infoBytes, embeddedProfile: nil, embeddedProfileLocation: "\(path)!\(profileName)", executable: nil)
        if let profile = entries[profileName] {
            bundle.embeddedProfile = try extract(profile, from: archive, limit: limits.maximumPlistSize, limits: limits, archivePath: path)
        }
        if let name = bundle.executableName, let entry = entries[contents + (contents == root ? "" : "MacOS/") + name] {
            bundle.executable = try extract(entry, from: archive, limit: limits.maximumExecutableSize, limits: limits, archivePath: path)
        }
        return bundle
    }

    /// Inflates one entry into memory, stopping as soon as it passes `limit` — or
    /// `maximumCompressionRatio` times its stored size, past `ratioFloor` — whatever size the
    /// archive declared.
    static func extract(_ entry: Entry, from archive: Archive, limit sizeLimit: Int, limits: Limits, archivePath: String) throws(ProvisioningError) -> [UInt8] {
        let stored = Int(clamping: entry.compressedSize)
        let (byRatio, overflow) = stored.multipliedReportingOverflow(by: max(limits.maximumCompressionRatio, 1))
        let limit = overflow ? sizeLimit : min(sizeLimit, max(limits.ratioFloor, byRatio))
        let why = limit < sizeLimit ? "limit (\(limits.maximumCompressionRatio)× its \(stored) stored bytes; a zip bomb?)" : "limit"
        guard entry.uncompressedSize <= UInt64(limit) else {
            throw ProvisioningError(file: "\(archivePath)!\(entry.path)", message: "declares \(entry.uncompressedSize) bytes uncompressed, over the \(limit)-byte \(why)")
        }
        struct TooLarge: Error {}
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(entry.uncompressedSize))
        do {
            _ = try archive.extract(entry, skipCRC32: false) { chunk in
                guard bytes.count + chunk.count <= limit else { throw TooLarge() }
                bytes.append(contentsOf: chunk)
            }
        } catch is TooLarge {
            throw ProvisioningError(file: "\(archivePath)!\(entry.path)", message: "inflates past the \(limit)-byte \(limit < sizeLimit ? why : "limit (a zip bomb?)")")
        } catch {
            throw ProvisioningError(file: "\(archivePath)!\(entry.path)", message: "cannot be extracted: \(error)")
        }
        return bytes
    }
}
