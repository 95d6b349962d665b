import LintKit

extension FileKind {
    /// An app or extension's `Info.plist` (`Info.plist`, `*-Info.plist`).
    public static let infoPlist = FileKind(rawValue: "info-plist")
    /// Code-signing entitlements (`*.entitlements`, `*.xcent`).
    public static let entitlements = FileKind(rawValue: "entitlements")
    /// An over-the-air install manifest (a plist whose `items` hold `assets`), recognised by content.
    public static let otaManifest = FileKind(rawValue: "ota-manifest")
    /// A privacy manifest (`PrivacyInfo.xcprivacy`; any `*.xcprivacy`).
    public static let privacyManifest = FileKind(rawValue: "privacy-manifest")
    /// A String Catalog (`*.xcstrings`): JSON, read by the property-list JSON reader. Not
    /// `structured`: its keys are source strings, so the hygiene rules about keys (empty,
    /// surrounding whitespace) and formats do not apply.
    public static let stringCatalog = FileKind(rawValue: "string-catalog")

    /// Every kind that holds a structured property list (all but `.strings`).
    public static let structured: Set<FileKind> = [.infoPlist, .entitlements, .otaManifest, .privacyManifest, .propertyList]
    /// Every kind the plist pack checks.
    public static let all: Set<FileKind> = structured.union([.strings, .stringCatalog])
}
