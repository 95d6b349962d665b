import LintKit
import PropertyList

/// The manifest's metadata matches the app's Info.plist (`--app`).
public struct OTAMatchesApp: LintRule {
    public static let description = RuleDescription(
        id: "ota.matches-app", category: .otaManifest, severity: .error,
        summary: "With --app: metadata bundle-identifier equals the app's CFBundleIdentifier, bundle-version its CFBundleShortVersionString or CFBundleVersion.",
        rationale: """
            iOS checks the downloaded app against the manifest: a bundle identifier that \
            differs (a manifest copied from another app or flavour) fails the install after \
            the whole download, and a stale bundle-version confuses update prompts.
            """,
        kinds: [.otaManifest],
        triggering: [RuleExample(
            "<key>items</key>\n<array>\n\t<dict>\n\t\t<key>assets</key>\n\t\t<array/>\n\t\t<key>metadata</key>\n\t\t<dict>\n\t\t\t↓<key>bundle-identifier</key>\n\t\t\t<string>com.example.other</string>\n\t\t\t↓<key>bundle-version</key>\n\t\t\t<string>1.0</string>\n\t\t</dict>\n\t</dict>\n</array>",
            options: PlistLintOptions(appInfo: .dictionary(["CFBundleIdentifier": .string("com.example.app"), "CFBundleShortVersionString": .string("1.4.2"), "CFBundleVersion": .string("142")])))],
        nonTriggering: [RuleExample(
            "<key>items</key>\n<array>\n\t<dict>\n\t\t<key>assets</key>\n\t\t<array/>\n\t\t<key>metadata</key>\n\t\t<dict>\n\t\t\t<key>bundle-identifier</key>\n\t\t\t<string>com.example.app</string>\n\t\t\t<key>bundle-version</key>\n\t\t\t<string>1.4.2</string>\n\t\t</dict>\n\t</dict>\n</array>",
            options: PlistLintOptions(appInfo: .dictionary(["CFBundleIdentifier": .string("com.example.app"), "CFBundleShortVersionString": .string("1.4.2"), "CFBundleVersion": .string("142")])))])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard let app = file.plistOptions.appInfo, let metadata = OTAManifestFile.item(file)?[key: "metadata"] else { return }
        let base = ["items", "0", "metadata"]
        if let id = metadata[key: "bundle-identifier"]?.stringValue, let appID = app[key: "CFBundleIdentifier"]?.stringValue, id != appID {
            context.report("bundle-identifier \"\(id)\" differs from the app's CFBundleIdentifier \"\(appID)\"", at: KeyPath(base + ["bundle-identifier"]))
        }
        if let version = metadata[key: "bundle-version"]?.stringValue {
            let candidates = ["CFBundleShortVersionString", "CFBundleVersion"].compactMap { app[key: $0]?.stringValue }
            if !candidates.isEmpty, !candidates.contains(version) {
                context.report("bundle-version \"\(version)\" matches neither the app's CFBundleShortVersionString nor CFBundleVersion (\(candidates.map { "\"\($0)\"" }.joined(separator: ", ")))",
                               at: KeyPath(base + ["bundle-version"]))
            }
        }
    }
}
