import Diagnostics

/// A config file or command line that names something devkit does not know or cannot use
/// (an unknown rule, a `--project-dir` that is not a directory, an unreadable `--app`).
public struct LintConfigurationError: Error, Hashable, Sendable, CustomStringConvertible, DiagnosticConvertible {
    /// The config file (or `command line`); empty for a command-line flag, whose message
    /// names it.
    public var source: String
    /// 1-based line in the config file, when known.
    public var line: Int?
    /// 1-based column on `line`, when known (syntax errors).
    public var column: Int?
    public var message: String

    public init(source: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.source = source
        self.line = line
        self.column = column
        self.message = message
    }

    /// `source:line:col: error: message`, `source:line: error: message`, or `error: message`
    /// for a command-line flag.
    public var description: String { diagnostic.description }

    public var diagnostic: Diagnostic {
        let position: SourcePosition? = line.map { line in column.map { .text(line: line, column: $0) } ?? .line(line) }
        return Diagnostic(file: source.isEmpty ? nil : source, position: position, message: message, kind: .configuration)
    }
}

extension DiagnosticKind {
    /// A lint configuration (file or flags) names something unknown or unusable.
    public static let configuration = DiagnosticKind(rawValue: "configuration")
}
