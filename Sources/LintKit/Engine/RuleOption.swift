/// One option a rule reads, with its default (for `--explain` and config validation).
public struct RuleOption: Sendable, Hashable {
    public var name: String
    public var defaultValue: RuleOptionValue
    public var summary: String
    public init(_ name: String, default defaultValue: RuleOptionValue, _ summary: String) {
        self.name = name
        self.defaultValue = defaultValue
        self.summary = summary
    }
}
