import BinaryReading

/// The frame of a `bplist00` file, validated once: its trailer's widths and counts, where the
/// offset table is, and bounds-checked access to objects, references and counts. Shared by
/// the tree reader (`BinaryPlistReader`) and the streaming one (`BinaryPlistTranscoder`), so
/// both trust exactly the same invariants.
struct BinaryPlistLayout {
    let file: UnsafeRawBufferPointer
    let offsetSize: Int
    let refSize: Int
    let objectCount: Int
    let topObject: Int
    let offsetTableStart: Int

    /// Budget for the total expanded size of a value; a DAG of shared arrays could otherwise
    /// describe 2^n values in n objects.
    static func nodeBudget(objectCount: Int) -> Int { max(objectCount * 64, 4_000_000) }

    init(file: UnsafeRawBufferPointer) throws(DecodeError) {
        self.file = file
        var header = ByteCursor(file, section: "header")
        let magic = try header.readBytes(min(8, file.count))
        guard magic.elementsEqual(BinaryPlistReader.magic) else {
            if magic.starts(with: "bplist".utf8) {
                throw DecodeError(section: "header", offset: 6, reason: "unsupported binary plist version \"\(String(decoding: magic.dropFirst(6), as: UTF8.self))\" (only bplist00 is read)")
            }
            throw DecodeError(section: "header", offset: 0, reason: "not a binary plist (no bplist00 magic)")
        }
        // Invariant: the magic, at least one object byte and the 32-byte trailer fit.
        guard file.count >= 8 + 1 + 32 else {
            throw DecodeError(section: "trailer", offset: file.count, reason: "file is \(file.count) bytes, too short for a binary plist (truncated?)")
        }
        var trailer = ByteCursor(UnsafeRawBufferPointer(rebasing: file[(file.count - 32)...]), section: "trailer", baseOffset: file.count - 32)
        try trailer.skip(5)  // unused
        _ = try trailer.readUInt8()  // sort version, unused
        let offsetSize = Int(try trailer.readUInt8())
        let refSize = Int(try trailer.readUInt8())
        let objectCount = try trailer.readUInt(width: 8, endian: .big)
        let topObject = try trailer.readUInt(width: 8, endian: .big)
        let tableOffset = try trailer.readUInt(width: 8, endian: .big)
        let objectsEnd = file.count - 32

        guard (1...8).contains(offsetSize) else {
            throw DecodeError(section: "trailer", offset: objectsEnd + 6, reason: "offset size \(offsetSize) is not between 1 and 8")
        }
        guard (1...8).contains(refSize) else {
            throw DecodeError(section: "trailer", offset: objectsEnd + 7, reason: "object reference size \(refSize) is not between 1 and 8")
        }
        // Invariant: the offset table starts after the magic and ends before the trailer, and
        // holds `objectCount` entries (this also bounds objectCount by the file size).
        guard objectCount >= 1 else {
            throw DecodeError(section: "trailer", offset: objectsEnd + 8, reason: "object count is 0")
        }
        guard tableOffset >= 9, tableOffset < UInt64(objectsEnd) else {
            throw DecodeError(section: "trailer", offset: objectsEnd + 24, reason: "offset table offset \(tableOffset) is outside the file's \(objectsEnd) object bytes")
        }
        let (tableBytes, overflow) = objectCount.multipliedReportingOverflow(by: UInt64(offsetSize))
        guard !overflow, tableBytes <= UInt64(objectsEnd) - tableOffset else {
            throw DecodeError(section: "trailer", offset: objectsEnd + 8, reason: "\(objectCount) objects of \(offsetSize)-byte offsets do not fit between offset 0x\(String(tableOffset, radix: 16)) and the trailer")
        }
        guard topObject < objectCount else {
            throw DecodeError(section: "trailer", offset: objectsEnd + 16, reason: "top object \(topObject) is not below the object count \(objectCount)")
        }
        self.offsetSize = offsetSize
        self.refSize = refSize
        self.objectCount = Int(objectCount)
        self.topObject = Int(topObject)
        self.offsetTableStart = Int(tableOffset)
    }

    /// Start offset of object `index`, validated to lie among the object bytes. `index` is
    /// below `objectCount` and the table was checked to hold that many entries, so the entry
    /// is read directly rather than through a cursor (one per object visit).
    func offset(of index: Int) throws(DecodeError) -> Int {
        guard index >= 0, index < objectCount else {
            throw DecodeError(section: "offset table", offset: offsetTableStart, reason: "object \(index) is not below the object count \(objectCount)")
        }
        let at = offsetTableStart + index * offsetSize
        var value: UInt64 = 0
        for i in 0..<offsetSize { value = value << 8 | UInt64(file[at + i]) }
        guard value >= 8, value < UInt64(offsetTableStart) else {
            throw DecodeError(section: "offset table", offset: at, reason: "object \(index) has offset 0x\(String(value, radix: 16)), outside the object area 0x8..<0x\(String(offsetTableStart, radix: 16))")
        }
        return Int(value)
    }

