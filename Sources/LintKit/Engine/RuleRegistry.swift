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

/// Levenshtein distance, for "did you mean" suggestions.
public enum EditDistance {
    public static func distance(_ a: String, _ b: String) -> Int {
        distance(Array(a.utf8), Array(b.utf8), limit: Int.max)
    }

    /// The distance, or some value above `limit` as soon as every path exceeds it.
    static func distance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                rowMinimum = min(rowMinimum, current[j])
            }
            if rowMinimum > limit { return rowMinimum }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// The candidate nearest to `word`, if within a third of its length (at least 1, at most 4
    /// edits); else the one candidate that starts with `word` (a truncated id).
    public static func closest(to word: String, in candidates: [String]) -> String? {
        if let near = nearest(to: word, in: candidates) { return near }
        let extensions = candidates.filter { $0.hasPrefix(word) }
        return extensions.count == 1 ? extensions[0] : nil
    }

    static func nearest(to word: String, in candidates: [String]) -> String? {
        let limit = max(1, min(4, word.utf8.count / 3))
        var best: (String, Int)?
        let bytes = Array(word.utf8)
        for candidate in candidates where abs(candidate.utf8.count - bytes.count) <= limit {
            let d = distance(bytes, Array(candidate.utf8), limit: limit)
            if d <= limit, d < (best?.1 ?? Int.max) { best = (candidate, d) }
        }
        return best?.0
    }
}
