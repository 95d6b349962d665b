import PropertyList

/// The value types `plist set` can write, by their XML tag name; `json` and `xml` take any
/// value (a dictionary or array too) written as a JSON document or an XML plist (fragment).
public enum PlistEditType: String, CaseIterable, Sendable {
    case string, integer, real, bool, date, data, json, xml

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
        case .json, .xml: return try? container(from: text)
        }
    }

    /// Parses `text` as a JSON document, or as an XML plist: a whole file or just the value
    /// element (`<dict>…</dict>`), which is wrapped in `<plist>`.
    func container(from text: String) throws(PlistError) -> PlistValue {
        var bytes = Array(text.utf8)
        if self == .xml {
            let head = text.drop(while: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" })
            if !(head.hasPrefix("<?xml") || head.hasPrefix("<!DOCTYPE") || head.hasPrefix("<plist")) {
                bytes = Array("<plist version=\"1.0\">".utf8) + bytes + Array("</plist>".utf8)
            }
        }
        return try PropertyListCoding.read(bytes, format: self == .json ? .json : .xml).value
    }
}
