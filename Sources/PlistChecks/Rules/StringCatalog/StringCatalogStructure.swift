import LintKit
import PropertyList

/// The catalog has the shape Xcode reads: the right types, units with values, known states
/// and plural categories.
public struct StringCatalogStructure: LintRule {
    public static let description = RuleDescription(
        id: "xcstrings.structure", category: .stringCatalog, severity: .error,
        summary: "A String Catalog has the types and shapes Xcode reads (sourceLanguage, strings, stringUnit with state and value, CLDR plural categories).",
        rationale: """
            Catalogs edited by hand, merged by git or written by translation tools can end up \
            valid JSON that Xcode will not compile: a stringUnit without value, a state other \
            than new, translated, needs_review or stale, a plural category CLDR does not have \
            ("single", "plural"), a substitution without an integer argNum, a %#@name@ naming \
            no substitution of its localization. The build then \
            fails, or the string silently falls back to the source language.
            """,
        kinds: [.stringCatalog],
        triggering: [
            RuleExample("""
                {"sourceLanguage": "en", "strings": {"Done": {"localizations": {
                  "de": {"stringUnit": ↓{"state": "translated"}},
                  "fr": {"stringUnit": {"state": ↓"done", "value": "Terminé"}}}}}, "version": "1.0"}
                """),
            RuleExample("""
                {"sourceLanguage": "en", "strings": {"%lld files": {"localizations": {
                  "de": {"variations": {"plural": {
                    "single": ↓{"stringUnit": {"state": "translated", "value": "Eine Datei"}},
                    "other": {"stringUnit": {"state": "translated", "value": "%lld Dateien"}}}}}}}}}
                """),
            RuleExample("""
                {"sourceLanguage": "en", "strings": ↓[], "version": "1.0"}
                """),
            RuleExample("""
                {"sourceLanguage": "en", "strings": {"found": {"extractionState": "manual", "localizations": {
                  "en": {"stringUnit": {"state": "translated", "value": ↓"Found %#@users@"}}}}}}
                """),
            RuleExample("""
                ↓{"strings": {"A": {"shouldTranslate": ↓"no", "localizations": {"de": {"substitutions": {
                  "n": {"argNum": ↓"1", "formatSpecifier": "lld"}}}}}}}
                """),
        ],
        nonTriggering: [
            RuleExample("""
                {"sourceLanguage": "en", "strings": {
                  "Done": {"comment": "A button", "extractionState": "manual", "localizations": {
                    "de": {"stringUnit": {"state": "translated", "value": "Fertig"}},
                    "fr": {"variations": {"device": {
                      "iphone": {"variations": {"plural": {"other": {"stringUnit": {"state": "needs_review", "value": "OK"}}}}},
                      "other": {"stringUnit": {"state": "stale", "value": "Terminé"}}}}}}},
                  "Found %lld": {"localizations": {"de": {"stringUnit": {"state": "translated", "value": "%#@n@ gefunden"},
                    "substitutions": {"n": {"argNum": 1, "formatSpecifier": "lld", "variations": {"plural": {
                      "one": {"stringUnit": {"state": "translated", "value": "%arg"}}}}}}}}}}, "version": "1.0"}
                """),
        ])

    public init() {}

    public func check(_ file: LintFile, _ context: inout RuleContext) {
        guard file.value.dictionaryEntries != nil else {
            context.report("a String Catalog is a JSON object, not \(file.value.shortDescription)")
            return
        }
        switch file.value[key: "sourceLanguage"] {
        case .string?: break
        case nil: context.report("the catalog has no sourceLanguage")
        case let other?: context.report("sourceLanguage must be a string, not \(other.shortDescription)", key: "sourceLanguage")
        }
        if let version = file.value[key: "version"], version.stringValue == nil {
            context.report("version must be a string, not \(version.shortDescription)", key: "version")
        }
        guard let strings = file.value[key: "strings"] else {
            context.report("the catalog has no strings")
            return
        }
        guard let entries = strings.dictionaryEntries else {
            context.report("strings must be an object of keys, not \(strings.shortDescription)", key: "strings")
            return
        }
        for (key, entry) in entries {
            let path = ["strings", key]
            guard entry.dictionaryEntries != nil else {
                context.report("\(StringCatalog.quote(key)) must be an object, not \(entry.shortDescription)", at: KeyPath(path))
                continue
            }
            expect(entry, "comment", isString: true, path, &context)
            expect(entry, "extractionState", isString: true, path, &context)
            switch entry[key: "shouldTranslate"] {
            case .bool?, nil: break
            case let flag?:
                context.report("\(StringCatalog.quote(key)): shouldTranslate must be true or false, not \(flag.shortDescription)",
                               at: KeyPath(path + ["shouldTranslate"]))
            }
            guard let localizations = entry[key: "localizations"] else { continue }
            guard let languages = localizations.dictionaryEntries else {
                context.report("\(StringCatalog.quote(key)): localizations must be an object, not \(localizations.shortDescription)",
                               at: KeyPath(path + ["localizations"]))
                continue
            }
            for (language, localization) in languages {
                checkNode(localization, where: "\(StringCatalog.quote(key)) (\(language))",
                          path: path + ["localizations", language], &context)
                checkReferences(localization, key: key, language: language, path: path + ["localizations", language], &context)
            }
        }
    }

