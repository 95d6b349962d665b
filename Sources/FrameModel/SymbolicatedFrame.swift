/// One frame of a symbolicated address: a function and a source position.
///
/// An address inside inlined code gives several frames: the innermost inlined function
/// first, the real (outermost) function last; each outer frame's position is the call site
/// of the frame before it.
public struct SymbolicatedFrame: Sendable, Hashable {
    /// The function's name (demangled unless asked not to); nil when nothing names it.
    public var function: String?
    /// Source file path as recorded in the DWARF; nil when unknown.
    public var file: String?
    /// 1-based line; 0 when unknown.
    public var line: UInt32
    /// 1-based column; 0 when unknown.
    public var column: UInt32
    /// True for frames of inlined calls (every frame but the last of a chain).
    public var isInlined: Bool
    /// Where the name came from.
    public var source: Source
    /// Start address of the symbol-table function (for `symbol + offset` output), when
    /// the name came from the symbol table.
    public var symbolAddress: UInt64?

    public enum Source: Sendable, Hashable {
        /// DWARF debugging information.
        case debugInfo
        /// The ELF symbol table only (no DWARF covers the address).
        case symbolTable
        /// Nothing knows this address.
        case unknown
    }

    public init(function: String?, file: String?, line: UInt32, column: UInt32, isInlined: Bool,
                source: Source, symbolAddress: UInt64? = nil) {
        self.function = function
        self.file = file
        self.line = line
        self.column = column
        self.isInlined = isInlined
        self.source = source
        self.symbolAddress = symbolAddress
    }
}
