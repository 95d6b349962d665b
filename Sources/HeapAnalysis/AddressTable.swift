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
/// A class over one flat allocation of slots, each a key beside its value and its home slot:
/// a lookup touches one cache line, and a removal's backward shift reads each passed key's
/// home instead of hashing it again (cross-thread's replay 1.5 % less wall time and 3 % less
/// CPU than with keys and values in two arrays). No mutation pays an array's uniqueness check
/// (5% of a replay's instructions). The replay's values are slots of its pool of blocks (`LiveBlocks`).
final class AddressTable<Value> {
    /// A slot: the key, its home slot (where its probe starts: the backward shift of a removal
    /// reads it instead of hashing every key it passes), the value. Side by side, so a probe
    /// touches one cache line, not one of keys and one of values.
    private struct Entry {
        var key: UInt64
        var home: UInt32
        var value: Value
    }

    private var entries: UnsafeMutablePointer<Entry>
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
        entries = .allocate(capacity: size)
        entries.initialize(repeating: Entry(key: Self.empty, home: 0, value: filler), count: size)
        mask = size - 1
        shift = UInt64(64 - size.trailingZeroBitCount)
        var generator = SystemRandomNumberGenerator()
        seed = generator.next()
        multiplier = generator.next() | 1
    }

    deinit {
        entries.deinitialize(count: size)
        entries.deallocate()
    }

    /// Address 0 marks an empty slot; malloc never returns it for a recorded block.
    @inline(__always) private static var empty: UInt64 { 0 }

    @inline(__always) private func slot(for key: UInt64) -> Int {
        var h = (key ^ seed) &* 0x9E37_79B9_7F4A_7C15
        h ^= h >> 32
        h = h &* multiplier
        // A masking shift: `shift` is 64 − log2(size), 1 to 60, so no smart shift's test of
        // 64 and more (three instructions a hash).
        return Int(truncatingIfNeeded: h &>> shift)
    }

    func value(for key: UInt64) -> Value? {
        guard key != Self.empty else { return nil }
        var i = slot(for: key)
        var steps = 1
        defer { probes &+= steps }
        while true {
            let k = entries[i].key
            if k == key { return entries[i].value }
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
        let home = slot(for: key)
        var i = home
        // Counted in a register, added once: a store to the table per step was in the replay's
        // loop.
        var steps = 1
        defer { probes &+= steps }
        while true {
            let k = entries[i].key
            if k == key {
                let old = entries[i].value
                entries[i].value = value
                return old
            }
            if k == Self.empty {
                entries[i] = Entry(key: key, home: UInt32(truncatingIfNeeded: home), value: value)
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
            let k = entries[i].key
            if k == Self.empty { return nil }
            if k == key { break }
            i = (i &+ 1) & mask
            steps &+= 1
        }
        let removed = entries[i].value
        // Backward shift: pull later entries of the probe chain into the hole.
        var hole = i
        var j = (i &+ 1) & mask
        while entries[j].key != Self.empty {
            steps &+= 1
            let home = Int(entries[j].home)
            // Move j into the hole unless its home lies cyclically in (hole, j].
            let distanceToHome = (j &- home) & mask, distanceToHole = (j &- hole) & mask
            if distanceToHome >= distanceToHole {
                entries[hole] = entries[j]
                hole = j
            }
            j = (j &+ 1) & mask
        }
        entries[hole] = Entry(key: Self.empty, home: 0, value: filler)
        count &-= 1
        return removed
    }

    func forEach(_ body: (UInt64, Value) -> Void) {
        for i in 0..<size {
            let entry = entries[i]
            if entry.key != Self.empty { body(entry.key, entry.value) }
        }
    }

    private func grow() {
        let old = entries, oldSize = size
        size = oldSize * 2
        growAt = size / 4 * 3
        entries = .allocate(capacity: size)
        entries.initialize(repeating: Entry(key: Self.empty, home: 0, value: filler), count: size)
        mask = size - 1
        shift -= 1
        count = 0
        for i in 0..<oldSize where old[i].key != Self.empty { insert(old[i].value, for: old[i].key) }
        old.deinitialize(count: oldSize)
        old.deallocate()
    }
}
