import LintKit
import PropertyList

/// A profile's signature must verify.
///
/// Triggers when the content digest differs from the signed `message-digest`, the signature
/// does not verify with the signer's certificate, or (with `--trust-roots`) the signer chain
/// reaches no trusted root.
public struct InvalidSignature: LintRule {
    public static let description = RuleDescription(
        id: "profile.signature-invalid", category: .provisioning, severity: .error,
        summary: "The profile's CMS signature must verify.",
        rationale: """
            A profile whose content no longer matches its signature was edited after Apple \
            signed it: devices refuse to install an app carrying it ("A valid provisioning \
            profile for this executable was not found"), so it fails late, on the device.
            """,
        kinds: [.provisioningProfile],
        triggering: [
            RuleExample("↓<key>signature</key>\n<dict>\n<key>valid</key>\n<false/>\n<key>failure</key>\n<string>content digest does not match the signed message-digest attribute</string>\n</dict>")
        ],
        nonTriggering: [RuleExample("<key>signature</key>\n<dict>\n<key>valid</key>\n<true/>\n</dict>")])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard let signature = file["signature"], signature[key: "valid"]?.bool == false else { return }
        context.report(Self.invalid(signature[key: "failure"]?.stringValue), key: "signature")
    }

    private static func invalid(_ why: String?) -> String {
        "the profile's signature does not verify: \(why ?? "unknown reason")"
    }
}
