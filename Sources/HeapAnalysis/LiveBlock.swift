/// A block alive in the replay, as `AddressTable` keeps it under its address: a `HeapTimeline.Block`
/// without the address (the table's key) and the free (not yet).
struct LiveBlock {
    var seq: UInt64
    var size: UInt64
    var typeMetadata: UInt64
    /// Index into the timeline's generations.
    var generation: Int
    var stack: UInt32

    /// The empty table slot's value.
    static let none = LiveBlock(seq: 0, size: 0, typeMetadata: 0, generation: 0, stack: 0)

    /// The block at `address`, freed at `freedAt` (`.max`: alive at the end).
    func block(at address: UInt64, freedAt: UInt64 = .max) -> HeapTimeline.Block {
        HeapTimeline.Block(seq: seq, address: address, size: size, stack: stack, typeMetadata: typeMetadata, generation: generation,
                           freedAt: freedAt)
    }
}
