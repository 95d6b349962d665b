import FrameModel

/// A return address of a recorded stack, placed in its module, with the frames a symbolizer
/// found for it: an address in inlined code has several `SymbolicatedFrame`s.
public struct ReturnAddressLocation: Sendable, Hashable {
    /// The module's file name (`libfoo.so`), or nil when no module covered the address.
    public var module: String?
    /// File address within the module (or the raw address when `module` is nil).
    public var address: UInt64
    /// Innermost first: inlined frames, then the function the address is in.
    public var frames: [SymbolicatedFrame]

    /// `function (file:line)`, `function`, or `module+0xOFFSET`: the outermost resolved frame
    /// (the real function; inlined callees are reported by `frames`).
    public var display: String {
        guard let frame = frames.last, let function = frame.function else { return unresolved }
        guard let file = frame.file else { return function }
        return "\(function) (\(Self.baseName(file)):\(frame.line))"
    }

    /// The function name, or `module+0xOFFSET` when unresolved.
    public var functionName: String { frames.last?.function ?? unresolved }

    public var unresolved: String { "\(module ?? "?")+0x\(String(address, radix: 16))" }

    private static func baseName(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}
