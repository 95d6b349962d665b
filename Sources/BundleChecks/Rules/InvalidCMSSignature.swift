import LintKit
import PropertyList

/// The CMS signature of a binary verifies over its CodeDirectory.
///
/// Triggers when the signed message digest differs from the primary CodeDirectory's, or the
/// signature does not verify with the signer's certificate: the CodeDirectory (and so every
/// hash in it) was changed after signing, or the CMS blob belongs to other code.
public struct InvalidCMSSignature: LintRule {
    public static let description = RuleDescription(
        id: "signature.cms-invalid", category: .codeSigning, severity: .error,
        summary: "The CMS signature of each binary verifies over its CodeDirectory.",
        rationale: """
            The CMS blob signs the primary CodeDirectory, which holds the hash of every page \
            and sealed file. A CodeDirectory edited or copied from other code after signing \
            leaves a signature that no longer verifies; the system will not run the binary \
            and App Store Connect rejects it. Checked with the certificate in the blob; \
            whether that certificate chains to Apple is not checked (no trust store here).
            """,
        kinds: [.bundleSignature],
        triggering: [
            RuleExample("""
                <key>binary</key><string>App.app/App</string>
                <key>cms</key><dict><key>file</key><string>App.app/App</string><key>offset</key><integer>50000</integer>
                <key>reason</key><string>content digest does not match the signed message-digest attribute</string></dict>
                """),
        ],
        nonTriggering: [
            RuleExample("""
                <key>binary</key><string>App.app/App</string>
                """),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard let reason = file["cms"]?[key: "reason"]?.stringValue else { return }
        context.report("the CMS signature does not verify over the CodeDirectory: \(reason)", key: "cms")
    }
}
