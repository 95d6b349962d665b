/// Maps stack addresses to modules and symbols, caching every answer: a recording has few
/// unique addresses and many blocks.
public final class FrameResolver {
    public let recording: HeapRecording
    private let symbolizer: any HeapSymbolizer
    private var cache: [UInt64: ReturnAddressLocation] = [:]
    private var typeNames: [UInt64: String] = [:]

    public init(recording: HeapRecording, symbolizer: any HeapSymbolizer = UnresolvedSymbolizer()) {
        self.recording = recording
        self.symbolizer = symbolizer
    }

    /// The module mapped at `address` when event `seq` happened (a dlclose'd library's range
    /// may later hold another one).
    public func module(containing address: UInt64, at seq: UInt64) -> ModuleMapping? {
        recording.modules.last { $0.contains(address, at: seq) }
            ?? recording.modules.last { $0.segments.contains { $0.contains(address) } }
    }

    /// Where return address `pc` is: its module and file address, without symbols.
    public func place(of pc: UInt64, at seq: UInt64) -> ReturnAddressLocation {
        if let known = cache[pc] { return known }
        guard let module = module(containing: pc, at: seq) else { return ReturnAddressLocation(module: nil, address: pc, frames: []) }
        return ReturnAddressLocation(module: module.name, address: pc &- module.loadBias, frames: [])
    }

    /// Where return address `pc` is, symbolicated. The symbolizer is asked about `pc - 1`,
    /// inside the call instruction, so a call that ends a function still resolves to it.
    public func location(of pc: UInt64, at seq: UInt64) -> ReturnAddressLocation {
        if let known = cache[pc] { return known }
        var location = ReturnAddressLocation(module: nil, address: pc, frames: [])
        if let module = module(containing: pc, at: seq) {
            let fileAddress = pc &- module.loadBias
            location = ReturnAddressLocation(module: module.name, address: fileAddress,
                                     frames: symbolizer.frames(in: module, fileAddress: fileAddress &- 1))
        }
        cache[pc] = location
        return location
    }

    /// The Swift type name for a class instance's metadata address (`MyApp.Node`), from the
    /// symbol there; `metadata 0x…` when no symbol names it (a generic class's metadata is
    /// made at run time and has none).
    public func typeName(metadata: UInt64, at seq: UInt64) -> String {
        if let known = typeNames[metadata] { return known }
        var name = "metadata 0x\(String(metadata, radix: 16))"
        if let module = module(containing: metadata, at: seq),
           let symbol = symbolizer.symbolName(in: module, fileAddress: metadata &- module.loadBias) {
            name = Self.typeName(fromMetadataSymbol: symbol)
        }
        typeNames[metadata] = name
        return name
    }

    /// "type metadata for MyApp.Node" → "MyApp.Node"; "full type metadata for …" likewise.
    static func typeName(fromMetadataSymbol symbol: String) -> String {
        for prefix in ["full type metadata for ", "type metadata for "] where symbol.hasPrefix(prefix) {
            return String(symbol.dropFirst(prefix.count))
        }
        return symbol
    }
}
