extension StringProtocol {
    var trimmedWhitespace: Substring {
        let view = self[...]
        guard let first = view.firstIndex(where: { !$0.isWhitespace }),
              let last = view.lastIndex(where: { !$0.isWhitespace }) else { return Substring() }
        return Substring(view[first...last])
    }
}

extension Substring {
    /// `StringProtocol.trimmedWhitespace`, ASCII first, on the bytes: every line of a log is
    /// trimmed, and `Character.isWhitespace` asks Unicode's tables. A non-ASCII byte at either
    /// edge (a no-break space, a combining mark on a space) goes the Character way, so the
    /// result is the same.
    var trimmedWhitespace: Substring {
        let bytes = utf8
        var first = bytes.startIndex, last = bytes.endIndex
        while first < last, Self.isASCIISpace(bytes[first]) { first = bytes.index(after: first) }
        while first < last, Self.isASCIISpace(bytes[bytes.index(before: last)]) { last = bytes.index(before: last) }
        if first == last { return Substring() }
        if bytes[first] < 0x80, bytes[bytes.index(before: last)] < 0x80 { return Substring(bytes[first..<last]) }
        let view = self[...]
        guard let start = view.firstIndex(where: { !$0.isWhitespace }),
              let end = view.lastIndex(where: { !$0.isWhitespace }) else { return Substring() }
        return view[start...end]
    }

    /// Space, tab, line feed, vertical tab, form feed, carriage return: the ASCII characters
    /// `Character.isWhitespace` accepts.
    private static func isASCIISpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
}

extension String {
    var trimmedWhitespace: Substring { self[...].trimmedWhitespace }
}
