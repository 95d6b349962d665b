/// Big-endian UTF-16 (binary plists' non-ASCII strings) to UTF-8, written through a pointer.
/// The standard library's `String(validating:as:)` and `String(decoding:as:)` for UTF-16 took
/// unspecialised generic paths (40 % and more of binary→XML on non-ASCII text), and appending
/// byte by byte to an array still cost about 27 instructions per unit.
enum UTF16BigEndian {
    /// The most UTF-8 bytes `byteCount` bytes of UTF-16 can become (3 per unit).
    static func maxUTF8Count(byteCount: Int) -> Int { byteCount / 2 * 3 }

    /// Writes the UTF-8 of `bytes` (an even count; a trailing odd byte is ignored) to `out`,
    /// which must hold `maxUTF8Count(byteCount: bytes.count)` bytes. Returns the count
    /// written, or nil at an unpaired surrogate.
    static func transcode(_ bytes: UnsafeRawBufferPointer, to out: UnsafeMutablePointer<UInt8>) -> Int? {
        let units = bytes.count / 2
        guard units > 0, let base = bytes.baseAddress else { return 0 }
        var o = out
        var i = 0
        // Runs of ASCII, four units at a time: each unit's high byte zero and low byte < 0x80.
        // Indices are below `units`, so their arithmetic wraps unchecked.
        while i < units {
            if i &+ 4 <= units {
                let x = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i &<< 1, as: UInt64.self))
                if x & 0x80FF_80FF_80FF_80FF == 0 {
                    o[0] = UInt8(truncatingIfNeeded: x &>> 8)
                    o[1] = UInt8(truncatingIfNeeded: x &>> 24)
                    o[2] = UInt8(truncatingIfNeeded: x &>> 40)
                    o[3] = UInt8(truncatingIfNeeded: x &>> 56)
                    o += 4
                    i &+= 4
                    continue
                }
            }
            let unit = UInt32(UInt16(bigEndian: base.loadUnaligned(fromByteOffset: i &<< 1, as: UInt16.self)))
            i &+= 1
            if unit < 0x80 {
                o[0] = UInt8(truncatingIfNeeded: unit)
                o += 1
                continue
            }
            guard writeNonASCII(unit, base, units, &i, &o) else { return nil }
        }
        return o - out
    }

    /// The most bytes `transcode(_:to:escaping:)` writes for `byteCount` bytes of UTF-16,
    /// with room for its whole-word stores of replacements.
    static func maxEscapedCount(byteCount: Int) -> Int {
        byteCount / 2 * max(ASCIIEscapes.maxReplacement, 3) + 8
    }

    /// `transcode(_:to:)` writing each ASCII character as `escapes` spells it, in the same
    /// pass: long non-ASCII text is mostly short runs between escapes and accented letters,
    /// where transcoding and then escaping walked it twice. `out` must hold
    /// `maxEscapedCount(byteCount: bytes.count)` bytes. Returns the count written, or nil at an
    /// unpaired surrogate or a character the escapes refuse.
    static func transcode(_ bytes: UnsafeRawBufferPointer, to out: UnsafeMutablePointer<UInt8>, escaping escapes: ASCIIEscapes) -> Int? {
        let units = bytes.count / 2
        guard units > 0, let base = bytes.baseAddress else { return 0 }
        return escapes.entries.withUnsafeBufferPointer { entries -> Int? in
            guard let table = entries.baseAddress, entries.count == 0x80 else { return nil }
            var o = out
            var i = 0
            while i < units {
                let unit = UInt32(UInt16(bigEndian: base.loadUnaligned(fromByteOffset: i &<< 1, as: UInt16.self)))
                i &+= 1
                if unit < 0x80 {
                    let entry = table[Int(unit)]
                    if entry == 0 {
                        o[0] = UInt8(truncatingIfNeeded: unit)
                        o += 1
                        continue
                    }
                    if entry == ASCIIEscapes.refused { return nil }
                    // The replacement's bytes sit above its length: one store, then the
                    // pointer moves by the length (the store's tail is overwritten next).
                    UnsafeMutableRawPointer(o).storeBytes(of: (entry &>> 8).littleEndian, as: UInt64.self)
                    o += Int(truncatingIfNeeded: entry & 0xFF)
                    continue
                }
                guard writeNonASCII(unit, base, units, &i, &o) else { return nil }
            }
            return o - out
        }
    }

    /// Writes the UTF-8 of the non-ASCII `unit` just read (with its low surrogate, read from
    /// `base` at unit `i`, which then moves past it). False at an unpaired surrogate.
    @inline(__always)
    private static func writeNonASCII(_ unit: UInt32, _ base: UnsafeRawPointer, _ units: Int, _ i: inout Int, _ o: inout UnsafeMutablePointer<UInt8>) -> Bool {
        var scalar = unit
        if unit & 0xF800 == 0xD800 {
            guard unit < 0xDC00, i < units else { return false }
            let low = UInt32(UInt16(bigEndian: base.loadUnaligned(fromByteOffset: i &<< 1, as: UInt16.self)))
            guard low & 0xFC00 == 0xDC00 else { return false }
            i &+= 1
            scalar = 0x10000 &+ ((unit &- 0xD800) &<< 10) &+ (low &- 0xDC00)
        }
        switch scalar {
        case ..<0x800:
            o[0] = UInt8(truncatingIfNeeded: 0xC0 | scalar &>> 6)
            o[1] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
            o += 2
        case ..<0x10000:
            o[0] = UInt8(truncatingIfNeeded: 0xE0 | scalar &>> 12)
            o[1] = UInt8(truncatingIfNeeded: 0x80 | scalar &>> 6 & 0x3F)
            o[2] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
            o += 3
        default:
            o[0] = UInt8(truncatingIfNeeded: 0xF0 | scalar &>> 18)
            o[1] = UInt8(truncatingIfNeeded: 0x80 | scalar &>> 12 & 0x3F)
            o[2] = UInt8(truncatingIfNeeded: 0x80 | scalar &>> 6 & 0x3F)
            o[3] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
            o += 4
        }
        return true
    }

    /// The UTF-16 code units of valid UTF-8 text: one per scalar, two for those above U+FFFF
    /// (a scalar starts at every byte that is not a continuation byte; four-byte ones at
    /// 0xF0 and above).
    static func unitCount(utf8 bytes: UnsafeRawBufferPointer) -> Int {
        var units = 0
        for b in bytes {
            if b & 0xC0 != 0x80 { units &+= 1 }
            if b >= 0xF0 { units &+= 1 }
        }
        return units
    }

    /// Appends valid UTF-8 text as big-endian UTF-16, `unitCount(utf8:)` units.
    static func append(utf8 bytes: UnsafeRawBufferPointer, units: Int, to out: inout [UInt8]) {
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: units * 2))
        out.withUnsafeMutableBufferPointer { buffer in
            guard var o = buffer.baseAddress.map({ $0 + start }), let p = bytes.baseAddress else { return }
            var i = 0
            let n = bytes.count
            func put(_ unit: UInt32) {
                o[0] = UInt8(truncatingIfNeeded: unit &>> 8)
                o[1] = UInt8(truncatingIfNeeded: unit)
                o += 2
            }
            func continuation(_ k: Int) -> UInt32 { UInt32(p.load(fromByteOffset: i &+ k, as: UInt8.self) & 0x3F) }
            while i < n {
                let lead = UInt32(p.load(fromByteOffset: i, as: UInt8.self))
                switch lead {
                case ..<0x80:
                    put(lead)
                    i &+= 1
                case ..<0xE0:
                    put((lead & 0x1F) &<< 6 | continuation(1))
                    i &+= 2
                case ..<0xF0:
                    put((lead & 0x0F) &<< 12 | continuation(1) &<< 6 | continuation(2))
                    i &+= 3
                default:
                    let scalar = (lead & 0x07) &<< 18 | continuation(1) &<< 12 | continuation(2) &<< 6 | continuation(3)
                    put(0xD800 &+ ((scalar &- 0x10000) &>> 10))
                    put(0xDC00 &+ (scalar & 0x3FF))
                    i &+= 4
                }
            }
        }
    }
}
