import LintKit
import PropertyList

/// CFBundleVersion is one to three period-separated non-negative integers.
public struct BundleVersionFormat: LintRule {
    public static let description = RuleDescription(
        id: "infoplist.bundle-version-format", category: .infoPlist, severity: .error,
        summary: "CFBundleVersion (the build number) is one to three period-separated non-negative integers.",
        rationale: """
            App Store Connect refuses build numbers such as "1.0b3" or "2024-05-01" ("The \
            value for key CFBundleVersion … must be a period-separated list of at most three \
            non-negative integers"), and TestFlight orders builds by it. The fix trims \
            surrounding whitespace when that is the only problem.
            """,
        kinds: [.infoPlist], isFixable: true,
        triggering: [
            RuleExample("↓<key>CFBundleVersion</key>\n<string>1.0b3</string>"),
            RuleExample("↓<key>CFBundleVersion</key>\n<string> 142</string>", expectsFix: true),
            RuleExample("↓<key>CFBundleVersion</key>\n<integer>142</integer>"),
        ],
        nonTriggering: [
            RuleExample("<key>CFBundleVersion</key>\n<string>142</string>"),
            RuleExample("<key>CFBundleVersion</key>\n<string>2024.5.1</string>"),
            RuleExample("<key>CFBundleVersion</key>\n<string>$(CURRENT_PROJECT_VERSION)</string>"),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        VersionKeyCheck.check("CFBundleVersion", file, &context, what: "one to three period-separated integers")
    }
}
