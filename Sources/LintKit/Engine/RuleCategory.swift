/// A group of rules, for listing and for SARIF's `properties.category`.
public struct RuleCategory: RawRepresentable, Hashable, Sendable, Comparable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Whether a file is a well-formed property list (the engine's own rules report here);
    /// rule packs add their categories (`RuleCategory(rawValue: "info-plist")`).
    public static let plistHygiene = RuleCategory(rawValue: "plist-hygiene")

    public static func < (a: RuleCategory, b: RuleCategory) -> Bool { a.rawValue < b.rawValue }
}
