/// Base64 (RFC 4648, standard alphabet) for `<data>` elements and JSON data strings.
///
/// Written here rather than using Foundation's `Data(base64Encoded:)`: that either rejects
/// the line breaks and indentation every XML plist has or, with `.ignoreUnknownCharacters`,
/// silently skips garbage that this reader must reject.
package enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The two characters of every 12-bit value, in output order: half a group per lookup.
    private static let pairTable: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 8192)
        for i in 0..<4096 {
            table[2 * i] = alphabet[i >> 6]
            table[2 * i + 1] = alphabet[i & 63]
        }
        return table
    }()

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
        bytes.withUnsafeBufferPointer { encode($0, into: &out, lineLength: lineLength, linePrefix: linePrefix) }
    }

    /// `encode` over any bytes. The output's exact size is known up front, so it is written
    /// through a pointer into space reserved once: appending character by character cost
    /// about 40 instructions per input byte (85 % of binary→XML on data-heavy plists).
    static func encode(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8], lineLength: Int? = nil, linePrefix: [UInt8] = []) {
        let characters = (bytes.count + 2) / 3 * 4
        let wrap = lineLength.map { max(4, $0 / 4 * 4) } ?? max(characters, 4)
        let lines = lineLength == nil ? 0 : max(1, (characters + wrap - 1) / wrap)
        let total = characters + lines * (linePrefix.count + 1)
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: total))
        out.withUnsafeMutableBufferPointer { buffer in
            pairTable.withUnsafeBytes { pairs in
                linePrefix.withUnsafeBufferPointer { prefix in
                    guard var o = buffer.baseAddress.map({ $0 + start }), let pairs = pairs.baseAddress else { return }
                    guard var i = bytes.baseAddress else {
                        // No bytes: one empty line when wrapping (prefix and newline), else nothing.
                        if lines > 0 {
                            if let p = prefix.baseAddress, prefix.count > 0 { o.update(from: p, count: prefix.count); o += prefix.count }
                            o[0] = 0x0A
                        }
                        return
                    }
                    var left = bytes.count
                    repeat {
                        if lines > 0, let p = prefix.baseAddress, prefix.count > 0 {
                            o.update(from: p, count: prefix.count)
                            o += prefix.count
                        }
                        // Whole groups on this line (wrapping arithmetic: the counts are bounded above).
                        let groups = min(wrap / 4, left / 3)
                        let stop = i + groups &* 3
                        while i < stop {
                            let n = Int(i[0]) &<< 16 | Int(i[1]) &<< 8 | Int(i[2])
                            let high = pairs.loadUnaligned(fromByteOffset: (n &>> 12) &<< 1, as: UInt16.self)
                            let low = pairs.loadUnaligned(fromByteOffset: (n & 0xFFF) &<< 1, as: UInt16.self)
                            UnsafeMutableRawPointer(o).storeBytes(of: high, as: UInt16.self)
                            UnsafeMutableRawPointer(o + 2).storeBytes(of: low, as: UInt16.self)
                            o += 4
                            i += 3
                        }
                        left &-= groups &* 3
                        let room = wrap / 4 - groups
                        if room > 0, left > 0 {
                            let p = i
                            // The last one or two bytes, padded with `=`.
                            let n = Int(p[0]) << 16 | (left == 2 ? Int(p[1]) << 8 : 0)
                            let high = pairs.loadUnaligned(fromByteOffset: 2 * (n >> 12), as: UInt16.self)
                            UnsafeMutableRawPointer(o).storeBytes(of: high, as: UInt16.self)
                            o[2] = left == 2 ? pairs.load(fromByteOffset: 2 * (n & 0xFFF), as: UInt8.self) : UInt8(ascii: "=")
                            o[3] = UInt8(ascii: "=")
                            o += 4; left = 0
                        }
                        if lines > 0 { o[0] = 0x0A; o += 1 }
                    } while left > 0
                }
            }
        }
    }

    package static func encodedString(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        encode(bytes, into: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
