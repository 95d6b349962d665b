#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way devkit opens a file it did not create (issue 15 §1).
///
/// `open(O_RDONLY | O_NONBLOCK | O_CLOEXEC)` so a FIFO cannot block the open, then `fstat`,
/// then anything but a regular file is refused with what it is ("is a FIFO", "is a character
/// device", "is a directory"), then the size is checked against the kind's cap; only then is
/// O_NONBLOCK cleared for ordinary blocking reads.
public enum InputFile {
    /// What the bytes are for, and so how large they may be: a file over its kind's cap is
    /// refused before anything is read or mapped. Each cap is far above real inputs of the
    /// kind and small enough that reading and parsing one stays within memory.
    public enum Kind: Sendable {
        /// Property lists, read whole and parsed (Info.plist, entitlements, a 19 MB XML plist
        /// in the benchmarks): 512 MiB.
        case propertyList
        /// Provisioning profiles and certificates (real ones are 10 KB to 1 MB): 16 MiB.
        case profile
        /// Crash logs, .ips files, Swift backtraces, sanitizer reports and address lists
        /// (read whole; a 500,000-frame backtrace is 100 MB): 512 MiB.
        case crashLog
        /// Settings devkit reads from the tree it works on (`.devkit.yml`, `.gitignore`): 4 MiB.
        case configuration
        /// Anything else read whole (archives, executables inside bundles): 2 GiB.
        case general
        /// Memory-mapped object, debug, core and recording files: 16 GiB (mapped, not read).
        case mapped

        /// The largest size accepted, in bytes.
        public var sizeCap: Int {
            switch self {
            case .propertyList, .crashLog: return 512 << 20
            case .profile: return 16 << 20
            case .configuration: return 4 << 20
            case .general: return 2 << 30
            case .mapped: return 16 << 30
            }
        }
    }

    /// An open descriptor on a regular file of at most `kind.sizeCap` bytes, and its fstat.
    /// The caller closes the descriptor.
    public static func open(_ path: String, kind: Kind = .general) throws(FileIOError) -> (fd: Int32, info: stat) {
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw FileIOError.lastError(path: path) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let error = FileIOError.lastError(path: path)
            close(fd)
            throw error
        }
        // Invariant: only regular files are read; devices never end, FIFOs block or never end.
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw FileIOError(path: path, errno: info.st_mode & S_IFMT == S_IFDIR ? EISDIR : 0, reason: describe(mode: info.st_mode))
        }
        // Invariant: the size fits the cap for this kind of input.
        guard Int(info.st_size) <= kind.sizeCap else {
            close(fd)
            throw overCap(path: path, size: Int(info.st_size), kind: kind)
        }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        return (fd, info)
    }

    /// The error for a file of `size` bytes over `kind`'s cap.
    static func overCap(path: String, size: Int, kind: Kind) -> FileIOError {
        FileIOError(path: path, reason: "is \(size) bytes, more than the \(kind.sizeCap)-byte limit for this kind of input")
    }

    /// "is a FIFO", "is a character device", ... for a file mode that is not a regular file.
    static func describe(mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "is a directory"
        case S_IFIFO: return "is a FIFO"
        case S_IFCHR: return "is a character device"
        case S_IFBLK: return "is a block device"
        case S_IFSOCK: return "is a socket"
        case S_IFLNK: return "is a symbolic link"
        default: return "is not a regular file"
        }
    }
}
