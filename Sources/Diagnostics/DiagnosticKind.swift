/// What kind of problem a `Diagnostic` reports. Modules declare their own kinds as static
/// members in an extension, so a caller can `switch` on them without string matching.
public struct DiagnosticKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// Input that is malformed or unusable (the default).
    public static let input = DiagnosticKind(rawValue: "input")
    /// A file could not be opened, read or written; the errno is in the error that converted.
    public static let io = DiagnosticKind(rawValue: "io")
    /// A file named by the user or by an input does not exist.
    public static let fileNotFound = DiagnosticKind(rawValue: "file-not-found")
    /// Bytes that do not decode as the format they claim to be (truncated, out of bounds).
    public static let malformed = DiagnosticKind(rawValue: "malformed")
    /// Options or arguments that do not fit together.
    public static let usage = DiagnosticKind(rawValue: "usage")
}
