import PropertyList

/// An XML property list kept as its original bytes, edited in place: each `PlistEdit` changes
/// only the bytes of the edited node (an insertion adds lines indented like its siblings, a
/// deletion takes its line with it), so comments, layout and every other node stay as written.
///
/// Node positions come from `XMLPlistReader.readRecordingRanges` (the same expat token
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

    /// Applies one edit, changing only the bytes of the node it names (and, for an insertion,
    /// adding lines indented like the node's siblings). On failure the document is unchanged.
    public mutating func apply(_ edit: PlistEdit) throws(PlistError) {
        try applyChecked(edit)
    }

    /// Replaces the element at `path` (checked to exist) with `newValue` written at its indentation.
    mutating func replace(_ path: KeyPath, with newValue: PlistValue) throws(PlistError) {
        let ranges = try ranges(around: path)
        guard let node = ranges[path.components] else { throw notRecorded(path) }
        let prefix = lineIndentation(at: node.element.lowerBound)
        let text = try XMLPlistWriter.fragment(newValue, linePrefix: prefix, indent: indentUnit(ranges, around: path))
        try splice(node.element, with: newlines(text), path: path)
    }

    /// Adds `newValue` at `path` (checked: a new key of a dictionary or an index `0...count` of
    /// an array). A new dictionary key goes at the end, after any comment lines there.
    mutating func insert(_ newValue: PlistValue, at path: KeyPath) throws(PlistError) {
        let parentPath = path.parent
        let ranges = try ranges(around: path)
        guard let parentNode = ranges[parentPath.components], let last = path.components.last else { throw notRecorded(parentPath) }
        let unit = indentUnit(ranges, around: path)
        let parentValue = try? value.value(at: parentPath)
        let isDictionary: Bool
        let children: [String]
        switch parentValue {
        case .dictionary(let dict)?: isDictionary = true; children = Array(dict.keys)
        case .array(let items)?: isDictionary = false; children = items.indices.map { String($0) }
        default: throw notRecorded(parentPath)
        }
        /// The new entry's text for a line indented with `indent` (no leading indentation).
        func entry(_ indent: [UInt8]) throws(PlistError) -> [UInt8] {
            let element = try XMLPlistWriter.fragment(newValue, linePrefix: indent, indent: unit)
            guard isDictionary else { return newlines(element) }
            return newlines(try Self.keyElement(last) + [0x0A] + indent + element)
        }
        let nl = newline

        guard let lastChild = children.last else {
            // An empty container (`<dict/>` or `<dict></dict>`) is rewritten with one child.
            let parentIndent = lineIndentation(at: parentNode.element.lowerBound)
            let childIndent = parentIndent + unit.bytes
            let tag = isDictionary ? "dict" : "array"
            let text = Array("<\(tag)>".utf8) + nl + childIndent + (try entry(childIndent)) + nl + parentIndent + Array("</\(tag)>".utf8)
            try splice(parentNode.element, with: text, path: path)
            return
        }
        if !isDictionary, let index = Int(last), index < children.count {
            // Before the element now at `index`, on a line of its own when it has one.
            guard let sibling = ranges[path.components] else { throw notRecorded(path) }
            let start = sibling.element.lowerBound
            let indent = indentation(before: start)
            let lineStart = start - indent.count
            if lineStart == 0 || bytes[lineStart - 1] == 0x0A {
                try splice(lineStart..<lineStart, with: indent + (try entry(indent)) + nl, path: path)
            } else {
                try splice(start..<start, with: try entry([]), path: path)
            }
            return
        }
        // At the end: indented like the last child, before the line of the closing tag.
        guard let sibling = ranges[parentPath.components + [lastChild]], let closing = parentNode.closingTag else { throw notRecorded(path) }
        let indent = indentation(before: sibling.key?.lowerBound ?? sibling.element.lowerBound)
        var at = closing
        while at > 0, bytes[at - 1] == 0x20 || bytes[at - 1] == 0x09 { at -= 1 }
        if at > 0, bytes[at - 1] == 0x0A {
            at -= 1
            if at > 0, bytes[at - 1] == 0x0D { at -= 1 }
            try splice(at..<at, with: nl + indent + (try entry(indent)), path: path)
        } else {
            // The closing tag shares a line with content: append right after the last child.
            let end = sibling.element.upperBound
            try splice(end..<end, with: try entry([]), path: path)
        }
    }

    /// Removes the dictionary entry (key and value) or array element at `path`, with the
    /// whitespace before it back to and including the preceding newline.
    mutating func delete(_ path: KeyPath) throws(PlistError) {
        let ranges = try ranges(around: path)
        guard let node = ranges[path.components] else { throw notRecorded(path) }
        let nodeStart = node.key?.lowerBound ?? node.element.lowerBound
        let start = layout.lineDeletionStart(for: nodeStart) ?? nodeStart
        try splice(start..<node.element.upperBound, with: [], path: path)
    }

    /// Rewrites only the `<key>` element of the entry at `path`.
    mutating func renameKey(_ path: KeyPath, to newKey: String) throws(PlistError) {
        guard path.components.last != newKey else { return }
        let ranges = try ranges(around: path)
        guard let key = ranges[path.components]?.key else { throw notRecorded(path) }
        try splice(key, with: try Self.keyElement(newKey), path: path)
    }

    /// `<key>…</key>`, escaped as a string is; only the tag name differs.
    private static func keyElement(_ key: String) throws(PlistError) -> [UInt8] {
        let text = try XMLPlistWriter.leafElement(.string(key))
        return Array("<key>".utf8) + text.dropFirst("<string>".utf8.count).dropLast("</string>".utf8.count) + Array("</key>".utf8)
    }

    private func notRecorded(_ path: KeyPath) -> PlistError {
        PlistError(position: nil, message: "cannot edit \"\(path)\": its position in the file was not recorded")
    }

    /// The file's line ending: CRLF when its first line ends so, else LF.
    private var newline: [UInt8] {
        guard let lf = bytes.firstIndex(of: 0x0A) else { return [0x0A] }
        return lf > 0 && bytes[lf - 1] == 0x0D ? [0x0D, 0x0A] : [0x0A]
    }

    /// `text` (written with LF) with the file's line ending.
    private func newlines(_ text: [UInt8]) -> [UInt8] {
        guard newline.count == 2 else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.count + 16)
        for byte in text {
            if byte == 0x0A { out.append(0x0D) }
            out.append(byte)
        }
        return out
    }

    /// One level of indentation as the file spells it: a recorded child's indentation minus its
    /// parent's (the focus path's ancestors and siblings are recorded), the deepest pair first;
    /// a tab when nothing tells.
    private func indentUnit(_ ranges: [[String]: XMLNodeRange], around path: KeyPath) -> XMLIndent {
        for (child, childNode) in ranges.sorted(by: { $0.key.count > $1.key.count }) where !child.isEmpty {
            guard let parentNode = ranges[Array(child.dropLast())] else { continue }
            let childStart = childNode.key?.lowerBound ?? childNode.element.lowerBound
            let childIndent = indentation(before: childStart)
            let parentIndent = indentation(before: parentNode.element.lowerBound)
            guard childIndent.count > parentIndent.count, childIndent.starts(with: parentIndent),
                  childStart - childIndent.count == 0 || bytes[childStart - childIndent.count - 1] == 0x0A else { continue }
            let unit = childIndent.dropFirst(parentIndent.count)
            if unit.count == 1, unit.first == 0x09 { return .tabs }
            if unit.allSatisfy({ $0 == 0x20 }), XMLIndent.validSpaceCounts.contains(unit.count) { return .spaces(unit.count) }
        }
        return .tabs
    }
}

extension XMLPlistDocument: LosslessDocument {}
