import OrderedCollections

/// Writes `bplist00` files the way Apple's CFBinaryPList and Python's plistlib do.
///
/// Objects are numbered depth-first (a dictionary's keys, then its values); equal scalars
/// (strings, numbers, dates, data, UIDs) are written once and shared, containers never are.
/// Integer widths, the reference width and the offset width are the smallest that fit. The
/// output depends only on the value: the same value always gives the same bytes.
struct BinaryPlistWriter {
    /// Every object's bytes in file order, except containers' references (whose width is known
    /// only at the end): scalars whole, containers their marker and count. Encoding scalars as
    /// they are met, rather than keeping a copy of each value until the end, also lets equal
    /// scalars be found by their bytes.
    private var heads: [UInt8] = []
    /// Where each object's bytes start in `heads` (they end where the next object's start).
    private var headStart: [Int] = []
    /// Every container's child references, containers in object order: a container's slots
    /// are taken when it opens (its count is known) and filled as its children are flattened,
    /// so the pool is read once, in order, when the file is written.
    private var refPool: [Int] = []
    /// Strings and data longer than `inlineLimit` encoded bytes, kept as the tree's values
    /// and written from there: copied into `heads` they doubled a text- or data-heavy file's
    /// memory. Their head in `heads` is the marker and count, then the value's index here
    /// (8 bytes, never written to the file).
    private var payloads: [PlistValue] = []
    private static let inlineLimit = 64
    private var scalarRefs = ScalarTable()

    /// The file's bytes; with a `drain`, most of them go there in pieces as they are made and
    /// the rest is returned.
    static func write(_ value: PlistValue, drain: OutputDrain? = nil) -> [UInt8] {
        var writer = BinaryPlistWriter()
        // Sizing the object tables up front avoids copying them as they grow (pages reserved
        // and never touched cost nothing).
        let nodes = value.nodeCount
        writer.heads.reserveCapacity(nodes * 12)
        writer.headStart.reserveCapacity(nodes)
        writer.refPool.reserveCapacity(nodes)
        _ = writer.flatten(value)
        return writer.serialize(drain: drain)
    }

    private mutating func flatten(_ value: PlistValue) -> Int {
        switch value {
        case .array(let items):
            let ref = beginObject()
            Self.appendMarker(0xA0, count: items.count, to: &heads)
            var slot = takeSlots(items.count)
            for item in items {
                refPool[slot] = flatten(item)
                slot += 1
            }
            return ref
        case .dictionary(let dict):
            let ref = beginObject()
            Self.appendMarker(0xD0, count: dict.count, to: &heads)
            var slot = takeSlots(dict.count * 2)
            for k in dict.keys {
                refPool[slot] = flatten(.string(k))
                slot += 1
            }
            for v in dict.values {
                refPool[slot] = flatten(v)
                slot += 1
            }
            return ref
        case .string, .integer, .real, .bool, .date, .data, .uid:
            // Encoded where it would go; taken back if an equal scalar was written before.
            let start = heads.count
            let isPayload = Self.appendScalar(value, to: &heads)
            let fingerprint: UInt64
            if isPayload {
                let header = heads.withUnsafeBytes { all in ScalarTable.mix(bytes: UnsafeRawBufferPointer(rebasing: all[start...]), seed: scalarRefs.seed) }
                fingerprint = Self.withPayloadBytes(value) { ScalarTable.mix(header ^ ScalarTable.mix(bytes: $0, seed: scalarRefs.seed), seed: scalarRefs.seed) }
            } else {
                fingerprint = heads.withUnsafeBytes { all in
                    ScalarTable.fingerprint(UnsafeRawBufferPointer(rebasing: all[start...]), seed: scalarRefs.seed)
                }
            }
            let existing = scalarRefs.find(fingerprint) { candidate in
                isPayload ? samePayload(candidate, headerFrom: start, value) : sameScalar(candidate, asBytesFrom: start)
            }
            if let existing {
                heads.removeSubrange(start...)
                return existing
            }
            if isPayload {
                withUnsafeBytes(of: UInt64(payloads.count).littleEndian) { heads.append(contentsOf: $0) }
                payloads.append(value)
            }
            let ref = beginObject(at: start)
            scalarRefs.insert(fingerprint, ref)
            return ref
        }
    }

