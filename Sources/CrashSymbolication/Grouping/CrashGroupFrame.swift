/// One line of a group's example stack: a frame of the example log's crashed thread, or one
/// inlined function of it (innermost first, as the summary prints them).
public struct CrashGroupFrame: Sendable, Equatable {
    /// The frame's number in the log.
    public var index: Int
    public var image: String
    public var address: UInt64?
    /// The function, or for an unsymbolicated frame what the log wrote (`image + offset`).
    public var function: String
    /// Offset into the function (the outermost entry of a symbolicated frame only).
    public var offset: UInt64?
    /// `file:line:column`, when the symbols say.
    public var location: String?
    public var inlined: Bool
    /// False when no symbols were found for the frame.
    public var symbolicated: Bool
}