    /// A cursor over the object area, positioned at `offset`.
    func cursor(at offset: Int) throws(DecodeError) -> ByteCursor {
        var c = ByteCursor(UnsafeRawBufferPointer(rebasing: file[..<offsetTableStart]), section: "object")
        try c.seek(to: offset)
        return c
    }

    /// Reads an integer object body (after the marker): 2^exponent big-endian bytes.
    /// 1, 2 and 4 bytes are unsigned, 8 bytes signed, 16 bytes a signed 128-bit value that must
    /// fit `Int64.min ... UInt64.max`.
    static func integer(_ c: inout ByteCursor, sizeExponent: UInt8, markerAt: Int) throws(DecodeError) -> PlistInteger {
        switch sizeExponent {
        case 0, 1, 2:
            return PlistInteger(try c.readUInt(width: 1 << Int(sizeExponent), endian: .big))
        case 3:
            return PlistInteger(Int64(bitPattern: try c.readUInt(width: 8, endian: .big)))
        case 4:
            let high = try c.readUInt(width: 8, endian: .big)
            let low = try c.readUInt(width: 8, endian: .big)
            if high == 0 { return PlistInteger(low) }
            if high == UInt64.max, Int64(bitPattern: low) < 0 { return PlistInteger(Int64(bitPattern: low)) }
            throw c.error("16-byte integer does not fit in \(Int64.min) ... \(UInt64.max)", at: markerAt)
        default:
            throw c.error("integer of \(1 << min(Int(sizeExponent), 16)) bytes (only 1, 2, 4, 8, 16 exist)", at: markerAt)
        }
    }

    /// Reads an element count (inline in the marker, or as a following integer object) and
    /// checks that `count * unit` bytes remain in the object area.
    func count(_ c: inout ByteCursor, info: UInt8, unit: Int) throws(DecodeError) -> Int {
        let at = c.position
        var count = UInt64(info)
        if info == 0x0F {
            let marker = try c.readUInt8()
            guard marker >> 4 == 0x1 else {
                throw c.error("count marker 0x\(String(marker, radix: 16)) is not an integer", at: at)
            }
            let value = try Self.integer(&c, sizeExponent: marker & 0x0F, markerAt: at)
            guard let v = value.uint64Value else { throw c.error("negative count \(value)", at: at) }
            count = v
        }
        // Invariant: the elements must fit in what is left, before anything is allocated.
        let (needed, overflow) = count.multipliedReportingOverflow(by: UInt64(unit))
        guard !overflow, needed <= UInt64(c.remaining) else {
            throw c.error("count \(count) needs more bytes than the \(c.remaining) left before the offset table", at: at)
        }
        return Int(count)
    }

    func reference(_ c: inout ByteCursor) throws(DecodeError) -> Int {
        let at = c.position
        let ref = try c.readUInt(width: refSize, endian: .big)
        guard ref < UInt64(objectCount) else {
            throw c.error("object reference \(ref) is not below the object count \(objectCount)", at: at)
        }
        return Int(ref)
    }

    /// Decodes a scalar object (booleans, integers, reals, dates, UIDs: marker kinds 0, 1, 2,
    /// 3 and 8) whose marker at `start` has been read from `c`.
    func scalar(marker: UInt8, at start: Int, _ c: inout ByteCursor) throws(DecodeError) -> PlistValue {
        let info = marker & 0x0F
        switch marker >> 4 {
        case 0x0:
            switch info {
            case 0x8: return .bool(false)
            case 0x9: return .bool(true)
            case 0x0: throw c.error("null object (0x00) has no property-list value", at: start)
            case 0xF: throw c.error("fill byte (0x0f) used as an object", at: start)
            default: throw c.error("unknown object marker 0x\(String(marker, radix: 16))", at: start)
            }
        case 0x1:
            return .integer(try Self.integer(&c, sizeExponent: info, markerAt: start))
        case 0x2:
            switch info {
            case 2: return .real(PlistReal(Double(Float(bitPattern: UInt32(try c.readUInt(width: 4, endian: .big))))))
            case 3: return .real(PlistReal(Double(bitPattern: try c.readUInt(width: 8, endian: .big))))
            default: throw c.error("real of \(1 << min(Int(info), 8)) bytes (only 4 and 8 exist)", at: start)
            }
        case 0x3:
            guard info == 3 else { throw c.error("date marker 0x\(String(marker, radix: 16)) (expected 0x33)", at: start) }
            let seconds = Double(bitPattern: try c.readUInt(width: 8, endian: .big))
            guard PlistDate.validRange.contains(seconds) else {
                throw c.error("date \(seconds) s from 2001 is not a finite time in years 1...9999", at: start)
            }
            return .date(PlistDate(secondsSinceReferenceDate: seconds))
        case 0x8:
            let uid = try c.readUInt(width: Int(info) + 1, endian: .big)
            return .uid(uid)
        default:
            throw c.error("unknown object marker 0x\(String(marker, radix: 16))", at: start)
        }
    }
}
