import BinaryReading

/// Streams a `bplist00` file into a `PlistEventSink` (the XML or JSON writer) without building
/// its `PlistValue` tree: strings go from the file's ASCII or UTF-16 bytes to the output, data
/// from the file to base64, and nothing is allocated per value. Converting a binary plist is
/// then close to the cost of writing the output (the tree made it 2–4× slower on text- and
/// data-heavy files).
///
/// It succeeds only where `BinaryPlistReader` would read the file without a warning, and then
/// the events are exactly the tree's in its order. Everything else — any malformed byte,
/// cycle, reference bomb, duplicate key, set, or a value the sink refuses — makes it give up
/// (false) without saying why: the caller converts through the tree, whose reader and writer
/// word the error. The checks are the reader's (`BinaryPlistLayout` is shared); the walk may
/// refuse more than the reader (a shared leaf below the depth limit, heavy sharing), never less.
struct BinaryPlistTranscoder: ~Copyable {
    private let layout: BinaryPlistLayout
    /// Containers being written (a container inside itself is a cycle).
    private var onPath: [Bool]
    /// Values the walk may still visit. Shared containers are written again at every
    /// reference (some writers share equal arrays), so a few references can describe 2^n
    /// values; the tree reader decodes each object once. Visiting each container once visits
    /// at most one value per reference in the file, so past twice that the walk gives up and
    /// leaves such a file to the tree. This keeps the walk linear in the file and below the
    /// reader's own budget, so it never streams what the reader would refuse.
    private var nodesLeft: Int
    /// UTF-8 of the UTF-16 string being written.
    private let text = TextBuffer()
    /// Keys of the dictionaries being written; a dictionary's keys are checked for duplicates
    /// before its first member.
    private var keys = DictionaryKeyStack()

    /// Why the walk stopped; never shown (the tree reader says it properly).
    private struct GaveUp: Error {}

    /// Streams `bytes` into `sink`; false when the tree reader must do it (see the type's doc).
    /// After false, `sink` holds a partial document and must be thrown away.
    static func transcode<Sink: PlistEventSink & ~Copyable>(_ bytes: UnsafeRawBufferPointer, into sink: inout Sink) -> Bool {
        guard let layout = try? BinaryPlistLayout(file: bytes) else { return false }
        var walker = BinaryPlistTranscoder(layout: layout)
        do {
            try walker.value(layout.topObject, depth: 0, into: &sink)
            return true
        } catch {
            return false
        }
    }

    private init(layout: BinaryPlistLayout) {
        self.layout = layout
        onPath = Array(repeating: false, count: layout.objectCount)
        let references = (layout.offsetTableStart - 8) / layout.refSize
        nodesLeft = min(2 * references + 4096, BinaryPlistLayout.nodeBudget(objectCount: layout.objectCount))
    }

    /// Writes object `index` at `depth`: the reader's checks for an object visit (cycle, depth,
    /// node budget), then its marker.
    private mutating func value<Sink: PlistEventSink & ~Copyable>(_ index: Int, depth: Int, into sink: inout Sink) throws(GaveUp) {
        guard !onPath[index], depth < BinaryPlistReader.maxDepth else { throw GaveUp() }
        nodesLeft -= 1
        guard nodesLeft >= 0 else { throw GaveUp() }
        do {
            let start = try layout.offset(of: index)
            var c = try layout.cursor(at: start)
            let marker = try c.readUInt8()
            let info = marker & 0x0F
            switch marker >> 4 {
            case 0x0, 0x1, 0x2, 0x3, 0x8:
                let scalar = try layout.scalar(marker: marker, at: start, &c)
                do { try sink.scalar(scalar, depth: depth) } catch { throw GaveUp() }
            case 0x4:
                let count = try layout.count(&c, info: info, unit: 1)
                let bytes = try c.readBytes(count)
                do { try sink.data(bytes.assumingMemoryBound(to: UInt8.self), depth: depth) } catch { throw GaveUp() }
            case 0x6:
                // Converted and escaped in one pass (a key is kept unescaped: the duplicate
                // check compares keys).
                let count = try layout.count(&c, info: info, unit: 2)
                let bytes = try c.readBytes(count * 2)
                let out = text.reserve(UTF16BigEndian.maxEscapedCount(byteCount: bytes.count))
                guard let written = UTF16BigEndian.transcode(bytes, to: out, escaping: sink.stringEscapes) else { throw GaveUp() }
                sink.escapedString(UnsafeBufferPointer(start: out, count: written), depth: depth)
            case 0x5:
                let utf8 = try utf8(marker: marker, &c)
                do { try sink.string(utf8, depth: depth) } catch { throw GaveUp() }
            case 0xA:
                let count = try layout.count(&c, info: info, unit: layout.refSize)
                onPath[index] = true
                sink.beginArray(isEmpty: count == 0, depth: depth)
                for i in 0..<count {
                    let ref = try layout.reference(&c)
                    sink.arrayItem(i, depth: depth)
                    try value(ref, depth: depth + 1, into: &sink)
                }
                sink.endArray(isEmpty: count == 0, depth: depth)
                onPath[index] = false
            case 0xD:
                let count = try layout.count(&c, info: info, unit: layout.refSize * 2)
                onPath[index] = true
                try dictionary(count: count, depth: depth, &c, into: &sink)
                onPath[index] = false
            default:
                // Sets (0xC) read as arrays with a warning; unknown markers are errors.
                throw GaveUp()
            }
        } catch {
            throw GaveUp()
        }
    }

