import LintKit
import PropertyList

/// The profile's developer certificates should not expire within `warn-days` days.
///
/// Triggers for each still-valid certificate with fewer than `warn-days` days left.
public struct ExpiringCertificate: LintRule {
    public static let description = RuleDescription(
        id: "profile.expiring-certificate", category: .provisioning, severity: .warning,
        summary: "Developer certificates should not expire within warn-days days.",
        rationale: """
            When the signing certificate expires, both it and every profile listing it must \
            be renewed; a warning ahead of time avoids a broken release pipeline.
            """,
        kinds: [.provisioningProfile],
        options: [RuleOption("warn-days", default: .integer(30), "Warn when fewer days than this remain.")],
        triggering: [
            RuleExample("""
                <key>developerCertificates</key>
                <array>
                ↓<dict>
                <key>commonName</key>
                <string>Apple Distribution: Example Ltd (ABCDE12345)</string>
                <key>notValidAfter</key>
                <date>2026-01-10T00:00:00Z</date>
                <key>expired</key>
                <false/>
                <key>daysUntilExpiry</key>
                <integer>9</integer>
                </dict>
                </array>
                """)
        ],
        nonTriggering: [
            RuleExample("""
                <key>developerCertificates</key>
                <array>
                <dict>
                <key>expired</key>
                <false/>
                <key>daysUntilExpiry</key>
                <integer>200</integer>
                </dict>
                </array>
                """)
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        let limit = context.integerOption("warn-days", default: 30)
        for (index, certificate) in (file["developerCertificates"]?.arrayValue ?? []).enumerated() {
            guard certificate[key: "expired"]?.bool == false, let days = certificate[key: "daysUntilExpiry"]?.integer, days < limit else { continue }
            context.report(Self.expiring(certificate, days: days), at: KeyPath(["developerCertificates", String(index)]))
        }
    }

    private static func expiring(_ certificate: PlistValue, days: Int) -> String {
        "certificate \"\(certificate[key: "commonName"]?.stringValue ?? "certificate")\" expires \(ProvisioningWording.relativeDays(days))"
    }
}
