import LintKit
import PropertyList

/// The manifest's metadata names the app: bundle-identifier, bundle-version, kind, title.
public struct OTAMetadata: LintRule {
    public static let description = RuleDescription(
        id: "ota.metadata", category: .otaManifest, severity: .error,
        summary: "metadata has bundle-identifier, bundle-version, kind = software and title, all strings.",
        rationale: """
            iOS identifies the app being installed by metadata: without bundle-identifier or \
            bundle-version the install fails, with a kind other than "software" nothing is \
            installed, and the title is what the install prompt shows.
            """,
        kinds: [.otaManifest],
        triggering: [RuleExample("<key>items</key>\n<array>\n\t<dict>\n\t\t<key>assets</key>\n\t\t<array/>\n\t\t↓<key>metadata</key>\n\t\t<dict>\n\t\t\t<key>bundle-identifier</key>\n\t\t\t<string>com.example.app</string>\n\t\t\t↓<key>kind</key>\n\t\t\t<string>application</string>\n\t\t</dict>\n\t</dict>\n</array>")],
        nonTriggering: [RuleExample("<key>items</key>\n<array>\n\t<dict>\n\t\t<key>assets</key>\n\t\t<array/>\n\t\t<key>metadata</key>\n\t\t<dict>\n\t\t\t<key>bundle-identifier</key>\n\t\t\t<string>com.example.app</string>\n\t\t\t<key>bundle-version</key>\n\t\t\t<string>1.4.2</string>\n\t\t\t<key>kind</key>\n\t\t\t<string>software</string>\n\t\t\t<key>title</key>\n\t\t\t<string>Demo</string>\n\t\t</dict>\n\t</dict>\n</array>")])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard let item = OTAManifestFile.item(file), case .dictionary = item else { return }
        let base = ["items", "0", "metadata"]
        guard let metadata = item[key: "metadata"] else {
            context.report("the item has no metadata dictionary", at: KeyPath(["items", "0"]))
            return
        }
        guard case .dictionary = metadata else {
            context.report("metadata must be a dictionary, not \(metadata.typeName)", at: KeyPath(base))
            return
        }
        var missing: [String] = []
        for key in ["bundle-identifier", "bundle-version", "kind", "title"] {
            guard let value = metadata[key: key] else { missing.append(key); continue }
            guard let text = value.stringValue, !text.isEmpty else {
                context.report("metadata \(key) must be a non-empty string", at: KeyPath(base + [key]))
                continue
            }
            if key == "kind", text != "software" {
                context.report("metadata kind is \"\(text)\"; it must be \"software\"", at: KeyPath(base + [key]))
            }
        }
        if !missing.isEmpty {
            context.report("metadata lacks \(missing.joined(separator: ", "))", at: KeyPath(base))
        }
    }
}
