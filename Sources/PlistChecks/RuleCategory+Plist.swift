import LintKit

extension RuleCategory {
    /// Whether a file is a well-formed, tidy property list (the engine's own findings too).
    public static let plistHygiene = RuleCategory(rawValue: "plist-hygiene")
    /// Rules for an app or extension's `Info.plist`.
    public static let infoPlist = RuleCategory(rawValue: "info-plist")
    /// Rules for code-signing entitlements.
    public static let entitlements = RuleCategory(rawValue: "entitlements")
    /// Rules for over-the-air install manifests.
    public static let otaManifest = RuleCategory(rawValue: "ota-manifest")
    /// Rules for privacy manifests and the required-reason APIs they declare.
    public static let privacy = RuleCategory(rawValue: "privacy")
    /// An app extension's Info.plist against its app's.
    public static let appExtension = RuleCategory(rawValue: "app-extension")
    /// String Catalogs (`.xcstrings`): translations, format specifiers, structure.
    public static let stringCatalog = RuleCategory(rawValue: "string-catalog")
}
