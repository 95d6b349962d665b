import LintKit
import PropertyList

/// The profile's developer certificates must not have expired.
///
/// Triggers for each certificate in `DeveloperCertificates` whose validity ended before the
/// run's instant.
public struct ExpiredCertificate: LintRule {
    public static let description = RuleDescription(
        id: "profile.expired-certificate", category: .provisioning, severity: .error,
        summary: "The profile's developer certificates must not have expired.",
        rationale: """
            An app can only be signed with a certificate the profile lists; once that \
            certificate expires, codesign fails and installed builds signed with it stop \
            launching, even while the profile itself is still valid.
            """,
        kinds: [.provisioningProfile],
        triggering: [
            RuleExample("""
                <key>developerCertificates</key>
                <array>
                ↓<dict>
                <key>commonName</key>
                <string>Apple Development: Jane Doe (ABCDE12345)</string>
                <key>notValidAfter</key>
                <date>2025-02-21T14:37:28Z</date>
                <key>expired</key>
                <true/>
                <key>daysUntilExpiry</key>
                <integer>-314</integer>
                </dict>
                </array>
                """)
        ],
        nonTriggering: [
            RuleExample("""
                <key>developerCertificates</key>
                <array>
                <dict>
                <key>commonName</key>
                <string>Apple Development: Jane Doe (ABCDE12345)</string>
                <key>notValidAfter</key>
                <date>2027-02-21T14:37:28Z</date>
                <key>expired</key>
                <false/>
                </dict>
                </array>
                """)
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        for (index, certificate) in (file["developerCertificates"]?.arrayValue ?? []).enumerated()
        where certificate[key: "expired"]?.bool == true {
            context.report(Self.expired(certificate), at: KeyPath(["developerCertificates", String(index)]))
        }
    }

    private static func expired(_ certificate: PlistValue) -> String {
        let name = certificate[key: "commonName"]?.stringValue ?? "certificate"
        let date = certificate[key: "notValidAfter"]?.date?.iso8601 ?? "?"
        return "certificate \"\(name)\" expired on \(date)"
    }
}
