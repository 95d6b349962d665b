/// The text `devkit lint --list-rules` and `--explain RULE` print, from the rule types.
public enum RuleDocumentation {
    /// One line per rule: id, default severity, flags (`off` by default, `fix`able), summary.
    public static func list(_ rules: [RuleDescription]) -> String {
        let width = rules.map(\.id.count).max() ?? 0
        var out = ""
        for category in Set(rules.map(\.category)).sorted() {
            out += "\(category.rawValue):\n"
            for rule in rules where rule.category == category {
                let flags = [rule.isEnabledByDefault ? nil : "off", rule.isFixable ? "fix" : nil].compactMap { $0 }.joined(separator: ",")
                out += "  " + rule.id.padding(width) + "  " + rule.severity.rawValue.padding(7) + "  "
                    + flags.padding(7) + "  " + rule.summary + "\n"
            }
        }
        return out
    }

    /// `explain(_:)` for the rule of `registry` with id `ruleID`; an unknown id is an error
    /// suggesting the nearest one.
    public static func explain(ruleID: String, in registry: RuleRegistry) throws(LintConfigurationError) -> String {
        guard let rule = registry.rule(id: ruleID) else { throw registry.unknownRule(ruleID) }
        return explain(type(of: rule).description)
    }

    /// Everything about one rule, examples included (as the tests run them).
    public static func explain(_ rule: RuleDescription) -> String {
        var out = "\(rule.id) (\(rule.category.rawValue), \(rule.severity.rawValue)"
        out += rule.isEnabledByDefault ? "" : ", off by default"
        out += rule.isFixable ? ", fixable" : ""
        out += ")\n\n\(rule.summary)\n\n\(rule.rationale)\n\n"
        out += "Checks: " + rule.kinds.sorted().map(\.rawValue).joined(separator: ", ") + "\n"
        if !rule.options.isEmpty {
            out += "\nOptions (.devkit.yml: lint: rules: \(rule.id): {name: value}):\n"
            for option in rule.options { out += "  \(option.name) (default \(option.defaultValue)): \(option.summary)\n" }
        }
        func examples(_ title: String, _ list: [RuleExample]) {
            guard !list.isEmpty else { return }
            out += "\n\(title):\n"
            for example in list {
                var notes: [String] = []
                if let name = example.fileName { notes.append("as \(name)") }
                notes += example.options?.flags ?? []
                if example.format == .binary { notes.append("in binary form") }
                if !example.ruleOptions.isEmpty { notes.append(example.ruleOptions.sorted(by: { $0.key < $1.key }).map { "\($0.key): \($0.value)" }.joined(separator: ", ")) }
                out += notes.isEmpty ? "" : "  (\(notes.joined(separator: "; ")))\n"
                for line in example.source.split(separator: "\n", omittingEmptySubsequences: false) { out += "    \(line)\n" }
                out += "\n"
            }
        }
        examples("Triggers (↓ marks the finding)", rule.triggering)
        examples("Does not trigger", rule.nonTriggering)
        return out
    }
}

private extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
