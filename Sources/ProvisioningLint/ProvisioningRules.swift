import LintKit
import PropertyList
import Provisioning

extension FileKind {
    /// A provisioning profile as `devkit provision lint` sees it: the dictionary that
    /// `devkit provision inspect --format json` prints for it (profile fields, signature
    /// verdict, days until expiry measured at the run's instant, and `app` for apps).
    public static let provisioningProfile = FileKind(rawValue: "provisioning-profile")
}

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
    public static func file(path: String, subject: PlistValue, options: LintOptions = LintOptions()) -> LintFile {
        // Not XML text: findings carry no line (they name the field in their message).
        LintFile(path: path, kind: .provisioningProfile, format: .json, bytes: [], value: subject, options: options)
    }
}

/// Reading the subject dictionary.
extension PlistValue {
    var integer: Int? { if case .integer(let i) = self, let v = i.int64Value { Int(v) } else { nil } }
    var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
    var date: PlistDate? { if case .date(let d) = self { d } else { nil } }
}

/// "in 3 days", "3 days ago", "today".
func relativeDays(_ days: Int) -> String {
    if days == 0 { return "today" }
    let n = abs(days), unit = n == 1 ? "day" : "days"
    return days < 0 ? "\(n) \(unit) ago" : "in \(n) \(unit)"
}

extension RuleCategory {
    /// Provisioning profiles and the apps they sign.
    public static let provisioning = RuleCategory(rawValue: "provisioning")
}

/// "an App Store profile", "a development profile": the type as a person says it.
func profileType(_ raw: String) -> String {
    guard let kind = ProfileKind(rawValue: raw) else { return "a \(raw) profile" }
    let name = kind == .development ? "development" : kind.displayName
    let article = ["A", "E", "I", "O", "U"].contains(name.prefix(1).uppercased()) ? "an" : "a"
    return "\(article) \(name) profile"
}
