import LintKit
import PlistChecks
import PropertyList

/// The whole-bundle rule pack: what App Store Connect checks across an app's binaries and
/// privacy manifests.
public enum BundleRules {
    public static let all: [any LintRule.Type] = [MissingAPIDeclaration.self, SDKMissingPrivacyManifest.self]

    /// `devkit lint`'s rules: the engine's own, the plist pack and this pack, with the plist
    /// pack's file kinds (no file is ever classified as a bundle binary).
    public static let lintRegistry = RuleRegistry(PlistRules.engineRules + PlistRules.all + all, classifier: PlistFileClassifier())

    /// The file the rules check: `subject` is `RequiredReasonScan.subject(…)`.
    public static func file(path: String, subject: PlistValue) -> LintFile {
        // Not text: findings carry no position; they name the binary and its symbols.
        LintFile(path: path, kind: .bundleBinary, format: .json, bytes: [], value: subject)
    }
}
