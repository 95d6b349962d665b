import LintKit
import PropertyList

/// The binary must be signed for the profile's team.
///
/// Triggers when the binary's `com.apple.developer.team-identifier`, or the team prefix of
/// its `application-identifier`, is not one of the profile's `TeamIdentifier`s.
public struct TeamMismatch: LintRule {
    public static let description = RuleDescription(
        id: "app.team-mismatch", category: .provisioning, severity: .error,
        summary: "The binary's team must be the profile's team.",
        rationale: """
            A binary signed for one team with another team's profile cannot install; it \
            happens when a project moves between accounts or a re-signing script picks the \
            wrong profile.
            """,
        kinds: [.provisioningProfile],
        triggering: [
            RuleExample("""
                <key>teamIdentifiers</key>
                <array>
                <string>ABCDE12345</string>
                </array>
                <key>app</key>
                <dict>
                <key>binaryEntitlements</key>
                <dict>
                ↓<key>com.apple.developer.team-identifier</key>
                <string>ZZZZZ99999</string>
                </dict>
                </dict>
                """)
        ],
        nonTriggering: [
            RuleExample("""
                <key>teamIdentifiers</key>
                <array>
                <string>ABCDE12345</string>
                </array>
                <key>app</key>
                <dict>
                <key>binaryEntitlements</key>
                <dict>
                <key>com.apple.developer.team-identifier</key>
                <string>ABCDE12345</string>
                <key>application-identifier</key>
                <string>ABCDE12345.com.example.app</string>
                </dict>
                </dict>
                """)
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard let teams = file["teamIdentifiers"]?.arrayValue?.compactMap(\.stringValue), !teams.isEmpty,
              let binary = file["app"]?[key: "binaryEntitlements"] else { return }
        if let team = binary[key: "com.apple.developer.team-identifier"]?.stringValue, !teams.contains(team) {
            context.report(Self.mismatch(team, teams), at: KeyPath(["app", "binaryEntitlements", "com.apple.developer.team-identifier"]))
        } else if let identifier = binary[key: "application-identifier"]?.stringValue,
                  let prefix = identifier.split(separator: ".").first.map(String.init), !teams.contains(prefix) {
            context.report(Self.mismatch(prefix, teams), at: KeyPath(["app", "binaryEntitlements", "application-identifier"]))
        }
    }

    private static func mismatch(_ team: String, _ teams: [String]) -> String {
        "the binary is signed for team \(team), the profile belongs to \(teams.joined(separator: ", "))"
    }
}
