import DevKitTestSupport
import Foundation
import PlistTools
import PropertyList
import PropertyListTestSupport
import Testing

/// `PlistFile.convert` to a file writes XML and JSON in 1 MiB pieces (and binary input
/// without a value tree): the file must hold exactly what the whole-buffer conversion gives,
/// and a conversion that fails half-way must leave the target and its directory as they were.
@Suite struct PiecewiseConversionTests {
    /// Values JSON holds as they are, running to several MiB of XML and JSON.
    static func jsonItems() -> [PlistValue] {
        var generator = ValueGenerator(rng: SplitMix64(seed: 2026), capabilities: .json)
        let text = (0..<40).map { i in PlistValue.string(String(repeating: "line \(i) <&> \"é\" ", count: 5000)) }
        return (0..<4000).map { _ in generator.value() } + text
    }

    /// Those, data and a date (lossy JSON writes them as strings).
    static func largeValue() -> PlistValue {
        .array(jsonItems() + [.data([UInt8](repeating: 0xAB, count: 300_000)), .date(PlistDate(secondsSinceReferenceDate: 86_400))])
    }

    static func directory() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("devkit-piecewise-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    @Test(arguments: [PlistFormat.binary, .xml])
    func piecesEqualTheWholeDocument(input: PlistFormat) throws {
        let dir = try Self.directory()
        let value = Self.largeValue()
        let source = dir + "/in.plist"
        try Data(try PropertyListCoding.write(value, as: input)).write(to: URL(fileURLWithPath: source))
        for (format, lossy) in [(PlistFormat.xml, false), (.json, true)] {
            let target = dir + "/out.\(format)"
            try PlistFile.convert(source, from: nil, to: format, output: target, inPlace: false, backup: false, lossyJSON: lossy, warning: { _ in })
            let written = [UInt8](try Data(contentsOf: URL(fileURLWithPath: target)))
            let whole = format == .xml ? try PropertyListCoding.write(value, as: .xml) : try PropertyListCoding.write(value, as: .json)
            #expect(written.count > 2 << 20, "the document spans several pieces")
            #expect(written == whole, "\(input) → \(format)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["in.plist", "out.json", "out.xml"])
    }

    @Test(arguments: [PlistFormat.binary, .xml])
    func failureHalfWayLeavesTheTargetAlone(input: PlistFormat) throws {
        let dir = try Self.directory()
        // Megabytes of JSON-able values, then a date: strict JSON refuses it after pieces went out.
        let value = PlistValue.array(Self.jsonItems() + [.date(PlistDate(secondsSinceReferenceDate: 0))])
        let source = dir + "/in.plist"
        try Data(try PropertyListCoding.write(value, as: input)).write(to: URL(fileURLWithPath: source))
        let target = dir + "/out.json"
        try Data("previous".utf8).write(to: URL(fileURLWithPath: target))
        #expect(throws: PlistFileError.self) {
            try PlistFile.convert(source, from: nil, to: .json, output: target, inPlace: false, backup: false, warning: { _ in })
        }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "previous")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["in.plist", "out.json"])
    }
}