    /// A string's UTF-8 or data's bytes.
    private static func withPayloadBytes<R>(_ value: PlistValue, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        switch value {
        case .string(var s): s.withUTF8 { body(UnsafeRawBufferPointer($0)) }
        case .data(let d): d.withUnsafeBytes(body)
        default: body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
    }

    /// Whether object `index` is a payload object with the header encoded in `heads` from
    /// `start` on and the same bytes as `value`.
    private func samePayload(_ index: Int, headerFrom start: Int, _ value: PlistValue) -> Bool {
        let candidate = headRange(index, end: start)
        guard candidate.count == heads.count - start + 8,
              heads[candidate.dropLast(8)].elementsEqual(heads[start...]) else { return false }
        let stored = payloads[Self.payloadIndex(heads, candidate)]
        return Self.withPayloadBytes(stored) { a in Self.withPayloadBytes(value) { b in a.elementsEqual(b) } }
    }

    private static func payloadIndex(_ heads: [UInt8], _ head: Range<Int>) -> Int {
        heads[(head.upperBound - 8)..<head.upperBound].reversed().reduce(0) { $0 << 8 | Int($1) }
    }

    private mutating func beginObject(at start: Int? = nil) -> Int {
        headStart.append(start ?? heads.count)
        return headStart.count - 1
    }

    /// The first of `count` reference slots for a container opening now.
    private mutating func takeSlots(_ count: Int) -> Int {
        let first = refPool.count
        refPool.append(contentsOf: repeatElement(0, count: count))
        return first
    }

    /// Object `index`'s bytes in `heads`; the last object's end at `end` (bytes after it
    /// are a scalar not yet made an object).
    private func headRange(_ index: Int, end: Int) -> Range<Int> {
        headStart[index]..<(index + 1 < headStart.count ? headStart[index + 1] : end)
    }

    /// Whether scalar object `index` equals the scalar encoded in `heads` from `start` on.
    private func sameScalar(_ index: Int, asBytesFrom start: Int) -> Bool {
        heads.withUnsafeBytes { all in
            ScalarTable.sameScalar(UnsafeRawBufferPointer(rebasing: all[headRange(index, end: start)]), UnsafeRawBufferPointer(rebasing: all[start...]))
        }
    }

    /// What of object head `head` the file gets: its first `written` bytes, then a payload
    /// of `payloadSize` bytes when the head names one (`payloads`), then `references` refs.
    private struct Layout {
        var written: Int
        var payloadSize = 0
        var references = 0
    }

    private static func layout(_ head: UnsafeBufferPointer<UInt8>) -> Layout {
        let kind = head[0] >> 4
        guard kind == 0x4 || kind == 0x5 || kind == 0x6 || kind == 0xA || kind == 0xD else { return Layout(written: head.count) }
        var count = Int(head[0] & 0x0F)
        var headerLength = 1
        if count == 0x0F {
            // An integer object follows: marker 0x1n, then 2^n big-endian bytes.
            let width = 1 << Int(head[1] & 0x0F)
            count = head[2..<(2 + width)].reduce(0) { $0 << 8 | Int($1) }
            headerLength = 2 + width
        }
        switch kind {
        case 0xA: return Layout(written: head.count, references: count)
        case 0xD: return Layout(written: head.count, references: count * 2)
        default:
            let size = kind == 0x6 ? count * 2 : count
            return size > inlineLimit ? Layout(written: headerLength, payloadSize: size) : Layout(written: head.count)
        }
    }

    private static func byteWidth(_ value: UInt64) -> Int {
        value < 1 << 8 ? 1 : value < 1 << 16 ? 2 : value < 1 << 32 ? 4 : 8
    }

    private func serialize(drain: OutputDrain?) -> [UInt8] {
        let count = headStart.count
        var out: [UInt8] = []
        out.reserveCapacity(drain == nil ? heads.count + refPool.count * 2 + count * 2 + 64 : OutputDrain.pieceSize * 2)
        // Bytes already handed to the drain: offsets count from the file's start.
        var drained = 0
        out.append(contentsOf: BinaryPlistReader.magic)
        let refSize = Self.byteWidth(UInt64(count))

        heads.withUnsafeBufferPointer { heads in
            var nextRef = 0
            for index in 0..<count {
                if let drain, out.count >= OutputDrain.pieceSize {
                    drained += out.count
                    drain.takeAll(&out)
                }
                let range = headRange(index, end: heads.count)
                let head = UnsafeBufferPointer(rebasing: heads[range])
                let layout = Self.layout(head)
                out.append(contentsOf: UnsafeBufferPointer(rebasing: head.prefix(layout.written)))
                if layout.payloadSize > 0 {
                    Self.appendPayload(payloads[Self.payloadIndex(self.heads, range)], utf16: head[0] >> 4 == 0x6,
                                       units: layout.payloadSize / 2, to: &out)
                }
                for ref in refPool[nextRef..<(nextRef + layout.references)] {
                    Self.appendBigEndian(UInt64(ref), width: refSize, to: &out)
                }
                nextRef += layout.references
            }
        }

        // Each object's offset, from the sizes of the objects before it (computed again rather
        // than kept per object).
        let tableOffset = drained + out.count
        let offsetSize = Self.byteWidth(UInt64(tableOffset))
        heads.withUnsafeBufferPointer { heads in
            var offset = BinaryPlistReader.magic.count
            for index in 0..<count {
                if let drain, out.count >= OutputDrain.pieceSize {
                    drain.takeAll(&out)
                }
                Self.appendBigEndian(UInt64(offset), width: offsetSize, to: &out)
                let layout = Self.layout(UnsafeBufferPointer(rebasing: heads[headRange(index, end: heads.count)]))
                offset += layout.written + layout.payloadSize + layout.references * refSize
            }
        }
        out.append(contentsOf: [0, 0, 0, 0, 0, 0])  // 5 unused bytes, sort version
        out.append(UInt8(offsetSize))
        out.append(UInt8(refSize))
        Self.appendBigEndian(UInt64(count), width: 8, to: &out)
        Self.appendBigEndian(0, width: 8, to: &out)  // top object
        Self.appendBigEndian(UInt64(tableOffset), width: 8, to: &out)
        return out
    }

    /// A scalar's object bytes: marker and payload (strings as ASCII or UTF-16 big-endian).
    /// True when only the marker and count were appended: a string or data whose encoded
    /// payload is longer than `inlineLimit` (`appendPayload` writes it).
    private static func appendScalar(_ value: PlistValue, to out: inout [UInt8]) -> Bool {
        switch value {
        case .bool(let b):
            out.append(b ? 0x09 : 0x08)
        case .integer(let i):
            appendInteger(i, to: &out)
        case .real(let r):
            out.append(0x23)
            appendBigEndian(r.value.bitPattern, width: 8, to: &out)
        case .date(let d):
            out.append(0x33)
            appendBigEndian(d.secondsSinceReferenceDate.bitPattern, width: 8, to: &out)
        case .data(let bytes):
            appendMarker(0x40, count: bytes.count, to: &out)
            if bytes.count > inlineLimit { return true }
            out.append(contentsOf: bytes)
        case .string(var s):
            return s.withUTF8 { utf8 in
                let units = UTF16BigEndian.unitCount(utf8: UnsafeRawBufferPointer(utf8))
                if units == utf8.count {
                    // As many units as bytes: every byte is ASCII.
                    appendMarker(0x50, count: utf8.count, to: &out)
                    if utf8.count > inlineLimit { return true }
                    out.append(contentsOf: utf8)
                } else {
                    appendMarker(0x60, count: units, to: &out)
                    if units * 2 > inlineLimit { return true }
                    UTF16BigEndian.append(utf8: UnsafeRawBufferPointer(utf8), units: units, to: &out)
                }
                return false
            }
        case .uid(let u):
            let width = byteWidth(u)
            out.append(0x80 | UInt8(width - 1))
            appendBigEndian(u, width: width, to: &out)
        case .array, .dictionary:
            break
        }
        return false
    }

    /// The payload of a string or data kept outside `heads`, as `appendScalar` would have
    /// written it.
    private static func appendPayload(_ value: PlistValue, utf16: Bool, units: Int, to out: inout [UInt8]) {
        withPayloadBytes(value) { bytes in
            if utf16 {
                UTF16BigEndian.append(utf8: bytes, units: units, to: &out)
            } else {
                out.append(contentsOf: bytes)
            }
        }
    }

    @inline(__always)
    private static func appendBigEndian(_ value: UInt64, width: Int, to out: inout [UInt8]) {
        var shift = (width - 1) * 8
        while shift >= 0 {
            out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            shift -= 8
        }
    }

    /// A container or string marker with its count inline (below 15) or as an integer object.
    private static func appendMarker(_ marker: UInt8, count: Int, to out: inout [UInt8]) {
        if count < 15 {
            out.append(marker | UInt8(count))
        } else {
            out.append(marker | 0x0F)
            appendInteger(PlistInteger(UInt64(count)), to: &out)
        }
    }

    private static func appendInteger(_ i: PlistInteger, to out: inout [UInt8]) {
        if let signed = i.int64Value, signed < 0 {
            out.append(0x13)
            appendBigEndian(UInt64(bitPattern: signed), width: 8, to: &out)
        } else if i.magnitude <= UInt64(Int64.max) {
            let width = byteWidth(i.magnitude)
            out.append(0x10 | UInt8(width.trailingZeroBitCount))
            appendBigEndian(i.magnitude, width: width, to: &out)
        } else {
            // Above Int64.max: a 16-byte signed integer whose high half is zero.
            out.append(0x14)
            appendBigEndian(0, width: 8, to: &out)
            appendBigEndian(i.magnitude, width: 8, to: &out)
        }
    }
}
