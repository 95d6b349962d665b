import PropertyList
import System

/// Reads the app inside an `.ipa` (a zip with `Payload/Name.app/`), in memory: nothing is
/// extracted to disk, so no entry name can write outside a directory. Entry names that try
/// (`../`, absolute paths) make the archive an error all the same, and sizes and counts are
/// bounded because the archive's own numbers cannot be trusted (a zip bomb lies in them).
///
/// libzip reads the archive (`ZipArchive`, the one file that calls it, opening libzip at the
/// first archive), over the file's mapped bytes.
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

    /// An archive whose central directory passed the checks: its entries by name and the
    /// app's folder (`Payload/App.app/`). The archive keeps the mapped file alive.
    struct OpenedArchive {
        var archive: ZipArchive
        var entries: [String: ZipEntry]
        var appRoot: String
    }

    /// Opens the archive at `path` and checks every entry's name (one pass over the central
    /// directory); finds the app's folder.
    static func open(_ path: String, limits: Limits) throws(ProvisioningError) -> OpenedArchive {
        let file: MappedFile
        do { file = try MappedFile(path: path) } catch { throw ProvisioningError(file: path, message: error.reason) }
        // Invariant: an empty file is not an archive (libzip would open it as an empty one).
        guard file.bytes.count > 0 else { throw ProvisioningError(file: path, message: "not a readable zip archive (.ipa): the file is empty") }
        let archive: ZipArchive
        do { archive = try ZipArchive(file: file) } catch {
            throw ProvisioningError(file: path, message: error.isLibraryUnavailable ? error.message : "not a readable zip archive (.ipa): \(error.message)")
        }
        // Invariant: the central directory is walked only when its entry count is bounded.
        guard archive.count <= limits.maximumEntries else {
            throw ProvisioningError(file: path, message: "more than \(limits.maximumEntries) entries; refusing the archive")
        }
        // One pass over the central directory: check every name, find the app's files.
        var appRoot: String?
        var entries: [String: ZipEntry] = [:]
        for index in 0..<archive.count {
            let entry: ZipEntry
            do { entry = try archive.entry(at: index) } catch {
                throw ProvisioningError(file: path, message: "entry \(index) cannot be read: \(error.message)")
            }
            let name = entry.name
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
        return OpenedArchive(archive: archive, entries: entries, appRoot: root)
    }

    public static func read(_ path: String, limits: Limits = Limits()) throws(ProvisioningError) -> AppBundle {
        let opened = try open(path, limits: limits)
        let (archive, entries, root) = (opened.archive, opened.entries, opened.appRoot)
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
    static func extract(_ entry: ZipEntry, from archive: ZipArchive, limit sizeLimit: Int, limits: Limits, archivePath: String) throws(ProvisioningError) -> [UInt8] {
        let stored = Int(clamping: entry.storedSize)
        let (byRatio, overflow) = stored.multipliedReportingOverflow(by: max(limits.maximumCompressionRatio, 1))
        let limit = overflow ? sizeLimit : min(sizeLimit, max(limits.ratioFloor, byRatio))
        let why = limit < sizeLimit ? "limit (\(limits.maximumCompressionRatio)× its \(stored) stored bytes; a zip bomb?)" : "limit"
        guard entry.declaredSize <= UInt64(limit) else {
            throw ProvisioningError(file: "\(archivePath)!\(entry.name)", message: "declares \(entry.declaredSize) bytes uncompressed, over the \(limit)-byte \(why)")
        }
        let bytes: [UInt8]?
        do { bytes = try archive.read(entry, limit: limit) } catch {
            throw ProvisioningError(file: "\(archivePath)!\(entry.name)", message: "cannot be extracted: \(error.message)")
        }
        guard let bytes else {
            throw ProvisioningError(file: "\(archivePath)!\(entry.name)", message: "inflates past the \(limit)-byte \(limit < sizeLimit ? why : "limit (a zip bomb?)")")
        }
        return bytes
    }
}
