import DevKitTestSupport
import Testing
@testable import PropertyList
import PropertyListTestSupport

/// Property: writing a generated value and reading it back gives the same value, in every
/// format, for values the format can hold. Seeded, so a failure names its seed.
@Suite struct RoundTripTests {
    static let seeds: [UInt64] = Array(1...150)

    static func roundTrip(_ format: PlistFormat, _ capabilities: ValueGenerator.Capabilities, seed: UInt64) throws {
        var generator = ValueGenerator(rng: SplitMix64(seed: seed), capabilities: capabilities)
        let value = generator.value()
        let bytes = try PropertyListCoding.write(value, as: format)
        let document = try PropertyListCoding.read(bytes, format: format)
        // Detection is only unambiguous for containers (`12` is a JSON number and an OpenStep
        // string), and not for an empty dictionary (`{}` is both): that one reads the same as
        // whatever it is taken for.
        switch value {
        case .dictionary(let entries) where entries.isEmpty:
            let detected = try #require(PlistFormat.detect(bytes))
            #expect(try PropertyListCoding.read(bytes, format: detected).value == value, "seed \(seed)")
        case .array, .dictionary: #expect(PlistFormat.detect(bytes) == format, "seed \(seed)")
        default: break
        }
        #expect(document.value == value, "seed \(seed) \(format)")
        // Deterministic: the same value gives the same bytes.
        #expect(try PropertyListCoding.write(document.value, as: format) == bytes, "seed \(seed) \(format) not stable")
    }

    @Test(arguments: seeds) func binary(seed: UInt64) throws {
        try Self.roundTrip(.binary, .all, seed: seed)
    }

    @Test(arguments: seeds) func xml(seed: UInt64) throws {
        try Self.roundTrip(.xml, .xml, seed: seed)
    }

    @Test(arguments: seeds) func json(seed: UInt64) throws {
        try Self.roundTrip(.json, .json, seed: seed)
    }

    @Test(arguments: seeds) func openStep(seed: UInt64) throws {
        try Self.roundTrip(.openStep, .openStep, seed: seed)
    }

    /// Through every format in turn: binary → XML → OpenStep → binary.
    @Test(arguments: seeds.prefix(50)) func chain(seed: UInt64) throws {
        var generator = ValueGenerator(rng: SplitMix64(seed: seed), capabilities: .openStep)
        let value = generator.value()
        var current = value
        for format in [PlistFormat.binary, .xml, .openStep, .binary] {
            current = try PropertyListCoding.read(try PropertyListCoding.write(current, as: format), format: format).value
        }
        #expect(current == value, "seed \(seed)")
    }

    @Test func controlCharactersAreRefusedByXML() {
        let error = #expect(throws: PlistError.self) { try PropertyListCoding.write(.string("a\u{1}b"), as: .xml) }
        #expect(error?.message.contains("U+0001") == true)
    }
}
