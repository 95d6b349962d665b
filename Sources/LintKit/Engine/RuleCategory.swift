/// A group of rules, for listing and for SARIF's `properties.category`.
public struct RuleCategory: RawRepresentable, Hashable, Sendable, Comparable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let plistHygiene = RuleCategory(rawValue: "plist-hygiene")
    public static let infoPlist = RuleCategory(rawValue: "info-plist")
    public static let entitlements = RuleCategory(rawValue: "entitlements")
    public static let otaManifest = RuleCategory(rawValue: "ota-manifest")

    public static func < (a: RuleCategory, b: RuleCategory) -> Bool { a.rawValue < b.rawValue }
}
