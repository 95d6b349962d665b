/// A return address placed in its module and, when a symbolizer knows it, its source.
public struct FrameLocation: Sendable, Hashable {
    /// The module's file name (`libfoo.so`), or nil when no module covered the address.
    public var module: String?
    /// File address within the module (or the raw address when `module` is nil).
    public var address: UInt64
    /// Innermost first: inlined frames, then the function the address is in.
    public var frames: [ResolvedFrame]

    /// `function (file:line)`, `function`, or `module+0xOFFSET`: the outermost resolved frame
    /// (the real function; inlined callees are reported by `frames`).
    public var display: String {
        guard let frame = frames.last, let function = frame.function else { return unresolved }
        guard let file = frame.file else { return function }
        return "\(function) (\(baseName(file)):\(frame.line))"
    }

    /// The function name, or `module+0xOFFSET` when unresolved.
    public var functionName: String { frames.last?.function ?? unresolved }

    public var unresolved: String { "\(module ?? "?")+0x\(String(address, radix: 16))" }
}

func baseName(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
}

/// Maps stack addresses to modules and symbols, caching every answer: a recording has few
/// unique addresses and many blocks.
public final class FrameResolver {
    public let recording: HeapRecording
    private let symbolizer: any HeapSymbolizer
    private var cache: [UInt64: FrameLocation] = [:]
    private var typeNames: [UInt64: String] = [:]

    public init(recording: HeapRecording, symbolizer: any HeapSymbolizer = UnresolvedSymbolizer()) {
        self.recording = recording
        self.symbolizer = symbolizer
    }

    /// The module mapped at `address` when event `seq` happened (a dlclose'd library's range
    /// may later hold another one).
    public func module(containing address: UInt64, at seq: UInt64) -> HeapModule? {
        recording.modules.last { $0.contains(address, at: seq) }
            ?? recording.modules.last { $0.segments.contains { $0.contains(address) } }
    }

    /// Where return address `pc` is: its module and file address, without symbols.
    public func place(of pc: UInt64, at seq: UInt64) -> FrameLocation {
        if let known = cache[pc] { return known }
        guard let module = module(containing: pc, at: seq) else { return FrameLocation(module: nil, address: pc, frames: []) }
        return FrameLocation(module: module.name, address: pc &- module.loadBias, frames: [])
    }

    /// Where return address `pc` is, symbolicated. The symbolizer is asked about `pc - 1`,
    /// inside the call instruction, so a call that ends a function still resolves to it.
    public func location(of pc: UInt64, at seq: UInt64) -> FrameLocation {
        if let known = cache[pc] { return known }
        var location = FrameLocation(module: nil, address: pc, frames: [])
        if let module = module(containing: pc, at: seq) {
            let fileAddress = pc &- module.loadBias
            location = FrameLocation(module: module.name, address: fileAddress,
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
