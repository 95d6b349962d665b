/// The rules a run can use, by id: built-in packs plus any other module's.
public struct RuleRegistry: Sendable {
    public let rules: [any LintRule]
    /// How files get their kinds (by name in a walk, then by content).
    public let classifier: any FileClassifier
    private let index: [String: Int]

    /// Later rules with an id already present are ignored (the first wins).
    public init(_ types: [any LintRule.Type], classifier: any FileClassifier = PropertyListFiles()) {
        var rules: [any LintRule] = []
        var index: [String: Int] = [:]
        for type in types where index[type.description.id] == nil {
            index[type.description.id] = rules.count
            rules.append(type.init())
        }
        self.rules = rules
        self.classifier = classifier
        self.index = index
    }

    public var descriptions: [RuleDescription] { rules.map { type(of: $0).description } }

    public func rule(id: String) -> (any LintRule)? { index[id].map { rules[$0] } }

    /// A rule named on the command line (`--enable`, `--disable`, `--explain`) that is not
    /// here, with the nearest known id as a hint.
    public func unknownRule(_ id: String) -> LintConfigurationError {
        let hint = EditDistance.closest(to: id, in: descriptions.map(\.id)).map { "; did you mean \"\($0)\"?" } ?? ""
        return LintConfigurationError(source: "", message: "unknown rule \"\(id)\"\(hint) (devkit lint --list-rules lists them)")
    }

    /// Checks every file kind, rule id and option the settings name; suggests the nearest known id.
    public func validate(_ configuration: LintConfiguration) throws(LintConfigurationError) {
        let source = configuration.source ?? "command line"
        for override in configuration.kinds where !classifier.kinds.contains(override.kind) {
            let known = classifier.kinds.sorted().map(\.rawValue).joined(separator: ", ")
            throw LintConfigurationError(source: source, line: override.line, message: "unknown file kind \"\(override.kind)\" (\(known))")
        }
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
