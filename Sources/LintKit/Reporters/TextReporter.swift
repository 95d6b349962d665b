/// Compiler-style lines: `file:line:col: error: message [rule]`, or
/// `file: offset 0x1a2: error: message [rule]` for binary files.
public struct TextReporter: Reporter {
    public static let identifier = "text"

    public init() {}

    public func render(_ findings: [Finding]) -> String {
        findings.map { "\($0.diagnostic) [\($0.ruleID)]\n" }.joined()
    }
}
