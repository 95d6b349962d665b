/// Base64 (RFC 4648, standard alphabet) for `<data>` elements and JSON data strings.
///
/// Written here rather than using Foundation's `Data(base64Encoded:)`: that either rejects
/// the line breaks and indentation every XML plist has or, with `.ignoreUnknownCharacters`,
/// silently skips garbage that this reader must reject.
package enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    private static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (i, c) in alphabet.enumerated() { table[Int(c)] = UInt8(i) }
        return table
    }()

    /// Why decoding failed, with the byte index into the input.
    package struct DecodingError: Error {
        package var index: Int
        package var reason: String
    }

    /// Decodes, skipping ASCII whitespace; `=` padding is optional but must come last.
    package static func decode<C: Collection<UInt8>>(_ text: C) throws(DecodingError) -> [UInt8] where C.Index == Int {
        var out: [UInt8] = []
        out.reserveCapacity(text.count / 4 * 3)
        var quad: UInt32 = 0
        var have = 0
        var padding = 0
        var i = text.startIndex
        let table = decodeTable
        while i < text.endIndex {
            let c = text[i]
            defer { i += 1 }
            switch c {
            case 0x20, 0x09, 0x0A, 0x0D, 0x0C, 0x0B:
                continue
            case UInt8(ascii: "="):
                padding += 1
                guard have >= 2, have + padding <= 4 else {
                    throw DecodingError(index: i - text.startIndex, reason: "misplaced '=' padding")
                }
                if have + padding == 4 { flush() }
                continue
            default:
                let v = table[Int(c)]
                guard v != 0xFF else {
                    throw DecodingError(index: i - text.startIndex, reason: "byte 0x\(String(c, radix: 16)) is not base64")
                }
                guard padding == 0 else {
                    throw DecodingError(index: i - text.startIndex, reason: "data after '=' padding")
                }
                quad = quad << 6 | UInt32(v)
                have += 1
                if have == 4 {
                    out.append(UInt8(truncatingIfNeeded: quad >> 16))
                    out.append(UInt8(truncatingIfNeeded: quad >> 8))
                    out.append(UInt8(truncatingIfNeeded: quad))
                    quad = 0
                    have = 0
                }
            }
        }
        if have == 1 {
            throw DecodingError(index: text.count, reason: "base64 ends with a lone character (truncated?)")
        }
        if have > 1 { flush() }
        return out

        func flush() {
            // `have` is 2 or 3 significant characters; pad the bit buffer to 24 bits.
            let bits = quad << (6 * UInt32(4 - have))
            out.append(UInt8(truncatingIfNeeded: bits >> 16))
            if have == 3 { out.append(UInt8(truncatingIfNeeded: bits >> 8)) }
            quad = 0
            have = 0
            padding = 0
        }
    }

    /// Encodes into `out`, breaking lines every `lineLength` characters with `linePrefix`
    /// before each line and a newline after it (Apple's `<data>` layout); one line when nil.
    static func encode(_ bytes: [UInt8], into out: inout [UInt8], lineLength: Int? = nil, linePrefix: [UInt8] = []) {
        let a = alphabet
        var column = 0
        let wrap = lineLength.map { max(4, $0 / 4 * 4) }
        if wrap != nil { out.append(contentsOf: linePrefix) }
        var i = 0
        func emit(_ c: UInt8) {
            if let wrap, column == wrap {
                out.append(0x0A)
                out.append(contentsOf: linePrefix)
                column = 0
            }
            out.append(c)
            column += 1
        }
        while i + 3 <= bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            emit(a[Int(n >> 18 & 63)]); emit(a[Int(n >> 12 & 63)])
            emit(a[Int(n >> 6 & 63)]); emit(a[Int(n & 63)])
            i += 3
        }
        let rest = bytes.count - i
        if rest == 1 {
            let n = UInt32(bytes[i]) << 16
            emit(a[Int(n >> 18 & 63)]); emit(a[Int(n >> 12 & 63)]); emit(UInt8(ascii: "=")); emit(UInt8(ascii: "="))
        } else if rest == 2 {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
            emit(a[Int(n >> 18 & 63)]); emit(a[Int(n >> 12 & 63)]); emit(a[Int(n >> 6 & 63)]); emit(UInt8(ascii: "="))
        }
        if wrap != nil { out.append(0x0A) }
    }

    package static func encodedString(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        encode(bytes, into: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
