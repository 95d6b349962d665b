import LintKit

/// A reader's remark about a file that parses (a binary set read as an array, …).
///
/// Reported by the engine while it reads a file (see `PlistSyntaxRule`); `check` does nothing.
public struct ReaderWarningRule: LintRule {
    public static let description = RuleDescription(
        id: LintEngine.readerWarningRuleID, category: .plistHygiene, severity: .warning,
        summary: "The file parses, with a remark from the reader.",
        rationale: """
            Some inputs parse but are not what Apple's tools write (a binary plist holding a \
            set, which every reader turns into an array): worth a look before it ships.
            """,
        kinds: FileKind.all,
        triggering: [],
        nonTriggering: [RuleExample("<key>CFBundleVersion</key>\n<string>1</string>")])
    public init() {}
    public func check(_ file: LintFile, _ context: inout RuleContext) {}
}
