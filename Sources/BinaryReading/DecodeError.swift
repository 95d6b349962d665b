import Diagnostics

/// Where and why reading untrusted bytes failed.
public struct DecodeError: Error, Equatable, Sendable, CustomStringConvertible, DiagnosticConvertible {
    /// The part of the input being read (a file format's section or structure name).
    public var section: String
    /// Byte offset, from the start of the whole input, where the problem was found.
    public var offset: Int
    /// What was wrong, in words for a person.
    public var reason: String

    public init(section: String, offset: Int, reason: String) {
        self.section = section
        self.offset = offset
        self.reason = reason
    }

    public var description: String { "\(SourcePosition.byteOffset(offset)): \(section): \(reason)" }

    public var diagnostic: Diagnostic {
        Diagnostic(position: .byteOffset(offset), message: "\(section): \(reason)", kind: .malformed)
    }
}
