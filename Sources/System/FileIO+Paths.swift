#if canImport(Glibc)
import Glibc
#endif

/// Single calls on paths, for code that must not import the C library: permission checks,
/// the type of a path itself (not what a symlink points to), removal, exclusive creation.
extension FileIO {
    /// What a path names, without following a final symlink (`lstat`).
    public enum LinkType: Sendable, Equatable {
        case missing, regularFile, symbolicLink, directory, other
    }

    /// The type of `path` itself (`lstat`): a symlink is `.symbolicLink`, whatever it names.
    public static func linkType(of path: String) -> LinkType {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regularFile
        case S_IFLNK: return .symbolicLink
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    /// True when this process may read `path` (`access(R_OK)`).
    public static func isReadable(_ path: String) -> Bool {
        access(path, R_OK) == 0
    }

    /// Removes `path` and, for a directory, everything in it, without following symbolic
    /// links; what cannot be removed stays.
    public static func removeTree(_ path: String) {
        if linkType(of: path) == .directory {
            for name in (try? directoryEntries(path)) ?? [] { removeTree(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    /// Renames `source` to `target` (`rename`: atomic; a directory only onto a missing or
    /// empty one).
    public static func renameItem(_ source: String, to target: String) throws(FileIOError) {
        guard Glibc.rename(source, target) == 0 else { throw FileIOError.lastError(path: target) }
    }

    /// Removes the directory entry `path` (`unlink`: a symlink, not its target); false when
    /// nothing was removed.
    @discardableResult
    public static func remove(_ path: String) -> Bool {
        unlink(path) == 0
    }

    /// Creates `path` with `bytes`; fails if anything, even a dangling symlink, is there
    /// already (`O_CREAT | O_EXCL | O_NOFOLLOW`), so a file in a shared directory such as
    /// /tmp cannot be redirected by someone else's link. `permissions` before the umask.
    public static func createNew(_ path: String, contents bytes: [UInt8], permissions: UInt32 = 0o600) throws(FileIOError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(permissions))
        guard fd >= 0 else { throw FileIOError(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { buffer in buffer.baseAddress.map { write(fd, $0 + offset, buffer.count - offset) } ?? 0 }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw FileIOError(path: path, reason: String(cString: strerror(errno))) }
            offset += n
        }
    }

    /// Where symlink `path` points (`readlink`), as written in the link; nil when `path` is
    /// not a symlink. `/proc/self/exe` gives the running executable.
    public static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink(path, &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Writes `bytes` to standard error, best effort: a message that cannot be shown has
    /// nowhere else to go.
    public static func writeStandardError(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { buffer in buffer.baseAddress.map { write(2, $0 + offset, buffer.count - offset) } ?? 0 }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return }
            offset += n
        }
    }
}
