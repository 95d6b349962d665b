import LintKit
import PlistChecks
import PropertyList

/// The whole-bundle rule pack: what App Store Connect checks across an app's binaries and
/// privacy manifests.
public enum BundleRules {
    public static let all: [any LintRule.Type] = [MissingAPIDeclaration.self, SDKMissingPrivacyManifest.self] + signatureRules

    /// The code-signature, seal and profile rules (`CodeSealCheck`).
    public static let signatureRules: [any LintRule.Type] = [
        MalformedSignature.self, AdHocSignature.self, InvalidCMSSignature.self, ModifiedCodePage.self,
        SpecialSlotMismatch.self, ResourceSealBroken.self, SignerNotInProfile.self, BundleProfileMismatch.self,
    ]

    /// `devkit lint`'s rules: the engine's own, the plist pack and this pack, with the plist
    /// pack's file kinds (no file is ever classified as a bundle binary).
    public static let lintRegistry = RuleRegistry(PlistRules.engineRules + PlistRules.all + all, classifier: PlistFileClassifier())

    /// The file the rules check: `subject` is `RequiredReasonScan.subject(…)` (kind
    /// `.bundleBinary`) or `SignatureInspection`'s (`.bundleSignature`).
    public static func file(path: String, subject: PlistValue, kind: FileKind = .bundleBinary) -> LintFile {
        // Not text: findings carry no position of their own; they name the binary and its
        // symbols, or `CodeSealCheck.locate` gives them their entry's file and offset.
        LintFile(path: path, kind: kind, format: .json, bytes: [], value: subject)
    }
}
