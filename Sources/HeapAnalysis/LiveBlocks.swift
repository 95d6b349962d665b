/// The replay's live blocks by address: an `AddressTable` from addresses to slots of a pool of
/// blocks, whose freed slots are taken again in the order they were freed.
///
/// The table's values were the blocks themselves (40 bytes a slot, 1.3 MB for cross-thread's
/// 17,700 live blocks, in slots the hash scatters): each allocation and free missed the cache
/// twice, once for the key and once for the block, and the backward shift of a removal moved
/// blocks too. A 4-byte slot number keeps the table small (2^32 live blocks would need a
/// 128 GiB pool, which cannot be allocated before the numbers run out), and the pool's order
/// follows the program's: a program that frees its blocks in the order it made them (a queue
/// between threads) frees slots in the pool's order and takes them again in that order, so the
/// replay walks the pool in order, not at random (last freed first scrambled that order: the
/// read of the freed block was a fifth of the replay's time).
final class LiveBlocks {
    private let table = AddressTable<UInt32>(filler: .max)
    /// `capacity` blocks (a power of 2); those in `free` and at `used` or above hold nothing.
    private var pool: UnsafeMutablePointer<LiveBlock>
    private var capacity = 1 << 12
    /// Slots below it have been used.
    private var used = 0
    /// Freed slots, a ring of `capacity`: `freeCount` of them from `freeStart` on, the first
    /// freed first.
    private var free: UnsafeMutablePointer<UInt32>
    private var freeStart = 0
    private var freeCount = 0

    init() {
        pool = .allocate(capacity: capacity)
        free = .allocate(capacity: capacity)
    }

    deinit {
        pool.deallocate()
        free.deallocate()
    }

    var count: Int { table.count }

    /// Adds `block` at `address`; returns the block that was there (its free was not
    /// recorded), which it replaces. Address 0 is never kept (`AddressTable`'s empty key).
    @inline(__always)
    func insert(_ block: LiveBlock, at address: UInt64) -> LiveBlock? {
        guard address != 0 else { return nil }
        let slot = freeCount > 0 ? Int(free[freeStart]) : used
        guard let previous = table.insert(UInt32(truncatingIfNeeded: slot), for: address).map(Int.init) else {
            if freeCount > 0 {
                freeStart = (freeStart &+ 1) & (capacity &- 1)
                freeCount &-= 1
            } else {
                take()
            }
            (pool + slot).initialize(to: block)
            return nil
        }
        // The address was alive: its slot takes the new block, and the one offered stays free.
        table.insert(UInt32(truncatingIfNeeded: previous), for: address)
        let old = pool[previous]
        pool[previous] = block
        return old
    }

    /// Removes and returns the block at `address`, nil if none is alive there.
    @inline(__always)
    func remove(at address: UInt64) -> LiveBlock? {
        guard let slot = table.removeValue(for: address).map(Int.init) else { return nil }
        // Never full: a slot is in the ring at most once, and the ring has a place for each.
        free[(freeStart &+ freeCount) & (capacity &- 1)] = UInt32(truncatingIfNeeded: slot)
        freeCount &+= 1
        return pool[slot]
    }

    /// Every live block with its address, in no particular order.
    func forEach(_ body: (UInt64, LiveBlock) -> Void) {
        table.forEach { address, slot in body(address, pool[Int(slot)]) }
    }

    /// Takes slot `used`, doubling the pool and the ring when it is full (the ring is empty
    /// then: a slot is only taken new when none is free).
    private func take() {
        used += 1
        guard used == capacity else { return }
        let larger = capacity * 2
        let newPool = UnsafeMutablePointer<LiveBlock>.allocate(capacity: larger)
        newPool.moveInitialize(from: pool, count: capacity)
        pool.deallocate()
        pool = newPool
        free.deallocate()
        free = .allocate(capacity: larger)
        freeStart = 0
        capacity = larger
    }
}
