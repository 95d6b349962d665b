import DevKitTestSupport
import OrderedCollections
import Testing
@testable import PropertyList
import PropertyListTestSupport

/// `BinaryPlistTranscoder` (binary → XML/JSON without a value tree) against the tree it
/// stands in for: whenever it streams, the tree reads the file without a warning and writes
/// the same bytes; whenever the tree converts a generated value, the stream does too; hostile
/// and mutated files never stream what the tree refuses.
@Suite struct BinaryTranscoderTests {
    enum Target: CaseIterable {
        case xml, lossyJSON, strictJSON
    }

    /// The tree's conversion, as `devkit plist convert` does it; nil if it refuses or warns.
    static func tree(_ bytes: [UInt8], _ target: Target, from source: PlistFormat = .binary) -> [UInt8]? {
        guard let document = try? PropertyListCoding.read(bytes, format: source), document.warnings.isEmpty else { return nil }
        switch target {
        case .xml: return try? PropertyListCoding.write(document.value, as: .xml)
        case .lossyJSON: return try? PropertyListCoding.write(document.value, as: .json)
        case .strictJSON: return try? PropertyListCoding.writeStrictJSON(document.value, pretty: true)
        }
    }

    static func stream(_ bytes: [UInt8], _ target: Target, from source: PlistFormat = .binary) -> [UInt8]? {
        bytes.withUnsafeBytes { raw in
            switch target {
            case .xml: PropertyListCoding.stream(raw, from: source, to: .xml, lossyJSON: false)
            case .lossyJSON: PropertyListCoding.stream(raw, from: source, to: .json, lossyJSON: true)
            case .strictJSON: PropertyListCoding.stream(raw, from: source, to: .json, lossyJSON: false)
            }
        }
    }

