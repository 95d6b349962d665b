import LintKit
import PropertyList

/// A manifest that declares tracking lists the domains that track, as host names.
///
/// Triggers when `NSPrivacyTracking` is true and `NSPrivacyTrackingDomains` is missing or
/// empty, when a domain is not a bare host name (a URL, a path, a port, spaces), and when a
/// domain is listed twice.
public struct PrivacyTrackingDomains: LintRule {
    public static let description = RuleDescription(
        id: "privacy.tracking-domains", category: .privacy, severity: .error,
        summary: "With NSPrivacyTracking true, NSPrivacyTrackingDomains lists host names, each once.",
        rationale: """
            iOS blocks connections to the listed domains until the user allows tracking \
            through App Tracking Transparency; that is what the list is for. A manifest that \
            declares tracking but lists no domain is refused at upload, and an entry written \
            as a URL ("https://ads.example.com/v1") matches no host, so the traffic it was \
            meant to gate is neither blocked nor declared.
            """,
        kinds: [.privacyManifest],
        triggering: [
            RuleExample("↓<key>NSPrivacyTracking</key>\n<true/>"),
            RuleExample("<key>NSPrivacyTracking</key>\n<true/>\n<key>NSPrivacyTrackingDomains</key>\n<array>\n\t↓<string>https://ads.example.com/v1</string>\n\t<string>metrics.example.com</string>\n\t↓<string>Metrics.example.com</string>\n</array>"),
        ],
        nonTriggering: [
            RuleExample("<key>NSPrivacyTracking</key>\n<false/>"),
            RuleExample("<key>NSPrivacyTracking</key>\n<true/>\n<key>NSPrivacyTrackingDomains</key>\n<array>\n\t<string>ads.example.com</string>\n\t<string>metrics.example-cdn.net</string>\n</array>"),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        let domains = PrivacyManifestEntries.strings(file.value, "NSPrivacyTrackingDomains", at: [])
        if case .bool(true)? = file["NSPrivacyTracking"], file["NSPrivacyTrackingDomains"]?.arrayValue?.isEmpty ?? true {
            context.report("NSPrivacyTracking is true but NSPrivacyTrackingDomains lists no domain; list the domains that track", key: "NSPrivacyTracking")
        }
        var seen = Set<String>()
        for (path, domain) in domains {
            if !Self.isHostName(domain) {
                context.report("tracking domain \"\(domain)\" is not a host name (no scheme, path, port or spaces: \"ads.example.com\")", at: KeyPath(path))
            } else if !seen.insert(Self.lowercased(domain)).inserted {
                context.report("tracking domain \"\(domain)\" is listed twice", at: KeyPath(path))
            }
        }
    }

    /// Dot-separated labels of ASCII letters, digits and inner hyphens, 1 to 63 bytes each,
    /// at most 253 bytes in all (RFC 1123).
    static func isHostName(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 253 else { return false }
        let labels = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return labels.allSatisfy { label in
            guard (1...63).contains(label.count), label.first != UInt8(ascii: "-"), label.last != UInt8(ascii: "-") else { return false }
            return label.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "-")
            }
        }
    }

    private static func lowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
