public struct CrashFrame: Hashable, Sendable {
    public var index: Int
    public var imageName: String?
    /// The runtime address, when the log gives it or it follows from image base + offset.
    public var address: UInt64?
    /// Offset from the image's load address.
    public var imageOffset: UInt64?
    /// The symbol as written (may be absent, or a placeholder such as `0x104544000`).
    public var symbol: String?
    /// Offset into `symbol` (`+ 8`).
    public var symbolOffset: UInt64?
    /// Source position as written (`main.swift:12`), when the log is already symbolicated.
    public var sourceLocation: String?
    /// True when `address` is a return address (every frame but a thread's first, unless the
    /// log says otherwise): symbolication then looks up `address - 1`, the call instruction,
    /// as lldb, the Swift backtracer and eu-stack do.
    public var isReturnAddress = false
    /// The 1-based line of the log the frame was read from (text formats), so output in the
    /// log's own format can fill in that line.
    public var line: Int?

    public init(index: Int) { self.index = index }
}
