import Testing
@testable import PropertyList

/// Binary plists hold non-ASCII strings as big-endian UTF-16, transcoded by hand
/// (`BinaryPlistReader.stringFromUTF16BigEndian`): every scalar range round-trips, and an
/// unpaired surrogate anywhere is refused.
@Suite struct UTF16TranscodingTests {
    static func bigEndian(_ units: [UInt16]) -> [UInt8] {
        units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }

    static func decode(_ units: [UInt16]) -> String? {
        bigEndian(units).withUnsafeBytes { BinaryPlistReader.stringFromUTF16BigEndian($0) }
    }

    @Test func everyScalarRangeRoundTrips() {
        var generator = SystemRandomNumberGenerator()
        let ranges: [ClosedRange<UInt32>] = [0...0x7F, 0x80...0x7FF, 0x800...0xD7FF, 0xE000...0xFFFF, 0x10000...0x10FFFF]
        for _ in 0..<2_000 {
            let scalars = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                Unicode.Scalar(UInt32.random(in: ranges.randomElement(using: &generator)!, using: &generator))!
            }
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars)
            let string = String(text)
            #expect(Self.decode(Array(string.utf16)) == string)
        }
    }

    /// ASCII runs of every length from 0 to 40 (the transcoder takes eight and four units at a
    /// time) between non-ASCII scalars, at every alignment.
    @Test func asciiRunsOfEveryLengthDecode() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                text += String((0..<Int.random(in: 0...40, using: &generator)).map { _ in Character(Unicode.Scalar(UInt8.random(in: 0x20...0x7E, using: &generator))) })
                text += ["é", "Ω", "🚀", "中", "\u{7F}", ""].randomElement(using: &generator)!
            }
            #expect(Self.decode(Array(text.utf16)) == text)
        }
    }

    @Test func boundariesDecode() {
        #expect(Self.decode([]) == "")
        #expect(Self.decode([0x7F, 0x80, 0x7FF, 0x800, 0xFFFF]) == "\u{7F}\u{80}\u{7FF}\u{800}\u{FFFF}")
        #expect(Self.decode([0xD800, 0xDC00, 0xDBFF, 0xDFFF]) == "\u{10000}\u{10FFFF}")
    }

    @Test(arguments: [
        [0xD800] as [UInt16],          // a high surrogate at the end
        [0xDC00],                      // a low surrogate alone
        [0x41, 0xD83D, 0x41],          // a high surrogate before a non-surrogate
        [0xD83D, 0xD83D, 0xDE00],      // two high surrogates
        [0x41, 0xDE00, 0xD83D],        // low then high
    ])
    func unpairedSurrogatesAreRefused(_ units: [UInt16]) {
        #expect(Self.decode(units) == nil)
    }
}
