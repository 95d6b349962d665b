import LintKit
import PlistTools
import PropertyList
import Provisioning

/// Each bundle's embedded profile is for that bundle: its identifier and every entitlement its
/// own binary is signed with.
///
/// Triggers when the bundle's `CFBundleIdentifier` does not match the profile's
/// `application-identifier` (after the team prefix; a trailing `*` is a wildcard), and for each
/// entitlement in the binary's signature that the profile does not grant (by
/// `EntitlementMatching`, as `devkit provision lint` judges the app's executable).
public struct BundleProfileMismatch: LintRule {
    public static let description = RuleDescription(
        id: "signature.profile-mismatch", category: .codeSigning, severity: .error,
        summary: "Each bundle's embedded profile matches its bundle identifier and grants its binary's entitlements.",
        rationale: """
            An app and each of its extensions carry their own profile, issued for their own \
            bundle identifier. A profile copied from the app into an extension, or an \
            entitlement (an App Group, push) added to one target and not to its App ID, makes \
            installation fail and App Store Connect reject the build (ITMS-90161, invalid \
            provisioning profile). The entitlements judged are those in the binary's code \
            signature, not an .entitlements file.
            """,
        kinds: [.bundleSignature],
        triggering: [
            RuleExample("""
                <key>binary</key><string>App.app/PlugIns/Widget.appex/Widget</string>
                <key>profile</key><dict><key>file</key><string>App.app/PlugIns/Widget.appex/embedded.mobileprovision</string>
                <key>bundleIdentifier</key><string>com.example.app.widget</string>
                <key>bundleIdentifierPattern</key><string>com.example.app</string>
                <key>entitlements</key><dict><key>get-task-allow</key><false/></dict>
                <key>binaryEntitlements</key><dict>
                <key>com.apple.security.application-groups</key><array><string>group.com.example</string></array></dict></dict>
                """),
        ],
        nonTriggering: [
            RuleExample("""
                <key>binary</key><string>App.app/PlugIns/Widget.appex/Widget</string>
                <key>profile</key><dict><key>file</key><string>App.app/PlugIns/Widget.appex/embedded.mobileprovision</string>
                <key>bundleIdentifier</key><string>com.example.app.widget</string>
                <key>bundleIdentifierPattern</key><string>com.example.*</string>
                <key>entitlements</key><dict><key>get-task-allow</key><false/>
                <key>com.apple.security.application-groups</key><array><string>group.com.example</string></array></dict>
                <key>binaryEntitlements</key><dict><key>get-task-allow</key><false/>
                <key>com.apple.security.application-groups</key><array><string>group.com.example</string></array></dict></dict>
                """),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard let profile = file["profile"] else { return }
        let name = profile[key: "file"]?.stringValue.map(Self.bundleRelative) ?? "the embedded profile"
        if let identifier = profile[key: "bundleIdentifier"]?.stringValue,
           let pattern = profile[key: "bundleIdentifierPattern"]?.stringValue,
           !EntitlementMatching.matches(pattern: pattern, identifier) {
            context.report("\(name) is for \(pattern), not this bundle's identifier \(identifier)", at: KeyPath(["profile", "bundleIdentifier"]))
        }
        guard let requested = profile[key: "binaryEntitlements"]?.dictionaryEntries,
              case .dictionary(let granted)? = profile[key: "entitlements"] else { return }
        for (key, value) in requested {
            if let grant = granted[key] {
                if !EntitlementMatching.grants(grant, value) {
                    context.report("entitlement \(key) = \(PlistPrinter.scalar(value)) is not granted by \(name), which allows \(PlistPrinter.scalar(grant))",
                                   at: KeyPath(["profile", "binaryEntitlements", key]))
                }
            } else if value != .bool(false) {
                context.report("entitlement \(key) is not granted by \(name)", at: KeyPath(["profile", "binaryEntitlements", key]))
            }
        }
    }

    /// `Widget.appex/embedded.mobileprovision`: enough to tell the app's profile from an extension's.
    static func bundleRelative(_ path: String) -> String {
        path.split(separator: "/").suffix(2).joined(separator: "/")
    }
}
