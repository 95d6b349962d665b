/// How one output format writes each ASCII byte of text: as it is, replaced by a short
/// sequence (`&amp;`, `\"`, `\u001f`), or not at all (XML 1.0 cannot hold most control
/// characters). A transcoder converting UTF-16 escapes through it in the same pass
/// (`UTF16BigEndian.transcode(_:to:escaping:)`) instead of writing UTF-8 that the writer then
/// scans again.
///
/// Built from the writer's own escaping function, byte by byte, so each format's rules are
/// written once.
package struct ASCIIEscapes: Sendable {
    /// One entry per byte below 0x80: 0 for a byte written as it is, `refused` for one the
    /// format cannot hold, else the replacement's length in the low byte and its (at most
    /// `maxReplacement`) bytes above it, first byte lowest.
    let entries: [UInt64]

    static let refused: UInt64 = 0xFF
    /// The longest replacement an entry holds: seven bytes above the length.
    static let maxReplacement = 7

    /// `escape(byte)` is the byte's spelling in the format (the byte itself when it needs no
    /// escape), or nil when the format cannot hold it. A spelling longer than
    /// `maxReplacement` cannot be held: that byte is refused, and text holding it takes the
    /// writer's own path.
    package init(_ escape: (UInt8) -> [UInt8]?) {
        entries = (0..<0x80).map { (byte: UInt8) -> UInt64 in
            guard let spelling = escape(byte) else { return Self.refused }
            if spelling == [byte] { return 0 }
            guard (1...Self.maxReplacement).contains(spelling.count) else { return Self.refused }
            var entry = UInt64(spelling.count)
            for (k, b) in spelling.enumerated() { entry |= UInt64(b) << (8 * (k + 1)) }
            return entry
        }
    }
}
