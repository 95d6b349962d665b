import LintKit

extension RuleCategory {
    /// Provisioning profiles and the apps they sign.
    public static let provisioning = RuleCategory(rawValue: "provisioning")
}
