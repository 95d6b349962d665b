import Diagnostics
import System

/// Why `HeapdiffSession` could not report.
public enum HeapdiffError: Error, Sendable, DiagnosticConvertible {
    /// A recording could not be opened or read.
    case io(FileIOError)
    /// A recording's header is not one this reader reads.
    case unreadable(RecordingError)
    /// `leaks` asked of a recording made without `--scan-at-exit` (or whose program did not
    /// exit normally).
    case noExitScan(path: String)

    /// One line, `file: …: error: …`.
    public var message: String { diagnostic.description }

    public var diagnostic: Diagnostic {
        switch self {
        case .io(let error): error.diagnostic
        case .unreadable(let error): error.diagnostic
        case .noExitScan(let path):
            Diagnostic(file: path, message: "the recording has no exit scan; record with `devkit heap record --scan-at-exit` (and let the program exit normally: no scan after _exit, a crash or a kill)")
        }
    }
}
