import DevKitTestSupport
import Testing
@testable import PropertyList
import PropertyListTestSupport

/// `XMLPlistTranscoder` (XML → XML/JSON without a value tree) against the tree it stands in
/// for: whenever it streams, the tree reads the document and writes the same bytes; whenever
/// the tree converts a generated value, the stream does too; hand-made and mutated documents
/// never stream what the tree refuses.
@Suite struct XMLTranscoderTests {
    typealias Target = BinaryTranscoderTests.Target

    static func tree(_ bytes: [UInt8], _ target: Target) -> [UInt8]? {
        BinaryTranscoderTests.tree(bytes, target, from: .xml)
    }

    static func stream(_ bytes: [UInt8], _ target: Target) -> [UInt8]? {
        BinaryTranscoderTests.stream(bytes, target, from: .xml)
    }

    /// The safety property: a streamed result is the tree's result.
    static func checkNeverDisagrees(_ bytes: [UInt8], _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        BinaryTranscoderTests.checkNeverDisagrees(bytes, label, from: .xml, sourceLocation: sourceLocation)
    }

    static func document(_ body: String) -> [UInt8] {
        Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n\(body)\n</plist>\n".utf8)
    }

    @Test(arguments: Array(UInt64(1)...300))
    func generatedValuesStreamExactly(seed: UInt64) throws {
        // No UIDs: XML spells one as a CF$UID dictionary, which goes through the tree
        // (documentsTheTreeRefusesOrReadsDifferentlyGoThroughTheTree).
        var generator = ValueGenerator(rng: SplitMix64(seed: seed), capabilities: .init(uids: false))
        let bytes = try PropertyListCoding.write(generator.value(), as: .xml)
        for target in Target.allCases {
            let expected = Self.tree(bytes, target)
            // Generated values have no duplicate keys and no CF$UID: the stream gives up
            // exactly where the writer refuses a value (dates and data in strict JSON …).
            #expect(Self.stream(bytes, target) == expected, "seed \(seed) \(target)")
        }
    }

    @Test func samplesAndCorpusStreamExactly() throws {
        var streamed = 0
        var files: [(String, [UInt8])] = []
        for name in ["Samples/Info.plist", "Samples/Broken.plist"] {
            let url = Corpus.repoRoot.appendingPathComponent(name)
            if let bytes = try? Corpus.bytes(url) { files.append((name, bytes)) }
        }
        for directory in ["plist/valid", "plist/invalid"] {
            for url in Corpus.files(directory) ?? [] {
                let bytes = try Corpus.bytes(url)
                guard PlistFormat.detect(bytes) == .xml else { continue }
                files.append((url.lastPathComponent, bytes))
            }
        }
        for (name, bytes) in files {
            Self.checkNeverDisagrees(bytes, name)
            if Self.stream(bytes, .xml) != nil { streamed += 1 }
        }
        #expect(streamed >= 1)
    }

    /// Documents written by hand rather than by the writer: whitespace around numbers and
    /// dates, references, comments, empty elements spelled both ways, base64 broken into lines.
    @Test func handWrittenDocumentsStreamExactly() {
        let body = """
            <dict>
              <!-- a comment -->
              <key>name</key> <string>a &amp; b &lt;c&gt; &#x263A; &#233;</string>
              <key>empty</key><string/>
              <key>also empty</key><string></string>
              <key></key><integer> -42 </integer>
              <key>big</key><integer>18446744073709551615</integer>
              <key>hex</key><integer>0x1F</integer>
              <key>r</key><real>
                 1.5e3 </real>
              <key>d</key><date> 2024-02-29T12:00:00Z </date>
              <key>data</key><data>
                AAEC
                AwQF
              </data>
              <key>t</key><true/>
              <key>f</key><false></false>
              <key>a</key><array></array>
              <key>a2</key><array/>
              <key>dd</key><dict></dict>
              <key>nested</key><array><dict><key>x</key><array><integer>1</integer></array></dict></array>
            </dict>
            """
        let bytes = Self.document(body)
        for target in Target.allCases {
            let expected = Self.tree(bytes, target)
            #expect(Self.stream(bytes, target) == expected, "\(target)")
        }
        #expect(Self.stream(bytes, .lossyJSON) != nil)
        #expect(Self.stream(bytes, .strictJSON) == nil)  // dates and data: the tree words the refusal
    }

