import LintKit
import PropertyList

/// A bundle's files are the ones its `_CodeSignature/CodeResources` seals.
///
/// Triggers for each file whose hash (`hash2`, SHA-256, or `hash`, SHA-1) differs, each
/// non-optional sealed file that is missing, each symlink pointing elsewhere, each nested
/// framework or extension whose code hash (cdhash) differs, and each file or nested bundle
/// present but not sealed unless a rule (`rules2`) omits it.
public struct ResourceSealBroken: LintRule {
    public static let description = RuleDescription(
        id: "seal.resource", category: .codeSigning, severity: .error,
        summary: "Each file of a bundle is sealed, unchanged, in its _CodeSignature/CodeResources.",
        rationale: """
            CodeResources lists the hash of every resource of the bundle and, for nested code \
            (frameworks, extensions), the hash of its CodeDirectory. A file changed, removed or \
            added after signing (a localisation copied in, an asset re-compressed, a framework \
            re-signed on its own) breaks the seal: the app does not install and App Store \
            Connect rejects it. Hidden files are not listed (as when devkit walks any tree).
            """,
        kinds: [.bundleSignature],
        triggering: [
            RuleExample("""
                <key>binary</key><string>App.app/App</string>
                <key>resources</key>
                <array><dict><key>file</key><string>App.app/Assets/logo.png</string>
                <key>path</key><string>Assets/logo.png</string><key>problem</key><string>modified</string></dict>
                <dict><key>file</key><string>App.app/extra.txt</string>
                <key>path</key><string>extra.txt</string><key>problem</key><string>added</string></dict></array>
                """),
        ],
        nonTriggering: [
            RuleExample("""
                <key>binary</key><string>App.app/App</string>
                <key>resources</key><array/>
                """),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        for (index, entry) in (file["resources"]?.arrayValue ?? []).enumerated() {
            let path = entry[key: "path"]?.stringValue ?? "a file"
            let message = switch entry[key: "problem"]?.stringValue {
            case "missing": "\(path) is sealed in CodeResources but missing"
            case "added": "\(path) is not sealed in CodeResources: added after signing"
            case "symlink": "\(path) points elsewhere than the symlink CodeResources seals"
            case "nested": "\(path) is nested code whose CodeDirectory hash differs from the cdhash CodeResources seals: it changed or was re-signed after its container"
            default: "\(path) does not match its hash in CodeResources: modified after signing"
            }
            context.report(message, at: KeyPath(["resources", String(index)]))
        }
    }
}
