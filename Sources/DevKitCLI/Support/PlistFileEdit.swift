import System
import PropertyList

/// Reads a property list, edits its bytes and writes them back atomically; on any error the
/// file is untouched. `-` reads standard input and writes the result to standard output.
enum PlistFileEdit {
    static func apply(to file: String, options: WriteOptions, _ edit: ([UInt8]) throws(PlistError) -> [UInt8]) throws(CommandFailure) {
        let bytes: [UInt8]
        do { bytes = try FileIO.read(file) } catch { throw .io(error) }
        let edited: [UInt8]
        do { edited = try edit(bytes) } catch { throw .plist(error.inFile(file == "-" ? "<stdin>" : file)) }
        try replace(file, original: bytes, with: edited, options: options)
    }

    /// Writes `edited` over `file` (stdout for `-`), keeping `original` as FILE~ with --backup.
    /// An unchanged file is not touched (its mtime stays).
    static func replace(_ file: String, original: [UInt8], with edited: [UInt8], options: WriteOptions) throws(CommandFailure) {
        if file == FileIO.standardStream { return try FileHandleOutput.standardOutput(edited) }
        guard edited != original else { return }
        do {
            if options.backup { try FileIO.writeBackup(original, of: file) }
            try FileIO.writeAtomically(edited, to: file)
        } catch { throw .io(error) }
    }
}
