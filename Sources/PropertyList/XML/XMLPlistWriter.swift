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

    private mutating func escaped(_ tag: StaticString, _ s: String) throws(PlistError) {
        out.append(UInt8(ascii: "<"))
        out.append(contentsOf: UnsafeBufferPointer(start: tag.utf8Start, count: tag.utf8CodeUnitCount))
        out.append(UInt8(ascii: ">"))
        // Most strings need no escaping: copy those in one go.
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") }) {
            out.append(contentsOf: s.utf8)
        } else {
            try appendEscaped(s)
        }
        out.append(contentsOf: [UInt8(ascii: "<"), UInt8(ascii: "/")])
        out.append(contentsOf: UnsafeBufferPointer(start: tag.utf8Start, count: tag.utf8CodeUnitCount))
        out.append(contentsOf: [UInt8(ascii: ">"), 0x0A])
    }

    private mutating func appendEscaped(_ s: String) throws(PlistError) {
        // Runs of bytes that need nothing are copied whole: a byte-at-a-time append was 42 %
        // of binary→XML on long strings.
        var text = s
        let control: UInt8? = text.withUTF8 { bytes in
            var run = 0
            for i in bytes.indices {
                let c = bytes[i]
                if c > UInt8(ascii: ">") || (c >= 0x20 && c != UInt8(ascii: "&") && c != UInt8(ascii: "<") && c != UInt8(ascii: ">")) || c == 0x09 || c == 0x0A {
                    continue
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<i]))
                run = i + 1
                switch c {
                case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
                case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
                case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
                // A raw CR would come back as LF (XML end-of-line normalisation): keep it as a reference.
                case 0x0D: out.append(contentsOf: "&#13;".utf8)
                default: return c
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...]))
            return nil
        }
        if let c = control {
            throw PlistError(position: nil, message: "string \"\(s.prefix(40))\" contains control character U+\(String(c, radix: 16, uppercase: true).leftPadded(4)), which XML 1.0 cannot hold")
        }
    }

    private mutating func write(_ value: PlistValue, depth: Int) throws(PlistError) {
        indent(depth)
        switch value {
        case .string(let s):
            try escaped("string", s)
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
        case .data(let bytes):
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
        case .uid(let u):
            // XML has no UID; Apple's and plistlib's writers spell it as a CF$UID dictionary.
            out.append(contentsOf: "<dict>\n".utf8)
            indent(depth + 1)
            element("key", "CF$UID".utf8)
            indent(depth + 1)
            element("integer", String(u).utf8)
            indent(depth)
            out.append(contentsOf: "</dict>\n".utf8)
        case .array(let items):
            if items.isEmpty {
                out.append(contentsOf: "<array/>\n".utf8)
                return
            }
            out.append(contentsOf: "<array>\n".utf8)
            for item in items { try write(item, depth: depth + 1) }
            indent(depth)
            out.append(contentsOf: "</array>\n".utf8)
        case .dictionary(let dict):
            if dict.isEmpty {
                out.append(contentsOf: "<dict/>\n".utf8)
                return
            }
            out.append(contentsOf: "<dict>\n".utf8)
            for (key, item) in dict {
                indent(depth + 1)
                try escaped("key", key)
                try write(item, depth: depth + 1)
            }
            indent(depth)
            out.append(contentsOf: "</dict>\n".utf8)
        }
    }
}
