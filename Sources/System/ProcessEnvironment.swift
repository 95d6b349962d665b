#if canImport(Glibc)
import Glibc
#endif

/// Another process's environment as it was at its `execve`, from /proc/PID/environ: the
/// kernel lets only the process's owner (or root) read it.
public enum ProcessEnvironment {
    /// Environments larger than this are not read (the kernel's own limit on arguments plus
    /// environment is far below it).
    static let maximumSize = 4 << 20

    /// The value of `name` in process `pid`'s environment; nil when it is not set or the
    /// environment cannot be read (no such process, another user's).
    public static func value(_ name: String, pid: Int32) -> String? {
        let fd = open("/proc/\(pid)/environ", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while bytes.count < maximumSize {
            let n = chunk.withUnsafeMutableBytes { buffer in buffer.baseAddress.map { read(fd, $0, buffer.count) } ?? 0 }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            bytes.append(contentsOf: chunk.prefix(n))
        }
        let prefix = Array((name + "=").utf8)
        for entry in bytes.split(separator: 0, omittingEmptySubsequences: true) where entry.starts(with: prefix) {
            return String(decoding: entry.dropFirst(prefix.count), as: UTF8.self)
        }
        return nil
    }
}
