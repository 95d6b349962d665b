import LintKit
import PropertyList

/// A dictionary key must not be empty.
public struct EmptyKey: LintRule {
    public static let description = RuleDescription(
        id: "plist.empty-key", category: .plistHygiene, severity: .warning,
        summary: "Dictionary keys must not be empty.",
        rationale: """
            An empty <key/> is almost always a slip in a hand edit or a merge: nothing reads \
            it, and the value after it is lost to the app. (libplist's tools even disagree on \
            whether it is valid.)
            """,
        kinds: FileKind.structured,
        triggering: [
            RuleExample("↓<key></key>\n<string>x</string>"),
            RuleExample("<key>A</key>\n<dict>\n\t↓<key/>\n\t<true/>\n</dict>"),
        ],
        nonTriggering: [RuleExample("<key>A</key>\n<string></string>")])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        forEachValue(in: file.value) { path, _ in
            // Only a dictionary key can be empty (array indices are digits).
            if path.last == "" {
                context.report("empty dictionary key", at: KeyPath(path))
            }
        }
    }
}
