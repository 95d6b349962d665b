/// Writes XML property lists in Apple's layout: XML declaration, the plist DOCTYPE, tab
/// indentation, `<true/>`/`<false/>`, `<dict/>` for empty containers, `<data>` as base64
/// lines indented like their tag (76 columns, counting a tab as 8, as Apple and plistlib do).
///
/// Output goes straight into a byte buffer: no `String` building per element.
///
/// `XMLIndent.spaces(n)` swaps the tabs for `n` spaces per level (everything else unchanged;
/// `<data>` lines then count each level as `n` columns).
package struct XMLPlistWriter {
    static let header = Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """.utf8)

    private var out: [UInt8] = []
    private var indentation: XMLIndent = .tabs
    /// Written at the start of every line before the level's indentation (fragments only).
    private var linePrefix: [UInt8] = []

    static func write(_ value: PlistValue, indent: XMLIndent = .tabs) throws(PlistError) -> [UInt8] {
        var writer = XMLPlistWriter()
        writer.indentation = indent
        // About 32 bytes of XML per value: growing the buffer by copying costs more than guessing.
        writer.out.reserveCapacity(value.nodeCount * 32 + 4096)
        writer.out.append(contentsOf: header)
        try writer.write(value, depth: 0)
        writer.out.append(contentsOf: "</plist>\n".utf8)
        return writer.out
    }

    /// One leaf element (string, integer, real, bool, date, data) as `write` spells it, with
    /// no indentation and no trailing newline: for replacing a single node in place.
    package static func leafElement(_ value: PlistValue) throws(PlistError) -> [UInt8] {
        var writer = XMLPlistWriter()
        try writer.write(value, depth: 0)
        if writer.out.last == 0x0A { writer.out.removeLast() }
        return writer.out
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
        return Array(writer.out.dropFirst(linePrefix.count))
    }

    private mutating func indent(_ depth: Int) {
        out.append(contentsOf: linePrefix)
        switch indentation {
        case .tabs: for _ in 0..<depth { out.append(0x09) }
        case .spaces: out.append(contentsOf: repeatElement(0x20, count: indentation.columns * depth))
        }
    }

    private mutating func element(_ tag: StaticString, _ body: some Sequence<UInt8>) {
        out.append(UInt8(ascii: "<"))
        out.append(contentsOf: UnsafeBufferPointer(start: tag.utf8Start, count: tag.utf8CodeUnitCount))
        out.append(UInt8(ascii: ">"))
        out.append(contentsOf: body)
        out.append(contentsOf: [UInt8(ascii: "<"), UInt8(ascii: "/")])
        out.append(contentsOf: UnsafeBufferPointer(start: tag.utf8Start, count: tag.utf8CodeUnitCount))
        out.append(contentsOf: [UInt8(ascii: ">"), 0x0A])
    }

    /// Bytes below 0x3F that go into XML text as they are (a bit per byte value): tab, line
    /// feed and printable ASCII except `&` and `<`; `>` (0x3E) is escaped as Apple does.
    private static let plainBelow3F: UInt64 = 0x2FFF_FFBF_0000_0600

    private mutating func escaped(_ tag: StaticString, _ text: UnsafeBufferPointer<UInt8>) throws(PlistError) {
        out.append(UInt8(ascii: "<"))
        out.append(contentsOf: UnsafeBufferPointer(start: tag.utf8Start, count: tag.utf8CodeUnitCount))
        out.append(UInt8(ascii: ">"))
        try appendEscaped(text)
        out.append(contentsOf: [UInt8(ascii: "<"), UInt8(ascii: "/")])
        out.append(contentsOf: UnsafeBufferPointer(start: tag.utf8Start, count: tag.utf8CodeUnitCount))
        out.append(contentsOf: [UInt8(ascii: ">"), 0x0A])
    }

    private mutating func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>) throws(PlistError) {
        // Runs of bytes that need nothing are copied whole: a byte-at-a-time append was 42 %
        // of binary→XML on long strings; the test is one compare for most bytes.
        let plain = Self.plainBelow3F
        var run = 0
        for i in 0..<bytes.count {
            let c = bytes[i]
            if c > 0x3E || plain >> UInt64(c) & 1 != 0 { continue }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<i]))
            run = i + 1
            switch c {
            case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
            // A raw CR would come back as LF (XML end-of-line normalisation): keep it as a reference.
            case 0x0D: out.append(contentsOf: "&#13;".utf8)
            default:
                let text = String(decoding: bytes, as: UTF8.self)
                throw PlistError(position: nil, message: "string \"\(text.prefix(40))\" contains control character U+\(String(c, radix: 16, uppercase: true).leftPadded(4)), which XML 1.0 cannot hold")
            }
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...]))
    }

    private mutating func write(_ value: PlistValue, depth: Int) throws(PlistError) {
        switch value {
        case .string(var s):
            // withUTF8 rethrows untyped errors: carry the typed one out.
            var failure: PlistError?
            s.withUTF8 { utf8 in
                do throws(PlistError) { try string(utf8, depth: depth) } catch { failure = error }
            }
            if let failure { throw failure }
        case .data(let bytes):
            bytes.withUnsafeBufferPointer { buffer in data(buffer, depth: depth) }
        case .array(let items):
            beginArray(count: items.count, depth: depth)
            for (index, item) in items.enumerated() {
                arrayItem(index, depth: depth)
                try write(item, depth: depth + 1)
            }
            endArray(count: items.count, depth: depth)
        case .dictionary(let dict):
            beginDictionary(count: dict.count, depth: depth)
            for (index, (key, item)) in dict.enumerated() {
                var key = key
                var failure: PlistError?
                key.withUTF8 { utf8 in
                    do throws(PlistError) { try dictionaryKey(utf8, index: index, depth: depth) } catch { failure = error }
                }
                if let failure { throw failure }
                try write(item, depth: depth + 1)
            }
            endDictionary(count: dict.count, depth: depth)
        case .integer, .real, .bool, .date, .uid:
            try scalar(value, depth: depth)
        }
    }
}

extension XMLPlistWriter: PlistEventSink {
    package typealias Failure = PlistError

    /// A writer for streaming into (`BinaryPlistTranscoder`), with Apple's header written;
    /// `finish` gives the document.
    package init(reservingCapacity capacity: Int, indent: XMLIndent = .tabs) {
        indentation = indent
        out.reserveCapacity(capacity)
        out.append(contentsOf: Self.header)
    }

    package mutating func finish() -> [UInt8] {
        out.append(contentsOf: "</plist>\n".utf8)
        return out
    }

    package mutating func beginArray(count: Int, depth: Int) {
        indent(depth)
        out.append(contentsOf: (count == 0 ? "<array/>\n" : "<array>\n").utf8)
    }

    package mutating func arrayItem(_ index: Int, depth: Int) {}

    package mutating func endArray(count: Int, depth: Int) {
        guard count > 0 else { return }
        indent(depth)
        out.append(contentsOf: "</array>\n".utf8)
    }

    package mutating func beginDictionary(count: Int, depth: Int) {
        indent(depth)
        out.append(contentsOf: (count == 0 ? "<dict/>\n" : "<dict>\n").utf8)
    }

    package mutating func dictionaryKey(_ utf8: UnsafeBufferPointer<UInt8>, index: Int, depth: Int) throws(PlistError) {
        indent(depth + 1)
        try escaped("key", utf8)
    }

    package mutating func endDictionary(count: Int, depth: Int) {
        guard count > 0 else { return }
        indent(depth)
        out.append(contentsOf: "</dict>\n".utf8)
    }

    package mutating func string(_ utf8: UnsafeBufferPointer<UInt8>, depth: Int) throws(PlistError) {
        indent(depth)
        try escaped("string", utf8)
    }

    package mutating func data(_ bytes: UnsafeBufferPointer<UInt8>, depth: Int) {
        indent(depth)
        out.append(contentsOf: "<data>\n".utf8)
        if !bytes.isEmpty {
            let levels: [UInt8] = switch indentation {
            case .tabs: [UInt8](repeating: 0x09, count: depth)
            case .spaces: [UInt8](repeating: 0x20, count: indentation.columns * depth)
            }
            let prefix = linePrefix + levels
            Base64.encode(bytes, into: &out, lineLength: max(16, 76 - indentation.columns * depth), linePrefix: prefix)
        }
        indent(depth)
        out.append(contentsOf: "</data>\n".utf8)
    }

    package mutating func scalar(_ value: PlistValue, depth: Int) throws(PlistError) {
        indent(depth)
        switch value {
        case .integer(let i):
            element("integer", i.description.utf8)
        case .real(let r):
            element("real", r.description.utf8)
        case .bool(let b):
            out.append(contentsOf: (b ? "<true/>\n" : "<false/>\n").utf8)
        case .date(let d):
            guard d.components != nil else {
                throw PlistError(position: nil, message: "date \(d.secondsSinceReferenceDate) s from 2001 has no XML form (years 1...9999 only)")
            }
            element("date", d.iso8601.utf8)
        case .uid(let u):
            // XML has no UID; Apple's and plistlib's writers spell it as a CF$UID dictionary.
            out.append(contentsOf: "<dict>\n".utf8)
            indent(depth + 1)
            element("key", "CF$UID".utf8)
            indent(depth + 1)
            element("integer", String(u).utf8)
            indent(depth)
            out.append(contentsOf: "</dict>\n".utf8)
        case .string, .data, .array, .dictionary:
            // Not scalars: `write` and the transcoders hand these to their own calls.
            try write(value, depth: depth)
        }
    }
}
