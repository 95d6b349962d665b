import OrderedCollections
import PropertyList

/// One command of PlistBuddy's language (`man PlistBuddy`).
public enum PlistBuddyCommand: Hashable, Sendable {
    case print(entry: String?)
    case set(entry: String, value: String)
    case add(entry: String, type: String, value: String?)
    case delete(entry: String)
    case copy(source: String, destination: String)
    case merge(file: String, entry: String?)
    case clear(type: String?)

    /// Splits a `-c` string like PlistBuddy: command word, entry, then the rest. Words are
    /// separated by spaces; double or single quotes group words with spaces.
    public static func parse(_ text: String) throws(PlistBuddyError) -> PlistBuddyCommand {
        let words = try tokenize(text)
        guard let name = words.first else { throw PlistBuddyError("Unrecognized Command: (empty)") }
        let args = Array(words.dropFirst())
        func need(_ n: Int, _ usage: String) throws(PlistBuddyError) {
            if args.count < n { throw PlistBuddyError("\(name.prefix(1).uppercased() + name.dropFirst().lowercased()): Invalid Arguments (usage: \(usage))") }
        }
        switch name.lowercased() {
        case "print":
            return .print(entry: args.first)
        case "set":
            try need(1, "Set <Entry> <Value>")
            return .set(entry: args[0], value: args.dropFirst().joined(separator: " "))
        case "add":
            try need(2, "Add <Entry> <Type> [<Value>]")
            let value = args.count > 2 ? args.dropFirst(2).joined(separator: " ") : nil
            return .add(entry: args[0], type: args[1], value: value)
        case "delete":
            try need(1, "Delete <Entry>")
            return .delete(entry: args[0])
        case "copy":
            try need(2, "Copy <EntrySrc> <EntryDst>")
            return .copy(source: args[0], destination: args[1])
        case "merge":
            try need(1, "Merge <file.plist> [<Entry>]")
            return .merge(file: args[0], entry: args.count > 1 ? args[1] : nil)
        case "clear":
            return .clear(type: args.first)
        default:
            throw PlistBuddyError("Unrecognized Command: \(name)")
        }
    }

    static func tokenize(_ text: String) throws(PlistBuddyError) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        for c in text {
            if let q = quote {
                if c == q { quote = nil } else { current.append(c) }
            } else if c == "\"" || c == "'" {
                quote = c
                inWord = true
            } else if c == " " || c == "\t" || c == "\n" {
                if inWord { words.append(current); current = ""; inWord = false }
            } else {
                current.append(c)
                inWord = true
            }
        }
        if quote != nil { throw PlistBuddyError("Unterminated quote in command: \(text)") }
        if inWord { words.append(current) }
        return words
    }

    /// True for the commands that may start a script on a file that does not exist yet.
    public var createsFile: Bool {
        switch self {
        case .add, .clear: true
        default: false
        }
    }
}

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
    /// file a Merge names. Stops at the first error, leaving `value` partly edited.
    public func apply(to value: inout PlistValue, output: inout [UInt8],
                      loadFile: (String) throws(PlistBuddyError) -> PlistValue = { path throws(PlistBuddyError) in
                          throw PlistBuddyError("Merge: cannot read \(path)")
                      }) throws(PlistBuddyError) {
        for command in commands {
            try Self.apply(command, to: &value, output: &output, loadFile: loadFile)
        }
    }

    static func apply(_ command: PlistBuddyCommand, to value: inout PlistValue, output: inout [UInt8],
                      loadFile: (String) throws(PlistBuddyError) -> PlistValue) throws(PlistBuddyError) {
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
            output += PlistBuddyPrinter.render(target)

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

/// PlistBuddy's `Print` layout.
public enum PlistBuddyPrinter {
    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Renders `value` and a trailing newline: strings bare, `Dict {`/`Array {` blocks with
    /// four-space indentation, data as its raw bytes.
    public static func render(_ value: PlistValue) -> [UInt8] {
        var out: [UInt8] = []
        write(value, indent: 0, into: &out)
        out.append(UInt8(ascii: "\n"))
        return out
    }

    static func write(_ value: PlistValue, indent: Int, into out: inout [UInt8]) {
        let pad = Array(repeating: UInt8(ascii: " "), count: (indent + 1) * 4)
        switch value {
        case .string(let s): out += Array(s.utf8)
        case .integer(let n): out += Array(n.description.utf8)
        // PlistBuddy prints reals with printf-style formatting; this uses the shortest exact decimal.
        case .real(let r): out += Array(r.description.utf8)
        case .bool(let b): out += Array((b ? "true" : "false").utf8)
        case .date(let d): out += Array(formatDate(d).utf8)
        case .data(let bytes): out += bytes
        case .uid(let n): out += Array("\(n)".utf8)
        case .array(let items):
            out += Array("Array {\n".utf8)
            for item in items {
                out += pad
                write(item, indent: indent + 1, into: &out)
                out.append(UInt8(ascii: "\n"))
            }
            out += Array(repeating: UInt8(ascii: " "), count: indent * 4)
            out.append(UInt8(ascii: "}"))
        case .dictionary(let dict):
            out += Array("Dict {\n".utf8)
            for (key, item) in dict {
                out += pad
                out += Array("\(key) = ".utf8)
                write(item, indent: indent + 1, into: &out)
                out.append(UInt8(ascii: "\n"))
            }
            out += Array(repeating: UInt8(ascii: " "), count: indent * 4)
            out.append(UInt8(ascii: "}"))
        }
    }

    /// `Mon Nov 20 09:30:00 UTC 2026`. Approximate: PlistBuddy prints in the local time zone;
    /// this always prints UTC.
    public static func formatDate(_ date: PlistDate) -> String {
        guard let c = date.components else { return date.iso8601 }
        let total = date.secondsSinceReferenceDate.rounded(.down)
        let days = Int64((total / 86_400).rounded(.down))
        let weekday = Int(((days % 7) + 7) % 7)  // 2001-01-01 was a Monday
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(weekdays[weekday]) \(months[c.month - 1]) \(two(c.day)) \(two(c.hour)):\(two(c.minute)):\(two(c.second)) UTC \(c.year)"
    }

    /// Parses ISO-8601 (`2026-11-20T09:30:00Z`) or the printed form (`Mon Nov 20 09:30:00 UTC 2026`;
    /// the zone name is ignored and UTC assumed).
    public static func parseDate(_ text: String) -> PlistDate? {
        if let d = PlistDate(iso8601: Array(text.utf8)) { return d }
        let parts = text.split(separator: " ")
        guard parts.count == 6, let month = months.firstIndex(where: { $0.lowercased() == parts[1].lowercased() }),
              let day = Int(parts[2]), let year = Int(parts[5]) else { return nil }
        let time = parts[3].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3 else { return nil }
        return PlistDate(year: year, month: month + 1, day: day, hour: time[0], minute: time[1], second: time[2])
    }
}
