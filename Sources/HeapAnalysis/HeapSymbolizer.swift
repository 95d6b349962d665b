import FrameModel

/// What heap analysis needs from symbolication: frames for a code address and the symbol at
/// a data address (a Swift type metadata record), both as file addresses in a module.
public protocol HeapSymbolizer {
    /// Frames for `fileAddress` in `module`, innermost (inlined) first, each naming a function;
    /// empty when unknown. Heap reports show function, file and line (not the column).
    func frames(in module: ModuleMapping, fileAddress: UInt64) -> [SymbolicatedFrame]
    /// The name of the symbol covering `fileAddress` in `module`, demangled; nil when unknown.
    func symbolName(in module: ModuleMapping, fileAddress: UInt64) -> String?
    /// Reads ahead what `frames(in:fileAddress:)` will need for `modules` (their symbol
    /// files), so that the first questions do not wait for it; called on another thread
    /// while nothing else uses the symbolizer. What goes wrong is told as it would be
    /// without it: when a module is first asked about.
    func prepare(_ modules: [ModuleMapping])
}

extension HeapSymbolizer {
    public func prepare(_ modules: [ModuleMapping]) {}
}
