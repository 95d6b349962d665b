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

    // Stored widest first: 48 bytes a stride, not 56 (`EventPipe` copies every event of a
    // large replay from one core to the other).

    /// Global order across threads.
    public var seq: UInt64
    public var address: UInt64
    /// Requested size in bytes (0 for a free).
    public var size: UInt64
    /// Swift type metadata address for a class instance, else 0.
    public var typeMetadata: UInt64
    /// Interned stack id (allocations; 0 = unknown).
    public var stack: UInt32
    public var thread: UInt32
    public var kind: Kind

    init(seq: UInt64, kind: Kind, address: UInt64, size: UInt64, stack: UInt32, typeMetadata: UInt64, thread: UInt32) {
        (self.seq, self.kind, self.address, self.size, self.stack, self.typeMetadata, self.thread) =
            (seq, kind, address, size, stack, typeMetadata, thread)
    }
}
