import PlistTools
import PropertyList

/// How serious a finding is. Configuration files and `--explain` also accept `info` for `note`.
public enum Severity: String, Sendable, Codable, Comparable, CaseIterable {
    case note, warning, error

    private var rank: Int { self == .note ? 0 : self == .warning ? 1 : 2 }
    public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }

    /// Parses `error`, `warning`, `note` or `info` (a synonym of `note`).
    public init?(name: String) {
        if name == "info" { self = .note } else if let s = Severity(rawValue: name) { self = s } else { return nil }
    }
}

/// Where a finding points inside its file.
public enum FindingLocation: Hashable, Sendable, Codable {
    /// 1-based line and column.
    case text(line: Int, column: Int)
    /// Byte offset (binary files).
    case byteOffset(Int)
}

/// One problem found in one file: the unit every checker produces and every reporter prints.
public struct Finding: Hashable, Sendable, Codable {
    public var file: String
    public var location: FindingLocation?
    public var severity: Severity
    /// Stable identifier of the check (`plist.syntax`, `profile.expired-certificate`, …).
    public var ruleID: String
    public var message: String
    /// An edit that resolves the finding, when one is safe to apply (`devkit lint --fix`).
    public var fix: PlistFix?

    private enum CodingKeys: String, CodingKey { case file, location, severity, ruleID, message }

    public init(file: String, location: FindingLocation?, severity: Severity, ruleID: String, message: String, fix: PlistFix? = nil) {
        self.file = file
        self.location = location
        self.severity = severity
        self.ruleID = ruleID
        self.message = message
        self.fix = fix
    }
}

/// An edit that resolves a finding, applied through the lossless editor (`PlistEditor`:
/// XML and OpenStep in place, so every byte outside the edited node stays as it was; binary
/// and JSON by value).
public enum PlistFix: Hashable, Sendable, CustomStringConvertible {
    /// One edit of the value model (replace, insert, delete, rename a key).
    case edit(PlistEdit)
    /// Rewrite the whole file in canonical layout (the formatting rule only).
    case reformat

    public var description: String {
        switch self {
        case .edit(.replace(let path, let value)): "set \(path) to \(value.shortDescription)"
        case .edit(.insert(let path, let value)): "add \(path) = \(value.shortDescription)"
        case .edit(.delete(let path)): "delete \(path)"
        case .edit(.renameKey(let path, let key)): "rename \(path) to \"\(key)\""
        case .reformat: "reformat the file"
        }
    }

    /// The key path the fix edits (the root for a reformat).
    public var path: KeyPath {
        switch self {
        case .edit(let edit): edit.path
        case .reformat: KeyPath([])
        }
    }
}

extension PlistValue {
    /// A short human form for messages: strings quoted, scalars as written, containers by type.
    public var shortDescription: String {
        switch self {
        case .string(let s): "\"\(s)\""
        case .integer(let i): i.description
        case .real(let r): "\(r)"
        case .bool(let b): b ? "true" : "false"
        case .date(let d): "\(d)"
        case .data(let d): "<\(d.count) bytes>"
        case .array(let a): "array of \(a.count)"
        case .dictionary(let d): "dict of \(d.count)"
        case .uid(let u): "uid \(u)"
        }
    }

    /// The string, when this is one.
    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }

    /// The value of `key` when this is a dictionary.
    public subscript(key key: String) -> PlistValue? {
        if case .dictionary(let d) = self { d[key] } else { nil }
    }

    /// The entries when this is a dictionary, in file order.
    public var dictionaryEntries: [(key: String, value: PlistValue)]? {
        if case .dictionary(let d) = self { d.elements.map { ($0.key, $0.value) } } else { nil }
    }

    /// The elements when this is an array.
    public var arrayValue: [PlistValue]? { if case .array(let a) = self { a } else { nil } }
}

/// A pure function from findings to the text a tool prints.
public protocol Reporter: Sendable {
    /// The name used with `--format`.
    static var identifier: String { get }
    func render(_ findings: [Finding]) -> String
    /// Renders with the descriptions of the rules that ran (SARIF lists them); the default
    /// ignores them.
    func render(_ findings: [Finding], rules: [RuleDescription]) -> String
}

extension Reporter {
    public func render(_ findings: [Finding], rules: [RuleDescription]) -> String { render(findings) }
}
