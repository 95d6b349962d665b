import BundleChecks
import Diagnostics
import LintKit
import PropertyList
import Testing

/// Runs every bundle rule's examples: triggering ones must report the rule, non-triggering
/// ones must not.
@Suite struct BundleRuleExampleTests {
    static let rules = BundleRules.all.map { $0.description }

    static func findings(_ example: RuleExample, rule: RuleDescription) throws -> [Finding] {
        var configuration = LintConfiguration()
        configuration.onlyRules = [rule.id]
        let engine = try LintEngine(registry: BundleRules.lintRegistry, configuration: configuration)
        let value = try PropertyListCoding.read(Array(example.document.text.utf8)).value
        let kind = rule.kinds.first ?? .bundleBinary
        return engine.lint(BundleRules.file(path: "App.app/App", subject: value, kind: kind)).filter { $0.ruleID == rule.id }
    }

    @Test("every rule has examples, a rationale and a unique id")
    func documented() {
        #expect(Set(Self.rules.map(\.id)).count == Self.rules.count)
        for rule in Self.rules {
            #expect(!rule.triggering.isEmpty && !rule.nonTriggering.isEmpty, "\(rule.id) needs examples")
            #expect(rule.rationale.count > 40, "\(rule.id) needs a rationale")
            #expect(rule.kinds == [.bundleBinary] || rule.kinds == [.bundleSignature], "\(rule.id)")
        }
    }

    @Test("triggering examples report the rule", arguments: rules)
    func triggering(_ rule: RuleDescription) throws {
        for (n, example) in rule.triggering.enumerated() {
            let found = try Self.findings(example, rule: rule)
            #expect(!found.isEmpty, "\(rule.id) triggering example \(n + 1) reported nothing")
            // The privacy rules name the App Store Connect error they prevent.
            if rule.category == .privacy { for finding in found { #expect(finding.message.contains("ITMS-910")) } }
        }
    }

    @Test("non-triggering examples report nothing", arguments: rules)
    func nonTriggering(_ rule: RuleDescription) throws {
        for (n, example) in rule.nonTriggering.enumerated() {
            let found = try Self.findings(example, rule: rule)
            #expect(found.isEmpty, "\(rule.id) non-triggering example \(n + 1): \(found.map(\.message))")
        }
    }
}
