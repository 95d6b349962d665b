import LintKit
import PropertyList
import Provisioning

/// The provisioning rule pack.
public enum ProvisioningRules {
    public static let all: [any LintRule.Type] = [
        InvalidSignature.self,
        ExpiredProfile.self,
        ExpiringProfile.self,
        ExpiredCertificate.self,
        ExpiringCertificate.self,
        TypeMismatch.self,
        GetTaskAllowMismatch.self,
        DeviceNotProvisioned.self,
        MissingEmbeddedProfile.self,
        BundleIdentifierMismatch.self,
        EntitlementNotGranted.self,
        TeamMismatch.self,
    ]

    public static let registry = RuleRegistry(all)

    /// The file the rules check: `subject` is `ProfileReport.value(…)` (or its app-only form).
    public static func file(path: String, subject: PlistValue) -> LintFile {
        // Not XML text: findings carry no line (they name the field in their message).
        LintFile(path: path, kind: .provisioningProfile, format: .json, bytes: [], value: subject)
    }
}
