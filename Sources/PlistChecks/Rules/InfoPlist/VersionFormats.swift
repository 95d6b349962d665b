import LintKit
import PropertyList

/// Shared check of the two version keys.
enum VersionKeyCheck {
    static func check(_ key: String, _ file: LintFile, _ context: inout RuleContext, what: String) {
        guard let value = file[key] else { return }
        guard let version = value.stringValue else {
            context.report("\(key) must be a string, not \(value.typeName)", key: key)
            return
        }
        if ValueFormat.hasBuildVariable(version) || ValueFormat.isDottedIntegers(version) { return }
        let trimmed = ValueFormat.trimmed(version)
        let fix: PlistFix? = ValueFormat.isDottedIntegers(trimmed) ? .edit(.replace(KeyPath([key]), .string(trimmed))) : nil
        context.report("\(key) \"\(version)\" is not \(what)", key: key, fix: fix)
    }
}

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
