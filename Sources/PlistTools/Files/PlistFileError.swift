import Diagnostics
import PropertyList
import System

/// Why a property-list file could not be read, parsed, converted or written.
public enum PlistFileError: Error, Sendable, DiagnosticConvertible {
    /// Reading or writing the file failed (the path and the system's reason).
    case io(FileIOError)
    /// The bytes are not a property list, or the value cannot be written in the asked format;
    /// the error names the file.
    case plist(PlistError)

    /// An error without a file names it `<input>`.
    public var diagnostic: Diagnostic {
        switch self {
        case .io(let error): error.diagnostic
        case .plist(let error): error.diagnostic.inFile("<input>")
        }
    }
}
