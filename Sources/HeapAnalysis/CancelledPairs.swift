/// Allocation/free pairs of one thread, stack and size that the recorder counted instead of
/// writing (a DKH_RECORD_PAIRS entry). All lie in the generation containing `seq`.
public struct CancelledPairs: Sendable, Equatable {
    /// A sequence number inside their generation.
    public var seq: UInt64
    public var thread: UInt32
    public var stack: UInt32
    /// Requested size of each block.
    public var size: UInt64
    public var count: Int
    /// Swift type metadata of a class instance, else 0 (always 0 in version 2 recordings).
    public var typeMetadata: UInt64 = 0
    public var bytes: UInt64 { size &* UInt64(count) }
}
