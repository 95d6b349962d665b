import Diagnostics

/// A failed PlistBuddy command, with PlistBuddy's wording where it is known.
public struct PlistBuddyError: Error, Hashable, Sendable, CustomStringConvertible, DiagnosticConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }

    public var diagnostic: Diagnostic { Diagnostic(message: message) }
}
