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
            var scalar = unit
            if unit & 0xF800 == 0xD800 {
                guard unit < 0xDC00, i < units else { return nil }
                let low = UInt32(UInt16(bigEndian: base.loadUnaligned(fromByteOffset: i &<< 1, as: UInt16.self)))
                guard low & 0xFC00 == 0xDC00 else { return nil }
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
        }
        return o - out
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
