import LintKit
import PropertyList

/// A translation reads the same arguments, with the same conversions, as the source string.
public struct StringCatalogFormatMismatch: LintRule {
    public static let description = RuleDescription(
        id: "xcstrings.format-mismatch", category: .stringCatalog, severity: .error,
        summary: "Each translation's format specifiers (%@, %lld, %1$@, %.2f, %#@name@) match the source language's, per variation.",
        rationale: """
            String(format:) and SwiftUI read a translation's specifiers against the arguments \
            the code passes for the source string. A %d where the source has %@ reads an \
            object pointer as an integer; an extra or wrongly numbered specifier reads past \
            the arguments and crashes; a dropped one silently loses the value. Xcode does not \
            check translations imported from a service. Each unit is compared with the source \
            unit of the same variation; a plural case with the source's `other` case (English \
            often spells out "One item", which does not mean the count may go elsewhere), and \
            a zero, one or two case may leave arguments out. Numbered specifiers may be \
            reordered. A substitution's argNum and formatSpecifier must match too.
            """,
        kinds: [.stringCatalog],
        triggering: [
            RuleExample("""
                {"sourceLanguage": "en", "strings": {"Hello, %@!": {"localizations": {
                  "de": {"stringUnit": {"state": "translated", "value": ↓"Hallo, %d!"}}}}}, "version": "1.0"}
                """),
            RuleExample("""
                {"sourceLanguage": "en", "strings": {"files": {"extractionState": "manual", "localizations": {
                  "en": {"variations": {"plural": {
                    "one": {"stringUnit": {"state": "translated", "value": "One file in %@"}},
                    "other": {"stringUnit": {"state": "translated", "value": "%lld files in %@"}}}}},
                  "fr": {"variations": {"plural": {
                    "one": {"stringUnit": {"state": "translated", "value": "%lld fichier dans %@"}},
                    "other": {"stringUnit": {"state": "translated", "value": ↓"%d fichiers dans %@"}}}}}}}}}
                """),
            RuleExample("""
                {"sourceLanguage": "en", "strings": {"%1$@ sent %2$@": {"localizations": {
                  "ja": {"stringUnit": {"state": "translated", "value": ↓"%1$@が%3$@を送信"}}}}}}
                """),
            RuleExample("""
                {"sourceLanguage": "en", "strings": {"%lld items": {"localizations": {
                  "de": {"stringUnit": {"state": "translated", "value": ↓"Artikel"}}}}}}
                """),
            RuleExample("""
                {"sourceLanguage": "en", "strings": {"found": {"extractionState": "manual", "localizations": {
                  "en": {"stringUnit": {"state": "translated", "value": "Found %#@users@"},
                         "substitutions": {"users": {"argNum": 1, "formatSpecifier": "lld", "variations": {"plural": {
                           "other": {"stringUnit": {"state": "translated", "value": "%arg users"}}}}}}},
                  "de": {"stringUnit": {"state": "translated", "value": "%#@users@ gefunden"},
                         "substitutions": {"users": {"argNum": 1, "formatSpecifier": ↓"@", "variations": {"plural": {
                           "other": {"stringUnit": {"state": "translated", "value": "%arg Nutzer"}}}}}}}}}}}
                """),
            RuleExample("""
                {"sourceLanguage": "en", "strings": {"found": {"extractionState": "manual", "localizations": {
                  "en": {"stringUnit": {"state": "translated", "value": "Found %#@users@"},
                         "substitutions": {"users": {"argNum": 1, "formatSpecifier": "lld", "variations": {"plural": {
                           "other": {"stringUnit": {"state": "translated", "value": "%arg users"}}}}}}},
                  "de": {"stringUnit": {"state": "translated", "value": ↓"%#@n@ gefunden"},
                         "substitutions": {"n": {"argNum": 1, "formatSpecifier": "lld", "variations": {"plural": {
                           "other": {"stringUnit": {"state": "translated", "value": "%arg Nutzer"}}}}}}}}}}}
                """),
        ],
        nonTriggering: [
            RuleExample("""
                {"sourceLanguage": "en", "strings": {"%1$@ sent %2$@ a message": {"localizations": {
                  "de": {"stringUnit": {"state": "translated", "value": "%2$@ erhielt eine Nachricht von %1$@"}},
                  "fr": {"stringUnit": {"state": "translated", "value": "100 %% : %@ a envoyé un message à %@"}}}}}}
                """),
            RuleExample("""
                {"sourceLanguage": "en", "strings": {"%lld items": {"localizations": {
                  "en": {"variations": {"plural": {
                    "one": {"stringUnit": {"state": "translated", "value": "One item"}},
                    "other": {"stringUnit": {"state": "translated", "value": "%lld items"}}}}},
                  "ru": {"variations": {"plural": {
                    "one": {"stringUnit": {"state": "translated", "value": "%lld элемент"}},
                    "few": {"stringUnit": {"state": "translated", "value": "%lld элемента"}},
                    "many": {"stringUnit": {"state": "translated", "value": "%lld элементов"}},
                    "other": {"stringUnit": {"state": "translated", "value": "%lld элемента"}}}}},
                  "de": {"variations": {"plural": {
                    "one": {"stringUnit": {"state": "translated", "value": "Ein Artikel"}},
                    "other": {"stringUnit": {"state": "translated", "value": "%lld Artikel"}}}}}}}}}
                """),
            RuleExample("""
                {"sourceLanguage": "en", "strings": {"%lld items": {"localizations": {
                  "de": {"stringUnit": {"state": "new", "value": ""}}}}}}
                """),
            RuleExample("""
                {"sourceLanguage": "en", "strings": {"50% off": {"localizations": {
                  "de": {"stringUnit": {"state": "translated", "value": "50 % Rabatt"}}}}}}
                """),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard let source = StringCatalog.sourceLanguage(file.value) else { return }
        for (key, entry) in StringCatalog.entries(file.value) {
            guard let localizations = entry[key: "localizations"]?.dictionaryEntries else { continue }
            let base = ["strings", key, "localizations"]
            var sourceUnits: [[String]: CatalogUnit] = [:]
            if let own = entry[key: "localizations"]?[key: source] {
                for unit in StringCatalog.units(in: own, language: source, path: base + [source]) where !(unit.value ?? "").isEmpty {
                    sourceUnits[unit.variation] = unit
                }
            } else if entry[key: "extractionState"]?.stringValue != "manual" {
                // Without a source localization the key is the source string (an extracted
                // one; a manual entry's key is an identifier).
                sourceUnits[[]] = CatalogUnit(language: source, variation: [], path: ["strings", key], unit: .string(key), literal: key)
            }
            guard !sourceUnits.isEmpty else { continue }
            for (language, localization) in localizations where language != source {
                for unit in StringCatalog.units(in: localization, language: language, path: base + [language]) {
                    // An empty translation is xcstrings.missing-translation's to report.
                    guard let value = unit.value, !value.isEmpty, let match = Self.counterpart(of: unit.variation, in: sourceUnits),
                          let sourceValue = match.value else { continue }
                    let translated = FormatArguments(value, inSubstitution: unit.inSubstitution)
                    let original = FormatArguments(sourceValue, inSubstitution: match.inSubstitution)
                    var problems = FormatArguments.differences(
                        source: original, translation: translated,
                        mayOmit: ["zero", "one", "two"].contains(unit.pluralCategory ?? ""))
                    if translated.mixesNumbering && !original.mixesNumbering {
                        problems.append("numbered and unnumbered specifiers mixed")
                    }
                    for (slot, first, second) in translated.conflicts where !original.conflicts.contains(where: { $0.0 == slot }) {
                        problems.append("\(slot) read as both \(first.text) and \(second.text)")
                    }
                    guard !problems.isEmpty else { continue }
                    let against = match.variationName.isEmpty ? source : "\(source), \(match.variationName)"
                    context.report("\(StringCatalog.describe(key, unit)): \(problems.joined(separator: "; ")) (source \(against): \(StringCatalog.quote(sourceValue, limit: 200)))",
                                   at: KeyPath(unit.path + ["value"]))
                }
                checkSubstitutions(key: key, language: language, localization: localization,
                                   source: entry[key: "localizations"]?[key: source], base: base, &context)
            }
        }
    }

    /// The source unit a translation's unit is compared with: plural cases with the source's
    /// `other`, else the same case; failing both, the same comparison one variation level up
    /// (a source without plural variations against a translation with them), but not out of
    /// a substitution (one the source does not have is reported where it is used).
    static func counterpart(of variation: [String], in units: [[String]: CatalogUnit]) -> CatalogUnit? {
        var path = variation
        while true {
            var other = path
            for k in stride(from: 0, to: other.count - 1, by: 2) where other[k] == "plural" { other[k + 1] = "other" }
            if let unit = units[other] ?? units[path] { return unit }
            // A substitution's values are never compared with the string that uses it.
            guard path.count >= 2, path[path.count - 2] != "substitutions" else { return nil }
            path.removeLast(2)
        }
    }

    /// A substitution's argNum and formatSpecifier as in the source's substitution of that name.
    private func checkSubstitutions(key: String, language: String, localization: PlistValue, source: PlistValue?,
                                    base: [String], _ context: inout RuleContext) {
        for (name, substitution) in localization[key: "substitutions"]?.dictionaryEntries ?? [] {
            guard let original = source?[key: "substitutions"]?[key: name] else { continue }
            let path = base + [language, "substitutions", name]
            if case .integer(let number)? = substitution[key: "argNum"], case .integer(let sourceNumber)? = original[key: "argNum"],
               number != sourceNumber {
                context.report("\(StringCatalog.quote(key)) (\(language)): substitution \(name) has argNum \(number) where the source has \(sourceNumber)",
                               at: KeyPath(path + ["argNum"]))
            }
            if let specifier = substitution[key: "formatSpecifier"]?.stringValue,
               let sourceSpecifier = original[key: "formatSpecifier"]?.stringValue,
               FormatSpecifierScanner.scan("%" + specifier).first?.conversion != FormatSpecifierScanner.scan("%" + sourceSpecifier).first?.conversion {
                context.report("\(StringCatalog.quote(key)) (\(language)): substitution \(name) has formatSpecifier \"\(specifier)\" where the source has \"\(sourceSpecifier)\"",
                               at: KeyPath(path + ["formatSpecifier"]))
            }
        }
    }
}
