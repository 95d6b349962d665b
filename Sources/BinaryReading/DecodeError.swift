/// Where and why reading untrusted bytes failed.
public struct DecodeError: Error, Equatable, Sendable, CustomStringConvertible {
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

    public var description: String {
        "offset 0x\(String(offset, radix: 16)): \(section): \(reason)"
    }
}
