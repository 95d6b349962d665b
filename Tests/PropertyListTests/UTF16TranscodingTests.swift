import DevKitTestSupport
import Testing
@testable import PropertyList
import JSONWriter

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
        var generator = SplitMix64(seed: 2031)
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
        var generator = SplitMix64(seed: 2032)
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

    // MARK: transcoding and escaping in one pass

    static let xmlEscapes = XMLPlistWriter(reservingCapacity: 0).stringEscapes
    static let jsonEscapes = JSONEmitter(nonJSONValues: .asStrings).stringEscapes

    static func escapedInOnePass(_ text: String, _ escapes: ASCIIEscapes) -> [UInt8]? {
        escapedInOnePass(units: Array(text.utf16), escapes)
    }

    static func escapedInOnePass(units: [UInt16], _ escapes: ASCIIEscapes) -> [UInt8]? {
        let bytes = bigEndian(units)
        let out = UnsafeMutablePointer<UInt8>.allocate(capacity: UTF16BigEndian.maxEscapedCount(byteCount: bytes.count))
        defer { out.deallocate() }
        return bytes.withUnsafeBytes { raw in
            UTF16BigEndian.transcode(raw, to: out, escaping: escapes).map { Array(UnsafeBufferPointer(start: out, count: $0)) }
        }
    }

    /// The XML writer's own spelling of `text` between `<string>` and `</string>`, nil if it refuses it.
    static func xmlWriterSpelling(_ text: String) -> [UInt8]? {
        guard let element = try? XMLPlistWriter.leafElement(.string(text)) else { return nil }
        return Array(element.dropFirst("<string>".utf8.count).dropLast("</string>".utf8.count))
    }

    static func jsonWriterSpelling(_ text: String) -> [UInt8] {
        var output = JSONOutput()
        output.string(text)
        return Array(output.bytes.dropFirst().dropLast())
    }

    /// Binary→XML/JSON escape while they transcode: on text of every kind (escaped characters
    /// at every position, controls, every scalar range, runs of plain ASCII) the one pass
    /// writes exactly what the writers write for the decoded string, and refuses exactly what
    /// the XML writer refuses.
    @Test func escapingWhileTranscodingEqualsTheWritersSpelling() {
        var generator = SplitMix64(seed: 2033)
        let pieces = ["&", "<", ">", "\"", "\\", "\t", "\n", "\r", "\u{1}", "\u{1F}", "\u{7F}", "/", "é", "Ω", "🚀", "中", "a & b", "<tag>"]
        var refused = 0
        for _ in 0..<3_000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...8, using: &generator) {
                text += String((0..<Int.random(in: 0...12, using: &generator)).map { _ in Character(Unicode.Scalar(UInt8.random(in: 0x20...0x7E, using: &generator))) })
                text += pieces.randomElement(using: &generator)!
            }
            let xml = Self.escapedInOnePass(text, Self.xmlEscapes)
            #expect(xml == Self.xmlWriterSpelling(text), "\(text.debugDescription)")
            if xml == nil { refused += 1 }
            #expect(Self.escapedInOnePass(text, Self.jsonEscapes) == Self.jsonWriterSpelling(text), "\(text.debugDescription)")
        }
        // Control characters came up often enough for the refusal to be tested.
        #expect(refused > 100)
    }

    @Test func escapeTablesSpellAsTheWritersDo() {
        #expect(Self.escapedInOnePass("a&<>\"\r\t", Self.xmlEscapes) == Array("a&amp;&lt;&gt;\"&#13;\t".utf8))
        #expect(Self.escapedInOnePass("\u{1}", Self.xmlEscapes) == nil)
        #expect(Self.escapedInOnePass("\"\\\u{8}\u{C}\n\r\t\u{1F}/é", Self.jsonEscapes) == Array(#"\"\\\b\f\n\r\t\u001f/é"#.utf8))
    }

    @Test(arguments: [[0xD800] as [UInt16], [0x26, 0xDC00], [0x41, 0xD83D, 0x3C]])
    func escapingRefusesUnpairedSurrogates(_ units: [UInt16]) {
        #expect(Self.escapedInOnePass(units: units, Self.xmlEscapes) == nil)
        #expect(Self.escapedInOnePass(units: units, Self.jsonEscapes) == nil)
    }

    /// A spelling too long for a table entry refuses the byte (its text takes the writer's path).
    @Test func spellingsTooLongAreRefused() {
        let escapes = ASCIIEscapes { byte in byte == UInt8(ascii: "x") ? Array("&#x0078;".utf8) : [byte] }
        #expect(Self.escapedInOnePass("ab", escapes) == Array("ab".utf8))
        #expect(Self.escapedInOnePass("axb", escapes) == nil)
    }
}
