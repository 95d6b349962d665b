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
