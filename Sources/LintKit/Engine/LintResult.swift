import Diagnostics

/// What a lint run found, for a command to render and turn into an exit status.
public struct LintResult: Sendable {
    /// Every finding, files in the order given, positions in file order.
    public var findings: [Finding]
    /// Files that could not be read, paths that do not exist (one `file: error: …` line each).
    public var inputErrors: [String]
    /// Files `--fix` rewrote.
    public var fixedFiles: [String] = []
    /// The rules that ran (for SARIF's rule list).
    public var activeRules: [RuleDescription] = []
    /// Remarks about the run's inputs that are not findings (a reader's warning about a file
    /// the run compares with), one `file: warning: …` line each, for standard error.
    public var warnings: [String] = []

    public init(findings: [Finding], inputErrors: [String], fixedFiles: [String] = [],
                activeRules: [RuleDescription] = [], warnings: [String] = []) {
        self.findings = findings
        self.inputErrors = inputErrors
        self.fixedFiles = fixedFiles
        self.activeRules = activeRules
        self.warnings = warnings
    }

    /// Whether a finding fails the run: an error, or with `strict` a warning too.
    public func hasFailures(strict: Bool) -> Bool {
        let failing: Severity = strict ? .warning : .error
        return findings.contains { $0.severity >= failing }
    }
}
