import PropertyList

/// Reading a String Catalog (`.xcstrings`) for its rules. Tolerant: a part of the wrong type
/// is skipped here, and `xcstrings.structure` reports it.
///
/// The format as relied on (Xcode 15+ writes it; no published schema, so this follows files
/// Xcode writes and the descriptions of localization services that read them, e.g.
/// Transifex's, Phrase's and Localazy's pages on `.xcstrings`): a JSON object with
/// `sourceLanguage` (the development language), `version` (`"1.0"`) and `strings`, an object
/// from each key (the source string, or an identifier for manual entries) to an entry with an
/// optional `comment`, `extractionState` (`manual`, `stale`, `extracted_with_value`,
/// `migrated`, …), `shouldTranslate` (false: not to be translated) and `localizations`, an
/// object from a language to a localization. A localization holds a `stringUnit` (`state`:
/// `new`, `translated`, `needs_review` or `stale`; `value`), and/or `variations` (`plural`
/// by CLDR category zero/one/two/few/many/other; `device` by iphone/ipad/mac/…, each case a
/// `stringUnit` or further `variations`), and/or `substitutions`: name → `argNum`,
/// `formatSpecifier` (`lld` without `%`) and `variations`, used in a value as `%#@name@`,
/// with `%arg` standing for the argument inside the substitution's own values. An entry with
/// no localization for the source language uses its key as the source value.
enum StringCatalog {
    static let pluralCategories: Set<String> = ["zero", "one", "two", "few", "many", "other"]
    static let unitStates: Set<String> = ["new", "translated", "needs_review", "stale"]

    static func sourceLanguage(_ root: PlistValue) -> String? { root[key: "sourceLanguage"]?.stringValue }

    /// `strings`' entries in file order (empty when it is missing or not an object).
    static func entries(_ root: PlistValue) -> [(key: String, value: PlistValue)] {
        root[key: "strings"]?.dictionaryEntries ?? []
    }

    /// The languages the catalog is translated into: every language with a localization
    /// anywhere in it, except the source language, in order of first appearance.
    static func targetLanguages(_ root: PlistValue) -> [String] {
        let source = sourceLanguage(root)
        var seen: Set<String> = []
        var languages: [String] = []
        for (_, entry) in entries(root) {
            for (language, _) in entry[key: "localizations"]?.dictionaryEntries ?? []
            where language != source && seen.insert(language).inserted {
                languages.append(language)
            }
        }
        return languages
    }

    /// Every `stringUnit` inside a localization, depth first in file order. Depth is bounded
    /// by the reader's nesting limit.
    static func units(in localization: PlistValue, language: String, path: [String]) -> [CatalogUnit] {
        var found: [CatalogUnit] = []
        collect(localization, language: language, path: path, variation: [], into: &found)
        return found
    }

    private static func collect(_ node: PlistValue, language: String, path: [String], variation: [String], into found: inout [CatalogUnit]) {
        if let unit = node[key: "stringUnit"], unit.dictionaryEntries != nil {
            found.append(CatalogUnit(language: language, variation: variation, path: path + ["stringUnit"], unit: unit))
        }
        for (kind, cases) in node[key: "variations"]?.dictionaryEntries ?? [] {
            for (name, child) in cases.dictionaryEntries ?? [] {
                collect(child, language: language, path: path + ["variations", kind, name], variation: variation + [kind, name], into: &found)
            }
        }
        for (name, substitution) in node[key: "substitutions"]?.dictionaryEntries ?? [] {
            collect(substitution, language: language, path: path + ["substitutions", name],
                    variation: variation + ["substitutions", name], into: &found)
        }
    }

    /// Whether an entry is out of the translators' hands: `shouldTranslate: false`, or stale
    /// (the code no longer uses it; `xcstrings.stale` reports that).
    static func isExempt(_ entry: PlistValue) -> Bool {
        if case .bool(false)? = entry[key: "shouldTranslate"] { return true }
        return entry[key: "extractionState"]?.stringValue == "stale"
    }

    /// A key or value for a message: quoted, with quotes, backslashes and line breaks escaped
    /// as in the file (a key holding quotes stays readable), cut after `limit` characters.
    static func quote(_ text: String, limit: Int = 60) -> String {
        var out = "\""
        for c in text.prefix(limit) {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r", "\r\n": out += "\\r"
            case "\t": out += "\\t"
            default: out.append(c)
            }
        }
        return out + (text.count > limit ? "…\"" : "\"")
    }

    /// "KEY" (de, plural.one) for messages.
    static func describe(_ key: String, _ unit: CatalogUnit) -> String {
        let variation = unit.variationName
        return "\(quote(key)) (\(unit.language)\(variation.isEmpty ? "" : ", " + variation))"
    }
}
