import DevKitTestSupport
import Testing
@testable import PropertyList
import PropertyListTestSupport

/// The writers' byte-level number and date formatting against the `String` forms they stand
/// in for (`PlistInteger.description`, `PlistDate.iso8601`).
@Suite struct ByteFormattingTests {
    @Test func datesMatchTheirISO8601Text() {
        var rng = SplitMix64(seed: 8601)
        let range = PlistDate.validRange
        var seconds: [Double] = [range.lowerBound, range.upperBound, 0, -1, 0.999, -0.5]
        for _ in 0..<20_000 {
            let unit = Double(rng.next() >> 11) / Double(1 << 53)
            seconds.append((range.lowerBound + unit * (range.upperBound - range.lowerBound)).rounded(.down))
        }
        for s in seconds {
            let date = PlistDate(secondsSinceReferenceDate: s)
            var bytes: [UInt8] = []
            date.appendISO8601(to: &bytes)
            #expect(bytes == Array(date.iso8601.utf8), "\(s)")
        }
    }

    @Test func integersMatchTheirDescription() {
        var rng = SplitMix64(seed: 10)
        var values: [PlistInteger] = [PlistInteger(Int64.min), PlistInteger(Int64.max), PlistInteger(UInt64.max), PlistInteger(Int64(0)), PlistInteger(Int64(-1))]
        for _ in 0..<20_000 {
            let raw = rng.next() >> (rng.next() % 64)
            values.append(rng.next() & 1 == 0 ? PlistInteger(raw) : PlistInteger(-Int64(raw >> 1)))
        }
        for value in values {
            var bytes: [UInt8] = []
            value.appendDecimal(to: &bytes)
            #expect(bytes == Array(value.description.utf8))
        }
    }

    /// RFC 4648 base64 written the plain way, a character at a time, wrapped every
    /// `lineLength` characters (rounded down to whole groups) with `prefix` before each line
    /// and a newline after it.
    static func referenceBase64(_ bytes: [UInt8], lineLength: Int?, prefix: [UInt8]) -> [UInt8] {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var text: [UInt8] = []
        for start in stride(from: 0, to: bytes.count, by: 3) {
            let chunk = Array(bytes[start..<min(start + 3, bytes.count)])
            let n = (Int(chunk[0]) << 16) | (chunk.count > 1 ? Int(chunk[1]) << 8 : 0) | (chunk.count > 2 ? Int(chunk[2]) : 0)
            text += [alphabet[n >> 18 & 63], alphabet[n >> 12 & 63]]
            text.append(chunk.count > 1 ? alphabet[n >> 6 & 63] : UInt8(ascii: "="))
            text.append(chunk.count > 2 ? alphabet[n & 63] : UInt8(ascii: "="))
        }
        guard let lineLength else { return text }
        let wrap = max(4, lineLength / 4 * 4)
        var out: [UInt8] = []
        var start = 0
        repeat {
            out += prefix + text[start..<min(start + wrap, text.count)] + [0x0A]
            start += wrap
        } while start < text.count
        return out
    }

    /// The encoder writes through a pointer into space reserved for the exact size: every
    /// length up to 80 and some larger, at the line lengths the XML writer uses (76 columns
    /// less 8 per tab level, at least 16), odd ones and none, after bytes already in the buffer.
    @Test func base64MatchesThePlainEncoding() {
        var rng = SplitMix64(seed: 4648)
        for count in Array(0...80) + [255, 256, 257, 1_000, 4_097] {
            let bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            for lineLength in [nil, 76, 68, 60, 16, 17, 30] as [Int?] {
                let prefix: [UInt8] = lineLength == 68 ? [0x09] : lineLength == 60 ? [0x09, 0x09] : []
                var out: [UInt8] = Array("<data>".utf8)
                Base64.encode(bytes, into: &out, lineLength: lineLength, linePrefix: prefix)
                let expected = Array("<data>".utf8) + Self.referenceBase64(bytes, lineLength: lineLength, prefix: prefix)
                #expect(out == expected, "\(count) bytes, lines of \(lineLength.map(String.init) ?? "any")")
            }
        }
    }

    /// `appendCanonical` against decoding and encoding again, on base64 as XML writers lay it
    /// out (lines, indentation, padding or none, unused bits set) and on mutations of it:
    /// where it answers, it writes `encode(decode(text))`; it refuses everything `decode`
    /// refuses, and a text it leaves to `decode` must pad a group before its end.
    @Test func canonicalBase64IsDecodingAndEncodingAgain() throws {
        var rng = SplitMix64(seed: 4_648_2)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var answered = 0, refused = 0
        for round in 0..<6_000 {
            let count = Int(rng.next() % 90)
            let bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            var text: [UInt8] = []
            Base64.encode(bytes, into: &text, lineLength: [nil, 68, 16][round % 3], linePrefix: round % 2 == 0 ? [0x09] : [])
            if rng.next() % 3 == 0 { while text.last == UInt8(ascii: "=") || text.last == 0x0A { text.removeLast() } }
            for _ in 0..<Int(rng.next() % 3) where !text.isEmpty {
                let at = Int(rng.next() % UInt64(text.count))
                switch rng.next() % 6 {
                case 0: text.insert([0x20, 0x0A, 0x09, 0x0D][Int(rng.next() % 4)], at: at)
                case 1: text[at] = alphabet[Int(rng.next() % 64)]  // unused bits of a last group, or any character
                case 2: text.remove(at: at)
                case 3: text.insert(UInt8(ascii: "="), at: at)
                case 4: text.insert(UInt8(truncatingIfNeeded: rng.next()), at: at)
                default: text += Array("QQ==".utf8)
                }
            }
            let decoded = try? Base64.decode(text)
            var out: [UInt8] = Array("x".utf8)
            let canonical = text.withUnsafeBytes { Base64.appendCanonical($0, to: &out) }
            if let decoded {
                var expected: [UInt8] = Array("x".utf8)
                Base64.encode(decoded, into: &expected)
                if canonical {
                    answered += 1
                    #expect(out == expected, "\(String(decoding: text, as: UTF8.self))")
                } else {
                    // Left to decode only when a group is padded before the text ends.
                    let body = text.filter { ![0x20, 0x09, 0x0A, 0x0D, 0x0C, 0x0B].contains($0) }
                    let firstPad = body.firstIndex(of: UInt8(ascii: "="))
                    #expect(firstPad.map { body[$0...].contains { $0 != UInt8(ascii: "=") } } == true, "\(String(decoding: text, as: UTF8.self))")
                    #expect(out == Array("x".utf8))
                }
            } else {
                refused += 1
                #expect(!canonical, "\(String(decoding: text, as: UTF8.self))")
                #expect(out == Array("x".utf8))
            }
        }
        // Both sides of the property were exercised.
        #expect(answered > 3_000 && refused > 300)
    }
}
