import Diagnostics
import PropertyList

/// Where every value of a property list sits in its bytes, by key path: for tools that point
/// at a value (lint findings) or at the element after a comment (suppressions).
///
/// XML: built from the same recording read as `XMLPlistDocument`'s edits
/// (`XMLPlistReader.readRecordingRanges`), for every node; positions are 1-based lines and
/// columns counting bytes, as parse errors are. Binary: each value's object offset (its
/// marker byte), from `BinaryPlistReader.readRecordingOffsets`; positions are byte offsets.
/// JSON: each value's first byte, from `JSONPlistReader.readRecordingOffsets` (UTF-16 JSON,
/// read after conversion, has none); positions are lines and byte columns as JSON errors
/// count them. OpenStep (and `.strings`): each entry's key and value, from
/// `OpenStepReader.readRecordingRanges` (the lossless editor's read); lines and byte columns.
public struct PlistSourceMap: Sendable {
    /// One value's place: its element, and the `<key>` before it in a dictionary.
    public struct Node: Hashable, Sendable {
        /// From the start tag's `<` to just after the end tag's `>`.
        public var element: Range<Int>
        /// The `<key>` element of a dictionary entry; nil for array elements and the root.
        public var key: Range<Int>?

        /// Where the entry starts: its key if it has one, else its element.
        public var start: Int { key?.lowerBound ?? element.lowerBound }
    }

    /// The parsed value (the same as `PropertyListCoding.read` gives).
    public let value: PlistValue
    private let nodes: [[String]: XMLNodeRange]
    /// Offsets of the first byte of each line after the first (XML).
    private let lineStarts: [Int]
    /// Positions are byte offsets (a binary plist).
    private let isBinary: Bool

    /// Reads an XML property list, recording every node's range.
    public init(xml bytes: [UInt8]) throws(PlistError) {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(PlistError) in try XMLPlistReader.readRecordingRanges(raw, focus: nil) }
        }
        let (value, ranges) = try result.get()
        self.value = value
        self.nodes = ranges
        var starts: [Int] = []
        for (i, byte) in bytes.enumerated() where byte == 0x0A { starts.append(i + 1) }
        self.lineStarts = starts
        self.isBinary = false
    }

    /// Reads a binary property list, recording every value's object offset. A value's node
    /// is its object's marker byte (`element` is one byte long; `key` is nil).
    public init(binary bytes: [UInt8]) throws(PlistError) {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(PlistError) in try BinaryPlistReader.readRecordingOffsets(raw) }
        }
        let (value, offsets) = try result.get()
        self.value = value
        self.nodes = offsets.mapValues { XMLNodeRange(element: $0..<($0 + 1), key: nil, closingTag: nil) }
        self.lineStarts = []
        self.isBinary = true
    }

    /// Reads an OpenStep property list or `.strings` file, recording each entry's key and
    /// value (as `OpenStepPlistDocument` does for edits).
    public init(openStep bytes: [UInt8]) throws(PlistError) {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(PlistError) in try OpenStepReader.readRecordingRanges(raw) }
        }
        let (value, ranges, _) = try result.get()
        self.value = value
        // A `.strings` file's brace-less top level is recorded from its first key; it is made
        // to start at the file's start so that a comment before the first entry names that
        // entry (`firstNode(startingAtOrAfter:)`), not the whole file.
        self.nodes = ranges.mapValues { range in
            let element = range.isImplicit ? 0..<range.element.upperBound : range.element
            return XMLNodeRange(element: element, key: range.key, closingTag: nil)
        }
        var starts: [Int] = []
        for (i, byte) in bytes.enumerated() where byte == 0x0A { starts.append(i + 1) }
        self.lineStarts = starts
        self.isBinary = false
    }

    /// Reads a JSON property list, recording where every value starts (with `focus`, only
    /// those paths and their ancestors). A value's node is its first byte (`key` is nil:
    /// findings point at the value); offsets count from after a UTF-8 byte-order mark and
    /// lines end at LF, CRLF or a lone CR, as the reader counts.
    public init(json bytes: [UInt8], focus: [[String]]? = nil) throws(PlistError) {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(PlistError) in try JSONPlistReader.readRecordingOffsets(raw, focus: focus) }
        }
        let (value, offsets) = try result.get()
        self.value = value
        self.nodes = (offsets ?? [:]).mapValues { XMLNodeRange(element: $0..<($0 + 1), key: nil, closingTag: nil) }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes[3...] : bytes[...]
        var starts: [Int] = []
        let base = body.startIndex
        for i in body.indices {
            let c = body[i]
            if c == 0x0A || (c == 0x0D && (i + 1 >= body.endIndex || body[i + 1] != 0x0A)) { starts.append(i - base + 1) }
        }
        self.lineStarts = starts
        self.isBinary = false
    }

    /// The position of the entry at `path` (its key if it has one, else its value), or of its
    /// nearest existing ancestor (a missing key points at the dictionary that lacks it); nil
    /// when not even the root was recorded.
    public func position(of path: [String]) -> SourcePosition? {
        var components = path
        while true {
            if let node = node(at: components) { return position(ofOffset: node.start) }
            guard !components.isEmpty else { return nil }
            components.removeLast()
        }
    }

    /// The node at `path` (key-path components; array indices as decimal strings).
    public func node(at path: [String]) -> Node? {
        nodes[path].map { Node(element: $0.element, key: $0.key) }
    }

    /// The line and column of a byte offset.
    public func position(ofOffset offset: Int) -> SourcePosition {
        if isBinary { return .byteOffset(offset) }
        // The number of line starts at or before `offset` is the 0-based line.
        var low = 0, high = lineStarts.count
        while low < high {
            let mid = (low + high) / 2
            if lineStarts[mid] <= offset { low = mid + 1 } else { high = mid }
        }
        let lineStart = low == 0 ? 0 : lineStarts[low - 1]
        return .text(line: low + 1, column: offset - lineStart + 1)
    }

    /// The path of the first entry (key or element) that starts at or after `offset`, the
    /// outermost one when several start there; nil when none does.
    public func firstNode(startingAtOrAfter offset: Int) -> [String]? {
        var best: (start: Int, path: [String])?
        for (path, range) in nodes {
            let start = range.key?.lowerBound ?? range.element.lowerBound
            guard start >= offset else { continue }
            if let current = best, current.start < start || (current.start == start && current.path.count <= path.count) { continue }
            best = (start, path)
        }
        return best?.path
    }
}
