import LintKit

/// devkit's built-in rule pack: plist hygiene, Info.plist, entitlements, OTA manifests.
public enum PlistRules {
    public static let all: [any LintRule.Type] = [
        // Plist hygiene
        EmptyKey.self, KeyWhitespace.self, BinaryFormat.self, NonCanonicalFormat.self, LargeData.self,
        // Info.plist
        RequiredKeys.self, BundleIdentifierFormat.self, ShortVersionFormat.self, BundleVersionFormat.self,
        PackageType.self, UsageDescription.self, UnexpandedVariable.self, MainInterfaceFile.self,
        ArbitraryLoads.self, DeviceCapabilities.self, QueriesSchemesLimit.self, DeprecatedKey.self,
        // Entitlements
        GetTaskAllow.self, APSEnvironment.self, TeamPrefix.self, UnknownEntitlement.self,
        // Over-the-air install manifests
        OTAItems.self, OTASoftwarePackage.self, OTAImages.self, OTAMetadata.self, OTAMatchesApp.self,
    ]

    /// The engine's own rules and this pack.
    public static let registry = RuleRegistry(RuleRegistry.engineRules + all)
}
