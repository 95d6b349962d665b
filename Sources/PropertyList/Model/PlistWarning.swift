import Diagnostics

/// A non-fatal remark from a reader (for example: a binary set read as an array).
public struct PlistWarning: Hashable, Sendable, CustomStringConvertible {
    public var position: SourcePosition?
    public var message: String

    public init(position: SourcePosition?, message: String) {
        self.position = position
        self.message = message
    }

    public var description: String {
        position.map { "\($0): \(message)" } ?? message
    }
}
