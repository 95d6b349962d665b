import LintKit

extension RuleCategory {
    /// Code signatures of an app's binaries, the seal over its resources, and its profiles.
    public static let codeSigning = RuleCategory(rawValue: "code-signing")
}
