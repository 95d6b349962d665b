import PropertyList

/// An OpenStep property list or `.strings` file kept as its original bytes, edited in place
/// like `XMLPlistDocument`: each `PlistEdit` changes only the text of the node it names, so
/// comments (the translator notes of a `.strings` file), quoting and layout stay as written.
///
/// Positions come from `OpenStepReader.readRecordingRanges` (the one OpenStep parser). After
/// each edit the text is read again, which proves it is still valid. New strings are quoted
/// when the file quotes its keys (every `.strings` file does), else only when they must be.
public struct OpenStepPlistDocument: Sendable {
    public private(set) var bytes: [UInt8]
    public private(set) var value: PlistValue
    private var ranges: [[String]: OpenStepNodeRange]

    public init(bytes: [UInt8]) throws(PlistError) {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(PlistError) in try OpenStepReader.readRecordingRanges(raw) }
        }
        (value, ranges, _) = try result.get()
        self.bytes = bytes
    }

    /// Applies one edit, changing only the text of the node it names. On failure the document is unchanged.
    public mutating func apply(_ edit: PlistEdit) throws(PlistError) {
        try applyChecked(edit)
    }

    private func node(_ path: KeyPath) throws(PlistError) -> OpenStepNodeRange {
        guard let node = ranges[path.components] else {
            throw PlistError(position: nil, message: "cannot edit \"\(path)\": its position in the file was not recorded")
        }
        return node
    }

    /// True when the file's keys are quoted (decides how new strings are spelled).
    private var quotesStrings: Bool {
        if ranges[[]]?.isImplicit == true { return true }
        let firstKey = ranges.values.compactMap { $0.key?.lowerBound }.min()
        return firstKey.map { bytes[$0] == UInt8(ascii: "\"") } ?? false
    }

    private func fragment(_ value: PlistValue, at offset: Int) throws(PlistError) -> [UInt8] {
        try OpenStepWriter.fragment(value, linePrefix: lineIndentation(at: offset), quoteAll: quotesStrings)
    }

    mutating func replace(_ path: KeyPath, with newValue: PlistValue) throws(PlistError) {
        let node = try node(path)
        guard node.isShortcut, let key = node.key, let end = node.entryEnd else {
            try splice(node.element, with: try fragment(newValue, at: node.element.lowerBound), path: path)
            return
        }
        // `key;` becomes `key = value;`.
        let text = Array(bytes[key]) + Array(" = ".utf8) + (try fragment(newValue, at: key.lowerBound)) + [UInt8(ascii: ";")]
        try splice(key.lowerBound..<end, with: text, path: path)
    }

    mutating func insert(_ newValue: PlistValue, at path: KeyPath) throws(PlistError) {
        let parentPath = path.parent
        let parent = try node(parentPath)
        guard let last = path.components.last else { return }
        let children: [String]
        let isDictionary: Bool
        switch try? value.value(at: parentPath) {
        case .dictionary(let dict)?: isDictionary = true; children = Array(dict.keys)
        case .array(let items)?: isDictionary = false; children = items.indices.map { String($0) }
        default: throw PlistError(position: nil, message: "cannot insert at \"\(path)\": its parent is not a container")
        }
        let quote = quotesStrings
        func entry(_ indent: [UInt8]) throws(PlistError) -> [UInt8] {
            let element = try OpenStepWriter.fragment(newValue, linePrefix: indent, quoteAll: quote)
            guard isDictionary else { return element }
            return OpenStepWriter.string(last, quoteAll: quote) + Array(" = ".utf8) + element + [UInt8(ascii: ";")]
        }

        guard let lastChild = children.last else {
            if parent.isImplicit {
                // An empty `.strings` file (only comments): the entry goes at the end.
                let at = bytes.count
                let prefix: [UInt8] = at > 0 && bytes[at - 1] != 0x0A ? [0x0A] : []
                try splice(at..<at, with: prefix + (try entry([])) + [0x0A], path: path)
                return
            }
            // `{}` or `()` (perhaps with space or comments inside) gets one child on its own line.
            let parentIndent = lineIndentation(at: parent.element.lowerBound)
            let childIndent = parentIndent + Array("    ".utf8)
            let open: UInt8 = isDictionary ? UInt8(ascii: "{") : UInt8(ascii: "(")
            let close: UInt8 = isDictionary ? UInt8(ascii: "}") : UInt8(ascii: ")")
            let text = [open, 0x0A] + childIndent + (try entry(childIndent)) + [0x0A] + parentIndent + [close]
            try splice(parent.element, with: text, path: path)
            return
        }

        if !isDictionary, let index = Int(last), index < children.count {
            // Before the element now at `index`: `new,` on its own line, or inline.
            let sibling = try node(path)
            let start = sibling.element.lowerBound
            let indent = indentation(before: start)
            let lineStart = start - indent.count
            if lineStart == 0 || bytes[lineStart - 1] == 0x0A {
                try splice(lineStart..<lineStart, with: indent + (try entry(indent)) + Array(",\n".utf8), path: path)
            } else {
                try splice(start..<start, with: (try entry([])) + Array(", ".utf8), path: path)
            }
            return
        }

        // After the last child, on a line of its own when the last child has one.
        let sibling = try node(parentPath.appending(lastChild))
        let siblingStart = sibling.key?.lowerBound ?? sibling.element.lowerBound
        let indent = indentation(before: siblingStart)
        let ownLine = siblingStart - indent.count == 0 || bytes[siblingStart - indent.count - 1] == 0x0A
        let separator: [UInt8] = ownLine ? [0x0A] + indent : [0x20]
        if isDictionary {
            let at = ownLine ? endOfLine(after: sibling.entryEnd ?? sibling.element.upperBound) : (sibling.entryEnd ?? sibling.element.upperBound)
            try splice(at..<at, with: separator + (try entry(ownLine ? indent : [])), path: path)
        } else if let comma = sibling.entryEnd {
            // `a, b,` keeps its trailing comma style: `a, b, new,`.
            let at = ownLine ? endOfLine(after: comma) : comma
            try splice(at..<at, with: separator + (try entry(ownLine ? indent : [])) + [UInt8(ascii: ",")], path: path)
        } else {
            let at = sibling.element.upperBound
            try splice(at..<at, with: [UInt8(ascii: ",")] + separator + (try entry(ownLine ? indent : [])), path: path)
        }
    }

    mutating func delete(_ path: KeyPath) throws(PlistError) {
        let target = try node(path)
        var start = target.key?.lowerBound ?? target.element.lowerBound
        var end = target.entryEnd ?? target.element.upperBound
        let isArrayElement = target.key == nil
        if isArrayElement, target.entryEnd == nil, let index = Int(path.components.last ?? ""), index > 0,
           let previous = ranges[path.parent.appending(String(index - 1)).components], previous.entryEnd != nil {
            // The last element without a trailing comma: the previous element's comma goes instead.
            start = previous.element.upperBound
            try splice(start..<end, with: [], path: path)
            return
        }
        // The entry takes its line with it: the indentation before it and the newline before that.
        if let lineStart = layout.lineDeletionStart(for: start) {
            start = lineStart
        } else {
            // Inline (`a, b, c`): take the spaces after it instead.
            while end < bytes.count, bytes[end] == 0x20 { end += 1 }
        }
        try splice(start..<end, with: [], path: path)
    }

    mutating func renameKey(_ path: KeyPath, to newKey: String) throws(PlistError) {
        let target = try node(path)
        guard let key = target.key, path.components.last != newKey else { return }
        let spelled = OpenStepWriter.string(newKey, quoteAll: bytes[key.lowerBound] == UInt8(ascii: "\"") || quotesStrings)
        if target.isShortcut, let end = target.entryEnd {
            // `key;` meant `key = key;`: keep the value, change the key.
            let text = spelled + Array(" = ".utf8) + Array(bytes[key]) + [UInt8(ascii: ";")]
            try splice(key.lowerBound..<end, with: text, path: path)
            return
        }
        try splice(key, with: spelled, path: path)
    }

    /// The end of the line `offset` is on when only spaces and a comment follow it there (so a
    /// comment trailing an entry stays with it); else `offset`.
    private func endOfLine(after offset: Int) -> Int {
        var end = offset
        while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
        let rest = bytes[offset..<end].drop(while: { $0 == 0x20 || $0 == 0x09 })
        let slash = UInt8(ascii: "/"), star = UInt8(ascii: "*")
        if rest.isEmpty || rest.starts(with: [slash, slash]) { return end }
        if rest.starts(with: [slash, star]), rest.count >= 4, rest.suffix(2).elementsEqual([star, slash]),
           !rest.dropFirst(2).dropLast(2).contains(star) {
            return end
        }
        return offset
    }
}

extension OpenStepPlistDocument: LosslessDocument {}
