import LintKit
import PropertyList

/// application-identifier, keychain-access-groups and the team identifier agree on the team.
public struct TeamPrefix: LintRule {
    public static let description = RuleDescription(
        id: "entitlements.team-prefix", category: .entitlements, severity: .error,
        summary: "application-identifier and keychain-access-groups share one team prefix, equal to com.apple.developer.team-identifier.",
        rationale: """
            The team (app identifier) prefix ties the entitlements to one developer team's \
            provisioning profile. Entries with another team's prefix (a project moved between \
            accounts, a copied entitlements file) make signing fail or, worse, keychain items \
            become unreadable after an update. $(AppIdentifierPrefix) references are left to \
            Xcode.
            """,
        kinds: [.entitlements],
        triggering: [
            RuleExample("<key>application-identifier</key>\n<string>ABCDE12345.com.example.app</string>\n<key>keychain-access-groups</key>\n<array>\n\t↓<string>ZYXWV98765.com.example.shared</string>\n</array>"),
            RuleExample("<key>com.apple.application-identifier</key>\n<string>ABCDE12345.com.example.app</string>\n↓<key>com.apple.developer.team-identifier</key>\n<string>ZYXWV98765</string>"),
        ],
        nonTriggering: [
            RuleExample("<key>application-identifier</key>\n<string>ABCDE12345.com.example.app</string>\n<key>keychain-access-groups</key>\n<array>\n\t<string>ABCDE12345.com.example.shared</string>\n\t<string>$(AppIdentifierPrefix)com.example.other</string>\n</array>\n<key>com.apple.developer.team-identifier</key>\n<string>ABCDE12345</string>"),
        ])

    public init() {}

    static func prefix(_ identifier: String) -> String? {
        guard let dot = identifier.firstIndex(of: "."), dot != identifier.startIndex else { return nil }
        return String(identifier[..<dot])
    }

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        let appKey = ["application-identifier", "com.apple.application-identifier"].first { file[$0] != nil }
        guard let appKey, let appID = file[appKey]?.stringValue, !ValueFormat.hasBuildVariable(appID), let team = Self.prefix(appID) else { return }
        if let groups = file["keychain-access-groups"]?.arrayValue {
            for (i, group) in groups.enumerated() {
                guard let text = group.stringValue, !ValueFormat.hasBuildVariable(text) else { continue }
                if Self.prefix(text) != team {
                    context.report("keychain access group \"\(text)\" does not start with the team prefix \"\(team).\" of \(appKey)",
                                   at: KeyPath(["keychain-access-groups", String(i)]))
                }
            }
        }
        let teamKey = "com.apple.developer.team-identifier"
        if let declared = file[teamKey]?.stringValue, !ValueFormat.hasBuildVariable(declared), declared != team {
            context.report("\(teamKey) \"\(declared)\" differs from the prefix \"\(team)\" of \(appKey)", key: teamKey)
        }
    }
}
