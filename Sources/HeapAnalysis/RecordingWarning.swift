/// A problem found while reading that did not stop it.
public struct RecordingWarning: Sendable, Equatable, CustomStringConvertible {
    public var offset: Int
    public var message: String

    public var description: String { "offset 0x\(String(offset, radix: 16)): \(message)" }
}
