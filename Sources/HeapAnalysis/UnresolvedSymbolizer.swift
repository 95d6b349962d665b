import FrameModel

/// Resolves nothing: frames print as `module+0xOFFSET`.
public struct UnresolvedSymbolizer: HeapSymbolizer {
    public init() {}
    public func frames(in module: ModuleMapping, fileAddress: UInt64) -> [SymbolicatedFrame] { [] }
    public func symbolName(in module: ModuleMapping, fileAddress: UInt64) -> String? { nil }
}
