import PropertyList

/// A pure function from findings to the text a tool prints.
public protocol Reporter: Sendable {
    /// The name used with `--format`.
    static var identifier: String { get }
    func render(_ findings: [Finding]) -> String
    /// Renders with the descriptions of the rules that ran (SARIF lists them); the default
    /// ignores them.
    func render(_ findings: [Finding], rules: [RuleDescription]) -> String
}

extension Reporter {
    public func render(_ findings: [Finding], rules: [RuleDescription]) -> String { render(findings) }
}
