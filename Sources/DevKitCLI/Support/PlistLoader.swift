import PlistTools
import PropertyList

/// `PlistFile` for commands: reader warnings to standard error, errors as command failures.
enum PlistLoader {
    /// Loads one property list, naming the file in any error.
    static func load(_ path: String, format: PlistFormat?) throws(CommandFailure) -> PlistDocument {
        do { return try PlistFile.load(path, format: format, warning: FileHandleOutput.standardError) } catch { throw .diagnostic(error) }
    }

    /// The value's bytes in `format`; a value the format cannot hold names `source`.
    static func serialize(_ value: PlistValue, as format: PlistFormat, source: String) throws(CommandFailure) -> [UInt8] {
        do { return try PlistFile.serialize(value, as: format, source: source) } catch { throw .diagnostic(error) }
    }

    /// Edits `file` in place (standard input to standard output for `-`); see `PlistFile.edit`.
    static func edit(_ file: String, backup: Bool, force: Bool, _ edit: ([UInt8]) throws(PlistError) -> [UInt8]) throws(CommandFailure) {
        do { try PlistFile.edit(file, backup: backup, force: force, edit) } catch { throw .diagnostic(error) }
    }
}
