#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SystemCalls

/// A file being replaced atomically, its new contents written in pieces (a converter streams
/// a large document out in 1 MiB chunks instead of holding it whole). Nothing is visible at
/// the path until `commit`; dropping the writer without committing leaves the target as it
/// was and no temp file behind.
///
/// The new contents go to a nameless `O_TMPFILE` in the target's directory, linked under a
/// hidden temp name and renamed over the target with SIGINT, SIGTERM and SIGHUP held back, so
/// an interrupted write leaves nothing behind; where the file system has no `O_TMPFILE`, a
/// named temp file (`.NAME.devkit-XXXXXX`) is written with those signals held back until the
/// writer is committed or dropped, and stale ones of ours are removed first. An existing file
/// keeps its permission bits (and owner, when allowed); owner and group are set before the
/// mode, so setuid/setgid bits survive; a symlink is followed so its target is replaced.
///
/// A character device or FIFO (`-o /dev/null`, `-o >(…)`) cannot be replaced: it is written
/// straight through, as `cat > /dev/null` would, and never synced or renamed over.
public final class AtomicFileWriter {
    private let target: String
    private let path: String
    private let durable: Bool
    private let expected: stat?
    private let keepOwner: Bool
    private var existing = stat()
    private var exists: Bool
    private let prefix: String
    private var fd: Int32
    private var tempPath: String?
    private var previousMask: SignalMask?
    private var committed = false
    /// Writing straight to a character device or FIFO.
    private var isStream = false
    /// Bytes written so far, and how many of them were already handed to writeback.
    private var written: Int64 = 0
    private var writebackStarted: Int64 = 0
    /// Writeback is started for each this many bytes written: the disk works while the
    /// document is still being made, and the fsync at the end waits for the last piece only
    /// (a 27 MB XML file: fsync 16–24 ms → 6–9 ms).
    private static let writebackPiece: Int64 = 4 << 20
    private static var held: SignalMask { SignalMask([SIGINT, SIGTERM, SIGHUP]) }

    /// Starts replacing `path` (its symlink target). `durable: false` skips the fsync.
    public convenience init(replacing path: String, durable: Bool = true) throws(FileIOError) {
        try self.init(target: FileIO.resolvedTarget(path), path: path, modeLike: nil, durable: durable)
    }

    /// `modeLike`: take the permission bits from this file instead of the target.
    /// `keepOwner` refuses a replacement that would change the owner or group;
    /// `unchangedSince` refuses one when the target moved since that `stat` (checked just
    /// before the rename).
    init(target: String, path: String, modeLike: String?, durable: Bool,
         unchangedSince expected: stat? = nil, keepOwner: Bool = false) throws(FileIOError) {
        self.target = target
        self.path = path
        self.durable = durable
        self.expected = expected
        self.keepOwner = keepOwner
        var existing = stat()
        var exists = stat(target, &existing) == 0
        if exists, existing.st_mode & S_IFMT == S_IFDIR { throw FileIOError(path: path, errno: EISDIR, reason: "is a directory") }
        if let modeLike, stat(modeLike, &existing) == 0 { exists = true }
        if exists, existing.st_mode & S_IFMT == S_IFDIR { throw FileIOError(path: path, errno: EISDIR, reason: "is a directory") }
        self.existing = existing
        self.exists = exists
        let kind = existing.st_mode & S_IFMT
        if exists, modeLike == nil, kind == S_IFCHR || kind == S_IFIFO {
            prefix = ""
            fd = open(target, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw FileIOError.lastError(path: path) }
            isStream = true
            return
        }
        if exists, modeLike == nil, kind != S_IFREG {
            throw FileIOError(path: path, errno: EINVAL, reason: "is not a regular file, a character device or a FIFO")
        }
        let directory = target.lastIndex(of: "/").map { String(target[..<$0]) } ?? "."
        prefix = "\(directory.isEmpty ? "/" : directory)/.\(FileIO.baseName(target)).devkit-"
        fd = open(directory.isEmpty ? "/" : directory, O_WRONLY | O_CLOEXEC | O_DIRECTORY | 0o20000000 /* __O_TMPFILE */, 0o600)
        if fd < 0 {
            previousMask = Self.held.block()
            FileIO.removeStaleTemporaries(prefix: prefix)
            var template = Array((prefix + "XXXXXX").utf8CString)
            fd = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
            guard fd >= 0 else {
                previousMask?.restore()
                previousMask = nil
                throw FileIOError.lastError(path: path, doing: "cannot create a temporary file beside it")
            }
            tempPath = String(cString: template)
        }
    }

    /// Appends `bytes` to the new contents.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(FileIOError) {
        guard fd >= 0, !committed else { throw FileIOError(path: path, errno: EBADF, reason: "written after it was finished") }
        try FileIO.writeAll(fd: fd, bytes, path: path)
        written += Int64(bytes.count)
        if durable, !isStream, written - writebackStarted >= Self.writebackPiece {
            // Advice: a failure here leaves all of the work to the fsync.
            _ = system_start_writeback(fd, writebackStarted, written - writebackStarted)
            writebackStarted = written
        }
    }

    public func write(_ bytes: [UInt8]) throws(FileIOError) {
        try FileIO.withBytes(bytes) { buffer throws(FileIOError) in try write(buffer) }
    }

    /// Gives the new contents the old file's owner and mode, syncs them (when durable) and
    /// renames them over the target. After an error the target is untouched.
    public func commit() throws(FileIOError) {
        guard fd >= 0, !committed else { throw FileIOError(path: path, errno: EBADF, reason: "written after it was finished") }
        if isStream {
            committed = true
            guard close(fd) == 0 else {
                fd = -1
                throw FileIOError.lastError(path: path)
            }
            fd = -1
            return
        }
        do throws(FileIOError) {
            if exists {
                // chown before chmod: the kernel clears setuid/setgid on a chown.
                if fchown(fd, existing.st_uid, existing.st_gid) != 0, keepOwner, geteuid() != existing.st_uid || getegid() != existing.st_gid {
                    throw FileIOError(path: path, errno: EPERM, reason: "is owned by uid \(existing.st_uid) gid \(existing.st_gid); replacing it would make it yours (uid \(geteuid()) gid \(getegid())); nothing written (--force replaces it anyway)")
                }
            }
            let mode = exists ? existing.st_mode & 0o7777 : 0o666 & ~FileIO.currentUmask()
            if fchmod(fd, mode) != 0 { throw FileIOError.lastError(path: path) }
            if durable, fsync(fd) != 0 { throw FileIOError.lastError(path: path, doing: "fsync failed") }
            if tempPath == nil {
                if previousMask == nil { previousMask = Self.held.block() }
                tempPath = try FileIO.linkTemporary(fd, prefix: prefix, path: path)
            }
        } catch {
            close(fd)
            fd = -1
            throw error
        }
        close(fd)
        fd = -1
        if let expected {
            var now = stat()
            guard stat(target, &now) == 0, LockedFile.same(now, expected) else { throw LockedFile.changed(path) }
        }
        guard let tempPath, rename(tempPath, target) == 0 else { throw FileIOError.lastError(path: path) }
        committed = true
        previousMask?.restore()
        previousMask = nil
    }

    deinit {
        if fd >= 0 { close(fd) }
        if !committed, let tempPath { unlink(tempPath) }
        // Last: signals held back arrive after the cleanup.
        previousMask?.restore()
    }
}
