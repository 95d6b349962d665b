import PropertyList
import System

/// Property-list files as the `devkit plist` commands read and write them: `-` is standard
/// input (named `<stdin>` in errors) or standard output, and every error names the file.
public enum PlistFile {
    /// The name errors use for `path`: `<stdin>` for `-`.
    public static func displayName(_ path: String) -> String {
        path == FileIO.standardStream ? "<stdin>" : path
    }

    /// Reads and parses one property list (format detected unless given); each reader warning
    /// goes to `warning` as a `path: warning: …` line.
    public static func load(_ path: String, format: PlistFormat?, warning: (String) -> Void) throws(PlistFileError) -> PlistDocument {
        let bytes: [UInt8]
        do { bytes = try FileIO.read(path) } catch { throw .io(error) }
        return try parse(bytes, named: path, format: format, warning: warning)
    }

    /// Parses bytes read from `path`, as `load` does.
    public static func parse(_ bytes: [UInt8], named path: String, format: PlistFormat?, warning: (String) -> Void) throws(PlistFileError) -> PlistDocument {
        do {
            let document = try PropertyListCoding.read(bytes, format: format)
            for message in document.warnings { warning("\(path): warning: \(message)\n") }
            return document
        } catch {
            throw .plist(error.inFile(displayName(path)))
        }
    }

    /// Leaves a document for process exit to reclaim. Freeing a 300k-value tree one object at
    /// a time is a measurable share of a conversion and buys nothing just before the process
    /// ends (clang's -disable-free does the same). Call only at the end of a command.
    public static func abandonAtExit(_ document: PlistDocument) {
        final class Box { let document: PlistDocument; init(_ d: PlistDocument) { document = d } }
        _ = Unmanaged.passRetained(Box(document))
    }

    /// The value's bytes in `format`; a value the format cannot hold is an error naming `source`.
    public static func serialize(_ value: PlistValue, as format: PlistFormat, source: String) throws(PlistFileError) -> [UInt8] {
        do { return try PropertyListCoding.write(value, as: format) } catch {
            throw .plist(PlistError(file: source, position: nil, message: "cannot write as \(format): \(error.message)"))
        }
    }

    /// Reads `file`, edits its bytes and writes them back atomically; on any error the file is
    /// untouched. `-` reads standard input and writes the result to standard output.
    public static func edit(_ file: String, backup: Bool, _ edit: ([UInt8]) throws(PlistError) -> [UInt8]) throws(PlistFileError) {
        let bytes: [UInt8]
        do { bytes = try FileIO.read(file) } catch { throw .io(error) }
        let edited: [UInt8]
        do { edited = try edit(bytes) } catch { throw .plist(error.inFile(displayName(file))) }
        try replace(file, original: bytes, with: edited, backup: backup)
    }

    /// Writes `edited` over `file` (standard output for `-`), keeping `original` as FILE~ when
    /// `backup` is set. An unchanged file is not touched (its mtime stays).
    public static func replace(_ file: String, original: [UInt8], with edited: [UInt8], backup: Bool) throws(PlistFileError) {
        do {
            if file == FileIO.standardStream { return try FileIO.writeStandardOutput(edited) }
            guard edited != original else { return }
            if backup { try FileIO.writeBackup(original, of: file) }
            try FileIO.writeAtomically(edited, to: file)
        } catch { throw .io(error) }
    }

    /// Writes `bytes` to `path` (standard output for `-`), atomically.
    public static func write(_ bytes: [UInt8], to path: String) throws(PlistFileError) {
        do { try FileIO.writeAtomically(bytes, to: path) } catch { throw .io(error) }
    }

    /// Converts `file` (format detected unless `inputFormat` is given) to `format`, written
    /// over the file when `inPlace` (keeping FILE~ when `backup`), else to `output` (standard
    /// output when nil or `-`).
    public static func convert(_ file: String, from inputFormat: PlistFormat?, to format: PlistFormat, output: String?,
                               inPlace: Bool, backup: Bool, warning: (String) -> Void) throws(PlistFileError) {
        let original: [UInt8]
        do { original = try FileIO.read(file) } catch { throw .io(error) }
        let document = try parse(original, named: file, format: inputFormat, warning: warning)
        let bytes = try serialize(document.value, as: format, source: file)
        if inPlace {
            try replace(file, original: original, with: bytes, backup: backup)
        } else {
            try write(bytes, to: output ?? FileIO.standardStream)
        }
        abandonAtExit(document)
    }
}
