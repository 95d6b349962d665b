import LintKit
import PropertyList

/// The manifest has a software-package asset with an https URL to an .ipa.
public struct OTASoftwarePackage: LintRule {
    public static let description = RuleDescription(
        id: "ota.software-package", category: .otaManifest, severity: .error,
        summary: "assets holds a software-package whose url is https and ends in .ipa.",
        rationale: """
            iOS downloads the app from the software-package asset, and only over HTTPS with \
            a certificate the device trusts; an http URL, a missing asset or a link to \
            something other than the .ipa makes the install fail on the device with "Cannot \
            connect to …" or "Unable to Download App".
            """,
        kinds: [.otaManifest],
        triggering: [
            RuleExample("""
                <key>items</key>
                <array>
                \t<dict>
                \t\t<key>assets</key>
                \t\t<array>
                \t\t\t↓<dict><key>kind</key><string>software-package</string><key>url</key><string>http://example.com/App.ipa</string></dict>
                \t\t</array>
                \t</dict>
                </array>
                """),
            RuleExample("<key>items</key>\n<array>\n\t<dict>\n\t\t↓<key>assets</key>\n\t\t<array/>\n\t</dict>\n</array>"),
        ],
        nonTriggering: [RuleExample("<key>items</key>\n<array>\n\t<dict>\n\t\t<key>assets</key>\n\t\t<array>\n\t\t\t<dict><key>kind</key><string>software-package</string><key>url</key><string>https://example.com/builds/App.ipa</string></dict>\n\t\t</array>\n\t</dict>\n</array>")])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard OTAManifestFile.item(file) != nil else { return }
        let packages = OTAManifestFile.assets(file).filter { $0.kind == "software-package" }
        guard !packages.isEmpty else {
            context.report("assets has no software-package entry: the device has nothing to install", at: KeyPath(["items", "0", "assets"]))
            return
        }
        for package in packages {
            guard let url = package.url else {
                context.report("the software-package asset has no url string", at: package.path)
                continue
            }
            if !ValueFormat.isHTTPSURL(url) {
                context.report("software-package url \"\(url)\" must be https (iOS refuses other schemes)", at: package.path)
            } else if !(url.split(separator: "?").first ?? "").lowercased().hasSuffix(".ipa") {
                context.report("software-package url \"\(url)\" does not end in .ipa", at: package.path)
            }
        }
    }
}
