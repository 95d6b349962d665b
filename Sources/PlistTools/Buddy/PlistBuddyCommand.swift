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
    /// Sets (or adds) the entry to the bytes of a file, as data.
    case importFile(entry: String, file: String)
    /// Session commands: they act on the file, not on the value (`PlistBuddyShell`).
    case save, revert, exit, help

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
        case "import":
            try need(2, "Import <Entry> <file>")
            return .importFile(entry: args[0], file: args[1])
        case "save": return .save
        case "revert": return .revert
        case "exit", "quit": return .exit
        case "help": return .help
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

    /// The command's name as PlistBuddy spells it in messages.
    public var name: String {
        switch self {
        case .print: "Print"
        case .set: "Set"
        case .add: "Add"
        case .delete: "Delete"
        case .copy: "Copy"
        case .merge: "Merge"
        case .clear: "Clear"
        case .importFile: "Import"
        case .save: "Save"
        case .revert: "Revert"
        case .exit: "Exit"
        case .help: "Help"
        }
    }

    /// True for the commands that may start a script on a file that does not exist yet.
    public var createsFile: Bool {
        switch self {
        case .add, .clear, .importFile: true
        default: false
        }
    }
}
