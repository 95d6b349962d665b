#if canImport(Glibc)
import Glibc
#endif

/// A directory only this user can enter: made with `mkdtemp` (mode 0700) under
/// `$XDG_RUNTIME_DIR` when that is itself private, else under /tmp. For passing data between
/// two of the user's processes without a name another local user could plant or predict.
public enum PrivateDirectory {
    /// Creates `BASE/<prefix>XXXXXX` and returns its path. A failure names the parent.
    public static func create(prefix: String) throws(FileIOError) -> String {
        var base = "/tmp"
        if let runtime = Environment.nonEmptyValue("XDG_RUNTIME_DIR"), runtime.hasPrefix("/"), isPrivate(runtime) {
            base = runtime
        }
        while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
        var template = Array("\(base)/\(prefix)XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkdtemp($0) != nil } ?? false
        }
        guard made else { throw FileIOError.lastError(path: base) }
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// True when `path` itself (not a link to it) is a directory owned by this user (effective
    /// id) that no group or other user may read, write or enter.
    public static func isPrivate(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        return info.st_mode & S_IFMT == S_IFDIR && info.st_uid == geteuid() && info.st_mode & 0o077 == 0
    }

    /// Removes the files in `path` (one level: the directory holds no subdirectories), then
    /// the directory; what cannot be removed stays.
    public static func remove(_ path: String) {
        for name in (try? FileIO.directoryEntries(path)) ?? [] { unlink(path + "/" + name) }
        rmdir(path)
    }
}
