/// The binary writer's scalars already written, by `ScalarKey.fingerprint`: open addressing
/// over two flat arrays (fingerprint, object index). Written here rather than a
/// `Dictionary<ScalarKey, Int>`: the standard library hashes every lookup with seeded SipHash
/// and keeps 32-byte keys, which were a fifth of XML → binary on number-heavy plists; a
/// fingerprint is computed once per value and the table holds 16 bytes a slot.
struct ScalarTable {
    /// Per process, so a hostile file cannot choose values that collide.
    let seed = UInt64.random(in: .min ... .max)
    private var fingerprints: [UInt64] = []
    /// Object index + 1 per slot; 0 is an empty slot.
    private var refs: [Int] = []
    private var count = 0
    // Grown by doubling rather than sized from the value's node count: files repeat a few
    // keys and words thousands of times, and a table sized for every node is written (and
    // faulted in) whole.

    /// The object whose fingerprint is `fingerprint` and for which `matches` holds.
    func find(_ fingerprint: UInt64, where matches: (Int) -> Bool) -> Int? {
        guard !refs.isEmpty else { return nil }
        let mask = refs.count - 1
        var slot = Int(truncatingIfNeeded: fingerprint) & mask
        while refs[slot] != 0 {
            if fingerprints[slot] == fingerprint, matches(refs[slot] - 1) { return refs[slot] - 1 }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Adds object `ref` (not already present) under `fingerprint`.
    mutating func insert(_ fingerprint: UInt64, _ ref: Int) {
        if (count + 1) * 2 > refs.count { rehash(to: max(16, refs.count * 2)) }
        place(fingerprint, ref + 1)
        count += 1
    }

    private mutating func place(_ fingerprint: UInt64, _ stored: Int) {
        let mask = refs.count - 1
        var slot = Int(truncatingIfNeeded: fingerprint) & mask
        while refs[slot] != 0 { slot = (slot + 1) & mask }
        fingerprints[slot] = fingerprint
        refs[slot] = stored
    }

    private mutating func rehash(to capacity: Int) {
        let old = (fingerprints, refs)
        fingerprints = Array(repeating: 0, count: capacity)
        refs = Array(repeating: 0, count: capacity)
        for (f, r) in zip(old.0, old.1) where r != 0 { place(f, r) }
    }
}
