import Diagnostics

/// An error that stops a recording from being read at all (a bad header).
public struct RecordingError: Error, Sendable, Equatable, CustomStringConvertible, DiagnosticConvertible {
    public var path: String
    public var offset: Int
    public var message: String

    public var description: String { "\(path): \(SourcePosition.byteOffset(offset)): \(message)" }

    public var diagnostic: Diagnostic { Diagnostic(file: path, position: .byteOffset(offset), message: message, kind: .malformed) }
}