    /// A localization, a variation case or a substitution: what it may hold, recursively.
    private func checkNode(_ node: PlistValue, where name: String, path: [String], _ context: inout RuleContext) {
        guard node.dictionaryEntries != nil else {
            context.report("\(name): expected an object, not \(node.shortDescription)", at: KeyPath(path))
            return
        }
        if let unit = node[key: "stringUnit"] { checkUnit(unit, where: name, path: path + ["stringUnit"], &context) }
        if let variations = node[key: "variations"] {
            guard let kinds = variations.dictionaryEntries else {
                context.report("\(name): variations must be an object, not \(variations.shortDescription)", at: KeyPath(path + ["variations"]))
                return
            }
            for (kind, cases) in kinds {
                let kindPath = path + ["variations", kind]
                guard kind == "plural" || kind == "device" else {
                    context.report("\(name): unknown variation \"\(kind)\" (plural or device)", at: KeyPath(kindPath))
                    continue
                }
                guard let list = cases.dictionaryEntries else {
                    context.report("\(name): \(kind) variations must be an object, not \(cases.shortDescription)", at: KeyPath(kindPath))
                    continue
                }
                for (category, child) in list {
                    if kind == "plural", !StringCatalog.pluralCategories.contains(category) {
                        context.report("\(name): \"\(category)\" is not a plural category (zero, one, two, few, many, other)",
                                       at: KeyPath(kindPath + [category]))
                        continue
                    }
                    checkNode(child, where: "\(name.dropLast()), \(kind).\(category))", path: kindPath + [category], &context)
                }
            }
        }
        if let substitutions = node[key: "substitutions"] {
            guard let list = substitutions.dictionaryEntries else {
                context.report("\(name): substitutions must be an object, not \(substitutions.shortDescription)", at: KeyPath(path + ["substitutions"]))
                return
            }
            for (substitution, value) in list {
                let at = path + ["substitutions", substitution]
                let described = "\(name.dropLast()), substitution \(substitution))"
                if value.dictionaryEntries != nil {
                    switch value[key: "argNum"] {
                    case .integer(let n)? where (n.int64Value ?? 0) >= 1: break
                    case nil: context.report("\(described) has no argNum", at: KeyPath(at))
                    case let other?: context.report("\(described): argNum must be an integer from 1, not \(other.shortDescription)", at: KeyPath(at + ["argNum"]))
                    }
                    expect(value, "formatSpecifier", isString: true, at, &context)
                }
                checkNode(value, where: described, path: at, &context)
            }
        }
    }

    /// Each `%#@name@` in a localization's values names one of its substitutions (they are
    /// per localization: a translation does not borrow the source's).
    private func checkReferences(_ localization: PlistValue, key: String, language: String, path: [String], _ context: inout RuleContext) {
        let defined = Set((localization[key: "substitutions"]?.dictionaryEntries ?? []).map(\.key))
        for unit in StringCatalog.units(in: localization, language: language, path: path) {
            guard let value = unit.value else { continue }
            var reported: Set<String> = []
            for specifier in FormatSpecifierScanner.scan(value, inSubstitution: unit.inSubstitution) {
                guard case .substitution(let name) = specifier.conversion, !defined.contains(name), reported.insert(name).inserted else { continue }
                context.report("\(StringCatalog.describe(key, unit)): \(specifier.text) names no substitution of this localization",
                               at: KeyPath(unit.path + ["value"]))
            }
        }
    }

    private func checkUnit(_ unit: PlistValue, where name: String, path: [String], _ context: inout RuleContext) {
        guard unit.dictionaryEntries != nil else {
            context.report("\(name): stringUnit must be an object, not \(unit.shortDescription)", at: KeyPath(path))
            return
        }
        switch unit[key: "state"] {
        case .string(let state)? where StringCatalog.unitStates.contains(state): break
        case .string(let state)?:
            context.report("\(name): unknown state \"\(state)\" (new, translated, needs_review or stale)", at: KeyPath(path + ["state"]))
        case nil: break
        case let other?: context.report("\(name): state must be a string, not \(other.shortDescription)", at: KeyPath(path + ["state"]))
        }
        switch unit[key: "value"] {
        case .string?: break
        case nil: context.report("\(name): stringUnit has no value", at: KeyPath(path))
        case let other?: context.report("\(name): value must be a string, not \(other.shortDescription)", at: KeyPath(path + ["value"]))
        }
    }

    private func expect(_ object: PlistValue, _ key: String, isString: Bool, _ path: [String], _ context: inout RuleContext) {
        guard let value = object[key: key], value.stringValue == nil else { return }
        context.report("\(path.last.map { StringCatalog.quote($0) } ?? "the catalog"): \(key) must be a string, not \(value.shortDescription)",
                       at: KeyPath(path + [key]))
    }
}
