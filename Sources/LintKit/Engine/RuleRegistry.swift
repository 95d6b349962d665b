/// The rules a run can use, by id: built-in packs plus any other module's.
public struct RuleRegistry: Sendable {
    public let rules: [any LintRule]
    private let index: [String: Int]

    /// Later rules with an id already present are ignored (the first wins).
    public init(_ types: [any LintRule.Type]) {
        var rules: [any LintRule] = []
        var index: [String: Int] = [:]
        for type in types where index[type.description.id] == nil {
            index[type.description.id] = rules.count
            rules.append(type.init())
        }
        self.rules = rules
        self.index = index
    }

    /// The rules the engine itself reports (parse errors, reader warnings).
    public static let engineRules: [any LintRule.Type] = [PlistSyntaxRule.self, DuplicateKeyRule.self, ReaderWarningRule.self]

    public var descriptions: [RuleDescription] { rules.map { type(of: $0).description } }

    public func rule(id: String) -> (any LintRule)? { index[id].map { rules[$0] } }

    /// A rule named on the command line (`--enable`, `--disable`, `--explain`) that is not
    /// here, with the nearest known id as a hint.
    public func unknownRule(_ id: String) -> LintConfigurationError {
        let hint = EditDistance.closest(to: id, in: descriptions.map(\.id)).map { "; did you mean \"\($0)\"?" } ?? ""
        return LintConfigurationError(source: "", message: "unknown rule \"\(id)\"\(hint) (devkit lint --list-rules lists them)")
    }

    /// Checks every rule id and option the settings name; suggests the nearest known id.
    public func validate(_ configuration: LintConfiguration) throws(LintConfigurationError) {
        let source = configuration.source ?? "command line"
        for (id, place) in configuration.namedRuleIDs where index[id] == nil {
            let hint = EditDistance.closest(to: id, in: rules.map { type(of: $0).description.id }).map { "; did you mean \"\($0)\"?" } ?? ""
            throw LintConfigurationError(source: source, message: "unknown rule \"\(id)\" in \(place)\(hint)")
        }
        for (id, options) in configuration.ruleOptions {
            guard let rule = rule(id: id) else { continue }
            let known = type(of: rule).description.options.map(\.name)
            for name in options.keys.sorted() where !known.contains(name) {
                let list = known.isEmpty ? "it has no options" : "its options: \(known.joined(separator: ", "))"
                throw LintConfigurationError(source: source, message: "rule \"\(id)\" has no option \"\(name)\" (\(list))")
            }
        }
    }
}
