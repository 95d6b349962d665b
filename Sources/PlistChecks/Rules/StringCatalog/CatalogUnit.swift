import PropertyList

/// One `stringUnit` of a String Catalog and where it sits.
struct CatalogUnit {
    var language: String
    /// The variation cases leading to it, kind then case: `[]` for a localization's own unit,
    /// `["plural", "one"]`, `["device", "iphone", "plural", "other"]`, or
    /// `["substitutions", "count", "plural", "one"]` inside a substitution.
    var variation: [String]
    /// Key path components of the `stringUnit` object.
    var path: [String]
    var unit: PlistValue
    /// The value when it is not the unit's (an entry's key standing for its source string).
    var literal: String? = nil

    var value: String? { literal ?? unit[key: "value"]?.stringValue }
    var state: String? { unit[key: "state"]?.stringValue }
    /// Inside a substitution's variations, where `%arg` is the substituted argument.
    var inSubstitution: Bool { variation.first == "substitutions" }
    /// The plural category the unit is for, when its last case is one.
    var pluralCategory: String? {
        variation.count >= 2 && variation[variation.count - 2] == "plural" ? variation.last : nil
    }
    /// `plural.one`, for messages; empty for a localization's own unit.
    var variationName: String { variation.joined(separator: ".") }
}
