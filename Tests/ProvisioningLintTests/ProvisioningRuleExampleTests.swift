import Diagnostics
import LintKit
import PropertyList
import ProvisioningLint
import Testing

/// Runs every provisioning rule's examples: triggering ones must report the rule at the `↓`
/// positions, non-triggering ones must not report it.
@Suite struct ProvisioningRuleExampleTests {
    static let rules = ProvisioningRules.registry.descriptions

    static func lint(_ example: RuleExample, rule: RuleDescription) throws -> (findings: [Finding], markers: [SourcePosition]) {
        let (text, markers) = example.document
        var configuration = LintConfiguration()
        configuration.onlyRules = [rule.id]
        if !example.ruleOptions.isEmpty { configuration.ruleOptions[rule.id] = example.ruleOptions }
        let engine = try LintEngine(registry: ProvisioningRules.registry, configuration: configuration, options: example.options)
        let findings = engine.lint(path: "Test.mobileprovision", bytes: Array(text.utf8), kind: .provisioningProfile)
        return (findings.filter { $0.ruleID == rule.id }, markers)
    }

    @Test("every rule has examples, a rationale and a unique id")
    func documented() {
        #expect(Set(Self.rules.map(\.id)).count == Self.rules.count)
        for rule in Self.rules {
            #expect(!rule.triggering.isEmpty && !rule.nonTriggering.isEmpty, "\(rule.id) needs examples")
            #expect(rule.rationale.count > 40, "\(rule.id) needs a rationale")
            #expect(rule.kinds == [.provisioningProfile])
        }
    }

    @Test("triggering examples report the rule", arguments: rules)
    func triggering(_ rule: RuleDescription) throws {
        for (n, example) in rule.triggering.enumerated() {
            let (findings, markers) = try Self.lint(example, rule: rule)
            #expect(!findings.isEmpty, "\(rule.id) triggering example \(n + 1) reported nothing")
            if !markers.isEmpty {
                #expect(Set(findings.compactMap(\.location)) == Set(markers),
                        "\(rule.id) example \(n + 1): findings \(findings.map { "\($0.location.map { "\($0)" } ?? "-"): \($0.message)" }), markers \(markers)")
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
}
