import FrameModel

/// One frame of an address as the index holds it: string ids instead of `String`s.
/// `ImageSymbolizer.frameRecords(at:outermostOnly:into:)` gives these without
/// allocating; `frames(at:)` turns them into `SymbolicatedFrame`s, and `FrameFormatter`
/// writes them out as bytes through `FrameText`.
struct FrameRecord {
    /// The function's name (string id, `StringTable.none` when nothing names it); mangled
    /// as stored.
    var name: UInt32
    /// The source file (string id, `StringTable.none` when unknown).
    var file: UInt32
    var line: UInt32
    var column: UInt32
    var isInlined: Bool
    var source: SymbolicatedFrame.Source
    /// Start of the symbol-table function, when the name came from the symbol table.
    var symbolAddress: UInt64?
}
