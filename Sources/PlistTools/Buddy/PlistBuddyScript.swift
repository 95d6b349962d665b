import PropertyList

/// Applies PlistBuddy commands to a value.
///
/// Unlike PlistBuddy, which reports a failing command and carries on, a script stops at the
/// first failure; the caller is expected not to save a half-applied script.
public struct PlistBuddyScript: Sendable {
    public var commands: [PlistBuddyCommand]

    public init(commands: [PlistBuddyCommand]) { self.commands = commands }

    public init(parsing texts: [String]) throws(PlistBuddyError) {
        var commands: [PlistBuddyCommand] = []
        for text in texts { commands.append(try PlistBuddyCommand.parse(text)) }
        self.commands = commands
    }

    /// Runs every command on `value`, appending Print output to `output`. `loadFile` reads the
    /// file a Merge names, `readBytes` the one an Import names. Stops at the first error,
    /// leaving `value` partly edited. Session commands (Save, Revert, Exit, Help) are refused:
    /// a script has no session.
    public func apply(to value: inout PlistValue, output: inout [UInt8],
                      loadFile: (String) throws(PlistBuddyError) -> PlistValue = { path throws(PlistBuddyError) in
                          throw PlistBuddyError("Merge: cannot read \(path)")
                      },
                      readBytes: (String) throws(PlistBuddyError) -> [UInt8] = { path throws(PlistBuddyError) in
                          throw PlistBuddyError("Import: cannot read \(path)")
                      }) throws(PlistBuddyError) {
        for command in commands {
            try Self.apply(command, to: &value, output: &output, loadFile: loadFile, readBytes: readBytes)
        }
    }

    static func apply(_ command: PlistBuddyCommand, to value: inout PlistValue, output: inout [UInt8],
                      loadFile: (String) throws(PlistBuddyError) -> PlistValue,
                      readBytes: (String) throws(PlistBuddyError) -> [UInt8],
                      printsXML: Bool = false) throws(PlistBuddyError) {
        switch command {
        case .print(let entry):
            let target: PlistValue
            if let entry {
                guard let found = try? value.value(at: KeyPath.parse(entry)) else {
                    throw PlistBuddyError("Print: Entry, \"\(entry)\", Does Not Exist")
                }
                target = found
            } else {
                target = value
            }
            if printsXML {
                do { output += try PlistFile.serialize(target, as: .xml, source: "-") } catch {
                    throw PlistBuddyError("Print: \(error.diagnostic.message)")
                }
            } else {
                output += PlistBuddyPrinter.render(target)
            }

        case .set(let entry, let text):
            let path = KeyPath.parse(entry)
            guard let existing = try? value.value(at: path) else {
                throw PlistBuddyError("Set: Entry, \"\(entry)\", Does Not Exist")
            }
            switch existing {
            case .array, .dictionary:
                throw PlistBuddyError("Set: Cannot Perform Set On Containers")
            default:
                let newValue = try parseValue(text, type: existing.typeName)
                value.setValue(newValue, at: path)
            }

        case .add(let entry, let typeName, let text):
            let type = typeName.lowercased()
            let newValue: PlistValue
            switch type {
            case "array": newValue = .array([])
            case "dict", "dictionary": newValue = .dictionary([:])
            case "string", "integer", "real", "bool", "date", "data":
                newValue = try parseValue(text ?? "", type: type, defaultWhenEmpty: text == nil)
            default:
                throw PlistBuddyError("Unrecognized Type: \(typeName)")
            }
            try insert(newValue, at: entry, into: &value, command: "Add")

        case .delete(let entry):
            let path = KeyPath.parse(entry)
            guard !path.components.isEmpty, value.removeValue(at: path) != nil else {
                throw PlistBuddyError("Delete: Entry, \"\(entry)\", Does Not Exist")
            }

        case .copy(let source, let destination):
            guard let copied = try? value.value(at: KeyPath.parse(source)) else {
                throw PlistBuddyError("Copy: Entry, \"\(source)\", Does Not Exist")
            }
            try insert(copied, at: destination, into: &value, command: "Copy")

        case .merge(let file, let entry):
            let source = try loadFile(file)
            let path = KeyPath.parse(entry ?? "")
            guard let target = try? value.value(at: path) else {
                throw PlistBuddyError("Merge: Entry, \"\(entry ?? ":")\", Does Not Exist")
            }
            let merged: PlistValue
            switch (target, source) {
            case (.dictionary(var dict), .dictionary(let incoming)):
                // Like PlistBuddy: keys already present are kept, not overwritten.
                for (key, item) in incoming where dict[key] == nil { dict[key] = item }
                merged = .dictionary(dict)
            case (.array(var items), .array(let incoming)):
                items += incoming
                merged = .array(items)
            case (.array(var items), _):
                items.append(source)
                merged = .array(items)
            case (.dictionary, _):
                throw PlistBuddyError("Merge: Can't Add \(source.typeName) Entries to a Dictionary")
            default:
                throw PlistBuddyError("Merge: Specified Entry Must Be a Container")
            }
            value.setValue(merged, at: path)

        case .importFile(let entry, let file):
            let bytes = try readBytes(file)
            let path = KeyPath.parse(entry)
            if (try? value.value(at: path)) != nil {
                value.setValue(.data(bytes), at: path)
            } else {
                try insert(.data(bytes), at: entry, into: &value, command: "Import")
            }

        case .save, .revert, .exit, .help:
            throw PlistBuddyError("\(command.name): only in PlistBuddy's interactive mode or -c (devkit PlistBuddy)")

        case .clear(let typeName):
            switch (typeName ?? "dict").lowercased() {
            case "dict", "dictionary": value = .dictionary([:])
            case "array": value = .array([])
            case "string": value = .string("")
            case "integer": value = .int(0)
            case "real": value = .double(0)
            case "bool": value = .bool(false)
            case "data": value = .data([])
            default: throw PlistBuddyError("Unrecognized Type: \(typeName ?? "")")
            }
        }
    }

