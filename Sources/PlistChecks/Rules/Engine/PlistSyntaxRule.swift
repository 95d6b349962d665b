import LintKit

/// The file must parse as a property list.
///
/// One of the rules whose findings the engine itself produces while reading a file (with
/// `DuplicateKeyRule` and `ReaderWarningRule`); its `check` does nothing. They are rules so
/// that they can be configured, suppressed and documented like every other. Their findings
/// point where the reader stopped (XML: the end of the start tag), so their examples
/// carry no `↓` markers.
public struct PlistSyntaxRule: LintRule {
    public static let description = RuleDescription(
        id: LintEngine.syntaxRuleID, category: .plistHygiene, severity: .error,
        summary: "The file must parse as a property list (XML, binary, OpenStep or JSON).",
        rationale: """
            A property list that does not parse fails the build (Xcode's "The data couldn't be \
            read because it isn't in the correct format") or, in a built product, the App Store \
            upload. The message names the place the XML parser or devkit's reader stopped at.
            """,
        kinds: FileKind.all,
        triggering: [
            RuleExample("<key>CFBundleVersion</key>\n<string>1</strin>"),
            RuleExample("<key>CFBundleVersion</key>\n<integer>1.5</integer>"),
        ],
        nonTriggering: [RuleExample("<key>CFBundleVersion</key>\n<string>1</string>")])
    public init() {}
    public func check(_ file: LintFile, _ context: inout RuleContext) {}
}
