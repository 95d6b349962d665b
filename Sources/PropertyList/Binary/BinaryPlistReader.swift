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

    private let layout: BinaryPlistLayout
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
            let value = try reader.object(reader.layout.topObject, depth: 0)
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
            reader.offsets = [[]: try reader.layout.offset(of: reader.layout.topObject)]
            let value = try reader.object(reader.layout.topObject, depth: 0)
            return (value, reader.offsets ?? [:])
        } catch {
            throw PlistError(error)
        }
    }

    /// Records where the child about to be read at `component` is (recording only).
    private mutating func enter(_ component: String, object index: Int) throws(DecodeError) {
        guard offsets != nil else { return }
        path.append(component)
        let at = try layout.offset(of: index)
        offsets?[path] = at
    }

    private mutating func leave() {
        if offsets != nil { path.removeLast() }
    }

    private init(file: UnsafeRawBufferPointer) throws(DecodeError) {
        layout = try BinaryPlistLayout(file: file)
        let objectCount = layout.objectCount
        self.cache = Array(repeating: nil, count: objectCount)
        self.cachedSize = Array(repeating: 0, count: objectCount)
        self.onPath = Array(repeating: false, count: objectCount)
        self.nodesLeft = BinaryPlistLayout.nodeBudget(objectCount: objectCount)
    }

    private mutating func object(_ index: Int, depth: Int) throws(DecodeError) -> PlistValue {
        // A shared object's children are recorded once per path: recording reads it again.
        if let cached = cache[index], offsets == nil || !cached.isContainer {
            try spend(cachedSize[index], at: index)
            return cached
        }
        guard !onPath[index] else {
            throw DecodeError(section: "object", offset: try layout.offset(of: index), reason: "object \(index) contains itself (reference cycle)")
        }
        guard depth < Self.maxDepth else {
            throw DecodeError(section: "object", offset: try layout.offset(of: index), reason: "containers nested deeper than \(Self.maxDepth) levels")
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
            throw DecodeError(section: "object", offset: (try? layout.offset(of: index)) ?? 0, reason: "shared references expand to more values than the file could honestly describe (reference bomb?)")
        }
    }

    private mutating func decode(_ index: Int, depth: Int) throws(DecodeError) -> PlistValue {
        let start = try layout.offset(of: index)
        var c = try layout.cursor(at: start)
        let marker = try c.readUInt8()
        let kind = marker >> 4
        let info = marker & 0x0F
        switch kind {
        case 0x0, 0x1, 0x2, 0x3, 0x8:
            return try layout.scalar(marker: marker, at: start, &c)
        case 0x4:
            let count = try layout.count(&c, info: info, unit: 1)
            return .data(Array(try c.readBytes(count)))
        case 0x5:
            let count = try layout.count(&c, info: info, unit: 1)
            let bytes = try c.readBytes(count)
            if let bad = bytes.firstIndex(where: { $0 >= 0x80 }) {
                throw c.error("ASCII string holds byte 0x\(String(bytes[bad], radix: 16))", at: c.position - count + bad)
            }
            return .string(String(decoding: bytes, as: UTF8.self))
        case 0x6:
            let count = try layout.count(&c, info: info, unit: 2)
            let bytes = try c.readBytes(count * 2)
            guard let string = Self.stringFromUTF16BigEndian(bytes) else {
                throw c.error("UTF-16 string is not valid UTF-16 (unpaired surrogate)", at: start)
            }
            return .string(string)
        case 0xA, 0xC:
            let count = try layout.count(&c, info: info, unit: layout.refSize)
            var items: [PlistValue] = []
            items.reserveCapacity(count)
            for i in 0..<count {
                let ref = try layout.reference(&c)
                try enter(String(i), object: ref)
                items.append(try object(ref, depth: depth + 1))
                leave()
            }
            if kind == 0xC {
                warnings.append(PlistWarning(position: .byteOffset(start), message: "set object read as an array (sets have no place in other formats)"))
            }
            return .array(items)
        case 0xD:
            let count = try layout.count(&c, info: info, unit: layout.refSize * 2)
            var keys: [String] = []
            keys.reserveCapacity(count)
            for _ in 0..<count {
                let keyAt = c.offset
                let ref = try layout.reference(&c)
                guard case .string(let key) = try object(ref, depth: depth + 1) else {
                    throw c.error("dictionary key (object \(ref)) is not a string", at: keyAt)
                }
                keys.append(key)
            }
            var dict = OrderedDictionary<String, PlistValue>(minimumCapacity: count)
            for i in 0..<count {
                let ref = try layout.reference(&c)
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

    /// Big-endian UTF-16 as a `String`, nil at an unpaired surrogate.
    static func stringFromUTF16BigEndian(_ bytes: UnsafeRawBufferPointer) -> String? {
        guard bytes.count >= 2 else { return "" }
        var valid = true
        let string = String(unsafeUninitializedCapacity: UTF16BigEndian.maxUTF8Count(byteCount: bytes.count)) { buffer in
            guard let out = buffer.baseAddress, let count = UTF16BigEndian.transcode(bytes, to: out) else {
                valid = false
                return 0
            }
            return count
        }
        return valid ? string : nil
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
