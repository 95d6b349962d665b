import LintKit
import PropertyList

/// No entry is marked stale.
public struct StringCatalogStale: LintRule {
    public static let description = RuleDescription(
        id: "xcstrings.stale", category: .stringCatalog, severity: .warning,
        summary: "No entry has extractionState \"stale\".",
        rationale: """
            Xcode marks an extracted key stale when the code no longer uses it. Its \
            translations ship in the app and go to translators, who pay and wait for text no \
            one sees; a key that is stale by mistake (the code changed the string slightly) \
            means the new string is untranslated. Delete the entry, or use the key again.
            """,
        kinds: [.stringCatalog],
        triggering: [
            RuleExample("""
                {"sourceLanguage": "en", "strings": {"Old title": {"extractionState": ↓"stale", "localizations": {
                  "de": {"stringUnit": {"state": "translated", "value": "Alter Titel"}}}}}, "version": "1.0"}
                """),
        ],
        nonTriggering: [
            RuleExample("""
                {"sourceLanguage": "en", "strings": {"Title": {"extractionState": "manual"}, "Other": {}}, "version": "1.0"}
                """),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        for (key, entry) in StringCatalog.entries(file.value) where entry[key: "extractionState"]?.stringValue == "stale" {
            context.report("\(StringCatalog.quote(key)) is stale: the code no longer uses it; delete the entry or use the key again",
                           at: KeyPath(["strings", key, "extractionState"]))
        }
    }
}
