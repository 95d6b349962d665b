import OrderedCollections

/// Writes `bplist00` files the way Apple's CFBinaryPList and Python's plistlib do.
///
/// Objects are numbered depth-first (a dictionary's keys, then its values); equal scalars
/// (strings, numbers, dates, data, UIDs) are written once and shared, containers never are.
/// Integer widths, the reference width and the offset width are the smallest that fit. The
/// output depends only on the value: the same value always gives the same bytes.
struct BinaryPlistWriter {
    /// Objects in file order: scalars by value; containers with their child references.
    private var objects: [PlistValue] = []
    /// Every container's child references, one after another, and where each container's
    /// start (by object index; 0 for scalars): one array instead of one per container.
    private var refPool: [Int] = []
    private var refStart: [Int] = []
    /// References of the containers being flattened, innermost last.
    private var pending: [Int] = []
    private var scalarRefs = ScalarTable()

    /// The file's bytes; with a `drain`, most of them go there in pieces as they are made and
    /// the rest is returned.
    static func write(_ value: PlistValue, drain: OutputDrain? = nil) -> [UInt8] {
        var writer = BinaryPlistWriter()
        // Sizing the object tables up front avoids copying them as they grow.
        let nodes = value.nodeCount
        writer.objects.reserveCapacity(nodes)
        writer.refStart.reserveCapacity(nodes)
        writer.refPool.reserveCapacity(nodes)
        _ = writer.flatten(value)
        return writer.serialize(drain: drain)
    }

    private mutating func flatten(_ value: PlistValue) -> Int {
        switch value {
        case .string, .integer, .real, .bool, .date, .data, .uid:
            break
        case .array(let items):
            let ref = appendObject(value)
            let base = pending.count
            for item in items { pending.append(flatten(item)) }
            finishContainer(ref, from: base)
            return ref
        case .dictionary(let dict):
            let ref = appendObject(value)
            let base = pending.count
            for k in dict.keys { pending.append(flatten(.string(k))) }
            for v in dict.values { pending.append(flatten(v)) }
            finishContainer(ref, from: base)
            return ref
        }
        let key = ScalarKey(value)
        let fingerprint = key.fingerprint(seed: scalarRefs.seed)
        if let existing = scalarRefs.find(fingerprint, where: { ScalarKey(objects[$0]) == key }) { return existing }
        let ref = appendObject(value)
        scalarRefs.insert(fingerprint, ref)
        return ref
    }

    private mutating func appendObject(_ value: PlistValue) -> Int {
        objects.append(value)
        refStart.append(0)
        return objects.count - 1
    }

    /// Moves the references pushed since `base` (the container's children) to the pool.
    private mutating func finishContainer(_ ref: Int, from base: Int) {
        refStart[ref] = refPool.count
        refPool.append(contentsOf: pending[base...])
        pending.removeSubrange(base...)
    }

    private static func byteWidth(_ value: UInt64) -> Int {
        value < 1 << 8 ? 1 : value < 1 << 16 ? 2 : value < 1 << 32 ? 4 : 8
    }

    private func serialize(drain: OutputDrain?) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(drain == nil ? objects.count * 12 + 64 : OutputDrain.pieceSize * 2)
        // Bytes already handed to the drain: offsets count from the file's start.
        var drained = 0
        out.append(contentsOf: BinaryPlistReader.magic)
        let refSize = Self.byteWidth(UInt64(objects.count))
        var offsets: [Int] = []
        offsets.reserveCapacity(objects.count)

        for (index, object) in objects.enumerated() {
            if let drain, out.count >= OutputDrain.pieceSize {
                drained += out.count
                drain.takeAll(&out)
            }
            offsets.append(drained + out.count)
            switch object {
            case .bool(let b):
                out.append(b ? 0x09 : 0x08)
            case .integer(let i):
                Self.appendInteger(i, to: &out)
            case .real(let r):
                out.append(0x23)
                Self.appendBigEndian(r.value.bitPattern, width: 8, to: &out)
            case .date(let d):
                out.append(0x33)
                Self.appendBigEndian(d.secondsSinceReferenceDate.bitPattern, width: 8, to: &out)
            case .data(let bytes):
                Self.appendMarker(0x40, count: bytes.count, to: &out)
                out.append(contentsOf: bytes)
            case .string(let s):
                ScalarKey.withBytes(s) { utf8 in
                    let units = UTF16BigEndian.unitCount(utf8: utf8)
                    if units == utf8.count {
                        // As many units as bytes: every byte is ASCII.
                        Self.appendMarker(0x50, count: utf8.count, to: &out)
                        out.append(contentsOf: utf8)
                    } else {
                        Self.appendMarker(0x60, count: units, to: &out)
                        UTF16BigEndian.append(utf8: utf8, units: units, to: &out)
                    }
                }
            case .uid(let u):
                let width = Self.byteWidth(u)
                out.append(0x80 | UInt8(width - 1))
                Self.appendBigEndian(u, width: width, to: &out)
            case .array(let items):
                Self.appendMarker(0xA0, count: items.count, to: &out)
                for ref in refPool[refStart[index]..<(refStart[index] + items.count)] { Self.appendBigEndian(UInt64(ref), width: refSize, to: &out) }
            case .dictionary(let dict):
                Self.appendMarker(0xD0, count: dict.count, to: &out)
                for ref in refPool[refStart[index]..<(refStart[index] + dict.count * 2)] { Self.appendBigEndian(UInt64(ref), width: refSize, to: &out) }
            }
        }

        let tableOffset = drained + out.count
        let offsetSize = Self.byteWidth(UInt64(tableOffset))
        for offset in offsets { Self.appendBigEndian(UInt64(offset), width: offsetSize, to: &out) }
        out.append(contentsOf: [0, 0, 0, 0, 0, 0])  // 5 unused bytes, sort version
        out.append(UInt8(offsetSize))
        out.append(UInt8(refSize))
        Self.appendBigEndian(UInt64(objects.count), width: 8, to: &out)
        Self.appendBigEndian(0, width: 8, to: &out)  // top object
        Self.appendBigEndian(UInt64(tableOffset), width: 8, to: &out)
        return out
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
