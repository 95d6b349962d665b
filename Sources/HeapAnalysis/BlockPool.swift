/// The replay's live blocks, by slot: a freed block's slot is taken by the next allocation.
/// One growable allocation and a stack of free slots, without arrays: their uniqueness checks
/// and bounds tests were a third of the replay's instructions per event on 2.4 million events.
final class BlockPool {
    private var blocks: UnsafeMutablePointer<HeapTimeline.Block>
    private var freeSlots: UnsafeMutablePointer<UInt32>
    /// Slots handed out so far (the live ones and the free ones).
    private var used = 0
    private var freeCount = 0
    private var capacity: Int

    init(capacity: Int = 1 << 12) {
        self.capacity = max(capacity, 16)
        blocks = .allocate(capacity: self.capacity)
        freeSlots = .allocate(capacity: self.capacity)
    }

    deinit {
        blocks.deinitialize(count: used)
        blocks.deallocate()
        freeSlots.deallocate()
    }

    /// The block in `slot` (one that `add` returned and `remove` has not taken back).
    @inline(__always)
    subscript(slot: UInt32) -> HeapTimeline.Block { blocks[Int(slot)] }

    /// Stores `block`; returns its slot.
    @inline(__always)
    func add(_ block: HeapTimeline.Block) -> UInt32 {
        if freeCount > 0 {
            freeCount &-= 1
            let slot = freeSlots[freeCount]
            blocks[Int(slot)] = block
            return slot
        }
        if used == capacity { grow() }
        (blocks + used).initialize(to: block)
        used &+= 1
        // Slots are UInt32: 2³² blocks alive at once would take over 20 GB of events (5 bytes
        // an allocation at least), beyond what a reader expands (FORMAT.md, "Compression").
        return UInt32(truncatingIfNeeded: used &- 1)
    }

    /// Takes back `slot` (its block is freed), for the next `add`.
    @inline(__always)
    func remove(_ slot: UInt32) {
        freeSlots[freeCount] = slot
        freeCount &+= 1
    }

    private func grow() {
        let larger = capacity * 2
        let moved = UnsafeMutablePointer<HeapTimeline.Block>.allocate(capacity: larger)
        moved.moveInitialize(from: blocks, count: used)
        blocks.deallocate()
        blocks = moved
        let slots = UnsafeMutablePointer<UInt32>.allocate(capacity: larger)
        slots.moveInitialize(from: freeSlots, count: freeCount)
        freeSlots.deallocate()
        freeSlots = slots
        capacity = larger
    }
}
