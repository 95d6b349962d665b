import Diagnostics

/// Compiler-style lines: `file:line:col: error: message [rule]`, or
/// `file: offset 0x1a2: error: message [rule]` for binary files.
///
/// With `colored`, the same text with ANSI SGR codes as compilers colour theirs: the location
/// bold, the severity bold red (error), magenta (warning) or cyan (note), the rule id dimmed.
/// Only codes are added, so removing them gives the plain lines; file names and messages are
/// escaped by `TerminalText` either way, so no input can add codes of its own.
public struct TextReporter: Reporter {
    public static let identifier = "text"

    public var colored: Bool

    public init(colored: Bool = false) {
        self.colored = colored
    }

    public func render(_ findings: [Finding]) -> String {
        guard colored else { return findings.map { "\($0.diagnostic) [\($0.ruleID)]\n" }.joined() }
        return findings.map(Self.coloredLine).joined()
    }

    static let reset = "\u{1B}[0m"

    static func coloredLine(_ finding: Finding) -> String {
        let diagnostic = finding.diagnostic
        let severity = switch finding.severity {
        case .error: "\u{1B}[1;31m"
        case .warning: "\u{1B}[1;35m"
        case .note: "\u{1B}[1;36m"
        }
        var line = ""
        if let location = diagnostic.location { line += "\u{1B}[1m\(location):\(reset) " }
        line += "\(severity)\(diagnostic.severity):\(reset) \(TerminalText.escaped(diagnostic.message)) "
        line += "\u{1B}[2m[\(finding.ruleID)]\(reset)\n"
        return line
    }
}
