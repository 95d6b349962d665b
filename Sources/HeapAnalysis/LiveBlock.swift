/// A block alive in the replay, as `LiveBlocks` keeps it under its address: a `HeapTimeline.Block`
/// without the address (the table's key) and the free (not yet).
struct LiveBlock {
    var seq: UInt64
    var size: UInt64
    var typeMetadata: UInt64
    /// Index into the timeline's generations.
    var generation: Int
    var stack: UInt32

    /// The block at `address`, freed at `freedAt` (`.max`: alive at the end).
    func block(at address: UInt64, freedAt: UInt64 = .max) -> HeapTimeline.Block {
        HeapTimeline.Block(seq: seq, address: address, size: size, stack: stack, typeMetadata: typeMetadata, generation: generation,
                           freedAt: freedAt)
    }
}