    static func insert(_ newValue: PlistValue, at entry: String, into value: inout PlistValue,
                       command: String) throws(PlistBuddyError) {
        let path = KeyPath.parse(entry)
        switch value.insertValue(newValue, at: path) {
        case .inserted: return
        case .alreadyExists: throw PlistBuddyError("\(command): \"\(entry)\" Entry Already Exists")
        case .parentMissing:
            let parent = ":" + path.components.dropLast().joined(separator: ":")
            throw PlistBuddyError("\(command): Entry, \"\(parent)\", Does Not Exist")
        case .invalidPosition:
            throw PlistBuddyError("\(command): Can't Add Entry, \"\(entry)\", to Parent")
        }
    }

    /// Parses `text` as a scalar of `type` (an XML type name), with PlistBuddy's messages.
    static func parseValue(_ text: String, type: String, defaultWhenEmpty: Bool = false) throws(PlistBuddyError) -> PlistValue {
        switch type {
        case "integer", "real", "bool":
            if defaultWhenEmpty { return type == "integer" ? .int(0) : type == "real" ? .double(0) : .bool(false) }
            // The same text forms `devkit plist set` accepts.
            guard let value = PlistEditType(rawValue: type)?.value(from: text) else {
                let name = ["integer": "Integer", "real": "Real", "bool": "Boolean"][type] ?? type
                throw PlistBuddyError("Unrecognized \(name) Format")
            }
            return value
        case "string":
            return .string(text)
        case "date":
            guard let date = PlistBuddyPrinter.parseDate(text) else { throw PlistBuddyError("Unrecognized Date Format") }
            return .date(date)
        case "data":
            // PlistBuddy stores the text's bytes as they are.
            return .data(Array(text.utf8))
        default:
            throw PlistBuddyError("Set: Cannot Set Values of Type \(type)")
        }
    }
}
