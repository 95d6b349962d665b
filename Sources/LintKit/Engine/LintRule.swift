/// One lint rule: a small type whose `description` documents it (id, severity, rationale,
/// examples) and whose `check` reports findings for one file.
///
/// To add a rule: write a type conforming to `LintRule` in its own file, give it triggering
/// and non-triggering examples (they are run as tests, and `devkit lint --explain` prints
/// them), and add the type to a rule pack's list (`PlistRules.all`, or your own pack, passed
/// to `RuleRegistry`). Report with `context.report(_:at:)`, naming the key path the finding
/// is about; the engine turns it into a line and column, applies suppressions, configured
/// severities and `--fix`.
///
/// ```swift
/// public struct BundleVersionFormat: LintRule {
///     public static let description = RuleDescription(
///         id: "infoplist.bundle-version-format", category: .infoPlist, severity: .error,
///         summary: "CFBundleVersion is one to three period-separated integers.",
///         rationale: "…", kinds: [.infoPlist],
///         triggering: [RuleExample("<key>CFBundleVersion</key>\n↓<string>1.0b</string>")],
///         nonTriggering: [RuleExample("<key>CFBundleVersion</key>\n<string>142</string>")])
///     public init() {}
///     public func check(_ file: LintFile, _ context: inout RuleContext) { … }
/// }
/// ```
public protocol LintRule: Sendable {
    /// Identity and documentation; also decides which files the rule sees.
    static var description: RuleDescription { get }
    init()
    /// Reports findings for `file` through `context`. Must not trap on any value: files are
    /// user input, so every type and shape is possible.
    func check(_ file: LintFile, _ context: inout RuleContext)
}