    @Test(arguments: [
        ("duplicate key", "<dict><key>a</key><integer>1</integer><key>a</key><integer>2</integer></dict>"),
        ("duplicate key in a large dictionary", "<dict>" + (0..<40).map { "<key>k\($0)</key><true/>" }.joined() + "<key>k7</key><true/></dict>"),
        ("canonically equal keys", "<dict><key>\u{E9}</key><true/><key>e\u{301}</key><true/></dict>"),
        ("a key without a value", "<dict><key>a</key></dict>"),
        ("two keys in a row", "<dict><key>a</key><key>b</key><true/></dict>"),
        ("a value without a key", "<dict><true/></dict>"),
        ("a key outside a dictionary", "<array><key>a</key></array>"),
        ("two root values", "<true/><false/>"),
        ("text in an array", "<array>loose</array>"),
        ("an element inside a leaf", "<string><integer>1</integer></string>"),
        ("a non-empty true", "<true>yes</true>"),
        ("a bad integer", "<integer>12a</integer>"),
        ("an integer out of range", "<integer>18446744073709551616</integer>"),
        ("a bad real", "<real>1.2.3</real>"),
        ("a bad date", "<date>2024-13-01T00:00:00Z</date>"),
        ("bad base64", "<data>@@@@</data>"),
        ("an unknown element", "<set/>"),
        ("a nested plist", "<array><plist/></array>"),
        ("a UID", "<dict><key>CF$UID</key><integer>5</integer></dict>"),
    ])
    func documentsTheTreeRefusesOrReadsDifferentlyGoThroughTheTree(label: String, body: String) {
        let bytes = Self.document(body)
        for target in Target.allCases {
            #expect(Self.stream(bytes, target) == nil, "\(label) \(target)")
        }
        Self.checkNeverDisagrees(bytes, label)
    }

    @Test func emptyAndRootlessDocumentsGoThroughTheTree() {
        for text in ["", "<plist/>", "<plist></plist>", "<array/>", "<?xml version=\"1.0\"?><plist>"] {
            let bytes = Array(text.utf8)
            #expect(Self.stream(bytes, .xml) == nil, "\(text)")
            Self.checkNeverDisagrees(bytes, text)
        }
    }

    @Test func nestingAtTheLimitStreamsAndPastItGoesThroughTheTree() {
        let limit = PropertyListCoding.maxDepth
        let atLimit = Self.document(String(repeating: "<array>", count: limit) + String(repeating: "</array>", count: limit))
        #expect(Self.stream(atLimit, .lossyJSON) != nil)
        #expect(Self.stream(atLimit, .lossyJSON) == Self.tree(atLimit, .lossyJSON))
        let past = Self.document(String(repeating: "<array>", count: limit + 1) + String(repeating: "</array>", count: limit + 1))
        #expect(Self.stream(past, .lossyJSON) == nil)
        #expect(Self.tree(past, .lossyJSON) == nil)
    }

    /// Documents larger than one batch of tokens (65,536) and of text (1 MiB), so leaves and
    /// empty containers fall on every kind of batch boundary.
    @Test func documentsOfManyBatchesStreamExactly() throws {
        var items: [String] = []
        for i in 0..<60_000 {
            switch i % 5 {
            case 0: items.append("<dict><key>n\(i)</key><integer>\(i)</integer><key>e</key><dict/></dict>")
            case 1: items.append("<string>\(String(repeating: "x", count: i % 97))</string>")
            case 2: items.append("<array/>")
            case 3: items.append("<real>\(Double(i) / 7)</real>")
            default: items.append("<data>\(Base64.encodedString(Array(repeating: UInt8(i & 0xFF), count: i % 64)))</data>")
            }
        }
        let bytes = Self.document("<array>" + items.joined(separator: "\n") + "</array>")
        #expect(bytes.count > 2 << 20)
        for target in [Target.xml, .lossyJSON] {
            let streamed = Self.stream(bytes, target)
            #expect(streamed != nil)
            #expect(streamed == Self.tree(bytes, target), "\(target)")
        }
    }

    /// Seeded damage to the writer's documents and the samples: flipped bytes, truncation,
    /// deleted runs.
    @Test func mutatedDocumentsNeverStreamWhatTheTreeRefuses() throws {
        var sources: [[UInt8]] = []
        for seed in UInt64(1)...8 {
            var generator = ValueGenerator(rng: SplitMix64(seed: seed * 7919), capabilities: .xml)
            sources.append(try PropertyListCoding.write(generator.value(), as: .xml))
        }
        sources.append(Self.document("<dict><key>a</key><integer>12</integer><key>b</key><array><real>1.5</real><date>2020-01-01T00:00:00Z</date></array></dict>"))
        var rng = SplitMix64(seed: 42)
        var streamed = 0
        for round in 0..<2000 {
            var bytes = sources[round % sources.count]
            switch rng.next() % 3 {
            case 0:
                for _ in 0...(rng.next() % 3) {
                    let at = Int(rng.next() % UInt64(bytes.count))
                    let replacements = Array("<>/ak19.-Z\u{0}e".utf8)
                    bytes[at] = replacements[Int(rng.next() % UInt64(replacements.count))]
                }
            case 1:
                bytes = Array(bytes.prefix(Int(rng.next() % UInt64(bytes.count))))
            default:
                let at = Int(rng.next() % UInt64(bytes.count))
                bytes.removeSubrange(at..<min(bytes.count, at + 1 + Int(rng.next() % 8)))
            }
            if Self.stream(bytes, .xml) != nil { streamed += 1 }
            Self.checkNeverDisagrees(bytes, "round \(round)")
        }
        // Some damage leaves a readable document (a changed character): those stream too.
        #expect(streamed > 0)
    }
}
