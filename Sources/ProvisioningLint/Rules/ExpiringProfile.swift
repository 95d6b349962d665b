import LintKit
import PropertyList

/// A profile should not expire within `warn-days` days.
///
/// Triggers when the profile is still valid but expires in fewer than `warn-days` days.
public struct ExpiringProfile: LintRule {
    public static let description = RuleDescription(
        id: "profile.expiring", category: .provisioning, severity: .warning,
        summary: "The profile should not expire within warn-days days.",
        rationale: """
            Testers' builds stop launching the day their profile expires; renewing it before a \
            release, not after the bug reports, needs a warning ahead of time.
            """,
        kinds: [.provisioningProfile],
        options: [RuleOption("warn-days", default: .integer(30), "Warn when fewer days than this remain.")],
        triggering: [
            RuleExample("↓<key>expirationDate</key>\n<date>2026-01-13T00:00:00Z</date>\n<key>expired</key>\n<false/>\n<key>daysUntilExpiry</key>\n<integer>12</integer>"),
            RuleExample("↓<key>expirationDate</key>\n<date>2026-03-01T00:00:00Z</date>\n<key>expired</key>\n<false/>\n<key>daysUntilExpiry</key>\n<integer>59</integer>", ruleOptions: ["warn-days": .integer(60)]),
        ],
        nonTriggering: [
            RuleExample("<key>expirationDate</key>\n<date>2026-03-01T00:00:00Z</date>\n<key>expired</key>\n<false/>\n<key>daysUntilExpiry</key>\n<integer>59</integer>"),
            RuleExample("<key>expirationDate</key>\n<date>2025-01-01T00:00:00Z</date>\n<key>expired</key>\n<true/>\n<key>daysUntilExpiry</key>\n<integer>-5</integer>"),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard file["expired"]?.bool == false, let days = file["daysUntilExpiry"]?.integer,
              days < context.integerOption("warn-days", default: 30) else { return }
        context.report(Self.expiring(days), key: "expirationDate")
    }

    private static func expiring(_ days: Int) -> String {
        "the profile expires \(ProvisioningWording.relativeDays(days))"
    }
}
