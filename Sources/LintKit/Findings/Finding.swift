import Diagnostics
import PropertyList

/// One problem found in one file: the unit every checker produces and every reporter prints.
public struct Finding: Hashable, Sendable, Codable {
    public var file: String
    public var location: SourcePosition?
    public var severity: Severity
    /// Stable identifier of the check (`plist.syntax`, `profile.expired-certificate`, …).
    public var ruleID: String
    public var message: String
    /// An edit that resolves the finding, when one is safe to apply (`devkit lint --fix`).
    public var fix: PlistFix?
    /// The key path the rule reported (nil for findings about the file as a whole, such as a
    /// syntax error). Unlike `location` it does not move when lines are added above the entry,
    /// so baselines and fingerprints are keyed by it.
    public var keyPath: KeyPath?

    private enum CodingKeys: String, CodingKey { case file, location, severity, ruleID, message }

    public init(file: String, location: SourcePosition?, severity: Severity, ruleID: String, message: String, fix: PlistFix? = nil,
                keyPath: KeyPath? = nil) {
        self.file = file
        self.location = location
        self.severity = severity
        self.ruleID = ruleID
        self.message = message
        self.fix = fix
        self.keyPath = keyPath
    }

    /// The finding as a diagnostic: what the text reporter prints before the rule id.
    public var diagnostic: Diagnostic {
        Diagnostic(file: file, position: location, severity: severity, message: message, kind: DiagnosticKind(rawValue: ruleID))
    }
}
