import DevKitTestSupport
@testable import HeapAnalysis
import Testing

/// `ColumnScan`'s word-at-a-time counts against a byte-at-a-time reference, on byte strings
/// made of a few values that end, continue and overflow ULEB128 numbers, at every start
/// within a word, so runs of continuation bytes cross the words' edges at every place.
struct ColumnScanTests {
    /// Numbers decoded one by one as the checked decoder does; nil where it would throw.
    static func referenceCount(_ bytes: [UInt8]) -> Int? {
        var at = 0, count = 0
        while at < bytes.count {
            var shift: UInt64 = 0
            while true {
                guard at < bytes.count else { return nil }
                let byte = bytes[at]
                at += 1
                guard shift < 63 || (shift == 63 && byte & 0x7e == 0) else { return nil }
                if byte & 0x80 == 0 { break }
                shift += 7
            }
            count += 1
        }
        return count
    }

    static func strings(seed: UInt64) -> [[UInt8]] {
        var random = SplitMix64(seed: seed)
        let palette: [UInt8] = [0x00, 0x01, 0x02, 0x7f, 0x80, 0x81, 0xfe, 0xff]
        var strings: [[UInt8]] = []
        for length in 0..<48 {
            for _ in 0..<40 {
                // Mostly continuation bytes in some strings, so runs of 9, 10 and more occur.
                let continuation = random.next() % 4
                strings.append((0..<length).map { _ in
                    random.next() % 4 < continuation ? palette[4 + Int(random.next() % 4)] : palette[Int(random.next() % 4)]
                })
            }
        }
        // Runs of exactly 9 and 10 continuation bytes before each palette byte, at every offset.
        for offset in 0..<8 {
            for run in 8...11 {
                for last in palette {
                    strings.append([UInt8](repeating: 0x05, count: offset) + [UInt8](repeating: 0x80, count: run) + [last, 0x03])
                }
            }
        }
        return strings
    }

    @Test(arguments: [1, 2])
    func varintCountMatchesTheReference(seed: UInt64) {
        var counted = 0, refused = 0
        for string in Self.strings(seed: seed) {
            for start in 0..<8 {
                let padded = [UInt8](repeating: 0x80, count: start) + string + [UInt8](repeating: 0x80, count: 8)
                let count = padded.withUnsafeBufferPointer { buffer in
                    ColumnScan.varintCount(buffer.baseAddress!, from: start, to: start + string.count)
                }
                let expected = Self.referenceCount(string)
                #expect(count == expected, "\(string) from \(start)")
                if expected == nil { refused += 1 } else { counted += 1 }
            }
        }
        #expect(counted > 1_000 && refused > 1_000, "counted \(counted), refused \(refused)")
    }

    @Test func tagCountsMatchAByteCount() {
        var random = SplitMix64(seed: 5)
        for length in 0..<70 {
            let tags = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next() % 7) }
            let counts = (tags + [0]).withUnsafeBufferPointer { ColumnScan.tagCounts($0.baseAddress!, from: 0, to: length) }
            #expect(counts.alloc == tags.filter { $0 == 1 }.count)
            #expect(counts.free == tags.filter { $0 == 2 }.count)
            #expect(counts.allocTyped == tags.filter { $0 == 3 }.count)
            #expect(counts.shortLived == tags.filter { $0 == 4 }.count)
            #expect(counts.other == tags.filter { $0 == 0 || $0 > 4 }.count)
        }
    }
}
