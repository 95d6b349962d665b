import PropertyList
import System

/// Apple's plutil on Linux (`devkit plutil …`, or devkit through a link named plutil): the
/// command line of `PlutilCommandLine` run file by file. Exit status 0, or 1 when any file
/// failed or the command line is wrong, as plutil's. Edits go through devkit's lossless editor
/// (an `-insert` into an XML file changes only the inserted lines) and writes are atomic.
public enum PlutilTool {
    /// Runs `arguments` (without the program name); `write` receives standard output,
    /// `writeError` standard error.
    public static func run(_ arguments: [String], write: ([UInt8]) -> Void, writeError: (String) -> Void) -> Int32 {
        let commandLine: PlutilCommandLine
        do { commandLine = try PlutilCommandLine.parse(arguments) } catch {
            writeError("\(error.message)\n" + usage)
            return 1
        }
        if commandLine.command == .help {
            write(Array(usage.utf8))
            return 0
        }
        var status: Int32 = 0
        for file in commandLine.files {
            do throws(Failure) { try run(commandLine, on: file, write: write) } catch {
                writeError("\(PlistFile.displayName(file)): \(error.message)\n")
                status = 1
            }
        }
        return status
    }

    /// Why one file failed: plutil's message, printed after the file's name.
    struct Failure: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    private static func read(_ file: String) throws(Failure) -> (bytes: [UInt8], document: PlistDocument) {
        let bytes: [UInt8]
        do { bytes = try FileIO.read(file, kind: .propertyList) } catch { throw Failure(error.reason) }
        do { return (bytes, try PropertyListCoding.read(bytes)) } catch { throw Failure(error.description) }
    }

    private static func run(_ commandLine: PlutilCommandLine, on file: String, write: ([UInt8]) -> Void) throws(Failure) {
        switch commandLine.command {
        case .help:
            return
        case .lint:
            _ = try read(file)
            if !commandLine.silent { write(Array("\(PlistFile.displayName(file)): OK\n".utf8)) }
        case .print:
            write(Array(PlistPrinter().render(try read(file).document.value).utf8))
        case .create(let format):
            try emit(try encode(.dictionary([:]), as: format, readable: commandLine.readable), for: file, commandLine, inPlace: true, write: write)
        case .convert(let format) where format == .swift || format == .objc:
            // Source goes beside the file (NAME.swift, NAME.m), never over it.
            let value = try read(file).document.value
            let source = PlutilSourceLiteral.render(value, language: format == .swift ? .swift : .objc, file: file)
            var options = commandLine
            if options.output == nil, options.outputExtension == nil, file != FileIO.standardStream {
                options.outputExtension = format == .swift ? "swift" : "m"
            }
            try emit(Array(source.utf8), for: file, options, inPlace: false, write: write)
        case .convert(let format):
            let bytes: [UInt8]
            do { bytes = try FileIO.read(file, kind: .propertyList) } catch { throw Failure(error.reason) }
            if let streamed = streamed(bytes, as: format, readable: commandLine.readable) {
                try emit(streamed, for: file, commandLine, inPlace: true, write: write)
                return
            }
            let value: PlistValue
            do { value = try PropertyListCoding.read(bytes).value } catch { throw Failure(error.description) }
            try emit(try encode(value, as: format, readable: commandLine.readable), for: file, commandLine, inPlace: true, write: write)
        case .extract(let keyPath, let format):
            let value = try self.value(at: keyPath, in: try read(file).document.value, expecting: commandLine.expectedType)
            let bytes = format == .raw ? try raw(value, keyPath: keyPath) : try encode(value, as: format, readable: commandLine.readable)
            // Like plutil, a non-raw extraction without -o replaces the file ("-o -" prints it).
            try emit(bytes, for: file, commandLine, inPlace: format != .raw, write: write)
        case .type(let keyPath):
            let value = try self.value(at: keyPath, in: try read(file).document.value, expecting: commandLine.expectedType)
            write(Array((typeName(value) + "\n").utf8))
        case .insert, .replace, .remove:
            try edit(file, commandLine, write: write)
        }
    }

