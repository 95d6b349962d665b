import Testing
@testable import PropertyList
import PropertyListTestSupport

/// The writers' byte-level number and date formatting against the `String` forms they stand
/// in for (`PlistInteger.description`, `PlistDate.iso8601`).
@Suite struct ByteFormattingTests {
    @Test func datesMatchTheirISO8601Text() {
        var rng = SeededGenerator(seed: 8601)
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
        var rng = SeededGenerator(seed: 10)
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
        var rng = SeededGenerator(seed: 4648)
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
}
