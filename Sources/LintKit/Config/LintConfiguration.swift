import Diagnostics

/// What a `.devkit.yml` (`lint:` section) and the command line say about a run: which rules
/// run, at which severity, with which options, on which files.
///
/// Precedence, lowest first: each rule's defaults, the config file, the command line
/// (`--enable`, `--disable`, `--only`). Only the nearest config file counts (no merging up
/// the directory tree).
public struct LintConfiguration: Sendable, Hashable {
    /// Rules switched off.
    public var disabledRules: Set<String> = []
    /// Off-by-default rules switched on.
    public var enabledRules: Set<String> = []
    /// When set, exactly these rules run (on or off by default).
    public var onlyRules: Set<String>?
    /// Severity per rule id, replacing the rule's default.
    public var severities: [String: Severity] = [:]
    /// When non-empty, a directory walk lints only files matching one of these.
    public var include: [Glob] = []
    /// Files and directories never linted (also when named on the command line).
    public var exclude: [Glob] = []
    /// Kind overrides by path, tried in order before the name and content rules.
    public var kinds: [KindOverride] = []
    /// Rules silenced by path and key path (`suppress:`), for files that cannot hold
    /// suppression comments (JSON).
    public var suppressions: [PathSuppression] = []
    /// Option values per rule id.
    public var ruleOptions: [String: [String: RuleOptionValue]] = [:]
    /// The directory globs are relative to (the config file's), absolute; nil: the current one.
    public var baseDirectory: String?
    /// Where the settings came from, for messages.
    public var source: String?

    public struct KindOverride: Sendable, Hashable {
        public var glob: Glob
        public var kind: FileKind
        /// The config file's line, for an error when the kind is not the rule pack's.
        public var line: Int?
        public init(glob: Glob, kind: FileKind, line: Int? = nil) {
            self.glob = glob
            self.kind = kind
            self.line = line
        }
    }

    public init() {}

    /// Whether the rule runs under these settings.
    public func isEnabled(_ rule: RuleDescription) -> Bool {
        if let onlyRules { return onlyRules.contains(rule.id) }
        if disabledRules.contains(rule.id) { return false }
        return rule.isEnabledByDefault || enabledRules.contains(rule.id)
    }

    /// Applies `--enable` / `--disable` from the command line over the file's settings.
    public mutating func apply(enable: [String], disable: [String]) {
        for id in enable {
            disabledRules.remove(id)
            enabledRules.insert(id)
        }
        for id in disable {
            enabledRules.remove(id)
            disabledRules.insert(id)
        }
    }

    /// Every rule id the settings name, with where it is named (for validation).
    public var namedRuleIDs: [(id: String, place: String)] {
        var out: [(String, String)] = []
        out += disabledRules.sorted().map { ($0, "disabled_rules") }
        out += enabledRules.sorted().map { ($0, "enabled_rules") }
        out += (onlyRules ?? []).sorted().map { ($0, "only_rules") }
        out += severities.keys.sorted().map { ($0, "severity") }
        out += ruleOptions.keys.sorted().map { ($0, "rules") }
        out += suppressions.flatMap { $0.ruleIDs.sorted() }.map { ($0, "suppress") }
        return out
    }
}
