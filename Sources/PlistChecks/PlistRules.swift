import LintKit

/// devkit's built-in rule pack: plist hygiene, Info.plist, app extensions, entitlements,
/// privacy manifests, OTA manifests, String Catalogs.
public enum PlistRules {
    public static let all: [any LintRule.Type] = [
        // Plist hygiene
        EmptyKey.self, KeyWhitespace.self, BinaryFormat.self, NonCanonicalFormat.self, LargeData.self,
        // Info.plist
        RequiredKeys.self, BundleIdentifierFormat.self, ShortVersionFormat.self, BundleVersionFormat.self,
        PackageType.self, UsageDescription.self, UnexpandedVariable.self, MainInterfaceFile.self,
        ArbitraryLoads.self, DeviceCapabilities.self, QueriesSchemesLimit.self, DeprecatedKey.self,
    ] + appExtensionRules + [
        // Entitlements
        GetTaskAllow.self, APSEnvironment.self, TeamPrefix.self, UnknownEntitlement.self,
        // Privacy manifests (PrivacyInfo.xcprivacy)
        PrivacyUnknownKey.self, PrivacyValueType.self, PrivacyTrackingDomains.self, PrivacyCollectedDataType.self,
        PrivacyCollectedDataPurpose.self, PrivacyAccessedAPICategory.self, PrivacyAccessedAPIReason.self,
        // Over-the-air install manifests
        OTAItems.self, OTASoftwarePackage.self, OTAImages.self, OTAMetadata.self, OTAMatchesApp.self,
        // String Catalogs (.xcstrings)
        StringCatalogMissingTranslation.self, StringCatalogFormatMismatch.self, StringCatalogStale.self, StringCatalogStructure.self,
    ]

    /// App extensions' Info.plists against their app's (--app, or inside an .app).
    public static let appExtensionRules: [any LintRule.Type] = [
        ExtensionIdentifierPrefix.self, ExtensionPoint.self, ExtensionVersionMatch.self, ExtensionMinimumOS.self,
    ]

    /// The rules whose findings the engine itself reports while reading a file.
    public static let engineRules: [any LintRule.Type] = [PlistSyntaxRule.self, DuplicateKeyRule.self, ReaderWarningRule.self]

    /// The engine's own rules and this pack, with the pack's file kinds.
    public static let registry = RuleRegistry(engineRules + all, classifier: PlistFileClassifier())
}
