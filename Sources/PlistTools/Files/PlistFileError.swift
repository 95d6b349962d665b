import PropertyList
import System

/// Why a property-list file could not be read, parsed, converted or written.
public enum PlistFileError: Error, Sendable {
    /// Reading or writing the file failed (the path and the system's reason).
    case io(FileIOError)
    /// The bytes are not a property list, or the value cannot be written in the asked format;
    /// the error names the file.
    case plist(PlistError)
}
