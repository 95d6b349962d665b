/// A source location for a code address, as a symbolizer found it.
public struct ResolvedFrame: Sendable, Hashable {
    public var function: String?
    public var file: String?
    public var line: UInt32
    /// An inlined call, reported inside its caller's frame.
    public var isInlined: Bool

    public init(function: String?, file: String? = nil, line: UInt32 = 0, isInlined: Bool = false) {
        self.function = function
        self.file = file
        self.line = line
        self.isInlined = isInlined
    }
}

/// What heap analysis needs from symbolication: frames for a code address and the symbol at
/// a data address (a Swift type metadata record), both as file addresses in a module.
public protocol HeapSymbolizer {
    /// Frames for `fileAddress` in `module`, innermost (inlined) first; empty when unknown.
    func frames(in module: HeapModule, fileAddress: UInt64) -> [ResolvedFrame]
    /// The name of the symbol covering `fileAddress` in `module`, demangled; nil when unknown.
    func symbolName(in module: HeapModule, fileAddress: UInt64) -> String?
}

/// Resolves nothing: frames print as `module+0xOFFSET`.
public struct UnresolvedSymbolizer: HeapSymbolizer {
    public init() {}
    public func frames(in module: HeapModule, fileAddress: UInt64) -> [ResolvedFrame] { [] }
    public func symbolName(in module: HeapModule, fileAddress: UInt64) -> String? { nil }
}
