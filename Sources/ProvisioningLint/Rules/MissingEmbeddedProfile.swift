import LintKit
import PropertyList

/// An app must carry its provisioning profile.
///
/// Triggers for an `.app` or `.ipa` without `embedded.mobileprovision` (iOS) or
/// `Contents/embedded.provisionprofile` (macOS).
public struct MissingEmbeddedProfile: LintRule {
    public static let description = RuleDescription(
        id: "app.missing-profile", category: .provisioning, severity: .error,
        summary: "An app must contain its embedded provisioning profile.",
        rationale: """
            Without embedded.mobileprovision an iOS app installs nowhere but the simulator: \
            the device has no profile to check the signature and entitlements against. It \
            goes missing when a build is re-packaged or re-signed by hand.
            """,
        kinds: [.provisioningProfile],
        triggering: [
            RuleExample("<key>file</key>\n<string>App.ipa!Payload/App.app</string>\n↓<key>app</key>\n<dict>\n<key>bundleIdentifier</key>\n<string>com.example.app</string>\n</dict>")
        ],
        nonTriggering: [
            RuleExample("<key>type</key>\n<string>adhoc</string>\n<key>app</key>\n<dict>\n<key>bundleIdentifier</key>\n<string>com.example.app</string>\n</dict>")
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        // The subject of an app without a profile has only `file` and `app`.
        guard file["app"] != nil, file["type"] == nil else { return }
        context.report(Self.missing, key: "app")
    }

    private static let missing = "the app has no embedded provisioning profile (embedded.mobileprovision)"
}
