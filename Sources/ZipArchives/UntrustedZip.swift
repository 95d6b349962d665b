import Diagnostics
import System

/// A zip archive from outside (an `.ipa`, a `.dSYM.zip`) opened for reading its contents:
/// nothing it declares is trusted. Every entry name is checked when it is opened (no absolute
/// paths, no `..`, no backslashes), the entry count is bounded before the central directory
/// is walked, an entry inflates at most to a size limit and to a multiple of its stored size
/// whatever size it declares (a zip bomb lies in its numbers), and unpacking writes plain
/// files only, within a total.
public struct UntrustedZip {
    /// Bounds that keep a hostile archive from exhausting memory, disk or time.
    public struct Limits: Sendable {
        public var maximumEntries = 200_000
        /// An entry may inflate to at most this many times its stored size (once past
        /// `ratioFloor`): machine code and plists deflate 2-5×, zeros about 1,000×, so a 511 MiB
        /// executable of zeros in a 0.5 MB archive took 533 MB (issue 15 §5). With it, memory
        /// stays within a fixed multiple of the archive's size.
        public var maximumCompressionRatio = 64
        /// Entries may always inflate to this many bytes, whatever their ratio.
        public var ratioFloor = 16 << 20
        /// Most bytes one `unpack` writes.
        public var maximumUnpackedSize: UInt64 = 4 << 30
        public init() {}
    }

    /// The archive's path, for messages.
    public let path: String
    /// Its size in bytes and modification time (nanoseconds since the epoch) when opened: with
    /// the path, what a cache of its contents is keyed by.
    public let size: Int
    public let modificationTime: Int64
    /// Its entries by name.
    public let entries: [String: ZipEntry]
    /// Its entry names in the central directory's order.
    public let names: [String]
    private let archive: ZipArchive
    private let limits: Limits

    /// Opens the archive at `path` (mapped, never copied) and checks every entry's name in one
    /// pass over the central directory. `kind` names what the archive should be in messages
    /// (`zip archive (.ipa)`).
    public init(path: String, limits: Limits = Limits(), kind: String = "zip archive") throws(Diagnostic) {
        let file: MappedFile
        do { file = try MappedFile(path: path) } catch { throw Diagnostic(file: path, message: error.reason) }
        // Invariant: an empty file is not an archive (libzip would open it as an empty one).
        guard file.bytes.count > 0 else { throw Diagnostic(file: path, message: "not a readable \(kind): the file is empty") }
        let archive: ZipArchive
        do { archive = try ZipArchive(file: file) } catch {
            throw Diagnostic(file: path, message: error.isLibraryUnavailable ? error.message : "not a readable \(kind): \(error.message)")
        }
        // Invariant: the central directory is walked only when its entry count is bounded.
        guard archive.count <= limits.maximumEntries else {
            throw Diagnostic(file: path, message: "more than \(limits.maximumEntries) entries; refusing the archive")
        }
        var entries: [String: ZipEntry] = [:]
        var names: [String] = []
        for index in 0..<archive.count {
            let entry: ZipEntry
            do { entry = try archive.entry(at: index) } catch {
                throw Diagnostic(file: path, message: "entry \(index) cannot be read: \(error.message)")
            }
            let name = entry.name
            let components = name.split(separator: "/", omittingEmptySubsequences: false)
            guard !name.hasPrefix("/"), !name.contains("\\"), !components.contains("..") else {
                throw Diagnostic(file: path, message: "entry \"\(name)\" has an unsafe path (absolute or with ../); refusing the archive")
            }
            entries[name] = entry
            names.append(name)
        }
        self.path = path
        self.size = file.bytes.count
        self.modificationTime = file.modificationTime
        self.entries = entries
        self.names = names
        self.archive = archive
        self.limits = limits
    }

    /// Inflates one entry into memory, stopping as soon as it passes `sizeLimit` — or
    /// `maximumCompressionRatio` times its stored size, past `ratioFloor` — whatever size the
    /// archive declared. Errors name `path!entry`.
    public func read(_ entry: ZipEntry, limit sizeLimit: Int) throws(Diagnostic) -> [UInt8] {
        let stored = Int(clamping: entry.storedSize)
        let (byRatio, overflow) = stored.multipliedReportingOverflow(by: max(limits.maximumCompressionRatio, 1))
        let limit = overflow ? sizeLimit : min(sizeLimit, max(limits.ratioFloor, byRatio))
        let why = limit < sizeLimit ? "limit (\(limits.maximumCompressionRatio)× its \(stored) stored bytes; a zip bomb?)" : "limit"
        guard entry.declaredSize <= UInt64(limit) else {
            throw Diagnostic(file: "\(path)!\(entry.name)", message: "declares \(entry.declaredSize) bytes uncompressed, over the \(limit)-byte \(why)")
        }
        let bytes: [UInt8]?
        do { bytes = try archive.read(entry, limit: limit) } catch {
            throw Diagnostic(file: "\(path)!\(entry.name)", message: "cannot be extracted: \(error.message)")
        }
        guard let bytes else {
            throw Diagnostic(file: "\(path)!\(entry.name)", message: "inflates past the \(limit)-byte \(limit < sizeLimit ? why : "limit (a zip bomb?)")")
        }
        return bytes
    }

    /// Writes the entries `wanted` accepts (by name; directories always) under `directory`
    /// as plain files — a symbolic link stored in the archive becomes a file holding its
    /// target's name, so nothing written points outside — each at most `entryLimit` bytes, all
    /// together at most `maximumUnpackedSize`. Returns the bytes written.
    ///
    /// `instead`: the entries `wanted` refuses and `handOver` accepts are read too (same
    /// limits) and handed to it, name and bytes, rather than skipped; their directories are
    /// created. For a reader that needs some files' contents once (digests) but not on disk.
    @discardableResult
    public func unpack(into directory: String, entryLimit: Int, where wanted: (String) -> Bool,
                       handOver: (String) -> Bool = { _ in true },
                       instead: ((String, [UInt8]) throws(Diagnostic) -> Void)? = nil) throws(Diagnostic) -> UInt64 {
        var written: UInt64 = 0
        var sinceRelease: UInt64 = 0
        for name in names {
            let isDirectory = name.hasSuffix("/")
            let isWanted = isDirectory || wanted(name)
            guard isWanted || (instead != nil && handOver(name)) else { continue }
            let target = directory + "/" + name
            do {
                try FileIO.createDirectories(isDirectory ? target : String(target[..<(target.lastIndex(of: "/") ?? target.endIndex)]))
            } catch {
                throw Diagnostic(file: directory, message: "cannot unpack \(name): \(error.reason)")
            }
            guard !isDirectory, let entry = entries[name] else { continue }
            let bytes = try read(entry, limit: entryLimit)
            written += UInt64(bytes.count)
            guard written <= limits.maximumUnpackedSize else {
                throw Diagnostic(file: path, message: "unpacks to more than \(limits.maximumUnpackedSize) bytes; refusing the archive")
            }
            if isWanted {
                do { try FileIO.writeAtomically(bytes, to: target, durable: false) } catch {
                    throw Diagnostic(file: directory, message: "cannot unpack \(name): \(error.reason)")
                }
            } else {
                try instead?(name, bytes)
            }
            // Unpacking a whole .ipa reads every page of the mapped archive once; without this
            // they all stay resident (a 200 MB archive, 200 MB of RSS).
            sinceRelease += UInt64(bytes.count)
            if sinceRelease >= 16 << 20 {
                archive.releaseReadPages()
                sinceRelease = 0
            }
        }
        return written
    }
}
