import System

/// Writes XML property lists in Apple's layout: XML declaration, the plist DOCTYPE, tab
/// indentation, `<true/>`/`<false/>`, `<dict/>` for empty containers, `<data>` as base64
/// lines indented like their tag (76 columns, counting a tab as 8, as Apple and plistlib do).
///
/// Output goes straight into a `ByteBuffer`: no `String` building per element, and each piece
/// is one capacity check and a copy.
///
/// `XMLIndent.spaces(n)` swaps the tabs for `n` spaces per level (everything else unchanged;
/// `<data>` lines then count each level as `n` columns).
package struct XMLPlistWriter: ~Copyable {
    static let header = Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """.utf8)

    private var out = ByteBuffer()
    private var indentation: XMLIndent = .tabs
    /// Written at the start of every line before the level's indentation (fragments only).
    private var linePrefix: [UInt8] = []
    /// Takes the output in pieces of about 1 MiB as it is made (a file being written), so a
    /// large document is never held whole; nil keeps everything in `out`.
    package var drain: OutputDrain?

    static func write(_ value: PlistValue, indent: XMLIndent = .tabs, drain: OutputDrain? = nil) throws(PlistError) -> [UInt8] {
        // About 32 bytes of XML per value: growing the buffer by copying costs more than guessing.
        var writer = XMLPlistWriter(reservingCapacity: drain == nil ? value.nodeCount * 32 + 4096 : OutputDrain.pieceSize * 2,
                                    indent: indent)
        writer.drain = drain
        try writer.write(value, depth: 0)
        return writer.finish()
    }

    /// One leaf element (string, integer, real, bool, date, data) as `write` spells it, with
    /// no indentation and no trailing newline: for replacing a single node in place.
    package static func leafElement(_ value: PlistValue) throws(PlistError) -> [UInt8] {
        var writer = XMLPlistWriter()
        try writer.write(value, depth: 0)
        if writer.out.last == 0x0A { writer.out.removeLast() }
        return writer.out.array()
    }

    /// One value (any type) as `write` spells it, for splicing into a document at a place whose
    /// line starts with `linePrefix`: the first line has no prefix (it continues the current
    /// line), the following ones have `linePrefix` plus `indent` per level; no trailing newline.
    package static func fragment(_ value: PlistValue, linePrefix: [UInt8], indent: XMLIndent) throws(PlistError) -> [UInt8] {
        var writer = XMLPlistWriter()
        writer.indentation = indent
        writer.linePrefix = linePrefix
        try writer.write(value, depth: 0)
        if writer.out.last == 0x0A { writer.out.removeLast() }
        return writer.out.withUnsafeBufferPointer { Array($0.dropFirst(linePrefix.count)) }
    }

    private mutating func indent(_ depth: Int) {
        if !linePrefix.isEmpty { out.write(linePrefix) }
        switch indentation {
        case .tabs:
            // Most lines are a few levels deep: one copy of a run of tabs (a fill calls memset).
            if depth <= Self.tabs.utf8CodeUnitCount {
                out.write(UnsafeBufferPointer(start: Self.tabs.utf8Start, count: depth))
            } else {
                out.write(repeating: 0x09, count: depth)
            }
        case .spaces: out.write(repeating: 0x20, count: indentation.columns * depth)
        }
    }

    private static let tabs: StaticString = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t"

    private mutating func put(_ text: StaticString) {
        out.write(text)
    }

    /// `open`, `body`, `close` (tags spelt whole, so an element is three appends).
    private mutating func element(_ open: StaticString, _ body: UnsafeBufferPointer<UInt8>, _ close: StaticString) {
        put(open)
        out.write(body)
        put(close)
    }

    /// Bytes below 0x3F that go into XML text as they are (a bit per byte value): tab, line
    /// feed and printable ASCII except `&` and `<`; `>` (0x3E) is escaped as Apple does.
    private static let plainBelow3F: UInt64 = 0x2FFF_FFBF_0000_0600

    private mutating func escaped(_ open: StaticString, _ text: UnsafeBufferPointer<UInt8>, _ close: StaticString) throws(PlistError) {
        put(open)
        try appendEscaped(text)
        put(close)
    }

    private mutating func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>) throws(PlistError) {
        // Runs of bytes that need nothing are copied whole: a byte-at-a-time append was 42 %
        // of binary→XML on long strings. Eight bytes are tested at once (no byte below 0x20,
        // no `&`, `<` or `>`), then single bytes with one compare for most.
        let plain = Self.plainBelow3F
        var run = 0
        var i = 0
        let count = bytes.count
        guard let base = bytes.baseAddress else { return }
        while i < count {
            if i + 8 <= count {
                let x = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                if !Self.mayNeedEscaping(x) {
                    i += 8
                    continue
                }
            }
            let c = base[i]
            i += 1
            if c > 0x3E || plain >> UInt64(c) & 1 != 0 { continue }
            out.write(UnsafeBufferPointer(start: base + run, count: i - 1 - run))
            run = i
            switch c {
            case UInt8(ascii: "&"): put("&amp;")
            case UInt8(ascii: "<"): put("&lt;")
            case UInt8(ascii: ">"): put("&gt;")
            // A raw CR would come back as LF (XML end-of-line normalisation): keep it as a reference.
            case 0x0D: put("&#13;")
            default:
                let text = String(decoding: bytes, as: UTF8.self)
                throw PlistError(position: nil, message: "string \"\(text.prefix(40))\" contains control character U+\(String(c, radix: 16, uppercase: true).leftPadded(4)), which XML 1.0 cannot hold")
            }
        }
        out.write(UnsafeBufferPointer(start: base + run, count: count - run))
    }

    /// False only if none of the eight bytes is below 0x20, `&`, `<` or `>` (bit tricks from
    /// "Bit Twiddling Hacks": a byte's high bit is set where it may be; never a false "no").
    @inline(__always)
    private static func mayNeedEscaping(_ x: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func zeroByte(_ v: UInt64) -> UInt64 { (v &- ones) & ~v & highs }
        let below20 = (x &- ones &* 0x20) & ~x & highs
        return below20 | zeroByte(x ^ (ones &* 0x26)) | zeroByte(x ^ (ones &* 0x3C)) | zeroByte(x ^ (ones &* 0x3E)) != 0
    }
}

extension XMLPlistWriter: PlistEventSink {
    package typealias Failure = PlistError

    /// A writer for streaming into (`BinaryPlistTranscoder`), with Apple's header written;
    /// `finish` gives the document.
    package init(reservingCapacity capacity: Int, indent: XMLIndent = .tabs) {
        indentation = indent
        out = ByteBuffer(capacity: capacity)
        Self.header.withUnsafeBufferPointer { out.write($0) }
    }

    /// The document, or what is left of it after the drain took its pieces.
    package consuming func finish() -> [UInt8] {
        put("</plist>\n")
        return out.array()
    }

    package mutating func beginArray(isEmpty: Bool, depth: Int) {
        indent(depth)
        if isEmpty { put("<array/>\n") } else { put("<array>\n") }
    }

    package mutating func arrayItem(_ index: Int, depth: Int) {
        drain?.takeIfFull(&out)
    }

    package mutating func endArray(isEmpty: Bool, depth: Int) {
        guard !isEmpty else { return }
        indent(depth)
        put("</array>\n")
    }

    package mutating func beginDictionary(isEmpty: Bool, depth: Int) {
        indent(depth)
        if isEmpty { put("<dict/>\n") } else { put("<dict>\n") }
    }

    package mutating func dictionaryKey(_ utf8: UnsafeBufferPointer<UInt8>, index: Int, depth: Int) throws(PlistError) {
        drain?.takeIfFull(&out)
        indent(depth + 1)
        try escaped("<key>", utf8, "</key>\n")
    }

    package mutating func endDictionary(isEmpty: Bool, depth: Int) {
        guard !isEmpty else { return }
        indent(depth)
        put("</dict>\n")
    }

    package mutating func string(_ utf8: UnsafeBufferPointer<UInt8>, depth: Int) throws(PlistError) {
        indent(depth)
        try escaped("<string>", utf8, "</string>\n")
    }

    package var stringEscapes: ASCIIEscapes { Self.escapes }

    /// `appendEscaped`'s spelling of each ASCII byte.
    private static let escapes = ASCIIEscapes { byte in
        var writer = XMLPlistWriter()
        let escaped: Void? = try? withUnsafePointer(to: byte) { b throws(PlistError) in
            try writer.appendEscaped(UnsafeBufferPointer(start: b, count: 1))
        }
        return escaped == nil ? nil : writer.out.array()
    }

    package mutating func escapedString(_ escaped: UnsafeBufferPointer<UInt8>, depth: Int) {
        indent(depth)
        element("<string>", escaped, "</string>\n")
    }

    package mutating func data(_ bytes: UnsafeBufferPointer<UInt8>, depth: Int) {
        indent(depth)
        put("<data>\n")
        if !bytes.isEmpty {
            let levels: [UInt8] = switch indentation {
            case .tabs: [UInt8](repeating: 0x09, count: depth)
            case .spaces: [UInt8](repeating: 0x20, count: indentation.columns * depth)
            }
            let prefix = linePrefix + levels
            Base64.encode(bytes, into: &out, lineLength: max(16, 76 - indentation.columns * depth), linePrefix: prefix)
        }
        indent(depth)
        put("</data>\n")
    }

    package mutating func scalar(_ value: PlistValue, depth: Int) throws(PlistError) {
        indent(depth)
        switch value {
        case .integer(let i):
            put("<integer>")
            i.appendDecimal(to: &out)
            put("</integer>\n")
        case .real(let r):
            put("<real>")
            out.write(r.description)
            put("</real>\n")
        case .bool(let b):
            if b { put("<true/>\n") } else { put("<false/>\n") }
        case .date(let d):
            guard d.components != nil else {
                throw PlistError(position: nil, message: "date \(d.secondsSinceReferenceDate) s from 2001 has no XML form (years 1...9999 only)")
            }
            put("<date>")
            d.appendISO8601(to: &out)
            put("</date>\n")
        case .uid(let u):
            // XML has no UID; Apple's and plistlib's writers spell it as a CF$UID dictionary.
            put("<dict>\n")
            indent(depth + 1)
            put("<key>CF$UID</key>\n")
            indent(depth + 1)
            put("<integer>")
            out.writeDecimal(u)
            put("</integer>\n")
            indent(depth)
            put("</dict>\n")
        case .string, .data, .array, .dictionary:
            // Not scalars: `write` and the transcoders hand these to their own calls.
            try write(value, depth: depth)
        }
    }
}
