import System

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
        let result = text.withContiguousStorageIfAvailable { bytes in
            Result { () throws(DecodingError) in try decode(contiguous: bytes) }
        } ?? Array(text).withUnsafeBufferPointer { bytes in
            Result { () throws(DecodingError) in try decode(contiguous: bytes) }
        }
        return try result.get()
    }

    /// Four characters at a time while they are all in the alphabet (the body of every line),
    /// one at a time around whitespace, padding and errors; output written through a pointer.
    private static func decode(contiguous text: UnsafeBufferPointer<UInt8>) throws(DecodingError) -> [UInt8] {
        let capacity = text.count / 4 * 3 + 3
        var out = [UInt8](repeating: 0, count: capacity)
        var written = 0
        var failure: DecodingError?
        out.withUnsafeMutableBufferPointer { buffer in
            decodeTable.withUnsafeBufferPointer { table in
                guard let o = buffer.baseAddress, let t = table.baseAddress, let p = text.baseAddress else { return }
                let n = text.count
                var quad: UInt32 = 0
                var have = 0
                var padding = 0
                var i = 0
                func flush() {
                    // `have` is 2 or 3 significant characters; pad the bit buffer to 24 bits.
                    let bits = quad << (6 * UInt32(4 - have))
                    o[written] = UInt8(truncatingIfNeeded: bits >> 16)
                    written += 1
                    if have == 3 { o[written] = UInt8(truncatingIfNeeded: bits >> 8); written += 1 }
                    quad = 0
                    have = 0
                    padding = 0
                }
                while i < n {
                    if have == 0, padding == 0, i &+ 4 <= n {
                        let a = UInt32(t[Int(p[i])]), b = UInt32(t[Int(p[i &+ 1])])
                        let c = UInt32(t[Int(p[i &+ 2])]), d = UInt32(t[Int(p[i &+ 3])])
                        if a | b | c | d < 64 {
                            let v = a &<< 18 | b &<< 12 | c &<< 6 | d
                            o[written] = UInt8(truncatingIfNeeded: v &>> 16)
                            o[written &+ 1] = UInt8(truncatingIfNeeded: v &>> 8)
                            o[written &+ 2] = UInt8(truncatingIfNeeded: v)
                            written &+= 3
                            i &+= 4
                            continue
                        }
                    }
                    let ch = p[i]
                    defer { i += 1 }
                    switch ch {
                    case 0x20, 0x09, 0x0A, 0x0D, 0x0C, 0x0B:
                        continue
                    case UInt8(ascii: "="):
                        padding += 1
                        guard have >= 2, have + padding <= 4 else {
                            failure = DecodingError(index: i, reason: "misplaced '=' padding")
                            return
                        }
                        if have + padding == 4 { flush() }
                        continue
                    default:
                        let v = t[Int(ch)]
                        guard v != 0xFF else {
                            failure = DecodingError(index: i, reason: "byte 0x\(String(ch, radix: 16)) is not base64")
                            return
                        }
                        guard padding == 0 else {
                            failure = DecodingError(index: i, reason: "data after '=' padding")
                            return
                        }
                        quad = quad << 6 | UInt32(v)
                        have += 1
                        if have == 4 {
                            o[written] = UInt8(truncatingIfNeeded: quad >> 16)
                            o[written + 1] = UInt8(truncatingIfNeeded: quad >> 8)
                            o[written + 2] = UInt8(truncatingIfNeeded: quad)
                            written += 3
                            quad = 0
                            have = 0
                        }
                    }
                }
                if have == 1 {
                    failure = DecodingError(index: n, reason: "base64 ends with a lone character (truncated?)")
                    return
                }
                if have > 1 { flush() }
            }
        }
        if let failure { throw failure }
        out.removeLast(capacity - written)
        return out
    }

    /// Encodes into `out`, breaking lines every `lineLength` characters with `linePrefix`
    /// before each line and a newline after it (Apple's `<data>` layout); one line when nil.
    static func encode(_ bytes: [UInt8], into out: inout some ByteSink & ~Copyable, lineLength: Int? = nil, linePrefix: [UInt8] = []) {
        bytes.withUnsafeBufferPointer { encode($0, into: &out, lineLength: lineLength, linePrefix: linePrefix) }
    }

    /// `encode` over any bytes. The output's exact size is known up front, so it is written
    /// through a pointer into space reserved once: appending character by character cost
    /// about 40 instructions per input byte (85 % of binary→XML on data-heavy plists).
    static func encode(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout some ByteSink & ~Copyable, lineLength: Int? = nil, linePrefix: [UInt8] = []) {
        let characters = (bytes.count + 2) / 3 * 4
        let wrap = lineLength.map { max(4, $0 / 4 * 4) } ?? max(characters, 4)
        let lines = lineLength == nil ? 0 : max(1, (characters + wrap - 1) / wrap)
        let total = characters + lines * (linePrefix.count + 1)
        out.writeUninitialized(count: total) { buffer in
            pairTable.withUnsafeBytes { pairs in
                linePrefix.withUnsafeBufferPointer { prefix in
                    guard var o = buffer.baseAddress, let pairs = pairs.baseAddress else { return }
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

    /// Appends what `encode` writes on one line for the bytes `text` decodes to, without
    /// decoding them: the alphabet characters copied, whitespace dropped, the last group's
    /// unused bits cleared and its padding written. An XML `<data>` element going to JSON took
    /// 9.6 instructions a character to decode and 4 a byte to encode again. False, with `out`
    /// as it was, when `decode` would refuse the text, and when the text pads a group before
    /// its end (`QQ==QQ==`, which decodes but is not one encoding): then decode it.
    package static func appendCanonical(_ text: UnsafeRawBufferPointer, to out: inout [UInt8]) -> Bool {
        let start = out.count
        // At most the text's length plus the padding of a last group the text leaves open.
        out.append(contentsOf: repeatElement(0, count: text.count + 3))
        var written = 0
        let valid = out.withUnsafeMutableBufferPointer { buffer in
            decodeTable.withUnsafeBufferPointer { table -> Bool in
                guard let base = buffer.baseAddress, let t = table.baseAddress else { return false }
                let o = base + start
                guard let p = text.baseAddress else { return true }
                let n = text.count
                // State in locals, not captured by a nested function: captured, they lived in
                // memory and the loop cost as much as decoding.
                var have = 0
                var padding = 0
                var ended = false
                var i = 0
                while i < n {
                    if have == 0, padding == 0, !ended {
                        // A line's body: eight characters at a time while all are in the
                        // alphabet (the table gives 0xFF for any other byte), copied as they are.
                        while i &+ 8 <= n {
                            let w = p.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                            var seen: UInt8 = 0
                            for k in 0..<8 { seen |= t[Int(truncatingIfNeeded: w &>> UInt64(k &* 8)) & 0xFF] }
                            guard seen < 64 else { break }
                            UnsafeMutableRawPointer(o + written).storeBytes(of: w, as: UInt64.self)
                            written &+= 8
                            i &+= 8
                        }
                        // A line of 68 or 76 characters ends in a group of four.
                        if i &+ 4 <= n {
                            let w = p.loadUnaligned(fromByteOffset: i, as: UInt32.self)
                            var seen: UInt8 = 0
                            for k in 0..<4 { seen |= t[Int(truncatingIfNeeded: w &>> UInt32(k &* 8)) & 0xFF] }
                            if seen < 64 {
                                UnsafeMutableRawPointer(o + written).storeBytes(of: w, as: UInt32.self)
                                written &+= 4
                                i &+= 4
                            }
                        }
                        guard i < n else { break }
                    }
                    let ch = p.load(fromByteOffset: i, as: UInt8.self)
                    i &+= 1
                    switch ch {
                    case 0x20, 0x09, 0x0A, 0x0D, 0x0C, 0x0B:
                        continue
                    case UInt8(ascii: "="):
                        padding += 1
                        guard have >= 2, have + padding <= 4 else { return false }
                        if have + padding == 4 {
                            closeGroup(o, &written, have: have, table: t)
                            have = 0
                            padding = 0
                            ended = true
                        }
                    default:
                        guard t[Int(ch)] != 0xFF, padding == 0, !ended else { return false }
                        o[written] = ch
                        written &+= 1
                        have = (have &+ 1) & 3
                    }
                }
                if have == 1 { return false }
                if have > 1 { closeGroup(o, &written, have: have, table: t) }
                return true
            }
        }
        out.removeLast(out.count - start - (valid ? written : 0))
        return valid
    }

    /// Ends a group of `have` (2 or 3) characters, the last at `written - 1`, as `encode`
    /// writes it: that character's bits past the group's bytes cleared, then `=` padding.
    private static func closeGroup(_ o: UnsafeMutablePointer<UInt8>, _ written: inout Int, have: Int, table t: UnsafePointer<UInt8>) {
        let last = Int(t[Int(o[written - 1])])
        o[written - 1] = alphabet[have == 2 ? last & 0x30 : last & 0x3C]
        for _ in have..<4 {
            o[written] = UInt8(ascii: "=")
            written += 1
        }
    }

    package static func encodedString(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        encode(bytes, into: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
