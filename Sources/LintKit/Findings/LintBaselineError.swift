import Diagnostics

/// A baseline file that cannot be read, written or understood: the file, where in it (the
/// line and column of a JSON syntax error, or of the value at fault in a well-formed file,
/// whose key path the message names too) and what is wrong.
public struct LintBaselineError: Error, Hashable, Sendable, CustomStringConvertible, DiagnosticConvertible {
    public var file: String
    public var position: SourcePosition?
    public var message: String
    public var kind: DiagnosticKind

    public init(file: String, position: SourcePosition? = nil, message: String, kind: DiagnosticKind = .malformed) {
        self.file = file
        self.position = position
        self.message = message
        self.kind = kind
    }

    /// `file:line:col: error: message` or `file: error: message`.
    public var description: String { diagnostic.description }

    public var diagnostic: Diagnostic { Diagnostic(file: file, position: position, message: message, kind: kind) }
}
