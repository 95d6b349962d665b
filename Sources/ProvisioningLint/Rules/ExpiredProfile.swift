import LintKit
import PropertyList

/// A profile must not have expired.
///
/// Triggers when `ExpirationDate` is at or before the run's instant (`--now`, else now).
public struct ExpiredProfile: LintRule {
    public static let description = RuleDescription(
        id: "profile.expired", category: .provisioning, severity: .error,
        summary: "The profile must not have expired.",
        rationale: """
            An app signed with an expired profile does not install, and an installed one stops \
            launching: the device checks ExpirationDate at every launch.
            """,
        kinds: [.provisioningProfile],
        triggering: [
            RuleExample("↓<key>expirationDate</key>\n<date>2025-10-18T09:37:30Z</date>\n<key>expired</key>\n<true/>\n<key>daysUntilExpiry</key>\n<integer>-75</integer>")
        ],
        nonTriggering: [
            RuleExample("<key>expirationDate</key>\n<date>2027-01-01T00:00:00Z</date>\n<key>expired</key>\n<false/>\n<key>daysUntilExpiry</key>\n<integer>3</integer>")
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard file["expired"]?.bool == true, let date = file["expirationDate"]?.date else { return }
        context.report(Self.expired(date, days: file["daysUntilExpiry"]?.integer ?? 0), key: "expirationDate")
    }

    private static func expired(_ date: PlistDate, days: Int) -> String {
        "the profile expired on \(date.iso8601) (\(ProvisioningWording.relativeDays(days)))"
    }
}
