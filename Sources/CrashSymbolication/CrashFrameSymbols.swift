import FrameModel

/// What an image's symbols say about one address.
public struct CrashFrameSymbols: Sendable, Equatable {
    /// Innermost inlined function first, the function the address is in last.
    public var frames: [SymbolicatedFrame]
    /// The symbol-table name of the outermost function and the address's offset into it.
    public var symbol: String?
    public var offset: UInt64?
    /// False when the image was found without an identifier to check (address lists,
    /// sanitizer reports).
    public var verified: Bool

    /// The function the address is in (outermost frame), by DWARF or symbol table.
    public var function: String? { frames.last?.function ?? symbol }
}
