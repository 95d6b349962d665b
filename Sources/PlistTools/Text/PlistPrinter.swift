import PropertyList

/// Human-readable renderings of a value: a tree like `plutil -p`, or one
/// `keypath = value` line per leaf for grep.
public struct PlistPrinter: Sendable {
    public enum Style: Sendable {
        /// Indented tree: `"key" => value`, `0 => value`.
        case tree
        /// One `key.path = value` line per leaf (empty containers count as leaves).
        case keyPaths
    }

    public var style: Style
    /// Adds each value's type, dimmed (ANSI SGR 2), for terminals with colour.
    public var showsTypes: Bool

    public init(style: Style = .tree, showsTypes: Bool = false) {
        self.style = style
        self.showsTypes = showsTypes
    }

    public func render(_ value: PlistValue) -> String {
        var out = ""
        switch style {
        case .tree:
            tree(value, indent: 0, into: &out)
            out.append("\n")
        case .keyPaths:
            keyPaths(value, path: [], into: &out)
        }
        return out
    }

    /// `plist get --raw`: a string unquoted, data as its bytes, a date in ISO-8601, other
    /// scalars as `scalar(_:)` does, each with a newline; containers as a tree.
    public static func raw(_ value: PlistValue) -> [UInt8] {
        switch value {
        case .string(let s): Array((s + "\n").utf8)
        case .data(let bytes): bytes
        case .date(let d): Array((d.iso8601 + "\n").utf8)
        case .array, .dictionary: Array(PlistPrinter().render(value).utf8)
        default: Array((scalar(value) + "\n").utf8)
        }
    }

    /// One-line rendering of a scalar (containers as `{…}`/`[…]` with their count).
    public static func scalar(_ value: PlistValue) -> String {
        switch value {
        case .string(let s): return quoted(s)
        case .integer(let i): return i.description
        case .real(let r): return r.description
        case .bool(let b): return b ? "true" : "false"
        case .date(let d):
            guard let c = d.components else { return d.iso8601 }
            return String(format4: c.year) + "-\(two(c.month))-\(two(c.day)) \(two(c.hour)):\(two(c.minute)):\(two(c.second)) +0000"
        case .data(let bytes):
            let hex = bytes.prefix(16).map { String($0, radix: 16).leftPadded(2) }.joined()
            return "{length = \(bytes.count), bytes = 0x\(hex)\(bytes.count > 16 ? "…" : "")}"
        case .uid(let u): return "UID(\(u))"
        case .array(let a): return a.isEmpty ? "[]" : "[…\(a.count) items]"
        case .dictionary(let d): return d.isEmpty ? "{}" : "{…\(d.count) keys}"
        }
    }

    static func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }

    /// A string in double quotes with `"`, `\` and control characters escaped; other control
    /// characters as `control` writes them (Swift's `\u{1b}` unless told otherwise).
    public static func quoted(_ s: String, control: (UInt32) -> String = { "\\u{\(String($0, radix: 16))}" }) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += control(scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    private func typeSuffix(_ value: PlistValue) -> String {
        showsTypes ? "  \u{1B}[2m\(value.typeName)\u{1B}[0m" : ""
    }

    private func tree(_ value: PlistValue, indent: Int, into out: inout String) {
        let pad = String(repeating: "  ", count: indent + 1)
        let closePad = String(repeating: "  ", count: indent)
        switch value {
        case .dictionary(let dict):
            guard !dict.isEmpty else { out += "{}"; return }
            out += "{\n"
            for (key, item) in dict {
                out += pad + Self.quoted(key) + " => "
                tree(item, indent: indent + 1, into: &out)
                out += "\n"
            }
            out += closePad + "}"
        case .array(let items):
            guard !items.isEmpty else { out += "[]"; return }
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += pad + "\(i) => "
                tree(item, indent: indent + 1, into: &out)
                out += "\n"
            }
            out += closePad + "]"
        default:
            out += Self.scalar(value) + typeSuffix(value)
        }
    }

    private func keyPaths(_ value: PlistValue, path: [String], into out: inout String) {
        switch value {
        case .dictionary(let dict) where !dict.isEmpty:
            for (key, item) in dict { keyPaths(item, path: path + [key], into: &out) }
        case .array(let items) where !items.isEmpty:
            for (i, item) in items.enumerated() { keyPaths(item, path: path + [String(i)], into: &out) }
        default:
            let name = path.isEmpty ? ":" : KeyPath(path).description
            out += name + " = " + Self.scalar(value) + typeSuffix(value) + "\n"
        }
    }
}

private extension String {
    init(format4 value: Int) {
        self = String(value).leftPadded(4)
    }
}
