import Diagnostics

/// A report the parser could not read at all.
public struct CrashReportError: Error, Hashable, Sendable, CustomStringConvertible, DiagnosticConvertible {
    public var line: Int?
    public var message: String

    public init(line: Int?, message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { line.map { "line \($0): \(message)" } ?? message }

    public var diagnostic: Diagnostic { Diagnostic(position: line.map(SourcePosition.line), message: message, kind: .malformed) }
}
