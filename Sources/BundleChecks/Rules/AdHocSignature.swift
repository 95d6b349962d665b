import LintKit
import PropertyList

/// A binary is signed with a certificate, not ad hoc.
///
/// Triggers when the code signature has no CMS signer (slot 0x10000 absent or empty) or its
/// CodeDirectory carries `CS_ADHOC`: what `codesign -s -`, linkers and simulator builds write.
public struct AdHocSignature: LintRule {
    public static let description = RuleDescription(
        id: "signature.ad-hoc", category: .codeSigning, severity: .error,
        summary: "Each binary is signed with a certificate (an App Store upload needs a distribution signature), not ad hoc.",
        rationale: """
            An ad-hoc signature seals the code but names no signer, so no profile can vouch for \
            it: devices outside development refuse it and App Store Connect rejects the upload \
            (ITMS-90035, invalid signature). Linkers sign ad hoc by default; the archive must \
            be re-signed with the distribution identity before upload.
            """,
        kinds: [.bundleSignature],
        triggering: [
            RuleExample("""
                <key>binary</key><string>App.app/App</string>
                <key>adHoc</key><dict><key>file</key><string>App.app/App</string><key>offset</key><integer>49400</integer>
                <key>flagged</key><true/></dict>
                """),
        ],
        nonTriggering: [
            RuleExample("""
                <key>binary</key><string>App.app/App</string>
                <key>identifier</key><string>com.example.app</string>
                """),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard file["adHoc"] != nil else { return }
        let name = file["binary"]?.stringValue.map(MissingAPIDeclaration.lastComponent) ?? file.path
        context.report("\(name) is signed ad hoc (no signer certificate); an App Store upload needs a distribution signature (ITMS-90035)", key: "adHoc")
    }
}
