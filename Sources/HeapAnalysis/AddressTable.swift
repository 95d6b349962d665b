/// Values by address (the replay's live blocks' slots): an open-addressing hash table (linear probing, backward-shift
/// deletion) over flat arrays. Replaying a recording inserts and removes one entry per
/// allocation and free — millions — and a `Dictionary` spends most of the replay there.
///
/// Addresses come from the recording, so they are hostile: with a fixed multiplicative hash,
/// addresses `i × C⁻¹ mod 2⁶⁴` all land in one probe chain and replay turns quadratic (issue
/// 15: 200k blocks, 38 s). The hash is keyed instead: an xor key and an odd multiplier drawn
/// at random for each table, a multiply-xorshift-multiply mix, and the slot from the top bits.
/// Without the key, a recording cannot aim addresses at one chain; `probes` counts the steps
/// so tests can check the bound.
///
/// A class over two flat allocations, keys and values: probing reads only the keys (8 bytes a
/// slot: a replay's table of 20,000 live blocks stays in the L2 cache), and no mutation pays an
/// array's uniqueness check (5% of a replay's instructions). The replay's values are slots of
/// its pool of blocks (`LiveBlocks`).
final class AddressTable<Value> {
    private var keys: UnsafeMutablePointer<UInt64>
    private var values: UnsafeMutablePointer<Value>
    private var size: Int
    private var mask: Int
    /// 64 − log2(slot count): the slot is the mixed key's top bits.
    private var shift: UInt64
    private(set) var count = 0
    /// The count at which the next insertion doubles the table first: 3/4 of `size`, kept
    /// rather than computed per insertion (with its overflow checks, a tenth of an insertion).
    private var growAt: Int
    /// Slots inspected by every lookup, insertion and removal so far (removal's backward
    /// shift included): about 1-2 per operation at the 3/4 load limit unless keys collide.
    private(set) var probes = 0
    /// The hash key: xor before mixing, and an odd multiplier (`| 1`), random per table.
    private let seed: UInt64
    private let multiplier: UInt64
    private let filler: Value

    /// `filler`: the value of an empty slot (never returned).
    init(capacity: Int = 1 << 12, filler: Value) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        self.size = size
        growAt = size / 4 * 3
        self.filler = filler
        keys = .allocate(capacity: size)
        keys.initialize(repeating: Self.empty, count: size)
        values = .allocate(capacity: size)
        values.initialize(repeating: filler, count: size)
        mask = size - 1
        shift = UInt64(64 - size.trailingZeroBitCount)
        var generator = SystemRandomNumberGenerator()
        seed = generator.next()
        multiplier = generator.next() | 1
    }

    deinit {
        keys.deallocate()
        values.deinitialize(count: size)
        values.deallocate()
    }

    /// Address 0 marks an empty slot; malloc never returns it for a recorded block.
    @inline(__always) private static var empty: UInt64 { 0 }

    @inline(__always) private func slot(for key: UInt64) -> Int {
        var h = (key ^ seed) &* 0x9E37_79B9_7F4A_7C15
        h ^= h >> 32
        h = h &* multiplier
        // A masking shift: `shift` is 64 − log2(size), 1 to 60, so no smart shift's test of
        // 64 and more (three instructions a hash, and the backward shift hashes every key it
        // passes).
        return Int(truncatingIfNeeded: h &>> shift)
    }

    func value(for key: UInt64) -> Value? {
        guard key != Self.empty else { return nil }
        var i = slot(for: key)
        var steps = 1
        defer { probes &+= steps }
        while true {
            let k = keys[i]
            if k == key { return values[i] }
            if k == Self.empty { return nil }
            i = (i &+ 1) & mask
            steps &+= 1
        }
    }

    /// Inserts or replaces; returns the previous value.
    @discardableResult @inline(__always)
    func insert(_ value: Value, for key: UInt64) -> Value? {
        guard key != Self.empty else { return nil }
        if count >= growAt { grow() }
        var i = slot(for: key)
        // Counted in a register, added once: a store to the table per step was in the replay's
        // loop.
        var steps = 1
        defer { probes &+= steps }
        while true {
            let k = keys[i]
            if k == key {
                let old = values[i]
                values[i] = value
                return old
            }
            if k == Self.empty {
                keys[i] = key
                values[i] = value
                count &+= 1
                return nil
            }
            i = (i &+ 1) & mask
            steps &+= 1
        }
    }

    @inline(__always)
    func removeValue(for key: UInt64) -> Value? {
        guard key != Self.empty else { return nil }
        var i = slot(for: key)
        var steps = 1
        defer { probes &+= steps }
        while true {
            let k = keys[i]
            if k == Self.empty { return nil }
            if k == key { break }
            i = (i &+ 1) & mask
            steps &+= 1
        }
        let removed = values[i]
        // Backward shift: pull later entries of the probe chain into the hole.
        var hole = i
        var j = (i &+ 1) & mask
        while keys[j] != Self.empty {
            steps &+= 1
            let home = slot(for: keys[j])
            // Move j into the hole unless its home lies cyclically in (hole, j].
            let distanceToHome = (j &- home) & mask, distanceToHole = (j &- hole) & mask
            if distanceToHome >= distanceToHole {
                keys[hole] = keys[j]
                values[hole] = values[j]
                hole = j
            }
            j = (j &+ 1) & mask
        }
        keys[hole] = Self.empty
        values[hole] = filler
        count &-= 1
        return removed
    }

    func forEach(_ body: (UInt64, Value) -> Void) {
        for i in 0..<size where keys[i] != Self.empty { body(keys[i], values[i]) }
    }

    private func grow() {
        let oldKeys = keys, oldValues = values, oldSize = size
        size = oldSize * 2
        growAt = size / 4 * 3
        keys = .allocate(capacity: size)
        keys.initialize(repeating: Self.empty, count: size)
        values = .allocate(capacity: size)
        values.initialize(repeating: filler, count: size)
        mask = size - 1
        shift -= 1
        count = 0
        for i in 0..<oldSize where oldKeys[i] != Self.empty { insert(oldValues[i], for: oldKeys[i]) }
        oldKeys.deallocate()
        oldValues.deinitialize(count: oldSize)
        oldValues.deallocate()
    }
}
