import LintKit
import PropertyList

/// The push environment is `development` or `production`.
public struct APSEnvironment: LintRule {
    static let keys = ["aps-environment", "com.apple.developer.aps-environment"]

    public static let description = RuleDescription(
        id: "entitlements.aps-environment", category: .entitlements, severity: .error,
        summary: "aps-environment (macOS: com.apple.developer.aps-environment) is \"development\" or \"production\".",
        rationale: """
            Any other value (a capitalised "Production", a typo) does not match the \
            provisioning profile, so code signing fails, or the app never gets a device \
            token and push notifications silently stop. The fix lowercases a value that \
            differs only in case.
            """,
        kinds: [.entitlements], isFixable: true,
        triggering: [
            RuleExample("↓<key>aps-environment</key>\n<string>Production</string>", expectsFix: true),
            RuleExample("↓<key>aps-environment</key>\n<string>prod</string>"),
        ],
        nonTriggering: [RuleExample("<key>aps-environment</key>\n<string>development</string>")])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        for key in Self.keys {
            guard let value = file[key] else { continue }
            let text = value.stringValue ?? ""
            if text == "development" || text == "production" || ValueFormat.hasBuildVariable(text) { continue }
            let lower = text.lowercased()
            let fix: PlistFix? = lower == "development" || lower == "production" ? .edit(.replace(KeyPath([key]), .string(lower))) : nil
            context.report("\(key) is \(value.shortDescription); it must be \"development\" or \"production\"", key: key, fix: fix)
        }
    }
}
