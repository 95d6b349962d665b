/// What makes two scalars one object. Text and data compare and hash as bytes: String's
/// own hashing normalises non-ASCII text (Unicode canonical equivalence) and [UInt8]'s
/// hashes byte by byte, which together were a fifth of XML → binary; byte equality also
/// keeps two spellings of an accented letter as the two objects they were.
enum ScalarKey: Equatable {
    case string(String)
    case integer(PlistInteger)
    case real(UInt64)
    case bool(Bool)
    case date(UInt64)
    case data([UInt8])
    case uid(UInt64)

    static func == (a: ScalarKey, b: ScalarKey) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)):
            return withBytes(x) { x in withBytes(y) { y in sameBytes(x, y) } }
        case (.data(let x), .data(let y)):
            return x.withUnsafeBytes { x in y.withUnsafeBytes { y in sameBytes(x, y) } }
        case (.integer(let x), .integer(let y)): return x == y
        case (.real(let x), .real(let y)), (.date(let x), .date(let y)), (.uid(let x), .uid(let y)): return x == y
        case (.bool(let x), .bool(let y)): return x == y
        default: return false
        }
    }

    /// The key of a scalar value (containers have none: they are never shared).
    init(_ value: PlistValue) {
        switch value {
        case .string(let s): self = .string(s)
        case .integer(let i): self = .integer(i)
        case .real(let r): self = .real(r.value.isNaN ? Double.nan.bitPattern : r.value.bitPattern)
        case .bool(let b): self = .bool(b)
        case .date(let d): self = .date(d.secondsSinceReferenceDate.bitPattern)
        case .data(let d): self = .data(d)
        case .uid(let u): self = .uid(u)
        case .array, .dictionary: self = .bool(false)
        }
    }

    /// 64 well-mixed bits for `ScalarTable`, equal for equal keys; `seed` (random per
    /// process) keeps a hostile file from choosing colliding values.
    func fingerprint(seed: UInt64) -> UInt64 {
        switch self {
        case .string(let s): Self.withBytes(s) { Self.mix(bytes: $0, seed: seed ^ 0x1) }
        case .data(let d): d.withUnsafeBytes { Self.mix(bytes: $0, seed: seed ^ 0x2) }
        case .integer(let i): Self.mix(i.magnitude ^ (i.isNegative ? 0x8000_0000_0000_0000 : 0), seed: seed ^ 0x3)
        case .real(let r): Self.mix(r, seed: seed ^ 0x4)
        case .date(let d): Self.mix(d, seed: seed ^ 0x5)
        case .uid(let u): Self.mix(u, seed: seed ^ 0x6)
        case .bool(let b): Self.mix(b ? 1 : 0, seed: seed ^ 0x7)
        }
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

    /// The string's UTF-8 in place (native strings are contiguous; others are copied).
    static func withBytes<R>(_ s: String, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        if let result = s.utf8.withContiguousStorageIfAvailable({ body(UnsafeRawBufferPointer($0)) }) { return result }
        var copy = s
        return copy.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }

    private static func sameBytes(_ x: UnsafeRawBufferPointer, _ y: UnsafeRawBufferPointer) -> Bool {
        guard x.count == y.count else { return false }
        if x.baseAddress == y.baseAddress { return true }
        var i = 0
        while i + 8 <= x.count {
            if x.loadUnaligned(fromByteOffset: i, as: UInt64.self) != y.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
            i += 8
        }
        while i < x.count {
            if x[i] != y[i] { return false }
            i += 1
        }
        return true
    }
}
