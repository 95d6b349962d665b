#if canImport(Glibc)
import Glibc
#endif

/// A new private directory under $TMPDIR (or /tmp), made with `mkdtemp`: a place for files a
/// person edits, removed by its owner when done.
public struct TemporaryDirectory: Sendable {
    /// The directory's path.
    public let path: String

    /// Creates `$TMPDIR/<prefix>XXXXXX`. A failure names the parent directory.
    public init(prefix: String) throws(FileIOError) {
        var base = Environment.nonEmptyValue("TMPDIR") ?? "/tmp"
        while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
        var template = Array("\(base)/\(prefix)XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkdtemp($0) != nil } ?? false
        }
        guard made else { throw FileIOError(path: base, reason: String(cString: strerror(errno))) }
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Removes the files named (paths inside the directory), then the directory; what cannot
    /// be removed stays.
    public func remove(files: [String]) {
        for file in files { unlink(file) }
        rmdir(path)
    }

    /// Removes the directory and everything in it (an unpacked archive), without following
    /// symbolic links out of it; what cannot be removed stays.
    public func removeAll() {
        FileIO.removeTree(path)
    }
}
