import LintKit
import PropertyList
import Provisioning

/// The app's CFBundleIdentifier must match the profile's application identifier.
///
/// Triggers when the profile's `application-identifier` without its team prefix (an exact
/// identifier, `com.example.*` or `*`) does not match the app's bundle identifier.
public struct BundleIdentifierMismatch: LintRule {
    public static let description = RuleDescription(
        id: "app.bundle-identifier-mismatch", category: .provisioning, severity: .error,
        summary: "CFBundleIdentifier must match the profile's application-identifier.",
        rationale: """
            A profile is made for one App ID; an app whose bundle identifier it does not \
            cover fails to install ("The entitlements specified in your application's Code \
            Signing Entitlements file do not match those specified in your provisioning \
            profile"). Wildcard App IDs (TEAMID.* or TEAMID.com.example.*) cover a prefix.
            """,
        kinds: [.provisioningProfile],
        triggering: [
            RuleExample("<key>applicationIdentifier</key>\n<string>ABCDE12345.com.example.app</string>\n↓<key>app</key>\n<dict>\n<key>bundleIdentifier</key>\n<string>com.example.other</string>\n</dict>"),
            RuleExample("<key>applicationIdentifier</key>\n<string>ABCDE12345.com.example.*</string>\n↓<key>app</key>\n<dict>\n<key>bundleIdentifier</key>\n<string>org.example.app</string>\n</dict>"),
        ],
        nonTriggering: [
            RuleExample("<key>applicationIdentifier</key>\n<string>ABCDE12345.com.example.app</string>\n<key>app</key>\n<dict>\n<key>bundleIdentifier</key>\n<string>com.example.app</string>\n</dict>"),
            RuleExample("<key>applicationIdentifier</key>\n<string>ABCDE12345.*</string>\n<key>app</key>\n<dict>\n<key>bundleIdentifier</key>\n<string>org.example.anything</string>\n</dict>"),
            RuleExample("<key>applicationIdentifier</key>\n<string>ABCDE12345.com.example.*</string>\n<key>app</key>\n<dict>\n<key>bundleIdentifier</key>\n<string>com.example.app.widget</string>\n</dict>"),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard let identifier = file["applicationIdentifier"]?.stringValue,
              let bundleID = file["app"]?[key: "bundleIdentifier"]?.stringValue,
              let dot = identifier.firstIndex(of: ".") else { return }
        let pattern = String(identifier[identifier.index(after: dot)...])
        guard !EntitlementMatching.matches(pattern: pattern, bundleID) else { return }
        context.report(Self.mismatch(bundleID, identifier), key: "app")
    }

    private static func mismatch(_ bundleID: String, _ identifier: String) -> String {
        "CFBundleIdentifier \"\(bundleID)\" is not matched by the profile's application-identifier \"\(identifier)\""
    }
}
