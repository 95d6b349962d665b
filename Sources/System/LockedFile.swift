#if canImport(Glibc)
import Glibc
#endif

/// A file opened to be edited in place: read once under an advisory lock (`flock(LOCK_EX)` on
/// the original) that is held until it is replaced or released, so two devkit edits of the
/// same file take turns instead of one losing the other's update. Writers that take no lock
/// (an editor, `cp`) are caught instead: `replace` checks the file's identity, size, mtime and
/// ctime just before its rename and writes nothing when they moved.
public final class LockedFile {
    /// The path as the user gave it (errors name it).
    public let path: String
    /// The file a replacement goes to: `path` with symlinks followed.
    public let target: String
    /// The file's bytes when it was read, under the lock.
    public let bytes: [UInt8]
    private let descriptor: Int32
    private let status: stat

    /// Opens, locks and reads `path` (a symlink's target). Waits for another devkit edit of
    /// the same file to finish; when that edit replaced the file meanwhile, the new file is
    /// opened and locked instead (the lock is on the inode, the replacement is a new one).
    public init(_ path: String, kind: InputFile.Kind = .propertyList) throws(FileIOError) {
        self.path = path
        target = FileIO.resolvedTarget(path)
        var attempt = 0
        while true {
            // InputFile: a FIFO or device planted at the path is refused, not waited on, and
            // the size is capped; errors name the path as the user gave it.
            let fd: Int32
            let opened: stat
            do { (fd, opened) = try InputFile.open(target, kind: kind) } catch {
                throw FileIOError(path: path, errno: error.errno, reason: error.reason)
            }
            while flock(fd, LOCK_EX) != 0 {
                guard errno == EINTR else { let e = FileIOError.lastError(path: path, doing: "cannot lock it"); close(fd); throw e }
            }
            // Invariant: the locked inode is still the one at the path. Otherwise the edit we
            // waited for replaced it: lock the new file (bounded, in case of a rename storm).
            var current = stat()
            if stat(target, &current) == 0, current.st_dev == opened.st_dev, current.st_ino == opened.st_ino {
                descriptor = fd
                status = current
                break
            }
            close(fd)
            attempt += 1
            guard attempt < 100 else { throw Self.changed(path) }
        }
        do { bytes = try FileIO.readAll(fd: descriptor, path: path, sizeHint: Int(status.st_size), limit: kind.sizeCap) } catch {
            close(descriptor)
            throw error
        }
    }

    deinit { close(descriptor) }

    /// Replaces the file with `edited` (atomically, keeping its owner and mode, setuid/setgid
    /// included), saving `bytes` as FILE~ first when `backup` is set. Refused, with nothing
    /// written: a file that changed since it was read; unless `force`, a read-only file and a
    /// file the replacement would take from its owner (another user's file in a directory
    /// you may write). Unchanged bytes are not written (the mtime stays).
    public func replace(with edited: [UInt8], backup: Bool, force: Bool) throws(FileIOError) {
        guard edited != bytes else { return }
        if !force {
            // plutil refuses a file without write permission; root is not exempt here.
            if status.st_mode & 0o222 == 0 || access(target, W_OK) != 0 {
                throw FileIOError(path: path, errno: EACCES, reason: "is read-only (mode \(Self.octal(status.st_mode & 0o7777))); nothing written (--force replaces it anyway)")
            }
        }
        if backup { try FileIO.writeBackup(bytes, of: path) }
        try FileIO.withBytes(edited) { buffer throws(FileIOError) in
            try FileIO.writeAtomically(buffer, toTarget: target, path: path, modeLike: nil, durable: true,
                                       unchangedSince: status, keepOwner: !force)
        }
    }

    /// The error for a file another writer replaced or changed meanwhile.
    static func changed(_ path: String) -> FileIOError {
        FileIOError(path: path, errno: 0, reason: "changed while devkit was editing it; nothing written")
    }

    /// True when `now` is the same file, unmodified, as `then` (identity, size, mtime, ctime).
    static func same(_ now: stat, _ then: stat) -> Bool {
        now.st_dev == then.st_dev && now.st_ino == then.st_ino && now.st_size == then.st_size
            && now.st_mtim.tv_sec == then.st_mtim.tv_sec && now.st_mtim.tv_nsec == then.st_mtim.tv_nsec
            && now.st_ctim.tv_sec == then.st_ctim.tv_sec && now.st_ctim.tv_nsec == then.st_ctim.tv_nsec
    }

    static func octal(_ mode: mode_t) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
