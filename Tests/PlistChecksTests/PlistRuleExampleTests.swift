import Diagnostics
import LintKit
import PlistChecks
import PlistTools
import PropertyList
import Testing

/// Runs every registered rule's examples: triggering ones must report the rule (at the `↓`
/// positions when marked), non-triggering ones must not; fixes must lint clean afterwards and
/// change only the bytes of the node they name.
@Suite struct PlistRuleExampleTests {
    static let rules = PlistRules.registry.descriptions

    /// Lints one example with only `rule` running (off-by-default rules included).
    static func lint(_ example: RuleExample, rule: RuleDescription) throws -> (bytes: [UInt8], findings: [Finding], markers: [SourcePosition]) {
        let (text, markers) = example.document
        var bytes = Array(text.utf8)
        if example.format == .binary {
            bytes = try PropertyListCoding.write(PropertyListCoding.read(bytes).value, as: .binary)
        }
        let engine = try engine(for: example, rule: rule)
        let name = example.fileName ?? defaultFileName(rule)
        return (bytes, engine.lint(path: name, bytes: bytes).filter { $0.ruleID == rule.id }, markers)
    }

    static func engine(for example: RuleExample, rule: RuleDescription) throws -> LintEngine {
        var configuration = LintConfiguration()
        configuration.onlyRules = [rule.id]
        if !example.ruleOptions.isEmpty { configuration.ruleOptions[rule.id] = example.ruleOptions }
        return try LintEngine(registry: PlistRules.registry, configuration: configuration, options: example.options)
    }

    static func defaultFileName(_ rule: RuleDescription) -> String {
        if rule.kinds.contains(.infoPlist) { return "Info.plist" }
        if rule.kinds.contains(.entitlements) { return "App.entitlements" }
        if rule.kinds.contains(.otaManifest) { return "manifest.plist" }
        if rule.kinds.contains(.privacyManifest) { return "PrivacyInfo.xcprivacy" }
        if rule.kinds.contains(.stringCatalog) { return "Localizable.xcstrings" }
        return "Settings.plist"
    }

    @Test("every rule has examples, a rationale and a unique id")
    func documented() {
        #expect(Set(Self.rules.map(\.id)).count == Self.rules.count)
        for rule in Self.rules {
            #expect(!rule.nonTriggering.isEmpty, "\(rule.id) has no non-triggering example")
            // The reader-warning rule is triggered only by binary sets, which no snippet can spell.
            if rule.id != ReaderWarningRule.description.id {
                #expect(!rule.triggering.isEmpty, "\(rule.id) has no triggering example")
            }
            #expect(rule.rationale.count > 40, "\(rule.id) needs a rationale")
            #expect(rule.id.contains("."), "\(rule.id) is not a dotted id")
        }
    }

    @Test("triggering examples report the rule", arguments: rules)
    func triggering(_ rule: RuleDescription) throws {
        for (n, example) in rule.triggering.enumerated() {
            let (bytes, findings, markers) = try Self.lint(example, rule: rule)
            #expect(!findings.isEmpty, "\(rule.id) triggering example \(n + 1) reported nothing")
            if !markers.isEmpty {
                #expect(Set(findings.compactMap(\.location)) == Set(markers),
                        "\(rule.id) example \(n + 1): findings at \(findings.map { "\($0.location.map { "\($0)" } ?? "-"): \($0.message)" }), markers at \(markers)")
            }
            for finding in findings { #expect(finding.message.count > 5) }
            if example.expectsFix {
                try checkFix(rule: rule, example: example, bytes: bytes, findings: findings, n: n)
            }
        }
    }

    @Test("non-triggering examples report nothing", arguments: rules)
    func nonTriggering(_ rule: RuleDescription) throws {
        for (n, example) in rule.nonTriggering.enumerated() {
            let findings = try Self.lint(example, rule: rule).findings
            #expect(findings.isEmpty, "\(rule.id) non-triggering example \(n + 1): \(findings.map(\.message))")
        }
    }

    /// The fix resolves the findings and changes only bytes of the node it names (its key, its
    /// element and the indentation before them), or for a reformat, only the layout.
    func checkFix(rule: RuleDescription, example: RuleExample, bytes: [UInt8], findings: [Finding], n: Int) throws {
        let fixes = findings.compactMap(\.fix)
        #expect(!fixes.isEmpty, "\(rule.id) example \(n + 1) expects a fix")
        let fixed = try FixApplier.apply(fixes, to: bytes)
        let engine = try Self.engine(for: example, rule: rule)
        let again = engine.lint(path: example.fileName ?? Self.defaultFileName(rule), bytes: fixed).filter { $0.ruleID == rule.id }
        #expect(again.isEmpty, "\(rule.id) example \(n + 1) after the fix: \(again.map(\.message))")
        guard fixes.count == 1 else { return }
        let map = try PlistSourceMap(xml: bytes)
        let prefix = zip(bytes, fixed).prefix(while: { $0 == $1 }).count
        let suffix = zip(bytes.reversed(), fixed.reversed()).prefix(while: { $0 == $1 }).count
        let changedStart = prefix, changedEnd = max(prefix, bytes.count - suffix)
        switch fixes[0] {
        case .edit(let edit):
            let path = edit.path
            // A new key's region is its parent dictionary's.
            var components = path.components
            var node = map.node(at: components)
            while node == nil, !components.isEmpty { components.removeLast(); node = map.node(at: components) }
            let region = try #require(node)
            var start = region.start
            while start > 0, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start - 1]) { start -= 1 }
            #expect(changedStart >= start && changedEnd <= region.element.upperBound,
                    "\(rule.id) example \(n + 1): bytes \(changedStart)..<\(changedEnd) changed, outside \(start)..<\(region.element.upperBound)")
        case .reformat:
            #expect(try PropertyListCoding.read(fixed).value == PropertyListCoding.read(bytes).value)
        }
    }
}
