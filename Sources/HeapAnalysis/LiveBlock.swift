/// A block alive in the replay, as `LiveBlocks` keeps it under its address: a `HeapTimeline.Block`
/// without the address (the table's key) and the free (not yet).
///
/// 32 bytes, two to a cache line: the pool of cross-thread's 18,800 live blocks is read at
/// random by the frees, and at 40 bytes a block straddled two lines one time in four.
struct LiveBlock {
    var seq: UInt64
    var size: UInt64
    var typeMetadata: UInt64
    /// Index into the timeline's generations, as stored (a generation per mark record: far
    /// fewer than 2^32 fit in memory).
    private var generationIndex: UInt32
    var stack: UInt32

    init(seq: UInt64, size: UInt64, typeMetadata: UInt64, generation: Int, stack: UInt32) {
        (self.seq, self.size, self.typeMetadata, self.stack) = (seq, size, typeMetadata, stack)
        generationIndex = UInt32(truncatingIfNeeded: generation)
    }

    /// Index into the timeline's generations.
    var generation: Int { Int(generationIndex) }

    /// The block at `address`, freed at `freedAt` (`.max`: alive at the end).
    func block(at address: UInt64, freedAt: UInt64 = .max) -> HeapTimeline.Block {
        HeapTimeline.Block(seq: seq, address: address, size: size, stack: stack, typeMetadata: typeMetadata, generation: generation,
                           freedAt: freedAt)
    }
}
