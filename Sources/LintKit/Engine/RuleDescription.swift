import Diagnostics

/// A rule's documentation and defaults.
public struct RuleDescription: Sendable {
    /// Stable, dotted identifier (`infoplist.short-version-format`): used in config files,
    /// suppression comments and every output format.
    public var id: String
    public var category: RuleCategory
    public var severity: Severity
    /// One line: what the rule wants.
    public var summary: String
    /// Why it matters (which App Store error or runtime failure it prevents).
    public var rationale: String
    /// The file kinds the rule checks.
    public var kinds: Set<FileKind>
    /// Off-by-default rules run only when enabled in the config or with `--enable`.
    public var isEnabledByDefault: Bool
    /// Whether findings can carry a fix for `--fix`.
    public var isFixable: Bool
    /// Options the rule reads (config `rules: {id: {name: value}}`), with their defaults.
    public var options: [RuleOption]
    /// Files that must produce at least one finding of this rule; `↓` marks each position.
    public var triggering: [RuleExample]
    /// Files that must produce none.
    public var nonTriggering: [RuleExample]

    public init(id: String, category: RuleCategory, severity: Severity, summary: String, rationale: String,
                kinds: Set<FileKind>, isEnabledByDefault: Bool = true, isFixable: Bool = false, options: [RuleOption] = [],
                triggering: [RuleExample], nonTriggering: [RuleExample]) {
        self.id = id
        self.category = category
        self.severity = severity
        self.summary = summary
        self.rationale = rationale
        self.kinds = kinds
        self.isEnabledByDefault = isEnabledByDefault
        self.isFixable = isFixable
        self.options = options
        self.triggering = triggering
        self.nonTriggering = nonTriggering
    }
}
