/// The binary writer's scalars already written, by a fingerprint of their object bytes: open
/// addressing over one flat array. Written here rather than a `Dictionary` of values: the
/// standard library hashes every lookup with seeded SipHash and String's hashing normalises
/// non-ASCII text (Unicode canonical equivalence), which were a fifth of XML → binary on
/// number-heavy plists. A slot is 8 bytes, the fingerprint's high 32 bits beside the object
/// index: on a file of 300,000 distinct numbers the table is most of the writer's memory.
///
/// Two scalars are one object when their encoded bytes are equal (marker, count and payload:
/// text as bytes, so two spellings of an accented letter stay two objects), except that every
/// NaN real is one object, as Apple's writer keeps them.
struct ScalarTable {
    /// Per process, so a hostile file cannot choose values that collide.
    let seed = UInt64.random(in: .min ... .max)
    /// Per slot: the fingerprint's high half << 32 | (object index + 1); 0 is an empty slot.
    private var slots: [UInt64] = []
    private var count = 0
    // Grown by doubling rather than sized from the value's node count: files repeat a few
    // keys and words thousands of times, and a table sized for every node is written (and
    // faulted in) whole.

    /// The object whose fingerprint is `fingerprint` and for which `matches` holds.
    func find(_ fingerprint: UInt64, where matches: (Int) -> Bool) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        let tag = fingerprint >> 32
        var slot = Int(truncatingIfNeeded: tag) & mask
        while slots[slot] != 0 {
            let ref = Int(truncatingIfNeeded: slots[slot] & 0xFFFF_FFFF) - 1
            if slots[slot] >> 32 == tag, matches(ref) { return ref }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Adds object `ref` (not already present) under `fingerprint`. An index past 32 bits
    /// (four billion objects) is not added: later equal scalars are then written again, which
    /// still makes a valid file.
    mutating func insert(_ fingerprint: UInt64, _ ref: Int) {
        guard ref < Int(UInt32.max) else { return }
        if (count + 1) * 2 > slots.count { rehash(to: max(16, slots.count * 2)) }
        place(fingerprint & 0xFFFF_FFFF_0000_0000 | UInt64(ref + 1))
        count += 1
    }

    private mutating func place(_ entry: UInt64) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: entry >> 32) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = entry
    }

    private mutating func rehash(to capacity: Int) {
        let old = slots
        slots = Array(repeating: 0, count: capacity)
        for entry in old where entry != 0 { place(entry) }
    }

    /// 64 well-mixed bits of a scalar's object bytes, equal for scalars `sameScalar` calls
    /// equal; `seed` (random per process) keeps a hostile file from choosing colliding values.
    static func fingerprint(_ object: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
        if isNaNReal(object) { return mix(0x7FF8_0000_0000_0000, seed: seed ^ 0x23) }
        return mix(bytes: object, seed: seed)
    }

    /// Whether two scalars' object bytes stand for one object.
    static func sameScalar(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        if isNaNReal(a) { return isNaNReal(b) }
        var i = 0
        while i + 8 <= a.count {
            if a.loadUnaligned(fromByteOffset: i, as: UInt64.self) != b.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
            i += 8
        }
        while i < a.count {
            if a[i] != b[i] { return false }
            i += 1
        }
        return true
    }

    /// A 64-bit real (marker 0x23, big-endian payload) that is NaN.
    private static func isNaNReal(_ object: UnsafeRawBufferPointer) -> Bool {
        guard object.count == 9, object[0] == 0x23 else { return false }
        let bits = UInt64(bigEndian: object.loadUnaligned(fromByteOffset: 1, as: UInt64.self))
        return Double(bitPattern: bits).isNaN
    }

    /// MurmurHash3's 64-bit finaliser over `value ^ seed`: every input bit reaches every
    /// output bit.
    @inline(__always)
    static func mix(_ value: UInt64, seed: UInt64) -> UInt64 {
        var x = value ^ seed
        x ^= x &>> 33
        x &*= 0xFF51_AFD7_ED55_8CCD
        x ^= x &>> 33
        x &*= 0xC4CE_B9FE_1A85_EC53
        x ^= x &>> 33
        return x
    }

    /// Eight bytes at a time through `mix`, the length folded in.
    static func mix(bytes: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
        var h = mix(UInt64(bytes.count), seed: seed)
        var i = 0
        while i &+ 8 <= bytes.count {
            h = mix(h ^ bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self), seed: seed)
            i &+= 8
        }
        if i < bytes.count {
            var tail: UInt64 = 0
            for k in i..<bytes.count { tail = tail &<< 8 | UInt64(bytes[k]) }
            h = mix(h ^ tail, seed: seed)
        }
        return h
    }
}
