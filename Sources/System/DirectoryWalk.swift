#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Lists the regular files under a directory, depth first, names sorted (so output order does
/// not depend on the file system). Hidden entries (`.git`, `.build`) are skipped; directories
/// are not followed through symlinks (no cycles).
public enum DirectoryWalk {
    /// What `stat` says a path is.
    public enum EntryType: Sendable { case file, directory, other, missing }

    public static func type(of path: String) -> EntryType {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    /// Files below `root` for which `include` is true; `descend` decides for each directory
    /// whether to enter it (ignore rules). Unreadable directories are reported in `errors`.
    public static func files(under root: String, descend: (String) -> Bool, include: (String) -> Bool) -> (files: [String], errors: [FileIOError]) {
        var files: [String] = []
        var errors: [FileIOError] = []
        var pending = [root]
        while let directory = pending.popLast() {
            guard let handle = opendir(directory) else {
                errors.append(FileIOError.lastError(path: directory))
                continue
            }
            // The entry type from readdir saves a stat per entry; DT_UNKNOWN (some file
            // systems) falls back to lstat.
            var entries: [(name: String, type: UInt8)] = []
            while let entry = readdir(handle) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
                if name.hasPrefix(".") { continue }
                entries.append((name, entry.pointee.d_type))
            }
            closedir(handle)
            var subdirectories: [String] = []
            for (name, entryType) in entries.sorted(by: { $0.name < $1.name }) {
                let path = directory == "." ? name : (directory.hasSuffix("/") ? directory + name : directory + "/" + name)
                var mode = mode_t(0)
                switch Int(entryType) {
                case Int(DT_DIR): mode = S_IFDIR
                case Int(DT_REG): mode = S_IFREG
                case Int(DT_LNK): mode = S_IFLNK
                default:
                    var info = stat()
                    guard lstat(path, &info) == 0 else { continue }
                    mode = info.st_mode & S_IFMT
                }
                switch mode {
                case S_IFDIR: if descend(path) { subdirectories.append(path) }
                case S_IFREG: if include(path) { files.append(path) }
                case S_IFLNK:
                    // A link to a file is linted; a link to a directory is not followed.
                    if type(of: path) == .file, include(path) { files.append(path) }
                default: break
                }
            }
            pending += subdirectories.reversed()
        }
        return (files, errors)
    }

    /// The current directory, absolute; "/" if it cannot be read.
    public static func currentDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { return "/" }
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
