import Diagnostics
import LintKit
import PlistChecks
import PropertyList
import Testing

/// Findings in JSON files get line and column from the key paths rules report, through the
/// JSON reader's recording read (`PlistSourceMap(json:)`): every rule's triggering examples, converted to
/// JSON plists, and String Catalog keys spelt with escapes.
@Suite struct JSONPositionTests {
    /// The value a key path names, or its deepest existing ancestor (where the engine points
    /// for a missing key).
    static func value(at components: [String], in root: PlistValue) -> PlistValue {
        var current = root
        for component in components {
            if let child = current[key: component] { current = child; continue }
            if let array = current.arrayValue, let i = Int(component), array.indices.contains(i) { current = array[i]; continue }
            break
        }
        return current
    }

    /// The byte offset of a 1-based line and byte column.
    static func offset(of position: SourcePosition, in bytes: [UInt8]) -> Int? {
        guard case .text(let line, let column) = position else { return nil }
        var currentLine = 1, k = 0
        while currentLine < line, k < bytes.count {
            if bytes[k] == 0x0A { currentLine += 1 }
            k += 1
        }
        return currentLine == line ? k + column - 1 : nil
    }

    /// Whether the JSON text at `offset` starts the spelling of `value`.
    static func spells(_ value: PlistValue, at offset: Int, in bytes: [UInt8]) -> Bool {
        guard offset < bytes.count else { return false }
        let rest = bytes[offset...]
        switch value {
        case .dictionary: return rest.first == UInt8(ascii: "{")
        case .array: return rest.first == UInt8(ascii: "[")
        case .bool(let b): return rest.starts(with: (b ? "true" : "false").utf8)
        case .integer, .real: return rest.first.map { $0 == UInt8(ascii: "-") || ($0 >= 0x30 && $0 <= 0x39) } ?? false
        case .string(let s):
            // The string's first characters, when they need no escape.
            let plain = s.prefix(while: { $0.isASCII && $0 != "\"" && $0 != "\\" && $0 != "/" && !$0.isNewline }).prefix(12)
            return rest.starts(with: ("\"" + plain).utf8)
        default: return rest.first == UInt8(ascii: "\"")
        }
    }

    @Test("every rule's findings in a JSON plist point at their values")
    func everyRuleInJSON() throws {
        var checked = 0
        var rulesWithFindings: Set<String> = []
        for rule in PlistRuleExampleTests.rules where !rule.kinds.contains(.stringCatalog) {
            for example in rule.triggering where example.format == .asWritten {
                guard let xml = try? PropertyListCoding.read(Array(example.document.text.utf8)),
                      let json = try? PropertyListCoding.write(xml.value, as: .json) else { continue }
                let engine = try PlistRuleExampleTests.engine(for: example, rule: rule)
                let name = example.fileName ?? PlistRuleExampleTests.defaultFileName(rule)
                let value = try PropertyListCoding.read(json).value
                for finding in engine.lint(path: name, bytes: json) where finding.ruleID == rule.id {
                    guard let path = finding.keyPath else { continue }
                    let location = try #require(finding.location, "\(rule.id): \(finding.message) has no position in JSON")
                    let offset = try #require(Self.offset(of: location, in: json))
                    let target = Self.value(at: path.components, in: value)
                    #expect(Self.spells(target, at: offset, in: json),
                            "\(rule.id): \(path) at \(location) is not at its value \(target.shortDescription) in\n\(String(decoding: json, as: UTF8.self))")
                    checked += 1
                    rulesWithFindings.insert(rule.id)
                }
            }
        }
        // Most rules still fire on the JSON form (the binary- and XML-only ones do not).
        #expect(checked > 40 && rulesWithFindings.count > 25, "\(checked) findings of \(rulesWithFindings.count) rules checked")
    }

    /// A UTF-16 file is read converted to UTF-8, so its bytes cannot give positions: findings
    /// come without one rather than at a wrong place.
    @Test func utf16HasNoPositions() throws {
        let text = #"{"sourceLanguage": "en", "strings": {"A": {"extractionState": "stale"}}}"#
        let bytes: [UInt8] = [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let findings = try LintEngine(registry: PlistRules.registry).lint(path: "Localizable.xcstrings", bytes: bytes)
        #expect(findings.map(\.ruleID) == ["xcstrings.stale"])
        #expect(findings.allSatisfy { $0.location == nil })
    }

    /// Catalog keys are source strings: quotes and non-ASCII letters spelt as escapes in the
    /// file are still found, and each finding lands on its own key's value.
    @Test func escapedKeys() throws {
        let text = """
            {
              "sourceLanguage" : "en",
              "strings" : {
                "Say \\"hi\\" to %@" : {
                  "localizations" : { "de" : { "stringUnit" : { "state" : "translated", "value" : "Sag %d" } } }
                },
                "caf\\u00e9 \\ud83c\\udf89" : {
                  "localizations" : { "fr" : { "stringUnit" : { "state" : "new", "value" : "café" } } }
                },
                "Say \\"hi\\"" : { "localizations" : { "de" : { "stringUnit" : { "state" : "translated", "value" : "" } } } }
              }
            }
            """
        let engine = try LintEngine(registry: PlistRules.registry)
        let findings = engine.lint(path: "Localizable.xcstrings", bytes: Array(text.utf8))
        let lines = findings.map { f -> String in
            guard case .text(let l, let c)? = f.location else { return "-: \(f.message)" }
            return "\(l):\(c): \(f.message)"
        }
        #expect(lines == [
            #"5:25: "Say \"hi\" to %@" has no fr translation"#,
            #"5:87: "Say \"hi\" to %@" (de): %d for argument 1 where the source has %@ (source en: "Say \"hi\" to %@")"#,
            #"8:25: "café 🎉" has no de translation"#,
            #"8:63: "café 🎉" (fr) is not translated yet (state "new")"#,
            #"10:40: "Say \"hi\"" has no fr translation"#,
            #"10:102: "Say \"hi\"" (de) has an empty translation"#,
        ], "\(lines)")
    }
}
