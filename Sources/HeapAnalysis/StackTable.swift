/// Interned call stacks: frames innermost first, stored flat.
public struct StackTable: Sendable {
    private var ranges: [UInt32: Range<Int>] = [:]
    private var frames: [UInt64] = []

    public init() {}

    public var count: Int { ranges.count }

    mutating func insert(id: UInt32, frames newFrames: some Collection<UInt64>) {
        let start = frames.count
        frames.append(contentsOf: newFrames)
        ranges[id] = start..<frames.count
    }

    /// The return addresses of stack `id`, innermost first; empty for an unknown id.
    public subscript(id: UInt32) -> ArraySlice<UInt64> {
        guard let range = ranges[id] else { return [] }
        return frames[range]
    }

    public func contains(_ id: UInt32) -> Bool { ranges[id] != nil }

    /// Every stack's id, ascending.
    public var ids: [UInt32] { ranges.keys.sorted() }
}
