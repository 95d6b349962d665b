import DevKitTestSupport
import Diagnostics
import LintKit
import PlistChecks
import PropertyList
import Testing

/// The String Catalog rules on random catalogs: the catalog's own keys at random places and
/// of random types, values full of specifiers. No rule may trap, and every finding has a
/// position inside the file (JSON positions come from the key paths).
@Suite struct StringCatalogRobustnessTests {
    static let keys = ["sourceLanguage", "strings", "version", "localizations", "stringUnit", "state", "value", "variations",
                       "plural", "device", "substitutions", "argNum", "formatSpecifier", "extractionState", "shouldTranslate",
                       "comment", "en", "de", "one", "other", "few", "single", "iphone", "n", "Hello %@", "say \"hi\"", "é"]
    static let strings = ["", "en", "de", "translated", "new", "needs_review", "stale", "manual", "%@", "%lld items", "%1$@ %2$d",
                          "%", "50% off", "%#@n@", "%#@", "%arg", "%*.*f", "%2$*1$d", "%%", "%ls", "\u{1F600} %d", "\"q\\"]

    static func value(_ g: inout PlistRuleRobustnessTests.Generator, depth: Int) -> PlistValue {
        switch g.below(depth > 5 ? 4 : 7) {
        case 0: return .string(strings[g.below(strings.count)])
        case 1: return .int(Int64(g.below(5)) - 1)
        case 2: return .bool(g.below(2) == 0)
        case 3: return .array((0..<g.below(3)).map { _ in value(&g, depth: depth + 1) })
        default:
            var entries: [(String, PlistValue)] = []
            for _ in 0..<g.below(6) {
                let key = keys[g.below(keys.count)]
                if !entries.contains(where: { $0.0 == key }) { entries.append((key, value(&g, depth: depth + 1))) }
            }
            return .dictionary(.init(uniqueKeysWithValues: entries))
        }
    }

    @Test func randomCatalogsNeverTrap() throws {
        let engine = try LintEngine(registry: PlistRules.registry)
        var generator = PlistRuleRobustnessTests.Generator(random: SplitMix64(seed: 21))
        var findings = 0
        for n in 0..<400 {
            var root = Self.value(&generator, depth: 0)
            // Every other catalog gets a well-formed top so the deeper rules run.
            if n % 2 == 0 {
                func object(_ entries: [(String, PlistValue)]) -> PlistValue { .dictionary(.init(uniqueKeysWithValues: entries)) }
                root = object([("sourceLanguage", .string("en")), ("strings", object([("k %@", object([("localizations", root)]))]))])
            }
            guard let bytes = try? PropertyListCoding.write(root, as: .json) else { continue }
            let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).count
            for finding in engine.lint(path: "Localizable.xcstrings", bytes: bytes) where finding.ruleID.hasPrefix("xcstrings.") {
                findings += 1
                guard case .text(let line, let column)? = finding.location else {
                    Issue.record("\(finding.ruleID): \(finding.message) has no position")
                    continue
                }
                #expect(line >= 1 && line <= lines && column >= 1)
            }
        }
        #expect(findings > 100)
    }

    /// The scanner on random bytes around `%`: no trap, and every directive's text is a
    /// piece of the input starting with `%` (or a `*` width).
    @Test func scannerOnRandomText() {
        var generator = PlistRuleRobustnessTests.Generator(random: SplitMix64(seed: 7))
        let alphabet = Array("%%%$#@*.0123456789-+ 'lhqLjztdiuoxXDUOfFeEgGaAsScCpn@ar\u{E9}\u{1F600}")
        for _ in 0..<2000 {
            let text = String((0..<generator.below(12)).map { _ in alphabet[generator.below(alphabet.count)] })
            for inSubstitution in [false, true] {
                for specifier in FormatSpecifierScanner.scan(text, inSubstitution: inSubstitution) {
                    #expect(specifier.text.hasPrefix("%") || specifier.text == "*", "\(text): \(specifier.text)")
                    #expect(specifier.text == "*" || text.contains(specifier.text), "\(text): \(specifier.text)")
                }
            }
        }
    }
}
