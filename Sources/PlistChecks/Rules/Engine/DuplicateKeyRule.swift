import LintKit

/// A dictionary must not repeat a key.
///
/// Reported by the engine while it reads a file (see `PlistSyntaxRule`); `check` does nothing.
public struct DuplicateKeyRule: LintRule {
    public static let description = RuleDescription(
        id: LintEngine.duplicateKeyRuleID, category: .plistHygiene, severity: .error,
        summary: "A dictionary names the same key twice.",
        rationale: """
            Apple's parser keeps the last of two equal keys without a word, so the value the \
            app sees is not the one a reader of the file notices first (a common merge \
            mistake). devkit's readers refuse the file and name both places.
            """,
        kinds: FileKind.all,
        triggering: [RuleExample("<key>CFBundleVersion</key>\n<string>1</string>\n<key>CFBundleVersion</key>\n<string>2</string>")],
        nonTriggering: [RuleExample("<key>CFBundleVersion</key>\n<string>1</string>\n<key>CFBundleShortVersionString</key>\n<string>1.0</string>")])
    public init() {}
    public func check(_ file: LintFile, _ context: inout RuleContext) {}
}