    /// The safety property: a streamed result is the tree's result.
    static func checkNeverDisagrees(_ bytes: [UInt8], _ label: String, from source: PlistFormat = .binary,
                                    sourceLocation: SourceLocation = #_sourceLocation) {
        for target in Target.allCases {
            guard let streamed = stream(bytes, target, from: source) else { continue }
            let expected = tree(bytes, target, from: source)
            #expect(expected != nil, "\(label) \(target): streamed a file the tree refuses", sourceLocation: sourceLocation)
            #expect(streamed == expected, "\(label) \(target): streamed bytes differ from the tree's", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: Array(UInt64(1)...300))
    func generatedValuesStreamExactly(seed: UInt64) throws {
        var generator = ValueGenerator(rng: SplitMix64(seed: seed), capabilities: .all)
        let value = generator.value()
        let bytes = try PropertyListCoding.write(value, as: .binary)
        for target in Target.allCases {
            let expected = Self.tree(bytes, target)
            let streamed = Self.stream(bytes, target)
            // Generated values have no sets or duplicate keys: the stream gives up exactly
            // where the writer refuses a value (control characters in XML, dates in strict JSON …).
            #expect(streamed == expected, "seed \(seed) \(target)")
        }
    }

    @Test func samplesAndCorpusStreamExactly() throws {
        var files: [(String, [UInt8])] = [("Samples/Settings.bplist", try Corpus.bytes(Corpus.repoRoot.appendingPathComponent("Samples/Settings.bplist")))]
        for url in Corpus.files("plist/valid") ?? [] {
            let bytes = try Corpus.bytes(url)
            guard PlistFormat.detect(bytes) == .binary else { continue }
            files.append((url.lastPathComponent, bytes))
        }
        for url in Corpus.files("plist/invalid") ?? [] {
            let bytes = try Corpus.bytes(url)
            guard bytes.starts(with: "bplist".utf8) else { continue }
            Self.checkNeverDisagrees(bytes, url.lastPathComponent)
        }
        // Valid files the tree converts stream too (some hold sets or control characters).
        var streamed = 0
        for (name, bytes) in files {
            let expected = Self.tree(bytes, .xml)
            #expect(Self.stream(bytes, .xml) == expected, "\(name)")
            if expected != nil { streamed += 1 }
            Self.checkNeverDisagrees(bytes, name)
        }
        #expect(streamed >= 1)
    }

    /// Seeded damage to real and generated files: flipped bytes (markers, counts, references,
    /// offsets, trailer fields), truncation, and runs of 0xFF.
    @Test func mutatedFilesNeverStreamWhatTheTreeRefuses() throws {
        var sources: [[UInt8]] = [try Corpus.bytes(Corpus.repoRoot.appendingPathComponent("Samples/Settings.bplist"))]
        for seed in UInt64(1)...8 {
            var generator = ValueGenerator(rng: SplitMix64(seed: seed * 7919), capabilities: .xml)
            sources.append(try PropertyListCoding.write(generator.value(), as: .binary))
        }
        var rng = SplitMix64(seed: 42)
        var streamed = 0
        for round in 0..<3000 {
            var bytes = sources[round % sources.count]
            switch rng.next() % 4 {
            case 0:
                for _ in 0...(rng.next() % 3) {
                    let at = Int(rng.next() % UInt64(bytes.count))
                    bytes[at] ^= UInt8(truncatingIfNeeded: rng.next() | 1)
                }
            case 1:
                bytes = Array(bytes.prefix(Int(rng.next() % UInt64(bytes.count))))
            case 2:
                let at = Int(rng.next() % UInt64(bytes.count))
                for i in at..<min(bytes.count, at + 4) { bytes[i] = 0xFF }
            default:
                // The trailer's fields: widths, counts, top object, table offset.
                let at = bytes.count - 32 + 6 + Int(rng.next() % 26)
                bytes[at] = UInt8(truncatingIfNeeded: rng.next())
            }
            if Self.stream(bytes, .xml) != nil { streamed += 1 }
            Self.checkNeverDisagrees(bytes, "round \(round)")
        }
        // Some damage leaves a readable file (a changed character): those must stream too.
        #expect(streamed > 0)
    }

    // Hand-made files the reader refuses or warns about; each must go the tree's way.

    @Test func duplicateKeysGoThroughTheTree() {
        // Two key objects spelling "a": the reader refuses the dictionary.
        let bytes = BinaryTests.bplist([[0xD2, 1, 2, 3, 3], [0x51, 0x61], [0x51, 0x61], [0x09]])
        #expect(Self.stream(bytes, .xml) == nil)
        #expect(BinaryTests.failure(bytes)?.message.contains("duplicate dictionary key") == true)
    }

    @Test func keysEqualOnlyAsStringsGoThroughTheTree() {
        // "é" precomposed (UTF-16 00E9) and decomposed (e + U+0301): equal Swift strings.
        let bytes = BinaryTests.bplist([[0xD2, 1, 2, 3, 3], [0x61, 0x00, 0xE9], [0x62, 0x00, 0x65, 0x03, 0x01], [0x08]])
        #expect(Self.stream(bytes, .xml) == nil)
        #expect(BinaryTests.failure(bytes)?.message.contains("duplicate dictionary key") == true)
        // The same key once as ASCII and once as UTF-16.
        let mixed = BinaryTests.bplist([[0xD2, 1, 2, 3, 3], [0x51, 0x61], [0x61, 0x00, 0x61], [0x08]])
        #expect(Self.stream(mixed, .xml) == nil)
        #expect(BinaryTests.failure(mixed) != nil)
    }

    @Test func distinctKeysStream() {
        // Thirteen keys (the hashed check) and two (the pairwise one), all distinct.
        var objects: [[UInt8]] = [[0xDD] + (1...13).map { UInt8($0) } + Array(repeating: 14, count: 13)]
        for i in 0..<13 { objects.append([0x52, 0x6B, 0x61 + UInt8(i)]) }
        objects.append([0x09])
        let bytes = BinaryTests.bplist(objects)
        #expect(Self.stream(bytes, .xml) != nil)
        #expect(Self.stream(bytes, .xml) == Self.tree(bytes, .xml))
    }

    @Test func setsAndCyclesAndBadTextGoThroughTheTree() throws {
        let set = BinaryTests.bplist([[0xC1, 1], [0x09]])
        #expect(Self.stream(set, .xml) == nil)
        #expect(try PropertyListCoding.read(set).warnings.isEmpty == false)
        #expect(Self.stream(BinaryTests.bplist([[0xA1, 1], [0xA1, 0]]), .xml) == nil)
        // A non-ASCII byte in an ASCII string; an unpaired surrogate in UTF-16.
        #expect(Self.stream(BinaryTests.bplist([[0x51, 0xE9]]), .lossyJSON) == nil)
        #expect(Self.stream(BinaryTests.bplist([[0x61, 0xD8, 0x00]]), .lossyJSON) == nil)
        // A key that is not a string.
        #expect(Self.stream(BinaryTests.bplist([[0xD1, 1, 1], [0x10, 0x05]]), .xml) == nil)
    }

    /// Many small dictionaries sharing their keys and values (how every writer dedupes): far
    /// more visits than objects, and still streamed.
    @Test func sharedLeavesStream() throws {
        let keys = ["CFBundleIdentifier", "CFBundleName", "enabled", "count"]
        let value = PlistValue.array((0..<5000).map { i in
            .dictionary(.init(uniqueKeysWithValues: keys.map { ($0, PlistValue.int(Int64(i % 3))) }))
        })
        let bytes = try PropertyListCoding.write(value, as: .binary)
        #expect(Self.stream(bytes, .xml) != nil)
        #expect(Self.stream(bytes, .xml) == Self.tree(bytes, .xml))
    }

    @Test func referenceBombGoesThroughTheTree() {
        // Each array holds the next one twice: 2^40 values described in 41 objects.
        var objects: [[UInt8]] = (0..<40).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] }
        objects.append([0x09])
        let bytes = BinaryTests.bplist(objects)
        #expect(Self.stream(bytes, .xml) == nil)
        #expect(BinaryTests.failure(bytes)?.message.contains("reference bomb") == true)
    }
}
