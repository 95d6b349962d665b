import CrashSymbolication
import Testing

/// Every register-decoding rule's examples are its tests: each example crash must give
/// exactly the messages listed (none: the rule stays silent).
@Suite struct RuleExampleTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var rule: any CrashDecodingRule
        var example: DecodingExample
        var number: Int
        var testDescription: String { "\(rule.description.id) example \(number)" }
    }

    static let cases: [Case] = CrashDecodingRules.all.flatMap { rule in
        rule.description.examples.enumerated().map { Case(rule: rule, example: $1, number: $0 + 1) }
    }

    @Test(arguments: cases)
    func example(_ test: Case) {
        let messages = test.rule.decode(test.example.crash.context).map(\.message)
        #expect(messages == test.example.expected)
    }

    @Test func everyRuleHasTriggeringAndSilentExamples() {
        for rule in CrashDecodingRules.all {
            let examples = rule.description.examples
            #expect(examples.contains { !$0.expected.isEmpty }, "\(rule.description.id) has no triggering example")
            #expect(examples.contains { $0.expected.isEmpty }, "\(rule.description.id) has no silent example")
        }
    }

    @Test func ruleIDsAreUnique() {
        let ids = CrashDecodingRules.all.map(\.description.id)
        #expect(Set(ids).count == ids.count)
    }
}
