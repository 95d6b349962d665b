import LintKit
import PropertyList

/// Every key is translated into every language the catalog has.
public struct StringCatalogMissingTranslation: LintRule {
    public static let description = RuleDescription(
        id: "xcstrings.missing-translation", category: .stringCatalog, severity: .warning,
        summary: "Every key has a translated value for each language the catalog holds besides the source language.",
        rationale: """
            A key without a localization, or whose unit is empty or still in state "new", \
            shows the source language (or an empty label) to users of that language, and \
            Xcode only counts it in a percentage. The languages are those the catalog itself \
            holds anywhere (a String Catalog has no list of them), less the source language. \
            Keys marked shouldTranslate: false and stale keys (xcstrings.stale) are skipped.
            """,
        kinds: [.stringCatalog],
        triggering: [
            RuleExample("""
                {"sourceLanguage": "en", "strings": {
                  "Cancel": {"localizations": {"de": {"stringUnit": {"state": "translated", "value": "Abbrechen"}}}},
                  "Done": ↓{}}, "version": "1.0"}
                """),
            RuleExample("""
                {"sourceLanguage": "en", "strings": {
                  "Cancel": {"localizations": {"de": {"stringUnit": {"state": "translated", "value": "Abbrechen"}},
                                               "fr": {"stringUnit": {"state": ↓"new", "value": "Annuler"}}}},
                  "Done": {"localizations": ↓{"de": {"stringUnit": {"state": "translated", "value": ↓""}}}}}}
                """),
            RuleExample("""
                {"sourceLanguage": "en", "strings": {"%lld files": {"localizations": {
                  "de": {"variations": {"plural": {"other": {"stringUnit": {"state": "translated", "value": "%lld Dateien"}}}}},
                  "fr": ↓{"variations": {"plural": {}}}}}}}
                """),
        ],
        nonTriggering: [
            RuleExample("""
                {"sourceLanguage": "en", "strings": {
                  "Cancel": {"localizations": {"de": {"stringUnit": {"state": "needs_review", "value": "Abbrechen"}}}},
                  "devkit": {"shouldTranslate": false},
                  "Old": {"extractionState": "stale"}}, "version": "1.0"}
                """),
            RuleExample("""
                {"sourceLanguage": "en", "strings": {"Done": {"localizations": {
                  "en": {"stringUnit": {"state": "translated", "value": "Done"}}}}}}
                """),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        let languages = StringCatalog.targetLanguages(file.value)
        guard !languages.isEmpty else { return }
        for (key, entry) in StringCatalog.entries(file.value) where !StringCatalog.isExempt(entry) {
            let base = ["strings", key, "localizations"]
            for language in languages {
                guard let localization = entry[key: "localizations"]?[key: language] else {
                    // Points at the entry's `localizations`, or the entry when it has none.
                    context.report("\(StringCatalog.quote(key)) has no \(language) translation", at: KeyPath(base + [language]))
                    continue
                }
                let units = StringCatalog.units(in: localization, language: language, path: base + [language])
                if units.isEmpty {
                    context.report("\(StringCatalog.quote(key)) has no \(language) translation (its localization holds no stringUnit)",
                                   at: KeyPath(base + [language]))
                }
                for unit in units {
                    if unit.state == "new" {
                        context.report("\(StringCatalog.describe(key, unit)) is not translated yet (state \"new\")", at: KeyPath(unit.path + ["state"]))
                    } else if (unit.value ?? "").isEmpty {
                        context.report("\(StringCatalog.describe(key, unit)) has an empty translation", at: KeyPath(unit.path + ["value"]))
                    }
                }
            }
        }
    }
}
