/// An XML property list kept as its original bytes, edited in place: `set` and `delete`
/// change only the bytes of the edited node, so comments, layout and every other node stay
/// as written.
///
/// Node positions come from `XMLPlistReader.readRecordingRanges` (the same libxml2 token
/// stream as plain reading), recorded for each edit around its path only. After each edit the
/// bytes are read again, which proves the result is still a valid plist. Only UTF-8 input is
/// editable.
public struct XMLPlistDocument: Sendable {
    public private(set) var bytes: [UInt8]
    public private(set) var value: PlistValue
    /// Node positions recorded by the first read, around the path the caller said it would edit.
    private var focusedRanges: (path: KeyPath, ranges: [[String]: XMLNodeRange])?

    /// Invariant: byte offsets are UTF-8 offsets; UTF-16 input (BOM or NUL-interleaved `<`) is refused.
    private static func checkEncoding(_ bytes: [UInt8]) throws(PlistError) {
        if bytes.count >= 2, (bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE) || bytes[0] == 0 || bytes[1] == 0 {
            throw PlistError(position: nil, message: "only UTF-8 XML property lists can be edited (this one is UTF-16; convert it first)")
        }
    }

    public init(bytes: [UInt8]) throws(PlistError) {
        try Self.checkEncoding(bytes)
        self.bytes = bytes
        self.value = try PropertyListCoding.read(bytes, format: .xml).value
    }

    /// Reads `bytes` once, recording the node positions an edit at `focus` needs, so the edit
    /// does not parse the file again before splicing.
    public init(bytes: [UInt8], focus: KeyPath) throws(PlistError) {
        try Self.checkEncoding(bytes)
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(PlistError) in try XMLPlistReader.readRecordingRanges(raw, focus: focus.components) }
        }
        let (value, ranges) = try result.get()
        self.bytes = bytes
        self.value = value
        self.focusedRanges = (focus, ranges)
    }

    /// Positions of the nodes an edit at `path` needs.
    private func ranges(around path: KeyPath) throws(PlistError) -> [[String]: XMLNodeRange] {
        if let focusedRanges, focusedRanges.path == path { return focusedRanges.ranges }
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(PlistError) in try XMLPlistReader.readRecordingRanges(raw, focus: path.components) }
        }
        return try result.get().ranges
    }

    /// Sets the leaf at `path` to `newValue` (a leaf), replacing just its element, or adds a
    /// new key at the end of an existing non-empty dictionary.
    public mutating func set(_ path: KeyPath, to newValue: PlistValue) throws(PlistError) {
        guard PlistEditType(of: newValue) != nil else {
            throw PlistError(position: nil, message: "cannot set \"\(path)\": only strings, numbers, booleans, dates and data can be set")
        }
        let element = try XMLPlistWriter.leafElement(newValue)
        let ranges = try ranges(around: path)
        if let existing = try PlistValue.checkPath(value, path: path, verb: "set") {
            guard PlistEditType(of: existing) != nil, let node = ranges[path.components] else {
                throw PlistError(position: nil, message: "cannot set \"\(path)\": replacing a \(existing.typeName) is not supported yet")
            }
            try replace(node.element, with: element, path: path)
            return
        }
        // A new key: checkPath guarantees the parent is a dictionary.
        let parentPath = Array(path.components.dropLast())
        guard let parent = ranges[parentPath], let closing = parent.closingTag,
              case .dictionary(let dict)? = try? value.value(at: KeyPath(parentPath)),
              let lastKey = dict.keys.last, let sibling = ranges[parentPath + [lastKey]], let siblingKey = sibling.key else {
            throw PlistError(position: nil, message: "cannot set \"\(path)\": adding a key to an empty dictionary is not supported yet")
        }
        let indent = indentation(before: siblingKey.lowerBound)
        // Insert before the newline that starts the `</dict>` line (or right before `</dict>`).
        var at = closing
        while at > 0, bytes[at - 1] == 0x20 || bytes[at - 1] == 0x09 { at -= 1 }
        var newline: [UInt8] = [0x0A]
        if !(at > 0 && bytes[at - 1] == 0x0A) { at = closing } else { at -= 1 }
        // A CRLF file gets CRLF lines.
        if at != closing, at > 0, bytes[at - 1] == 0x0D {
            at -= 1
            newline = [0x0D, 0x0A]
        }
        // The key is escaped as a string is; only the tag name differs.
        let keyText = try XMLPlistWriter.leafElement(.string(path.components.last ?? ""))
        let keyElement = Array("<key>".utf8) + keyText.dropFirst("<string>".utf8.count).dropLast("</string>".utf8.count) + Array("</key>".utf8)
        let inserted: [UInt8] = newline + indent + keyElement + newline + indent + element
        try replace(at..<at, with: inserted, path: path)
    }

    /// Removes the dictionary entry (key and value) or array element at `path`, with the
    /// whitespace before it back to and including the preceding newline.
    public mutating func delete(_ path: KeyPath) throws(PlistError) {
        guard !path.components.isEmpty else { throw PlistError(position: nil, message: "cannot delete the root value") }
        try PlistValue.checkPath(value, path: path, verb: "delete")
        let ranges = try ranges(around: path)
        guard let node = ranges[path.components] else {
            throw PlistError(position: nil, message: "cannot delete \"\(path)\": its position was not recorded")
        }
        var start = node.key?.lowerBound ?? node.element.lowerBound
        while start > 0, bytes[start - 1] == 0x20 || bytes[start - 1] == 0x09 { start -= 1 }
        if start > 0, bytes[start - 1] == 0x0A {
            start -= 1
            if start > 0, bytes[start - 1] == 0x0D { start -= 1 }
        }
        try replace(start..<node.element.upperBound, with: [], path: path)
    }

    /// The spaces and tabs between the start of the line and `offset`; empty when other text precedes it.
    private func indentation(before offset: Int) -> [UInt8] {
        var start = offset
        while start > 0, bytes[start - 1] == 0x20 || bytes[start - 1] == 0x09 { start -= 1 }
        guard start == 0 || bytes[start - 1] == 0x0A else { return [] }
        return Array(bytes[start..<offset])
    }

    /// Splices `replacement` in and re-reads; on any failure the document is unchanged.
    private mutating func replace(_ range: Range<Int>, with replacement: [UInt8], path: KeyPath) throws(PlistError) {
        var edited = bytes
        edited.replaceSubrange(range, with: replacement)
        do {
            self = try XMLPlistDocument(bytes: edited)
        } catch {
            throw PlistError(position: nil, message: "cannot edit \"\(path)\": the result would not be a valid property list (\(error.message))")
        }
    }
}
