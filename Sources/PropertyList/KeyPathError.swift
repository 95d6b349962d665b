import Diagnostics

/// Why a key path did not lead to a value.
public struct KeyPathError: Error, Hashable, Sendable, CustomStringConvertible, DiagnosticConvertible {
    public var path: KeyPath
    /// How many components matched before the failing one.
    public var matched: Int
    public var message: String

    public var description: String { message }

    public var diagnostic: Diagnostic { Diagnostic(message: message, kind: .keyPath) }
}

extension DiagnosticKind {
    /// A key path that leads to no value (a missing key, an index out of range).
    public static let keyPath = DiagnosticKind(rawValue: "key-path")
}
