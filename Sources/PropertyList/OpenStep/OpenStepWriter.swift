/// Writes old-style (OpenStep) property lists in the layout of Apple's tools and Xcode:
/// `{\n    key = value;\n}` with four-space indentation, `(\n    a,\n    b\n)`, `{}` and `()`
/// when empty, data as `<0fbd7777 1c2735ae>` (lowercase hex in 4-byte words), UTF-8 text.
///
/// OpenStep has only strings, data, arrays and dictionaries. Integers, reals, booleans and
/// dates are written as GNUstep's typed values (`<*I42>`, `<*R1.5>`, `<*BY>`, `<*D2024-01-02
/// 03:04:05 +0000>`), which `OpenStepReader` and GNUstep read back; Apple's parser rejects
/// them. UIDs have no spelling at all and are an error.
///
/// Output goes straight into a byte buffer and is deterministic (dictionary order is kept).
package enum OpenStepWriter {
    static func write(_ value: PlistValue) throws(PlistError) -> [UInt8] {
        var emitter = Emitter()
        emitter.out.reserveCapacity(4096)
        try emitter.write(value, depth: 0)
        emitter.out.append(0x0A)
        return emitter.out
    }

    /// True when `s` can be written without quotes and reads back as the same string, in
    /// Apple's parser as well as here: non-empty, only CF's unquoted characters
    /// `[A-Za-z0-9_$/:.-]` (GNUstep's `+` is left out so CF can read the output), not opening
    /// with `//` (a comment), and not a number (`12`, `-1.5`, `inf`): every reader here takes
    /// those as strings, but libplist reads them as numbers.
    static func canBeUnquoted(_ s: String) -> Bool {
        let utf8 = s.utf8
        guard !utf8.isEmpty else { return false }
        for c in utf8 {
            guard c != UInt8(ascii: "+"), OpenStepReader.isUnquoted(c) else { return false }
        }
        if utf8.starts(with: "//".utf8) { return false }
        return PlistInteger(ascii: utf8) == nil && PlistReal.parse(utf8) == nil
    }

    /// One value as `write` spells it, for splicing into a file at a place whose line starts
    /// with `linePrefix`: later lines get `linePrefix` plus four spaces per level. With
    /// `quoteAll`, every string is quoted (the `.strings` habit), else only those that need it.
    package static func fragment(_ value: PlistValue, linePrefix: [UInt8], quoteAll: Bool) throws(PlistError) -> [UInt8] {
        var emitter = Emitter()
        emitter.linePrefix = linePrefix
        emitter.quoteAll = quoteAll
        try emitter.write(value, depth: 0)
        return emitter.out
    }

    /// A string (a key or value) as `write` spells it.
    package static func string(_ s: String, quoteAll: Bool) -> [UInt8] {
        var emitter = Emitter()
        emitter.quoteAll = quoteAll
        emitter.string(s)
        return emitter.out
    }

    private struct Emitter {
        var out: [UInt8] = []
        var linePrefix: [UInt8] = []
        var quoteAll = false

        mutating func indent(_ depth: Int) {
            out.append(contentsOf: linePrefix)
            out.append(contentsOf: repeatElement(0x20, count: 4 * depth))
        }

        mutating func string(_ s: String) {
            if !quoteAll, OpenStepWriter.canBeUnquoted(s) {
                out.append(contentsOf: s.utf8)
                return
            }
            out.append(UInt8(ascii: "\""))
            for c in s.utf8 {
                switch c {
                case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
                case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
                case 0x0A: out.append(contentsOf: #"\n"#.utf8)
                case 0x09: out.append(contentsOf: #"\t"#.utf8)
                case 0x0D: out.append(contentsOf: #"\r"#.utf8)
                case 0..<0x20, 0x7F:
                    // Other control characters as a UTF-16 escape; non-ASCII stays UTF-8.
                    out.append(contentsOf: #"\U00"#.utf8)
                    out.append(Self.hexDigit(c >> 4))
                    out.append(Self.hexDigit(c & 0x0F))
                default: out.append(c)
                }
            }
            out.append(UInt8(ascii: "\""))
        }

        static func hexDigit(_ nibble: UInt8) -> UInt8 {
            nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
        }

        mutating func typed(_ kind: Unicode.Scalar, _ body: String) {
            out.append(contentsOf: [UInt8(ascii: "<"), UInt8(ascii: "*"), UInt8(ascii: kind)])
            out.append(contentsOf: body.utf8)
            out.append(UInt8(ascii: ">"))
        }

        mutating func write(_ value: PlistValue, depth: Int) throws(PlistError) {
            switch value {
            case .string(let s):
                string(s)
            case .data(let bytes):
                out.append(UInt8(ascii: "<"))
                for (index, byte) in bytes.enumerated() {
                    if index > 0 && index % 4 == 0 { out.append(0x20) }
                    out.append(Self.hexDigit(byte >> 4))
                    out.append(Self.hexDigit(byte & 0x0F))
                }
                out.append(UInt8(ascii: ">"))
            case .integer(let i):
                typed("I", i.description)
            case .real(let r):
                typed("R", r.description)
            case .bool(let b):
                typed("B", b ? "Y" : "N")
            case .date(let d):
                // Whole seconds only: GNUstep's format has no fraction (it is rounded down).
                guard let c = d.components else {
                    throw PlistError(position: nil, message: "date \(d.secondsSinceReferenceDate) s from 2001 has no OpenStep form (years 1...9999 only)")
                }
                func pad(_ v: Int, _ width: Int) -> String { String(v).leftPadded(width) }
                typed("D", "\(pad(c.year, 4))-\(pad(c.month, 2))-\(pad(c.day, 2)) \(pad(c.hour, 2)):\(pad(c.minute, 2)):\(pad(c.second, 2)) +0000")
            case .uid(let u):
                throw PlistError(position: nil, message: "OpenStep cannot hold a UID (CF$UID \(u)); write it as XML or binary")
            case .array(let items):
                if items.isEmpty {
                    out.append(contentsOf: "()".utf8)
                    return
                }
                out.append(contentsOf: "(\n".utf8)
                for (index, item) in items.enumerated() {
                    indent(depth + 1)
                    try write(item, depth: depth + 1)
                    if index + 1 < items.count { out.append(UInt8(ascii: ",")) }
                    out.append(0x0A)
                }
                indent(depth)
                out.append(UInt8(ascii: ")"))
            case .dictionary(let dict):
                if dict.isEmpty {
                    out.append(contentsOf: "{}".utf8)
                    return
                }
                out.append(contentsOf: "{\n".utf8)
                for (key, item) in dict {
                    indent(depth + 1)
                    string(key)
                    out.append(contentsOf: " = ".utf8)
                    try write(item, depth: depth + 1)
                    out.append(contentsOf: ";\n".utf8)
                }
                indent(depth)
                out.append(UInt8(ascii: "}"))
            }
        }
    }
}
