import LintKit

/// devkit's built-in rule pack: plist hygiene, Info.plist, entitlements, OTA manifests.
public enum PlistRules {
    public static let all: [any LintRule.Type] = [
        EmptyKey.self,
    ]

    /// The engine's own rules and this pack.
    public static let registry = RuleRegistry(RuleRegistry.engineRules + all)
}
