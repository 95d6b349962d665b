import LintKit
import PlistTools
import PropertyList
import Provisioning

/// Every entitlement in the app's binary must be granted by its profile.
///
/// Triggers for each key of the code signature's entitlements that the profile's
/// `Entitlements` lacks, or grants with other values (wildcards `*` in the profile allowed).
public struct EntitlementNotGranted: LintRule {
    public static let description = RuleDescription(
        id: "app.entitlement-not-granted", category: .provisioning, severity: .error,
        summary: "The binary's entitlements must be granted by the embedded profile.",
        rationale: """
            iOS refuses to launch an app claiming an entitlement its profile does not grant \
            (the install fails with "The executable was signed with invalid entitlements"); \
            typically a capability added in Xcode but not in the App ID.
            """,
        kinds: [.provisioningProfile],
        triggering: [
            RuleExample("""
                <key>entitlements</key>
                <dict>
                <key>application-identifier</key>
                <string>ABCDE12345.com.example.app</string>
                </dict>
                <key>app</key>
                <dict>
                <key>binaryEntitlements</key>
                <dict>
                <key>application-identifier</key>
                <string>ABCDE12345.com.example.app</string>
                ↓<key>aps-environment</key>
                <string>production</string>
                </dict>
                </dict>
                """),
            RuleExample("""
                <key>entitlements</key>
                <dict>
                <key>keychain-access-groups</key>
                <array>
                <string>ABCDE12345.com.example.*</string>
                </array>
                </dict>
                <key>app</key>
                <dict>
                <key>binaryEntitlements</key>
                <dict>
                ↓<key>keychain-access-groups</key>
                <array>
                <string>ABCDE12345.org.other</string>
                </array>
                </dict>
                </dict>
                """),
        ],
        nonTriggering: [
            RuleExample("""
                <key>entitlements</key>
                <dict>
                <key>keychain-access-groups</key>
                <array>
                <string>ABCDE12345.*</string>
                </array>
                <key>get-task-allow</key>
                <true/>
                </dict>
                <key>app</key>
                <dict>
                <key>binaryEntitlements</key>
                <dict>
                <key>keychain-access-groups</key>
                <array>
                <string>ABCDE12345.com.example.app</string>
                </array>
                <key>get-task-allow</key>
                <true/>
                <key>com.apple.developer.icloud-services</key>
                <false/>
                </dict>
                </dict>
                """)
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard let requested = file["app"]?[key: "binaryEntitlements"]?.dictionaryEntries,
              case .dictionary(let granted)? = file["entitlements"] else { return }
        for (key, value) in requested {
            if let grant = granted[key] {
                if !EntitlementMatching.grants(grant, value) {
                    context.report(Self.differs(key, value, grant), at: KeyPath(["app", "binaryEntitlements", key]))
                }
            } else if value != .bool(false) {
                context.report(Self.absent(key, value), at: KeyPath(["app", "binaryEntitlements", key]))
            }
        }
    }

    private static func absent(_ key: String, _ value: PlistValue) -> String {
        "entitlement \(key) = \(PlistPrinter.scalarOrSummary(value)) is not granted by the profile"
    }

    private static func differs(_ key: String, _ value: PlistValue, _ grant: PlistValue) -> String {
        "entitlement \(key) = \(PlistPrinter.scalarOrSummary(value)) is not granted: the profile allows \(PlistPrinter.scalarOrSummary(grant))"
    }
}

private extension PlistPrinter {
    /// A value on one line: scalars as the printer writes them, arrays of scalars inline.
    static func scalarOrSummary(_ value: PlistValue) -> String {
        switch value {
        case .array(let items): "[" + items.map(scalarOrSummary).joined(separator: ", ") + "]"
        case .dictionary(let d): "{\(d.count) keys}"
        default: scalar(value)
        }
    }
}
