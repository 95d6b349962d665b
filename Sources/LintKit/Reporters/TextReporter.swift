/// Compiler-style lines: `file:line:col: error: message [rule]`, or
/// `file: offset 0x1a2: error: message [rule]` for binary files.
public struct TextReporter: Reporter {
    public static let identifier = "text"

    public init() {}

    public func render(_ findings: [Finding]) -> String {
        findings.map { finding in
            var line = finding.file
            switch finding.location {
            case .text(let l, let c)?: line += ":\(l):\(c)"
            case .byteOffset(let o)?: line += ": offset 0x\(String(o, radix: 16))"
            case nil: break
            }
            return line + ": \(finding.severity.rawValue): \(finding.message) [\(finding.ruleID)]\n"
        }.joined()
    }
}
