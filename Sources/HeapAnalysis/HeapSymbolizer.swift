import FrameModel

/// What heap analysis needs from symbolication: frames for a code address and the symbol at
/// a data address (a Swift type metadata record), both as file addresses in a module.
public protocol HeapSymbolizer {
    /// Frames for `fileAddress` in `module`, innermost (inlined) first, each naming a function;
    /// empty when unknown. Heap reports show function, file and line (not the column).
    func frames(in module: ModuleMapping, fileAddress: UInt64) -> [SymbolicatedFrame]
    /// The name of the symbol covering `fileAddress` in `module`, demangled; nil when unknown.
    func symbolName(in module: ModuleMapping, fileAddress: UInt64) -> String?
}
