/// One finding of a register-decoding rule.
public struct CrashDecoding: Sendable, Equatable, CustomStringConvertible {
    /// The rule's id (`objc.selector`, `fault.null-dereference`, …).
    public var rule: String
    /// The register it is about, if any (`x1`, `rsi`, `fault address`).
    public var register: String?
    public var value: UInt64?
    /// One line of plain words.
    public var message: String

    public init(rule: String, register: String? = nil, value: UInt64? = nil, message: String) {
        self.rule = rule
        self.register = register
        self.value = value
        self.message = message
    }

    public var description: String { message }
}
