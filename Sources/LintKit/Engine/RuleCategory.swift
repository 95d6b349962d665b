/// A group of rules, for listing and for SARIF's `properties.category`. Rule packs define
/// theirs (`RuleCategory(rawValue: "info-plist")`).
public struct RuleCategory: RawRepresentable, Hashable, Sendable, Comparable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static func < (a: RuleCategory, b: RuleCategory) -> Bool { a.rawValue < b.rawValue }
}
