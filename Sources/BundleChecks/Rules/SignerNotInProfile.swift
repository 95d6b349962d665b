import LintKit
import PropertyList

/// The certificate that signed a bundle's binary is one its embedded profile lists.
///
/// Triggers when the bundle has an `embedded.mobileprovision`, its executable has a CMS
/// signer, and the signer certificate's SHA-1 fingerprint is not among the profile's
/// `DeveloperCertificates`.
public struct SignerNotInProfile: LintRule {
    public static let description = RuleDescription(
        id: "signature.signer-not-in-profile", category: .codeSigning, severity: .error,
        summary: "Each bundle is signed by a certificate its embedded profile lists in DeveloperCertificates.",
        rationale: """
            A provisioning profile authorises the certificates it lists. Code signed by any \
            other (a teammate's identity, a renewed certificate with an old profile) fails \
            installation and App Store validation ("the signing certificate is not included \
            in the profile", ITMS-90034). Each extension's profile is checked against the \
            extension's own signature.
            """,
        kinds: [.bundleSignature],
        triggering: [
            RuleExample("""
                <key>binary</key><string>App.app/App</string>
                <key>profile</key><dict><key>file</key><string>App.app/embedded.mobileprovision</string>
                <key>name</key><string>App Store</string>
                <key>developerCertificates</key><array><string>0A1B2C3D4E5F60718293A4B5C6D7E8F901234567</string></array>
                <key>signer</key><dict><key>name</key><string>Apple Distribution: Someone Else (ABCDE12345)</string>
                <key>sha1</key><string>FFEEDDCCBBAA99887766554433221100FFEEDDCC</string></dict></dict>
                """),
        ],
        nonTriggering: [
            RuleExample("""
                <key>binary</key><string>App.app/App</string>
                <key>profile</key><dict><key>file</key><string>App.app/embedded.mobileprovision</string>
                <key>name</key><string>App Store</string>
                <key>developerCertificates</key><array><string>0A1B2C3D4E5F60718293A4B5C6D7E8F901234567</string></array>
                <key>signer</key><dict><key>name</key><string>Apple Distribution: Test (ABCDE12345)</string>
                <key>sha1</key><string>0A1B2C3D4E5F60718293A4B5C6D7E8F901234567</string></dict></dict>
                """),
            RuleExample("""
                <key>binary</key><string>App.app/App</string>
                <key>profile</key><dict><key>file</key><string>App.app/embedded.mobileprovision</string>
                <key>developerCertificates</key><array/></dict>
                """),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard let profile = file["profile"], let signer = profile[key: "signer"],
              let fingerprint = signer[key: "sha1"]?.stringValue else { return }
        let listed = (profile[key: "developerCertificates"]?.arrayValue ?? []).compactMap(\.stringValue)
        guard !listed.contains(fingerprint) else { return }
        let name = signer[key: "name"]?.stringValue ?? fingerprint
        let binary = file["binary"]?.stringValue.map(MissingAPIDeclaration.lastComponent) ?? file.path
        context.report("\(binary) is signed by \"\(name)\" (SHA-1 \(fingerprint)), which its profile does not list among its \(listed.count) developer certificates (ITMS-90034)",
                       key: "profile")
    }
}