    /// The value at a plutil key path (`a.b.0`, `\.` for a dot in a key); with `-expect`,
    /// of that type.
    private static func value(at keyPath: String, in root: PlistValue, expecting expected: String?) throws(Failure) -> PlistValue {
        guard let value = try? root.value(at: KeyPath.parse(keyPath)) else {
            throw Failure("Could not extract value, error: No value at that key path or invalid key path: \(keyPath)")
        }
        if let expected, expected != typeName(value) {
            throw Failure("Value at [\(keyPath)] expected to be \(expected) but is \(typeName(value))")
        }
        return value
    }

    /// plutil's type names (`-type`, `-expect`).
    static func typeName(_ value: PlistValue) -> String {
        switch value {
        case .dictionary: "dictionary"
        case .real: "float"
        case .uid: "uid"
        default: value.typeName
        }
    }

    /// `-extract … raw`: the bare value and a newline; containers have no raw form.
    private static func raw(_ value: PlistValue, keyPath: String) throws(Failure) -> [UInt8] {
        let text: String
        switch value {
        case .string(let string): text = string
        case .integer(let integer): text = integer.description
        case .real(let real): text = real.description
        case .bool(let bool): text = bool ? "true" : "false"
        case .date(let date): text = date.iso8601
        case .data(let bytes): text = Base64.encodedString(bytes)
        case .uid(let uid): text = "\(uid)"
        case .array, .dictionary:
            throw Failure("Value at [\(keyPath)] is of type \(typeName(value)); raw extraction needs a string, number, bool, date or data")
        }
        return Array((text + "\n").utf8)
    }

    /// A binary or XML file as XML or JSON without a value tree, as `encode` would write it;
    /// nil when the tree must do it (`PropertyListCoding.stream`), which also words any error.
    private static func streamed(_ bytes: [UInt8], as format: PlutilCommandLine.Format, readable: Bool) -> [UInt8]? {
        let target: PlistFormat? = switch format {
        case .xml1: .xml
        case .json: .json
        case .binary1, .raw, .swift, .objc: nil
        }
        guard let target, let source = PropertyListCoding.streamableSource(bytes, declared: nil, to: target),
              var out = bytes.withUnsafeBytes({
                  PropertyListCoding.stream($0, from: source, to: target, lossyJSON: false, compactJSON: !readable)
              }) else { return nil }
        // No final newline, as plutil writes JSON (see `encode`).
        if format == .json, out.last == 0x0A { out.removeLast() }
        return out
    }

    private static func encode(_ value: PlistValue, as format: PlutilCommandLine.Format, readable: Bool) throws(Failure) -> [UInt8] {
        do {
            switch format {
            case .xml1: return try PropertyListCoding.write(value, as: .xml)
            case .binary1: return try PropertyListCoding.write(value, as: .binary)
            case .json:
                // No final newline, as plutil writes JSON (JSONSerialization's output).
                var bytes = try PropertyListCoding.writeStrictJSON(value, pretty: readable)
                if bytes.last == 0x0A { bytes.removeLast() }
                return bytes
            case .raw: throw Failure("raw is a format of -extract only")
            case .swift, .objc: throw Failure("\(format.rawValue) is a format of -convert only")
            }
        } catch let error as PlistError {
            throw Failure("invalid object in plist for destination format (\(error.message))")
        } catch let error as Failure {
            throw error
        } catch {
            throw Failure("\(error)")
        }
    }

    /// Where converted or extracted bytes go: `-o` (`-` is standard output), `-e` (the file
    /// with that extension), the file itself (`inPlace`), or standard output.
    private static func emit(_ bytes: [UInt8], for file: String, _ commandLine: PlutilCommandLine, inPlace: Bool,
                             write: ([UInt8]) -> Void) throws(Failure) {
        var target: String? = commandLine.output
        if target == nil, let ext = commandLine.outputExtension {
            let directoryEnd = file.lastIndex(of: "/").map { file.index(after: $0) } ?? file.startIndex
            let name = file[directoryEnd...]
            let stem = name.lastIndex(of: ".").map { name[..<$0] } ?? name
            target = String(file[..<directoryEnd]) + stem + "." + ext
        }
        if target == nil, inPlace, file != FileIO.standardStream { target = file }
        guard let target, target != FileIO.standardStream else {
            write(bytes)
            return
        }
        do { try PlistFile.write(bytes, to: target) } catch { throw Failure(error.diagnostic.message) }
    }

