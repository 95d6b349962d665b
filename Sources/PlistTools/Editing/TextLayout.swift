/// Line and indentation questions about a text document's bytes, shared by the lossless
/// editors (`XMLPlistDocument`, `OpenStepPlistDocument`): where a node's line starts, how it
/// is indented, and how much a deletion takes with it.
struct TextLayout {
    let bytes: [UInt8]

    private static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// The leading spaces and tabs of the line `offset` is on: the indentation of a value that
    /// follows its key on the same line is its entry's.
    func lineIndentation(at offset: Int) -> [UInt8] {
        var start = offset
        while start > 0, bytes[start - 1] != 0x0A { start -= 1 }
        var end = start
        while end < offset, Self.isBlank(bytes[end]) { end += 1 }
        return Array(bytes[start..<end])
    }

    /// The spaces and tabs between the start of the line and `offset`; empty when other text
    /// precedes it on the line.
    func indentation(before offset: Int) -> [UInt8] {
        var start = offset
        while start > 0, Self.isBlank(bytes[start - 1]) { start -= 1 }
        guard isLineStart(start) else { return [] }
        return Array(bytes[start..<offset])
    }

    /// True when `offset` is at the start of the file or just after a newline.
    func isLineStart(_ offset: Int) -> Bool { offset == 0 || bytes[offset - 1] == 0x0A }

    /// Where a deletion of the node starting at `offset` starts when the node takes its line
    /// with it: back over its indentation and the newline (LF or CRLF) before it. Nil when
    /// other text precedes the node on its line.
    func lineDeletionStart(for offset: Int) -> Int? {
        var start = offset
        while start > 0, Self.isBlank(bytes[start - 1]) { start -= 1 }
        guard start > 0, bytes[start - 1] == 0x0A else { return nil }
        start -= 1
        if start > 0, bytes[start - 1] == 0x0D { start -= 1 }
        return start
    }
}
