/// Blocks that share a key, with their count and bytes.
public struct HeapGroup: Sendable, Equatable {
    public var key: String
    public var count: Int
    public var bytes: UInt64
}