    private static func editValue(_ value: PlutilCommandLine.Value) -> (text: String, type: PlistEditType) {
        switch value {
        // plutil: YES for "YES" or "true", NO for anything else.
        case .bool(let text): (text == "YES" || text == "true" ? "true" : "false", .bool)
        case .integer(let text): (text, .integer)
        case .float(let text): (text, .real)
        case .string(let text): (text, .string)
        case .date(let text): (text, .date)
        case .data(let text): (text, .data)
        case .xml(let text): (text, .xml)
        case .json(let text): (text, .json)
        case .array: ("[]", .json)
        case .dictionary: ("{}", .json)
        }
    }

    /// -insert, -replace and -remove: the lossless editor on the file's own bytes, written
    /// back atomically (or to -o).
    private static func edit(_ file: String, _ commandLine: PlutilCommandLine, write: ([UInt8]) -> Void) throws(Failure) {
        let (bytes, document) = try read(file)
        let root = document.value
        let edit: PlistEdit
        do throws(PlistError) {
            switch commandLine.command {
            case .insert(let keyPath, let value, let append):
                let (text, type) = editValue(value)
                var path = KeyPath.parse(keyPath)
                if append {
                    guard case .array(let items)? = try? root.value(at: path) else {
                        throw PlistError(position: nil, message: "Value at [\(keyPath)] is not an array")
                    }
                    path = path.appending(String(items.count))
                } else if (try? root.value(at: path)) != nil, case .dictionary? = try? root.value(at: path.parent) {
                    throw PlistError(position: nil, message: "Key \(path.components.last ?? keyPath) already exists")
                }
                edit = try PlistEditor.insertEdit(in: root, at: path, text: text, type: type)
            case .replace(let keyPath, let value):
                let (text, type) = editValue(value)
                edit = try PlistEditor.setEdit(in: root, at: KeyPath.parse(keyPath), text: text, type: type, createParents: false)
            case .remove(let keyPath):
                guard (try? root.value(at: KeyPath.parse(keyPath))) != nil else {
                    throw PlistError(position: nil, message: "No value to remove at key path \(keyPath)")
                }
                edit = .delete(KeyPath.parse(keyPath))
            default:
                return
            }
        } catch {
            throw Failure(error.message)
        }
        let edited: [UInt8]
        do { edited = try PlistEditor.apply([edit], to: bytes) } catch { throw Failure(error.message) }
        if let output = commandLine.output {
            guard output != FileIO.standardStream else { return write(edited) }
            do { try PlistFile.write(edited, to: output) } catch { throw Failure(error.diagnostic.message) }
            return
        }
        guard file != FileIO.standardStream else { return write(edited) }
        do { try PlistFile.replace(file, original: bytes, with: edited, backup: false) } catch { throw Failure(error.diagnostic.message) }
    }

    /// The usage text of `-help` and of usage errors.
    public static let usage = """
        plutil: [command_option] [other_options] file...
        The file '-' means standard input.
        Command options (one):
          -help                          this text
          -lint                          check that each file is a valid property list ("FILE: OK")
          -p                             print the property list in a human-readable form
          -convert fmt                   rewrite each file in format fmt: xml1, binary1, json; swift and objc
                                         write a literal beside it (NAME.swift, NAME.m)
          -insert keypath -type value    insert a value at keypath (with -append: at the end of the array)
          -replace keypath -type value   set the value at keypath, adding it when missing
          -remove keypath                remove the value at keypath
          -extract keypath fmt           write the value at keypath in fmt: xml1, binary1, json, raw
          -type keypath                  print the type of the value at keypath
          -create fmt                    write an empty dictionary in fmt
        Other options:
          -expect type                   with -extract and -type: fail unless the value has this type
          -o path                        write the result here ('-': standard output)
          -e extension                   write each converted file beside it with this extension
          -r                             JSON with indentation
          -s                             no output for files without errors
          --                             the rest are files
        Types: -bool YES|NO|true|false, -integer N, -float N, -string S, -date ISO8601, -data BASE64,
               -xml XML, -json JSON, -array, -dictionary
        Key paths separate keys with '.', '\\.' is a dot inside a key.

        """
}
