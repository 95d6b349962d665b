import BinaryReading
import OrderedCollections

/// Reads `bplist00` binary property lists, treating every byte as hostile.
///
/// Layout (Apple's CFBinaryPList.c): an 8-byte magic, the objects, an offset table, and a
/// 32-byte trailer giving the table's place, its entry width, the width of object references,
/// the object count and the top object. Every invariant is checked before it is relied on:
/// widths, counts and offsets against the file size, references against the object count,
/// counts against the bytes that could hold them (so a hostile count allocates nothing),
/// cycles through an ancestor set, and nesting against `maxDepth`.
package struct BinaryPlistReader {
    static let magic: [UInt8] = Array("bplist00".utf8)
    static let maxDepth = PropertyListCoding.maxDepth

    private let file: UnsafeRawBufferPointer
    private let offsetSize: Int
    private let refSize: Int
    private let objectCount: Int
    private let topObject: Int
    private let offsetTableStart: Int
    /// Parsed objects by index: objects shared by several parents (deduplicated strings,
    /// numbers) are decoded once.
    private var cache: [PlistValue?]
    /// Nodes in each cached object's expanded tree, so sharing cannot hide an exponential value.
    private var cachedSize: [Int]
    private var onPath: [Bool]
    /// Budget for the total expanded size of the result; a DAG of shared arrays could
    /// otherwise describe 2^n values in n objects.
    private var nodesLeft: Int
    private(set) var warnings: [PlistWarning] = []
    /// Recording only (`readRecordingOffsets`): the key path of the object being read, and
    /// each value's object offset by key path.
    private var path: [String] = []
    private var offsets: [[String]: Int]?

    static func read(_ bytes: UnsafeRawBufferPointer) throws(PlistError) -> (PlistValue, [PlistWarning]) {
        do {
            var reader = try BinaryPlistReader(file: bytes)
            let value = try reader.object(reader.topObject, depth: 0)
            return (value, reader.warnings)
        } catch {
            throw PlistError(error)
        }
    }

    /// Reads like `read`, and also records the byte offset of every value's object (its
    /// marker byte) by key-path components, for tools that point into binary files.
    package static func readRecordingOffsets(_ bytes: UnsafeRawBufferPointer) throws(PlistError) -> (value: PlistValue, offsets: [[String]: Int]) {
        do {
            var reader = try BinaryPlistReader(file: bytes)
            reader.offsets = [[]: try reader.offset(of: reader.topObject)]
            let value = try reader.object(reader.topObject, depth: 0)
            return (value, reader.offsets ?? [:])
        } catch {
            throw PlistError(error)
        }
    }

    /// Records where the child about to be read at `component` is (recording only).
    private mutating func enter(_ component: String, object index: Int) throws(DecodeError) {
        guard offsets != nil else { return }
        path.append(component)
        let at = try offset(of: index)
        offsets?[path] = at
    }

    private mutating func leave() {
        if offsets != nil { path.removeLast() }
    }

    private init(file: UnsafeRawBufferPointer) throws(DecodeError) {
        self.file = file
        var header = ByteCursor(file, section: "header")
        let magic = try header.readBytes(min(8, file.count))
        guard magic.elementsEqual(Self.magic) else {
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
        self.cache = Array(repeating: nil, count: Int(objectCount))
        self.cachedSize = Array(repeating: 0, count: Int(objectCount))
        self.onPath = Array(repeating: false, count: Int(objectCount))
        self.nodesLeft = max(Int(objectCount) * 64, 4_000_000)
    }

    /// Start offset of object `index`, validated to lie among the object bytes.
    private func offset(of index: Int) throws(DecodeError) -> Int {
        var entry = ByteCursor(file, section: "offset table")
        try entry.seek(to: offsetTableStart + index * offsetSize)
        let value = try entry.readUInt(width: offsetSize, endian: .big)
        guard value >= 8, value < UInt64(offsetTableStart) else {
            throw entry.error("object \(index) has offset 0x\(String(value, radix: 16)), outside the object area 0x8..<0x\(String(offsetTableStart, radix: 16))", at: offsetTableStart + index * offsetSize)
        }
        return Int(value)
    }

    /// A cursor over the object area, positioned at `offset`.
    private func cursor(at offset: Int) throws(DecodeError) -> ByteCursor {
        var c = ByteCursor(UnsafeRawBufferPointer(rebasing: file[..<offsetTableStart]), section: "object")
        try c.seek(to: offset)
        return c
    }

    private mutating func object(_ index: Int, depth: Int) throws(DecodeError) -> PlistValue {
        // A shared object's children are recorded once per path: recording reads it again.
        if let cached = cache[index], offsets == nil || !cached.isContainer {
            try spend(cachedSize[index], at: index)
            return cached
        }
        guard !onPath[index] else {
            throw DecodeError(section: "object", offset: try offset(of: index), reason: "object \(index) contains itself (reference cycle)")
        }
        guard depth < Self.maxDepth else {
            throw DecodeError(section: "object", offset: try offset(of: index), reason: "containers nested deeper than \(Self.maxDepth) levels")
        }
        let before = nodesLeft
        onPath[index] = true
        let value = try decode(index, depth: depth)
        onPath[index] = false
        try spend(1, at: index)
        cache[index] = value
        cachedSize[index] = before - nodesLeft
        return value
    }

    private mutating func spend(_ nodes: Int, at index: Int) throws(DecodeError) {
        nodesLeft -= nodes
        guard nodesLeft >= 0 else {
            throw DecodeError(section: "object", offset: (try? offset(of: index)) ?? 0, reason: "shared references expand to more values than the file could honestly describe (reference bomb?)")
        }
    }

    private mutating func decode(_ index: Int, depth: Int) throws(DecodeError) -> PlistValue {
        let start = try offset(of: index)
        var c = try cursor(at: start)
        let marker = try c.readUInt8()
        let kind = marker >> 4
        let info = marker & 0x0F
        switch kind {
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
        case 0x4:
            let count = try self.count(&c, info: info, unit: 1)
            return .data(Array(try c.readBytes(count)))
        case 0x5:
            let count = try self.count(&c, info: info, unit: 1)
            let bytes = try c.readBytes(count)
            if let bad = bytes.firstIndex(where: { $0 >= 0x80 }) {
                throw c.error("ASCII string holds byte 0x\(String(bytes[bad], radix: 16))", at: c.position - count + bad)
            }
            return .string(String(decoding: bytes, as: UTF8.self))
        case 0x6:
            let count = try self.count(&c, info: info, unit: 2)
            let bytes = try c.readBytes(count * 2)
            guard let string = Self.stringFromUTF16BigEndian(bytes) else {
                throw c.error("UTF-16 string is not valid UTF-16 (unpaired surrogate)", at: start)
            }
            return .string(string)
        case 0x8:
            let uid = try c.readUInt(width: Int(info) + 1, endian: .big)
            return .uid(uid)
        case 0xA, 0xC:
            let count = try self.count(&c, info: info, unit: refSize)
            var items: [PlistValue] = []
            items.reserveCapacity(count)
            for i in 0..<count {
                let ref = try reference(&c)
                try enter(String(i), object: ref)
                items.append(try object(ref, depth: depth + 1))
                leave()
            }
            if kind == 0xC {
                warnings.append(PlistWarning(position: .byteOffset(start), message: "set object read as an array (sets have no place in other formats)"))
            }
            return .array(items)
        case 0xD:
            let count = try self.count(&c, info: info, unit: refSize * 2)
            var keys: [String] = []
            keys.reserveCapacity(count)
            for _ in 0..<count {
                let keyAt = c.offset
                let ref = try reference(&c)
                guard case .string(let key) = try object(ref, depth: depth + 1) else {
                    throw c.error("dictionary key (object \(ref)) is not a string", at: keyAt)
                }
                keys.append(key)
            }
            var dict = OrderedDictionary<String, PlistValue>(minimumCapacity: count)
            for i in 0..<count {
                let ref = try reference(&c)
                try enter(keys[i], object: ref)
                let value = try object(ref, depth: depth + 1)
                leave()
                if dict.updateValue(value, forKey: keys[i]) != nil {
                    throw c.error("duplicate dictionary key \"\(keys[i])\"", at: start)
                }
            }
            return .dictionary(dict)
        default:
            throw c.error("unknown object marker 0x\(String(marker, radix: 16))", at: start)
        }
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
    private func count(_ c: inout ByteCursor, info: UInt8, unit: Int) throws(DecodeError) -> Int {
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

    private func reference(_ c: inout ByteCursor) throws(DecodeError) -> Int {
        let at = c.position
        let ref = try c.readUInt(width: refSize, endian: .big)
        guard ref < UInt64(objectCount) else {
            throw c.error("object reference \(ref) is not below the object count \(objectCount)", at: at)
        }
        return Int(ref)
    }
    /// Big-endian UTF-16 transcoded to UTF-8 here, nil at an unpaired surrogate. The standard
    /// library's `String(validating:as:)` and `String(decoding:as:)` for UTF-16 took
    /// unspecialised generic paths: 40 % and more of binary→XML on non-ASCII text.
    static func stringFromUTF16BigEndian(_ bytes: UnsafeRawBufferPointer) -> String? {
        let count = bytes.count / 2
        var utf8: [UInt8] = []
        utf8.reserveCapacity(count * 3)
        var i = 0
        while i < count * 2 {
            let unit = UInt32(bytes[i]) << 8 | UInt32(bytes[i + 1])
            i += 2
            var scalar = unit
            if unit & 0xF800 == 0xD800 {
                guard unit < 0xDC00, i < count * 2 else { return nil }
                let low = UInt32(bytes[i]) << 8 | UInt32(bytes[i + 1])
                guard low & 0xFC00 == 0xDC00 else { return nil }
                i += 2
                scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            }
            switch scalar {
            case ..<0x80:
                utf8.append(UInt8(scalar))
            case ..<0x800:
                utf8.append(UInt8(0xC0 | scalar >> 6))
                utf8.append(UInt8(0x80 | scalar & 0x3F))
            case ..<0x10000:
                utf8.append(UInt8(0xE0 | scalar >> 12))
                utf8.append(UInt8(0x80 | scalar >> 6 & 0x3F))
                utf8.append(UInt8(0x80 | scalar & 0x3F))
            default:
                utf8.append(UInt8(0xF0 | scalar >> 18))
                utf8.append(UInt8(0x80 | scalar >> 12 & 0x3F))
                utf8.append(UInt8(0x80 | scalar >> 6 & 0x3F))
                utf8.append(UInt8(0x80 | scalar & 0x3F))
            }
        }
        return String(decoding: utf8, as: UTF8.self)
    }
}

extension PlistValue {
    fileprivate var isContainer: Bool {
        switch self {
        case .array, .dictionary: true
        default: false
        }
    }
}
