import PropertyList
import System

/// Apple's PlistBuddy on Linux (`devkit PlistBuddy [-x] [-c CMD]... FILE`, or a link named
/// PlistBuddy): commands run one by one as PlistBuddy runs them. A failing command prints its
/// error and the next one still runs (the exit status is then 1); after `-c` commands a changed
/// value is saved, in interactive mode only on `Save`. A missing file is created on save.
public struct PlistBuddyShell {
    public let file: String
    /// `-x`: Print writes XML instead of PlistBuddy's own layout.
    public let printsXML: Bool
    private var savedBytes: [UInt8]?
    private var saved: PlistValue
    private let format: PlistFormat
    public private(set) var value: PlistValue

    /// What one command did: its output, its error message, and whether it asked to exit.
    public struct Outcome: Equatable {
        public var output: [UInt8] = []
        public var error: String?
        public var exits = false
    }

    /// Reads `file`; a missing file starts as an empty dictionary (PlistBuddy says
    /// "File Doesn't Exist, Will Create: FILE" — `fileExists` tells the caller to).
    public init(file: String, printsXML: Bool = false) throws(PlistFileError) {
        self.file = file
        self.printsXML = printsXML
        let bytes: [UInt8]?
        do { bytes = try FileIO.read(file, kind: .propertyList) } catch {
            guard error.isFileNotFound else { throw .io(error) }
            bytes = nil
        }
        if let bytes {
            let document: PlistDocument
            do { document = try PropertyListCoding.read(bytes) } catch { throw .plist(error.inFile(file)) }
            savedBytes = bytes
            saved = document.value
            format = document.format
        } else {
            savedBytes = nil
            saved = .dictionary([:])
            format = .xml
        }
        value = saved
    }

    public var fileExists: Bool { savedBytes != nil }
    /// True when the value differs from the file (or the file does not exist yet).
    public var hasUnsavedChanges: Bool { value != saved || savedBytes == nil }

    /// Runs one command line.
    public mutating func execute(_ line: String) -> Outcome {
        var outcome = Outcome()
        let command: PlistBuddyCommand
        do { command = try PlistBuddyCommand.parse(line) } catch {
            outcome.error = error.message
            return outcome
        }
        switch command {
        case .exit:
            outcome.exits = true
        case .help:
            outcome.output = Array(Self.help.utf8)
        case .save:
            do { try save() } catch { outcome.error = "Save: \(error.diagnostic.message)" }
            if outcome.error == nil { outcome.output = Array("Saving...\n".utf8) }
        case .revert:
            value = saved
            outcome.output = Array("Reverting to last saved state...\n".utf8)
        default:
            var edited = value
            do {
                try PlistBuddyScript.apply(command, to: &edited, output: &outcome.output, loadFile: PlistBuddySession.mergeSource,
                                           readBytes: PlistBuddySession.importSource, printsXML: printsXML)
                value = edited
            } catch {
                outcome.error = error.message
            }
        }
        return outcome
    }

    /// Runs PlistBuddy's command line (`[-x] [-h] [-c CMD]... FILE`, options anywhere) and
    /// returns its exit status: 0, or 1 when a command failed or the arguments are wrong.
    /// Without -c, commands are read from `readLine` after a `Command: ` prompt until Exit,
    /// Quit or the end of the input.
    public static func run(_ arguments: [String], write: ([UInt8]) -> Void, writeError: (String) -> Void,
                           readLine: () -> String?) -> Int32 {
        var commands: [String] = []
        var printsXML = false
        var file: String?
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "-c":
                index += 1
                guard index < arguments.count else {
                    writeError("-c needs a command\n" + usage)
                    return 1
                }
                commands.append(arguments[index])
            case "-x": printsXML = true
            case "-h":
                write(Array((usage + "\n" + help).utf8))
                return 0
            case let argument where argument.hasPrefix("-") && argument != "-":
                writeError("Invalid Option: \(argument)\n" + usage)
                return 1
            case let argument:
                guard file == nil else {
                    writeError("Too many arguments: \(argument)\n" + usage)
                    return 1
                }
                file = argument
            }
            index += 1
        }
        guard let file else {
            writeError(usage)
            return 1
        }
        var shell: PlistBuddyShell
        do { shell = try PlistBuddyShell(file: file, printsXML: printsXML) } catch {
            writeError("Error Reading File: \(file) (\(error.diagnostic.message))\n")
            return 1
        }
        if !shell.fileExists { writeError("File Doesn't Exist, Will Create: \(file)\n") }
        var status: Int32 = 0
        func perform(_ line: String) -> Bool {
            let outcome = shell.execute(line)
            write(outcome.output)
            if let error = outcome.error {
                writeError(error + "\n")
                status = 1
            }
            return outcome.exits
        }
        if commands.isEmpty {
            while true {
                write(Array("Command: ".utf8))
                guard let line = readLine() else { break }
                if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
                if perform(line) { break }
            }
            return status
        }
        for command in commands where perform(command) { break }
        do { try shell.save() } catch {
            writeError("Error Writing File: \(file) (\(error.diagnostic.message))\n")
            status = 1
        }
        return status
    }

    /// The usage lines printed with a usage error and before `-h`'s command list.
    public static let usage = """
        Usage: PlistBuddy [-cxh] <file.plist>
            -c "<command>" execute command and exit (repeatable)
            -x             Print writes XML
            -h             print this help

        """

    /// Writes the value when it changed (or the file is new).
    public mutating func save() throws(PlistFileError) {
        guard hasUnsavedChanges else { return }
        try PlistBuddySession.write(value, over: savedBytes, format: format, to: file, backup: false, force: false)
        savedBytes = try? FileIO.read(file, kind: .propertyList)
        saved = value
    }

    /// The command list `Help` and `-h` print.
    public static let help = """
        Commands (one per -c, or one per line at the Command: prompt):
            Help                          this list
            Exit | Quit                   leave; unsaved changes are dropped
            Save                          write the changes to the file
            Revert                        go back to the last saved contents
            Clear [<Type>]                replace everything with an empty root of Type (dict)
            Print [<Entry>]               print Entry, or the whole file
            Set <Entry> <Value>           change the value at Entry
            Add <Entry> <Type> [<Value>]  add Entry of Type (with Value)
            Copy <EntrySrc> <EntryDst>    copy the value at EntrySrc to EntryDst
            Delete <Entry>                remove Entry
            Merge <file.plist> [<Entry>]  add the contents of file.plist to Entry (or the root)
            Import <Entry> <file>         set or add Entry to the bytes of file, as data

        Entries are key names separated by colons, array items zero-based indexes:
            :CFBundleShortVersionString
            :CFBundleDocumentTypes:2:CFBundleTypeExtensions

        Types: string, array, dict, bool, real, integer, date, data

        """
}
