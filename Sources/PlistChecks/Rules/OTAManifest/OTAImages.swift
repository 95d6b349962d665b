import LintKit
import PropertyList

/// The manifest has display-image and full-size-image assets with https URLs.
public struct OTAImages: LintRule {
    static let kinds = ["display-image", "full-size-image"]

    public static let description = RuleDescription(
        id: "ota.images", category: .otaManifest, severity: .warning,
        summary: "assets holds display-image (57×57) and full-size-image (512×512) entries with https URLs.",
        rationale: """
            iOS shows the display image on the home screen while the app downloads and the \
            full-size image during install; without them the install shows a blank icon, and \
            older iOS versions fail the install. Like the package, they are fetched only over \
            HTTPS.
            """,
        kinds: [.otaManifest],
        triggering: [RuleExample("<key>items</key>\n<array>\n\t<dict>\n\t\t↓<key>assets</key>\n\t\t<array>\n\t\t\t<dict><key>kind</key><string>display-image</string><key>url</key><string>https://example.com/57.png</string></dict>\n\t\t</array>\n\t</dict>\n</array>")],
        nonTriggering: [RuleExample("<key>items</key>\n<array>\n\t<dict>\n\t\t<key>assets</key>\n\t\t<array>\n\t\t\t<dict><key>kind</key><string>display-image</string><key>url</key><string>https://example.com/57.png</string></dict>\n\t\t\t<dict><key>kind</key><string>full-size-image</string><key>url</key><string>https://example.com/512.png</string></dict>\n\t\t</array>\n\t</dict>\n</array>")])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard OTAManifestFile.item(file)?[key: "assets"]?.arrayValue != nil else { return }
        let assets = OTAManifestFile.assets(file)
        for kind in Self.kinds {
            let matching = assets.filter { $0.kind == kind }
            if matching.isEmpty {
                context.report("assets has no \(kind) entry", at: KeyPath(["items", "0", "assets"]))
            }
            for asset in matching where !(asset.url.map(ValueFormat.isHTTPSURL) ?? false) {
                context.report("\(kind) url \(asset.url.map { "\"\($0)\"" } ?? "(missing)") must be https", at: asset.path)
            }
        }
    }
}
