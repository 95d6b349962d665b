import DevKitTestSupport
import Foundation
import Testing
@testable import PropertyList
import PropertyListTestSupport

/// Other implementations read what devkit writes: Python's plistlib, swift-corelibs plutil,
/// libplist's plistutil. Each check runs when that tool is on the machine.
@Suite struct CrossCheckTests {
    static func which(_ tool: String) -> String? {
        for dir in ["/opt/swift/usr/bin", "/usr/bin", "/usr/local/bin"] {
            let path = "\(dir)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("devkit-crosscheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Values every one of the three tools represents exactly.
    static func sampleValues() -> [PlistValue] {
        var values: [PlistValue] = [
            .dictionary([
                "CFBundleIdentifier": .string("com.example.app"), "Version": .int(42), "Neg": .int(-7),
                "Big": .int(Int64.max), "Ratio": .double(0.25), "Enabled": .bool(true),
                "Date": .date(PlistDate(year: 2024, month: 2, day: 29, hour: 12, minute: 0, second: 1)!),
                "Blob": .data(Array(0..<100)), "Unicode": .string("Mässig ✓ 日本 🙂 <&>"),
                "List": .array([.string(""), .array([]), .dictionary([:])]),
            ]),
        ]
        var generator = ValueGenerator(rng: SplitMix64(seed: 7), capabilities: .init(uids: false, nonFiniteReals: false))
        for _ in 0..<20 { values.append(generator.value()) }
        return values
    }

    /// plistlib loads each file devkit writes (XML and binary) and writes it back as XML; devkit
    /// reads that and must find the value it started with.
    @Test func pythonPlistlibReadsOurFiles() throws {
        guard let python = Self.which("python3") else { print("skipped: python3 not found"); return }
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // No UIDs: plistlib reads them but cannot write them back as XML.
        var generator = ValueGenerator(rng: SplitMix64(seed: 99), capabilities: .init(uids: false))
        let values = Self.sampleValues() + (0..<20).map { _ in generator.value() }
        for (i, value) in values.enumerated() {
            for format in [PlistFormat.xml, .binary] {
                let input = dir.appendingPathComponent("v\(i).\(format)")
                let output = dir.appendingPathComponent("v\(i).\(format).py.xml")
                try Data(try PropertyListCoding.write(value, as: format)).write(to: input)
                let result = try Self.run(python, ["-c", "import plistlib,sys; v=plistlib.load(open(sys.argv[1],'rb')); plistlib.dump(v, open(sys.argv[2],'wb'), sort_keys=False)", input.path, output.path])
                #expect(result.status == 0, "value \(i) \(format): \(result.output)")
                guard result.status == 0 else { continue }
                let back = try PropertyListCoding.read([UInt8](try Data(contentsOf: output))).value
                #expect(back == value, "value \(i) \(format)")
            }
        }
    }

    /// Writes each sample value in XML and binary, has `tool` convert it to the other format
    /// (`arguments(input, output, format)` builds its command line), and reads the result back.
    static func convertBack(with tool: String, values: [PlistValue],
                            arguments: (String, String, PlistFormat) -> [String]) throws -> [(PlistFormat, PlistValue, PlistValue)] {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var results: [(PlistFormat, PlistValue, PlistValue)] = []
        for (i, value) in values.enumerated() {
            for format in [PlistFormat.xml, .binary] {
                let input = dir.appendingPathComponent("v\(i).\(format)")
                let output = dir.appendingPathComponent("v\(i).\(format).out")
                try Data(try PropertyListCoding.write(value, as: format)).write(to: input)
                let result = try run(tool, arguments(input.path, output.path, format))
                #expect(result.status == 0, "value \(i) \(format): \(result.output)")
                guard result.status == 0 else { continue }
                results.append((format, value, try PropertyListCoding.read([UInt8](try Data(contentsOf: output))).value))
            }
        }
        return results
    }

    @Test func plutilReadsOurFiles() throws {
        guard let plutil = Self.which("plutil") else { print("skipped: plutil not found"); return }
        let results = try Self.convertBack(with: plutil, values: Self.sampleValues()) { input, output, format in
            ["-convert", format == .xml ? "binary1" : "xml1", "-o", output, input]
        }
        for (format, value, back) in results {
            // swift-corelibs keeps dictionaries in NSDictionary, which has no order.
            #expect(back.sortingKeys() == value.sortingKeys(), "\(format) via plutil")
        }
    }

    @Test func plistutilReadsOurFiles() throws {
        guard let plistutil = Self.which("plistutil") else { print("skipped: plistutil not found (Debian libplist-utils)"); return }
        let results = try Self.convertBack(with: plistutil, values: Self.sampleValues()) { input, output, format in
            ["-i", input, "-o", output, "-f", format == .xml ? "bin" : "xml"]
        }
        for (format, value, back) in results {
            #expect(back == value, "\(format) via plistutil")
        }
    }
}
