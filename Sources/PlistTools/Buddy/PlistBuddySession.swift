import PropertyList
import System

/// `devkit plist buddy`: PlistBuddy commands run on one file, all or nothing. The file is read
/// (or, when missing and the first command creates, started as an empty XML dictionary), the
/// script runs on its value, and a changed value is written back: XML and OpenStep files only
/// where the script changed something, binary and JSON files rewritten in their format.
public struct PlistBuddySession {
    /// Why the session stopped; the file is never half-written.
    public enum Failure: Error {
        /// The file could not be read, parsed or written.
        case file(PlistFileError)
        /// A command does not parse (nothing was read or run).
        case invalidScript(PlistBuddyError)
        /// A command failed while running; `output` is what the commands before it printed.
        case scriptFailed(PlistBuddyError, output: [UInt8])
    }

    /// The file the commands run on.
    public let file: String
    /// False when the file does not exist yet and will be created as XML.
    public let fileExists: Bool
    private let script: PlistBuddyScript
    private let originalBytes: [UInt8]
    private let original: PlistValue
    private let format: PlistFormat
    private var value: PlistValue

    /// Parses the commands, then reads the file.
    public init(file: String, commands: [String]) throws(Failure) {
        do { script = try PlistBuddyScript(parsing: commands) } catch { throw .invalidScript(error) }
        self.file = file
        do {
            originalBytes = try FileIO.read(file, kind: .propertyList)
            fileExists = true
        } catch {
            guard script.commands.first?.createsFile == true, error.isFileNotFound else {
                throw .file(.io(error))
            }
            originalBytes = []
            fileExists = false
        }
        if fileExists {
            let document: PlistDocument
            do { document = try PropertyListCoding.read(originalBytes) } catch { throw .file(.plist(error.inFile(file))) }
            original = document.value
            format = document.format
        } else {
            original = .dictionary([:])
            format = .xml
        }
        value = original
    }

    /// Runs the commands on the file's value; returns what Print commands printed. Call
    /// `save(backup:)` after to write the result.
    public mutating func runCommands() throws(Failure) -> [UInt8] {
        var output: [UInt8] = []
        do {
            try script.apply(to: &value, output: &output, loadFile: Self.mergeSource, readBytes: Self.importSource)
        } catch {
            throw .scriptFailed(error, output: output)
        }
        return output
    }

    /// Writes the file when the commands changed its value or it is new, keeping the previous
    /// contents as FILE~ when `backup` is set (`force`: see `PlistFile.replace`).
    public func save(backup: Bool, force: Bool = false) throws(Failure) {
        guard value != original || !fileExists else { return }
        do { try Self.write(value, over: fileExists ? originalBytes : nil, format: format, to: file, backup: backup, force: force) } catch {
            throw .file(error)
        }
    }

    /// The plist a Merge names, with PlistBuddy's message when it cannot be read.
    static func mergeSource(_ path: String) throws(PlistBuddyError) -> PlistValue {
        do {
            return try PropertyListCoding.read(try FileIO.read(path, kind: .propertyList)).value
        } catch {
            throw PlistBuddyError("Merge: Error Reading File: \(path)")
        }
    }

    /// The bytes an Import names.
    static func importSource(_ path: String) throws(PlistBuddyError) -> [UInt8] {
        do { return try FileIO.read(path) } catch { throw PlistBuddyError("Import: Error Reading File: \(path) (\(error.reason))") }
    }

    /// Writes `value` to `file`: over `original` (the bytes read, nil for a new file) in place,
    /// XML and OpenStep files changing only where the value changed, others in `format`.
    static func write(_ value: PlistValue, over original: [UInt8]?, format: PlistFormat, to file: String,
                      backup: Bool, force: Bool) throws(PlistFileError) {
        guard let original else {
            try PlistFile.write(try PlistFile.serialize(value, as: format, source: file), to: file)
            return
        }
        var bytes: [UInt8]
        if let rewritten = PlistEditor.losslessRewrite(original, to: value) { bytes = rewritten } else {
            bytes = try PlistFile.serialize(value, as: format, source: file)
        }
        try PlistFile.replace(file, original: original, with: bytes, backup: backup, force: force)
    }
}
