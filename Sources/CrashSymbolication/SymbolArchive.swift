import Diagnostics
import System
import ZipArchives

/// A `.zip` of dSYMs named as a search path (what Xcode Cloud, CI artifacts and App Store
/// Connect's "Download dSYMs" hand out), unpacked once into the cache and walked like a
/// directory after that. The cache entry is keyed by the archive's absolute path, size and
/// modification time, so a replaced archive is unpacked again; it appears whole or not at all
/// (unpacked beside it, then renamed), so a run killed halfway leaves nothing to trust.
enum SymbolArchive {
    /// Entries larger than this are not unpacked (no dSYM's DWARF file is near it).
    static let maximumEntrySize = 4 << 30

    /// The directory holding the archive's contents, unpacking them into `cache` first when
    /// they are not there yet.
    static func unpacked(_ path: String, cache: String) throws(Diagnostic) -> String {
        let zip = try UntrustedZip(path: path, kind: "zip archive (.dSYM.zip)")
        let absolute = FileIO.realPath(path) ?? path
        let directory = cache + "/" + key(absolute, size: zip.size, modified: zip.modificationTime)
        if FileIO.isDirectory(directory) { return directory }
        let partial = directory + ".partial-\(CurrentProcess.id)"
        FileIO.removeTree(partial)
        do {
            // dSYM bundles and the binaries beside them (names without an extension); not
            // the source files, assets or reports such archives sometimes carry.
            try zip.unpack(into: partial, entryLimit: maximumEntrySize) { name in
                name.contains(".dSYM/") || !(name.split(separator: "/").last ?? "").contains(".")
            }
            try FileIO.createDirectories(partial)
            try FileIO.renameItem(partial, to: directory)
        } catch let error as Diagnostic {
            FileIO.removeTree(partial)
            throw error
        } catch let error as FileIOError {
            FileIO.removeTree(partial)
            // Another run unpacked the same archive first: use its copy.
            if FileIO.isDirectory(directory) { return directory }
            throw Diagnostic(file: error.path, message: error.reason)
        } catch {
            FileIO.removeTree(partial)
            throw Diagnostic(file: path, message: "\(error)")
        }
        return directory
    }

    /// A file name for the archive's cache entry: the FNV-1a hash of its path, size and time.
    static func key(_ path: String, size: Int, modified: Int64) -> String {
        var hash = FNV1a128()
        for field in [path, String(size), String(modified)] { hash.combine(field: field) }
        return hash.hexDigest
    }
}