    /// A dictionary whose count has been read from `c`, positioned at its key references.
    private mutating func dictionary<Sink: PlistEventSink & ~Copyable>(count: Int, depth: Int, _ c: inout ByteCursor, into sink: inout Sink) throws(GaveUp) {
        // Keys first, as the reader reads them: each a visit at depth + 1, each a string.
        let mark = keys.mark
        defer { keys.pop(to: mark) }
        do {
            for _ in 0..<count {
                let ref = try layout.reference(&c)
                guard depth + 1 < BinaryPlistReader.maxDepth else { throw GaveUp() }
                nodesLeft -= 1
                guard nodesLeft >= 0 else { throw GaveUp() }
                var k = try layout.cursor(at: try layout.offset(of: ref))
                let marker = try k.readUInt8()
                guard marker >> 4 == 0x5 || marker >> 4 == 0x6 else { throw GaveUp() }
                keys.append(try utf8(marker: marker, &k))
            }
            if keys.hasDuplicate(from: mark, count: count) { throw GaveUp() }
            sink.beginDictionary(isEmpty: count == 0, depth: depth)
            for i in 0..<count {
                let ref = try layout.reference(&c)
                let failed = keys.withKey(i, from: mark) { key in
                    do {
                        try sink.dictionaryKey(key, index: i, depth: depth)
                        return false
                    } catch {
                        return true
                    }
                }
                if failed { throw GaveUp() }
                try value(ref, depth: depth + 1, into: &sink)
            }
            sink.endDictionary(isEmpty: count == 0, depth: depth)
        } catch {
            throw GaveUp()
        }
    }

    /// The UTF-8 of the string object whose `marker` has been read from `c`: ASCII strings
    /// straight from the file, UTF-16 transcoded into `text` (valid until the next call).
    private mutating func utf8(marker: UInt8, _ c: inout ByteCursor) throws(GaveUp) -> UnsafeBufferPointer<UInt8> {
        do {
            if marker >> 4 == 0x5 {
                let count = try layout.count(&c, info: marker & 0x0F, unit: 1)
                let bytes = try c.readBytes(count).assumingMemoryBound(to: UInt8.self)
                guard !bytes.contains(where: { $0 >= 0x80 }) else { throw GaveUp() }
                return bytes
            }
            let count = try layout.count(&c, info: marker & 0x0F, unit: 2)
            let bytes = try c.readBytes(count * 2)
            let out = text.reserve(UTF16BigEndian.maxUTF8Count(byteCount: bytes.count))
            guard let written = UTF16BigEndian.transcode(bytes, to: out) else { throw GaveUp() }
            return UnsafeBufferPointer(start: out, count: written)
        } catch {
            throw GaveUp()
        }
    }
}

/// Scratch memory for one string's UTF-8, grown as needed and reused.
private final class TextBuffer {
    private var storage = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
    private var capacity = 256

    /// At least `count` writable bytes (their contents undefined).
    func reserve(_ count: Int) -> UnsafeMutablePointer<UInt8> {
        if count > capacity {
            storage.deallocate()
            capacity = max(count, capacity * 2)
            storage = .allocate(capacity: capacity)
        }
        return storage
    }

    deinit { storage.deallocate() }
}
