import Diagnostics

/// Something the parser skipped or could not read, with the 1-based line it is on
/// (for `.ips`, line 1 is the header and 2 the body's start).
public struct CrashDiagnostic: Hashable, Sendable, CustomStringConvertible {
    public var line: Int?
    public var message: String

    public init(line: Int?, message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { line.map { "line \($0): \(message)" } ?? message }

    /// The remark as a warning diagnostic of the log's line.
    public var diagnostic: Diagnostic { Diagnostic(position: line.map(SourcePosition.line), severity: .warning, message: message) }
}
