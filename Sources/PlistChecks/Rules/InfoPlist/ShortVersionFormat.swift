import LintKit
import PropertyList

/// CFBundleShortVersionString is one to three period-separated non-negative integers.
public struct ShortVersionFormat: LintRule {
    public static let description = RuleDescription(
        id: "infoplist.short-version-format", category: .infoPlist, severity: .error,
        summary: "CFBundleShortVersionString is one to three period-separated non-negative integers (1, 1.4, 1.4.2).",
        rationale: """
            App Store Connect rejects any other form with ITMS-90060 ("This bundle is invalid. \
            The value for key CFBundleShortVersionString … must be a period-separated list of \
            at most three non-negative integers"): "1.0 beta", "v2.1" and "1.2.3.4" all fail \
            after a full archive and upload. The fix trims surrounding whitespace when that is \
            the only problem.
            """,
        kinds: [.infoPlist], isFixable: true,
        triggering: [
            RuleExample("↓<key>CFBundleShortVersionString</key>\n<string>1.2.3.4</string>"),
            RuleExample("↓<key>CFBundleShortVersionString</key>\n<string>1.0 beta</string>"),
            RuleExample("↓<key>CFBundleShortVersionString</key>\n<string>1.4.2\n</string>", expectsFix: true),
            RuleExample("↓<key>CFBundleShortVersionString</key>\n<real>1.5</real>"),
        ],
        nonTriggering: [
            RuleExample("<key>CFBundleShortVersionString</key>\n<string>1.4.2</string>"),
            RuleExample("<key>CFBundleShortVersionString</key>\n<string>$(MARKETING_VERSION)</string>"),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        VersionKeyCheck.check("CFBundleShortVersionString", file, &context, what: "one to three period-separated integers (ITMS-90060)")
    }
}
