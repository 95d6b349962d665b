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
            try script.apply(to: &value, output: &output) { path throws(PlistBuddyError) in
                do {
                    return try PropertyListCoding.read(try FileIO.read(path, kind: .propertyList)).value
                } catch {
                    throw PlistBuddyError("Merge: Error Reading File: \(path)")
                }
            }
        } catch {
            throw .scriptFailed(error, output: output)
        }
        return output
    }

    /// Writes the file when the commands changed its value or it is new, keeping the previous
    /// contents as FILE~ when `backup` is set (`force`: see `PlistFile.replace`).
    public func save(backup: Bool, force: Bool = false) throws(Failure) {
        guard value != original || !fileExists else { return }
        do throws(PlistFileError) {
            // XML and OpenStep files change only where the script changed something.
            let bytes: [UInt8]
            if let rewritten = PlistEditor.losslessRewrite(originalBytes, to: value) {
                bytes = rewritten
            } else {
                bytes = try PlistFile.serialize(value, as: format, source: file)
            }
            if fileExists {
                try PlistFile.replace(file, original: originalBytes, with: bytes, backup: backup, force: force)
            } else {
                try PlistFile.write(bytes, to: file)
            }
        } catch {
            throw .file(error)
        }
    }
}
