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
}
