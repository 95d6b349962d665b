import OrderedCollections

/// The value types `plist set` can write, by their XML tag name.
public enum PlistEditType: String, CaseIterable, Sendable {
    case string, integer, real, bool, date, data

    /// The edit type of an existing leaf; nil for containers and UIDs.
    init?(of value: PlistValue) {
        switch value {
        case .string: self = .string
        case .integer: self = .integer
        case .real: self = .real
        case .bool: self = .bool
        case .date: self = .date
        case .data: self = .data
        case .array, .dictionary, .uid: return nil
        }
    }

    /// Parses command-line text as this type; nil when the text is not a valid spelling.
    func value(from text: String) -> PlistValue? {
        let utf8 = Array(text.utf8)
        switch self {
        case .string: return .string(text)
        case .integer: return PlistInteger(ascii: utf8).map { .integer($0) }
        case .real: return PlistReal.parse(utf8).map { .real($0) }
        case .bool:
            switch text.lowercased() {
            case "true", "yes", "1": return .bool(true)
            case "false", "no", "0": return .bool(false)
            default: return nil
            }
        case .date: return PlistDate(iso8601: utf8).map { .date($0) }
        case .data: return (try? Base64.decode(utf8)).map { .data($0) }
        }
    }
}

/// Edits property-list files: XML in place (only the edited node's bytes change, see
/// `XMLPlistDocument`), binary by value (read, modify, write). OpenStep and JSON are refused.
///
/// Errors are `PlistError`s without a position (except the file's own parse errors); each
/// message names the key path.
public enum PlistEditor {
    /// The file's bytes with the value at `path` set from `text`. The type is `type`, or else
    /// the existing value's type (a new key defaults to string).
    public static func set(_ bytes: [UInt8], at path: KeyPath, text: String, type: PlistEditType?) throws(PlistError) -> [UInt8] {
        switch try editableFormat(bytes) {
        case .xml:
            var document = try XMLPlistDocument(bytes: bytes, focus: path)
            let existing = try PlistValue.checkPath(document.value, path: path, verb: "set")
            let value = try newValue(existing: existing, path: path, text: text, type: type)
            try document.set(path, to: value)
            return document.bytes
        default:
            var root = try PropertyListCoding.read(bytes, format: .binary).value
            let existing = try PlistValue.checkPath(root, path: path, verb: "set")
            let value = try newValue(existing: existing, path: path, text: text, type: type)
            // checkPath guarantees: an existing value, or a new key in an existing dictionary.
            if existing != nil { root.setValue(value, at: path) } else { root.insertValue(value, at: path) }
            return BinaryPlistWriter.write(root)
        }
    }

    /// The file's bytes without the dictionary entry or array element at `path`.
    public static func delete(_ bytes: [UInt8], at path: KeyPath) throws(PlistError) -> [UInt8] {
        switch try editableFormat(bytes) {
        case .xml:
            var document = try XMLPlistDocument(bytes: bytes, focus: path)
            try document.delete(path)
            return document.bytes
        default:
            var root = try PropertyListCoding.read(bytes, format: .binary).value
            guard !path.components.isEmpty else { throw PlistError(position: nil, message: "cannot delete the root value") }
            try PlistValue.checkPath(root, path: path, verb: "delete")
            root.removeValue(at: path)
            return BinaryPlistWriter.write(root)
        }
    }

    private static func editableFormat(_ bytes: [UInt8]) throws(PlistError) -> PlistFormat {
        guard !bytes.isEmpty else { throw PlistError(position: .byteOffset(0), message: "file is empty") }
        let format = PlistFormat.detect(bytes)
        guard format == .xml || format == .binary else {
            throw PlistError(position: nil, message: "editing OpenStep/JSON is not supported yet")
        }
        return format
    }

    /// The value to store: `text` parsed as `type`, or as the existing value's type.
    static func newValue(existing: PlistValue?, path: KeyPath, text: String, type: PlistEditType?) throws(PlistError) -> PlistValue {
        if let existing, PlistEditType(of: existing) == nil {
            throw PlistError(position: nil, message: "cannot set \"\(path)\": it is a \(existing.typeName); setting a \(existing.typeName) is not supported yet")
        }
        let existingType = existing.flatMap { PlistEditType(of: $0) }
        let chosen = type ?? existingType ?? .string
        guard let value = chosen.value(from: text) else {
            let hint = type == nil && existingType != nil
                ? " (the existing value is of type \(chosen.rawValue); pass --type to change it)" : ""
            throw PlistError(position: nil, message: "cannot set \"\(path)\": \"\(text.prefix(40))\" is not a valid \(chosen.rawValue)\(hint)")
        }
        return value
    }
}

extension PlistValue {
    /// Checks that `path` leads to a value in `root` (or, for `set`, to a new key in an
    /// existing dictionary); returns the existing value, nil for a new key.
    @discardableResult
    static func checkPath(_ root: PlistValue, path: KeyPath, verb: String) throws(PlistError) -> PlistValue? {
        do {
            return try root.value(at: path)
        } catch {
            if verb == "set", error.matched == path.components.count - 1,
               case .dictionary? = try? root.value(at: KeyPath(Array(path.components.dropLast()))) {
                return nil
            }
            throw PlistError(position: nil, message: "cannot \(verb) \"\(path)\": \(error.message)")
        }
    }
}
