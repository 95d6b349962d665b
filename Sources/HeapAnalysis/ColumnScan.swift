import HeapRecordFormat

/// Whole-column checks of a version-5 events record, eight bytes at a time: how many ULEB128
/// numbers fill a column, and how many events of each tag the tag column holds.
///
/// Validation used to decode every field of every event, one varint and one tag switch at a
/// time (71 instructions an event, a fifth of cross-thread's `heapdiff`, and a branch per tag
/// that the alternation of allocations and frees mispredicts). Whether a record decodes only
/// depends on each column holding exactly as many well-formed numbers as its events need, so
/// most columns are counted here without being decoded.
enum ColumnScan {
    /// The high bit of each byte.
    private static let highBits: UInt64 = 0x8080_8080_8080_8080
    private static let lowBits: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    private static let ones: UInt64 = 0x0101_0101_0101_0101

    /// The number of ULEB128 numbers that fill `base[start..<end]` exactly, each fitting in 64
    /// bits (at most 9 continuation bytes, and after 9 a last byte of 0 or 1: the checked
    /// decoder's limit); nil when the bytes end inside a number or one is longer.
    ///
    /// A number is a run of bytes with the high bit set and one without, so numbers are counted
    /// by their last bytes; only a run that reaches across a word can be too long.
    static func varintCount(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int? {
        var at = start
        var count = 0
        // Continuation bytes since the last number's end.
        var run = 0
        while end &- at >= 8 {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self))
            // The high bit of each byte that ends a number.
            let ends = ~word & highBits
            if ends == 0 {
                run &+= 8
                guard run <= 9 else { return nil }
            } else {
                // Runs inside the word are at most 6 bytes; the one before its first end may
                // continue the previous word's.
                let first = ends.trailingZeroBitCount >> 3
                let length = run &+ first
                if length >= 9 {
                    guard length == 9, base[at &+ first] <= 1 else { return nil }
                }
                count &+= highBitCount(ends)
                run = ends.leadingZeroBitCount >> 3
            }
            at &+= 8
        }
        while at < end {
            let byte = base[at]
            if byte >= 0x80 {
                run &+= 1
                guard run <= 9 else { return nil }
            } else {
                guard run < 9 || byte <= 1 else { return nil }
                count &+= 1
                run = 0
            }
            at &+= 1
        }
        return run == 0 ? count : nil
    }

    /// The tag column's events by tag.
    struct TagCounts {
        /// Bytes that are no event's tag (a record holding one is malformed).
        var other = 0
        var alloc = 0
        var free = 0
        var allocTyped = 0
        var shortLived = 0
    }

    /// Counts the bytes of `base[start..<end]` that are DKH_EVENT_ALLOC, FREE, ALLOC_TYPED and
    /// SHORT_LIVED, and the others.
    static func tagCounts(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> TagCounts {
        let alloc = UInt8(DKH_EVENT_ALLOC.rawValue), free = UInt8(DKH_EVENT_FREE.rawValue)
        let allocTyped = UInt8(DKH_EVENT_ALLOC_TYPED.rawValue), shortLived = UInt8(DKH_EVENT_SHORT_LIVED.rawValue)
        var counts = TagCounts()
        var at = start
        while end &- at >= 8 {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self))
            counts.alloc &+= highBitCount(zeroBytes(word ^ (ones &* UInt64(alloc))))
            counts.free &+= highBitCount(zeroBytes(word ^ (ones &* UInt64(free))))
            counts.allocTyped &+= highBitCount(zeroBytes(word ^ (ones &* UInt64(allocTyped))))
            counts.shortLived &+= highBitCount(zeroBytes(word ^ (ones &* UInt64(shortLived))))
            at &+= 8
        }
        while at < end {
            switch base[at] {
            case alloc: counts.alloc &+= 1
            case free: counts.free &+= 1
            case allocTyped: counts.allocTyped &+= 1
            case shortLived: counts.shortLived &+= 1
            default: break
            }
            at &+= 1
        }
        counts.other = (end &- start) &- counts.alloc &- counts.free &- counts.allocTyped &- counts.shortLived
        return counts
    }

    /// The number of bytes of `x` whose high bit is set, when no other bit is: the bytes'
    /// 0s and 1s summed into the top byte by one multiplication. Not `nonzeroBitCount`, which
    /// without a POPCNT instruction in the baseline x86-64 the compiler targets is a dozen
    /// instructions (half of this scan's).
    @inline(__always)
    private static func highBitCount(_ x: UInt64) -> Int {
        Int(truncatingIfNeeded: ((x &>> 7) &* ones) &>> 56)
    }

    /// The high bit set in exactly the bytes of `x` that are 0 (no carries between bytes: the
    /// low seven bits are added apart from the high one).
    @inline(__always)
    private static func zeroBytes(_ x: UInt64) -> UInt64 {
        ~(((x & lowBits) &+ lowBits) | x | lowBits)
    }
}
