/// How serious a finding is.
public enum Severity: String, Sendable, Codable, Comparable {
    case note, warning, error

    private var rank: Int { self == .note ? 0 : self == .warning ? 1 : 2 }
    public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
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

    public init(file: String, location: FindingLocation?, severity: Severity, ruleID: String, message: String) {
        self.file = file
        self.location = location
        self.severity = severity
        self.ruleID = ruleID
        self.message = message
    }
}

/// A pure function from findings to the text a tool prints.
public protocol Reporter: Sendable {
    /// The name used with `--format`.
    static var identifier: String { get }
    func render(_ findings: [Finding]) -> String
}
