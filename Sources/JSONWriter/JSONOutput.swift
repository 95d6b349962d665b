/// The one JSON layout devkit writes, as bytes: Python's `json.dumps(value, indent=2,
/// ensure_ascii=False)` (two-space indentation, `"key": value`, one item per line, `{}` and
/// `[]` for empty containers), or everything on one line with `", "` between items. Both
/// `JSONWriter` and the property-list JSON writer lay out their values through it.
public struct JSONOutput: Sendable {
    /// The text so far.
    public var bytes: [UInt8] = []
    /// One line, `", "` between items.
    public let isInline: Bool
    /// One line without spaces (`{"a":[1,2]}`), as plutil and JSONSerialization write it.
    public let isCompact: Bool

    @inlinable
    public init(inline: Bool = false, compact: Bool = false) {
        self.isInline = inline || compact
        self.isCompact = compact
    }

    /// Lowercase, as Python's `json` writes `\u001f`.
    @usableFromInline
    static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Starts item `index` of a container at `depth`: the separator after the previous item,
    /// then the item's line.
    @inlinable
    public mutating func beginItem(_ index: Int, depth: Int) {
        if index > 0 {
            bytes.append(UInt8(ascii: ","))
            if isInline && !isCompact { bytes.append(0x20) }
        }
        newline(indent: depth + 1)
    }

    /// Ends a non-empty container at `depth` with `close` (`]` or `}`) on its own line.
    @inlinable
    public mutating func endContainer(_ close: UInt8, depth: Int) {
        newline(indent: depth)
        bytes.append(close)
    }

    @inlinable
    mutating func newline(indent depth: Int) {
        if isInline { return }
        bytes.append(0x0A)
        // Runs of spaces appended whole: byte by byte cost a third of writing a deep document.
        var left = depth * 2
        while left > 0 {
            let run = min(left, Self.spaces.utf8CodeUnitCount)
            bytes.append(contentsOf: UnsafeBufferPointer(start: Self.spaces.utf8Start, count: run))
            left -= run
        }
    }

    @usableFromInline
    static let spaces: StaticString = "                                                                "

    /// `"key": ` for an object member.
    @inlinable
    public mutating func key(_ key: String) {
        string(key)
        bytes.append(UInt8(ascii: ":"))
        if !isCompact { bytes.append(0x20) }
    }

    /// Appends text as it is (numbers, `true`, `[]`).
    @inlinable
    public mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Writes `s` in double quotes, escaped per RFC 8259 §7: `\"`, `\\`, the short forms for
    /// backspace, form feed, newline, return and tab, `\u00XX` for other controls. Everything
    /// else (including `/` and non-ASCII) is copied as UTF-8.
    @inlinable
    public mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { string(utf8: $0) }
    }

    /// `string(_:)` for text that is already valid UTF-8 bytes (streaming writers).
    @inlinable
    public mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0
        for k in 0..<utf8.count {
            let c = utf8[k]
            guard c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") else { continue }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<k]))
            runStart = k + 1
            switch c {
            case UInt8(ascii: "\""): bytes.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: "\\\\".utf8)
            case 0x08: bytes.append(contentsOf: "\\b".utf8)
            case 0x0C: bytes.append(contentsOf: "\\f".utf8)
            case 0x0A: bytes.append(contentsOf: "\\n".utf8)
            case 0x0D: bytes.append(contentsOf: "\\r".utf8)
            case 0x09: bytes.append(contentsOf: "\\t".utf8)
            default:
                bytes.append(contentsOf: "\\u00".utf8)
                bytes.append(Self.hexDigits[Int(c >> 4)])
                bytes.append(Self.hexDigits[Int(c & 0x0F)])
            }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        bytes.append(UInt8(ascii: "\""))
    }

    /// `"key": ` for an object member whose key is UTF-8 bytes.
    @inlinable
    public mutating func key(utf8: UnsafeBufferPointer<UInt8>) {
        string(utf8: utf8)
        bytes.append(UInt8(ascii: ":"))
        if !isCompact { bytes.append(0x20) }
    }
}
