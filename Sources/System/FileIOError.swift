#if canImport(Glibc)
import Glibc
#endif
import Diagnostics

/// A file that could not be read or written: the path, the operating system's errno (0 when
/// the refusal is devkit's own, such as "is not a regular file") and its text.
public struct FileIOError: Error, Equatable, Sendable, CustomStringConvertible, DiagnosticConvertible {
    /// The path as the user gave it (`-` for standard input/output).
    public var path: String
    /// The errno of the failed call; 0 when no call failed.
    public var errno: Int32
    /// What went wrong, for a person: strerror's text, with what was being done in front of it.
    public var reason: String

    public init(path: String, errno: Int32 = 0, reason: String? = nil) {
        self.path = path
        self.errno = errno
        self.reason = reason ?? String(cString: strerror(errno))
    }

    /// The error of the call that just failed (the current `errno`), optionally saying what
    /// was being done: `"fsync failed: Input/output error"`.
    public static func lastError(path: String, doing action: String? = nil) -> FileIOError {
        let code = Glibc.errno
        let text = String(cString: strerror(code))
        return FileIOError(path: path, errno: code, reason: action.map { "\($0): \(text)" } ?? text)
    }

    /// True when the file does not exist (ENOENT).
    public var isFileNotFound: Bool { errno == ENOENT }

    public var description: String { "\(path): \(reason)" }

    public var diagnostic: Diagnostic {
        Diagnostic(file: path, message: reason, kind: isFileNotFound ? .fileNotFound : .io)
    }
}
