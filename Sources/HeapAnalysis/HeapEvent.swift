/// One allocation or free.
public struct HeapEvent: Sendable, Equatable {
    public enum Kind: UInt8, Sendable {
        case allocation
        case free
        /// Blocks the thread allocated and freed as cancelled pairs (never events) were alive
        /// at `seq` besides its recorded blocks: `size` bytes in `stack` blocks, the highest
        /// such level between two of its events (a DKH_EVENT_SHORT_LIVED).
        case shortLived
    }

    /// Global order across threads.
    public var seq: UInt64
    public var kind: Kind
    public var address: UInt64
    /// Requested size in bytes (0 for a free).
    public var size: UInt64
    /// Interned stack id (allocations; 0 = unknown).
    public var stack: UInt32
    /// Swift type metadata address for a class instance, else 0.
    public var typeMetadata: UInt64
    public var thread: UInt32
}
