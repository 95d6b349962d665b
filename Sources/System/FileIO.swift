#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading whole files and replacing them atomically.
///
/// Written on POSIX calls rather than Foundation so each failure keeps its errno text
/// ("No such file or directory", "Is a directory", "Permission denied") and so the
/// temp-file/fsync/rename sequence of an atomic write is explicit.
public enum FileIO {
    /// The conventional name for standard input/output.
    public static let standardStream = "-"

    /// Reads all bytes of `path`, or standard input for `-`; a file over `kind`'s cap is
    /// refused unread (standard input is read to `kind`'s cap, then refused).
    public static func read(_ path: String, kind: InputFile.Kind = .general) throws(FileIOError) -> [UInt8] {
        if path == standardStream { return try readAll(fd: 0, path: "<stdin>", limit: kind.sizeCap) }
        let (fd, info) = try InputFile.open(path, kind: kind)
        defer { close(fd) }
        return try readAll(fd: fd, path: path, sizeHint: Int(info.st_size), limit: kind.sizeCap)
    }

    /// Reads all bytes of a stream the user named on the command line in place of a file (a
    /// pipe such as `<(…)`'s `/dev/fd/63`, or `-`): unlike `read(_:)`, a FIFO is accepted and
    /// read to its end. Only for paths the user typed, never for paths an input names.
    public static func readStream(_ path: String) throws(FileIOError) -> [UInt8] {
        if path == standardStream { return try readAll(fd: 0, path: "<stdin>") }
        var info = stat()
        guard stat(path, &info) == 0 else { throw FileIOError.lastError(path: path) }
        guard info.st_mode & S_IFMT == S_IFIFO else { return try read(path) }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileIOError.lastError(path: path) }
        defer { close(fd) }
        return try readAll(fd: fd, path: path)
    }

    /// Up to `count` bytes from the start of `path` (fewer if the file is shorter): enough to
    /// recognise a format by its magic without reading the file.
    public static func readPrefix(_ path: String, count: Int) throws(FileIOError) -> [UInt8] {
        let (fd, _) = try InputFile.open(path)
        defer { close(fd) }
        return try readPrefix(fd: fd, path: path, count: count)
    }

    /// `read(_:)`, but the first `count` bytes are looked at before the rest is read: when
    /// `skip` says so, nil is returned and the rest stays unread (a core dump of gigabytes,
    /// which its reader opens by path). One open either way; `kind`'s cap applies to the
    /// bytes read, not to a skipped file (capped as a mapped one).
    public static func read(_ path: String, kind: InputFile.Kind = .general, unlessPrefix count: Int,
                            matches skip: ([UInt8]) -> Bool) throws(FileIOError) -> [UInt8]? {
        if path == standardStream { return try read(path, kind: kind) }
        let (fd, info) = try InputFile.open(path, kind: .mapped)
        defer { close(fd) }
        let prefix = try readPrefix(fd: fd, path: path, count: count)
        if skip(prefix) { return nil }
        guard prefix.count == count else { return prefix }  // the whole file was shorter
        guard Int(info.st_size) <= kind.sizeCap else { throw InputFile.overCap(path: path, size: Int(info.st_size), kind: kind) }
        return try readAll(fd: fd, path: path, sizeHint: Int(info.st_size), startingWith: prefix, limit: kind.sizeCap)
    }

    /// Up to `count` bytes from `fd`'s position, fewer at the end of the file.
    private static func readPrefix(fd: Int32, path: String, count: Int) throws(FileIOError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(count, 0))
        let (filled, error) = bytes.withUnsafeMutableBytes { fill(fd: fd, $0) }
        if error != 0 { throw FileIOError(path: path, errno: error) }
        bytes.removeLast(bytes.count - filled)
        return bytes
    }

    /// Reads from `fd` into `buffer` until it is full or the file ends (EINTR retried): how
    /// many bytes came, and the errno that stopped it (0 when none did).
    private static func fill(fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> (filled: Int, error: Int32) {
        guard let base = buffer.baseAddress else { return (0, 0) }
        var filled = 0
        while filled < buffer.count {
            let n = Glibc.read(fd, base + filled, buffer.count - filled)
            if n < 0, errno == EINTR { continue }
            if n < 0 { return (filled, errno) }
            if n == 0 { break }
            filled += n
        }
        return (filled, 0)
    }

    /// Every byte from `fd`'s position to the end of the file, read straight into the array.
    static func readAll(fd: Int32, path: String, sizeHint: Int = 0, startingWith initial: [UInt8] = [],
                        limit: Int = InputFile.Kind.general.sizeCap) throws(FileIOError) -> [UInt8] {
        var bytes: [UInt8]
        if initial.isEmpty, sizeHint > 0 {
            // The size is known: read into uninitialised memory (zero-filling it first was a
            // pass over every page), one byte more than expected to see the end.
            let capacity = min(sizeHint, limit) + 1
            var error: Int32 = 0
            bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                adviseHugePages(UnsafeMutableRawBufferPointer(buffer))
                (initialized, error) = fill(fd: fd, UnsafeMutableRawBufferPointer(buffer))
            }
            if error != 0 { throw FileIOError(path: path, errno: error) }
            if bytes.count < capacity { return bytes }
            // The file grew since its fstat: read on.
        } else {
            bytes = initial
            bytes.reserveCapacity(max(min(sizeHint, limit), bytes.count) + 1)
        }
        // Read straight into the array's spare capacity: no intermediate chunk copy.
        while true {
            // Invariant: a stream (or a file that grew after its fstat) stops at the cap.
            guard bytes.count <= limit else {
                throw FileIOError(path: path, reason: "is more than the \(limit)-byte limit for this kind of input")
            }
            if bytes.count == bytes.capacity { bytes.reserveCapacity(bytes.capacity * 2) }
            let spare = bytes.capacity - bytes.count
            var error: Int32 = 0
            bytes.withUnsafeMutableBufferPointerToSpare(spare) { buffer, appended in
                (appended, error) = fill(fd: fd, UnsafeMutableRawBufferPointer(buffer))
            }
            if error != 0 { throw FileIOError(path: path, errno: error) }
            // Less than the spare room: the end of the file (or of the stream).
            if bytes.count < bytes.capacity { return bytes }
        }
    }

    /// Fresh buffers of at least this many bytes ask for 2 MiB pages.
    static let hugePageThreshold = 4 << 20

    /// Asks the kernel to back the 2 MiB-aligned middle of `buffer`, a fresh buffer about to be
    /// filled whole (a read, a heap recording's decompressed records), with huge pages
    /// (transparent huge pages, where enabled for `madvise`) when it is at least
    /// `hugePageThreshold` bytes: faulting a 26 MB input in 4 KiB at a time was half of its
    /// read's system time. Advice only; nothing changes elsewhere.
    public static func adviseHugePages(_ buffer: UnsafeMutableRawBufferPointer) {
        #if os(Linux)
        guard buffer.count >= hugePageThreshold, let base = buffer.baseAddress else { return }
        let huge = UInt(2 << 20)
        let start = (UInt(bitPattern: base) + huge - 1) & ~(huge - 1)
        let end = (UInt(bitPattern: base) + UInt(buffer.count)) & ~(huge - 1)
        guard end > start, let address = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(address, Int(end - start), MADV_HUGEPAGE)
        #endif
    }

    /// Names in directory `path` (without `.` and `..`), sorted so results are repeatable.
    public static func directoryEntries(_ path: String) throws(FileIOError) -> [String] {
        guard let dir = opendir(path) else { throw FileIOError.lastError(path: path) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// True when `path` names a directory (following symlinks).
    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// Writes `bytes` to standard output.
    public static func writeStandardOutput(_ bytes: [UInt8]) throws(FileIOError) {
        try writeAll(fd: 1, bytes, path: "<stdout>")
    }

    /// `writeStandardOutput(_:)` for bytes that are not in an array (`ByteWriter`'s buffer).
    public static func writeStandardOutput(_ bytes: UnsafeRawBufferPointer) throws(FileIOError) {
        try writeAll(fd: 1, bytes, path: "<stdout>")
    }

    /// Replaces `path` with `bytes` atomically: a temp file in the same directory, fsync,
    /// rename. An existing file keeps its permission bits (and owner, when allowed); a
    /// symlink is followed so its target is replaced, not the link. `-` writes stdout.
    /// `durable: false` skips the fsync (outputs made in bulk, which are cheap to make again).
    public static func writeAtomically(_ bytes: [UInt8], to path: String, durable: Bool = true) throws(FileIOError) {
        if path == standardStream { return try writeStandardOutput(bytes) }
        try withBytes(bytes) { buffer throws(FileIOError) in
            try writeAtomically(buffer, toTarget: resolvedTarget(path), path: path, modeLike: nil, durable: durable)
        }
    }

    /// `writeAtomically(_:to:)` for bytes that are not in an array (a built index, a mapping).
    /// `durable: false` skips the fsync: for caches, whose readers detect a torn file
    /// themselves and would rather not wait for the disk.
    public static func writeAtomically(contentsOf bytes: UnsafeRawBufferPointer, to path: String, durable: Bool = true) throws(FileIOError) {
        try writeAtomically(bytes, toTarget: resolvedTarget(path), path: path, modeLike: nil, durable: durable)
    }

    /// `body` over the array's bytes, keeping the typed error.
    static func withBytes(_ bytes: [UInt8], _ body: (UnsafeRawBufferPointer) throws(FileIOError) -> Void) throws(FileIOError) {
        var failure: FileIOError?
        bytes.withUnsafeBytes { buffer in
            do throws(FileIOError) { try body(buffer) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Saves `original` (the file's bytes before an edit) as `path~` beside the file a write to
    /// `path` replaces (a symlink's target), atomically, with the file's permission bits.
    /// Call before replacing `path`.
    public static func writeBackup(_ original: [UInt8], of path: String) throws(FileIOError) {
        let target = resolvedTarget(path)
        try withBytes(original) { buffer throws(FileIOError) in try writeAtomically(buffer, toTarget: target + "~", path: path + "~", modeLike: target) }
    }

    /// The one replacing writer, for bytes in hand (`AtomicFileWriter` has the details and
    /// takes the bytes in pieces). `keepOwner` refuses a replacement that would change the
    /// owner or group; `unchangedSince` refuses one when the target moved since that `stat`.
    static func writeAtomically(_ bytes: UnsafeRawBufferPointer, toTarget target: String, path: String, modeLike: String?,
                                durable: Bool = true, unchangedSince expected: stat? = nil, keepOwner: Bool = false) throws(FileIOError) {
        let file = try AtomicFileWriter(target: target, path: path, modeLike: modeLike, durable: durable,
                                        unchangedSince: expected, keepOwner: keepOwner)
        try file.write(bytes)
        try file.commit()
    }

    /// Gives the `O_TMPFILE` descriptor `fd` a hidden name starting with `prefix` (`linkat`
    /// through `/proc/self/fd`, which needs no privilege); returns it.
    static func linkTemporary(_ fd: Int32, prefix: String, path: String) throws(FileIOError) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        for _ in 0..<100 {
            let name = prefix + String((0..<6).map { _ in letters[Int.random(in: 0..<letters.count)] })
            if linkat(AT_FDCWD, "/proc/self/fd/\(fd)", AT_FDCWD, name, AT_SYMLINK_FOLLOW) == 0 { return name }
            guard errno == EEXIST else { throw FileIOError.lastError(path: path, doing: "cannot link the temporary file beside it") }
        }
        throw FileIOError(path: path, errno: EEXIST, reason: "cannot name a temporary file beside it")
    }

    /// Removes temp files of our naming pattern (`prefix` + 6 characters) that this user owns and
    /// that were last written before this process started: left by a devkit that was killed.
    static func removeStaleTemporaries(prefix: String) {
        let directory = String(prefix[..<(prefix.lastIndex(of: "/") ?? prefix.startIndex)])
        let stem = String(prefix[prefix.index(after: prefix.lastIndex(of: "/") ?? prefix.startIndex)...])
        guard let names = try? directoryEntries(directory.isEmpty ? "/" : directory) else { return }
        let started = processStartTime()
        for name in names where name.hasPrefix(stem) && name.utf8.count == stem.utf8.count + 6 {
            let candidate = (directory.isEmpty ? "" : directory) + "/" + name
            var info = stat()
            guard lstat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid(),
                  info.st_mtim.tv_sec < started else { continue }
            unlink(candidate)
        }
    }

    /// When this process started, in seconds since the epoch: `/proc/self/stat`'s start time
    /// (clock ticks after boot, field 22) plus `/proc/stat`'s `btime`. 0 when either cannot be
    /// read, so nothing counts as stale.
    static func processStartTime() -> Int {
        guard let stat = try? read("/proc/self/stat"), let boot = try? read("/proc/stat") else { return 0 }
        // Fields after the command name, which is in parentheses and may hold spaces.
        guard let close = stat.lastIndex(of: UInt8(ascii: ")")) else { return 0 }
        let fields = stat[(close + 1)...].split(separator: UInt8(ascii: " "))
        // Field 22 overall is the 20th after the name (fields 1 and 2 are pid and name).
        guard fields.count > 19, let ticks = Int(String(decoding: fields[19], as: UTF8.self)) else { return 0 }
        let bootLine = boot.split(separator: UInt8(ascii: "\n")).first { $0.starts(with: Array("btime ".utf8)) }
        guard let bootLine, let bootTime = Int(String(decoding: bootLine.dropFirst(6), as: UTF8.self)) else { return 0 }
        let hertz = sysconf(Int32(_SC_CLK_TCK))
        return bootTime + ticks / (hertz > 0 ? hertz : 100)
    }

    private static func writeAll(fd: Int32, _ bytes: [UInt8], path: String) throws(FileIOError) {
        try withBytes(bytes) { buffer throws(FileIOError) in try writeAll(fd: fd, buffer, path: path) }
    }

    static func writeAll(fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(FileIOError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.baseAddress.map { write(fd, $0 + offset, bytes.count - offset) } ?? 0
            if n < 0 {
                if errno == EINTR { continue }
                throw FileIOError.lastError(path: path)
            }
            offset += n
        }
    }

    /// Creates `path` and its missing parents (`mkdir -p`, mode 0755 before the umask).
    public static func createDirectories(_ path: String) throws(FileIOError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o755) != 0, errno != EEXIST { throw FileIOError.lastError(path: prefix) }
            prefix += "/"
        }
    }

    /// Follows symlinks (up to 40 hops) to the file a write should replace.
    static func resolvedTarget(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {
            var buffer = [CChar](repeating: 0, count: 4096)
            let n = readlink(current, &buffer, buffer.count - 1)
            guard n > 0 else { return current }
            let link = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if link.hasPrefix("/") {
                current = link
            } else {
                let dir = current.lastIndex(of: "/").map { String(current[...$0]) } ?? ""
                current = dir + link
            }
        }
        return current
    }

    static func baseName(_ path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }

    static func currentUmask() -> mode_t {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }
}

extension Array where Element == UInt8 {
    /// Lets `body` fill up to `count` bytes after the end; it reports how many it wrote.
    fileprivate mutating func withUnsafeMutableBufferPointerToSpare(_ count: Int, _ body: (UnsafeMutableBufferPointer<UInt8>, inout Int) -> Void) {
        let start = self.count
        self.append(contentsOf: repeatElement(0, count: count))
        var written = 0
        self.withUnsafeMutableBufferPointer { all in
            body(UnsafeMutableBufferPointer(rebasing: all[start..<(start + count)]), &written)
        }
        self.removeLast(count - written)
    }
}
