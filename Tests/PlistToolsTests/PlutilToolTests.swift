import DevKitTestSupport
import Foundation
import PlistTools
import PropertyList
import PropertyListTestSupport
import Testing

/// `devkit plutil` against swift-corelibs-foundation's plutil (in the toolchain): the same
/// invocations on copies of the same file, compared semantically (corelibs does not keep key
/// order, devkit does), plus devkit's own promises: edits change only the edited lines.
@Suite struct PlutilToolTests {
    static let corelibs = "/opt/swift/usr/bin/plutil"
    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples/Info.plist")

    struct Run: Equatable {
        var status: Int32
        var output: [UInt8]
        var errors: String
    }

    static func devkit(_ arguments: [String]) -> Run {
        var output: [UInt8] = [], errors = ""
        let status = PlutilTool.run(arguments, write: { output += $0 }, writeError: { errors += $0 })
        return Run(status: status, output: output, errors: errors)
    }

    static func apple(_ arguments: [String]) throws -> Run? {
        guard FileManager.default.isExecutableFile(atPath: corelibs) else { return nil }
        let ran = try TestProcess.run(corelibs, arguments)
        return Run(status: ran.status, output: Array(ran.stdout.utf8), errors: ran.stderr)
    }

    /// Two copies of the sample, one per tool.
    static func copies() throws -> (devkit: String, apple: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("devkit-plutil-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let mine = directory.appendingPathComponent("devkit.plist"), theirs = directory.appendingPathComponent("apple.plist")
        try FileManager.default.copyItem(at: sample, to: mine)
        try FileManager.default.copyItem(at: sample, to: theirs)
        return (mine.path, theirs.path)
    }

    static func value(_ path: String) throws -> PlistValue {
        try PropertyListCoding.read(Array(try Data(contentsOf: URL(fileURLWithPath: path)))).value
    }

    /// Invocations whose output both tools print the same way (values, not layouts).
    @Test(arguments: [
        ["-extract", "CFBundleVersion", "raw"], ["-extract", "LSRequiresIPhoneOS", "raw"],
        ["-extract", "UIRequiredDeviceCapabilities", "json", "-o", "-"], ["-extract", "CFBundleIdentifier", "raw", "-expect", "string"],
        ["-extract", "CFBundleIdentifier", "raw", "-expect", "integer"], ["-extract", "Nope", "raw"],
        ["-lint"], ["-lint", "-s"], [],
    ])
    func readingCommandsAgree(_ arguments: [String]) throws {
        let (mine, theirs) = try Self.copies()
        guard let apple = try Self.apple(arguments + [theirs]) else { print("skipped: corelibs plutil not installed"); return }
        let devkit = Self.devkit(arguments + [mine])
        #expect(devkit.status == apple.status, "\(arguments): \(devkit.errors) / \(apple.errors)")
        let replaced = String(decoding: apple.output, as: UTF8.self).replacingOccurrences(of: "apple.plist", with: "devkit.plist")
        #expect(String(decoding: devkit.output, as: UTF8.self) == replaced, "\(arguments)")
    }

    /// Edits give the same value in both tools' files.
    @Test(arguments: [
        ["-replace", "CFBundleVersion", "-string", "143"], ["-insert", "NewKey", "-integer", "7"],
        ["-insert", "UIRequiredDeviceCapabilities", "-string", "metal", "-append"], ["-remove", "CFBundleName"],
        ["-insert", "Nested", "-json", "{\"a\":[1,true,\"x\"]}"], ["-insert", "Flag", "-bool", "YES"],
        ["-insert", "Empty", "-dictionary"], ["-insert", "List", "-array"], ["-replace", "MinimumOSVersion", "-float", "17.5"],
        ["-insert", "Blob", "-data", "AAEC/w=="], ["-convert", "binary1"], ["-convert", "xml1"],
        ["-extract", "UIRequiredDeviceCapabilities", "xml1"],
    ])
    func editsAgree(_ arguments: [String]) throws {
        let (mine, theirs) = try Self.copies()
        guard let apple = try Self.apple(arguments + [theirs]) else { print("skipped: corelibs plutil not installed"); return }
        let devkit = Self.devkit(arguments + [mine])
        #expect(devkit.status == 0 && apple.status == 0, "\(arguments): \(devkit.errors) / \(apple.errors)")
        #expect(try Self.value(mine).sortingKeys() == (try Self.value(theirs)).sortingKeys(), "\(arguments)")
    }

    /// `-convert xml1|json` of binary and XML files streams them without a value tree: the
    /// bytes are the tree's (`PropertyListCoding.write`, strict JSON, compact unless `-r`),
    /// and a date refused by JSON is still refused with the tree's words.
    @Test(arguments: Array(UInt64(1)...40))
    func convertingStreamsWhatTheTreeWrites(seed: UInt64) throws {
        // Half of them JSON can hold (no dates, data, UIDs or non-finite reals).
        var generator = ValueGenerator(rng: SplitMix64(seed: seed), capabilities: seed % 2 == 0 ? .json : .xml)
        let value = PlistValue.array((0..<8).map { _ in generator.value() })
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("devkit-plutil-stream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for input in [PlistFormat.binary, .xml] {
            let path = directory.appendingPathComponent("in.\(input)").path
            try Data(try PropertyListCoding.write(value, as: input)).write(to: URL(fileURLWithPath: path))
            let xml = Self.devkit(["-convert", "xml1", "-o", "-", path])
            let expectedXML = try PropertyListCoding.write(value, as: .xml)
            #expect(xml.status == 0 && xml.output == expectedXML, "seed \(seed) from \(input): \(xml.errors)")
            for readable in [false, true] {
                let json = Self.devkit(["-convert", "json"] + (readable ? ["-r"] : []) + ["-o", "-", path])
                if var expected = try? PropertyListCoding.writeStrictJSON(value, pretty: readable) {
                    if expected.last == 0x0A { expected.removeLast() }
                    #expect(json.status == 0 && json.output == expected, "seed \(seed) from \(input), readable \(readable): \(json.errors)")
                } else {
                    #expect(json.status == 1 && json.errors.contains("invalid object in plist for destination format"), "seed \(seed): \(json.errors)")
                }
            }
        }
    }

    @Test func anInsertChangesOnlyTheInsertedLines() throws {
        let (mine, _) = try Self.copies()
        let before = try String(contentsOfFile: mine, encoding: .utf8)
        #expect(Self.devkit(["-insert", "NewKey", "-string", "v", mine]).status == 0)
        let after = try String(contentsOfFile: mine, encoding: .utf8)
        let removed = Set(before.split(separator: "\n")).subtracting(after.split(separator: "\n"))
        #expect(removed.isEmpty)
        #expect(after.contains("\t<key>NewKey</key>\n\t<string>v</string>\n"))
    }

    @Test func jsonRefusesDatesAndDataNamingTheValue() throws {
        let (mine, _) = try Self.copies()
        #expect(Self.devkit(["-insert", "When", "-date", "2026-11-23T12:00:00Z", mine]).status == 0)
        let run = Self.devkit(["-convert", "json", mine])
        #expect(run.status == 1)
        #expect(run.errors.contains("invalid object in plist for destination format"))
        #expect(run.errors.contains("When"), "\(run.errors)")
        #expect(try Self.value(mine) != .dictionary([:]))  // untouched
    }

    @Test(arguments: [
        (["-convert", "yaml", "f"], "Unknown format specifier: yaml"),
        (["-lint", "-x", "f"], "unrecognized option: -x"),
        (["-extract", "K"], "Missing argument for -extract."),
        (["-lint", "-p", "f"], "Only one command may be given (-p)"),
        (["-lint"], "No files specified."),
    ])
    func usageErrors(_ arguments: [String], _ message: String) {
        let run = Self.devkit(arguments)
        #expect(run.status == 1)
        #expect(run.errors.hasPrefix(message + "\nplutil: [command_option]"), "\(run.errors)")
    }
}

/// `plutil -convert swift|objc`: literals that compile (Swift, type-checked by swiftc with
/// Foundation for Date and Data), keys sorted, strings escaped for the language.
@Suite struct PlutilSourceLiteralTests {
    static let tricky = PlistValue.dictionary([
        "zeta": .string("quote \" backslash \\ newline \n bell \u{7}"), "alpha": .array([.integer(PlistInteger(Int64(-3))), .real(PlistReal(1.5)), .bool(true)]),
        "when": .date(PlistDate(secondsSinceReferenceDate: 599_529_600)), "blob": .data([0, 1, 0xff]), "empty": .dictionary([:]),
    ])

    @Test func swiftLiteralTypeChecks() throws {
        guard let swiftc = ["/opt/swift/usr/bin/swiftc"].first(where: FileManager.default.isExecutableFile) else {
            print("skipped: swiftc not installed"); return
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("devkit-literal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let plist = directory.appendingPathComponent("Tricky-1.plist")
        try Data(try PropertyListCoding.write(Self.tricky, as: .binary)).write(to: plist)
        let run = PlutilToolTests.devkit(["-convert", "swift", plist.path])
        #expect(run.status == 0, "\(run.errors)")
        let source = try String(contentsOf: directory.appendingPathComponent("Tricky-1.swift"), encoding: .utf8)
        #expect(source.hasPrefix("/// Generated from Tricky-1.plist\nlet Tricky_1 : [String : Any] = [\n    \"alpha\" : [\n        -3,\n"))
        #expect(source.contains("\"zeta\" : \"quote \\\" backslash \\\\ newline \\n bell \\u{7}\",\n"))
        let program = directory.appendingPathComponent("main.swift")
        try Data(("import Foundation\n" + source + "print(Tricky_1.count)\n").utf8).write(to: program)
        let checked = try TestProcess.run(swiftc, ["-typecheck", program.path])
        #expect(checked.status == 0, "\(checked.stderr)")
    }

    @Test func objcLiteral() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("devkit-literal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let plist = directory.appendingPathComponent("Small.plist")
        try Data(try PropertyListCoding.write(.dictionary(["b": .bool(false), "a": .string("x\u{1B}y\n")]), as: .binary)).write(to: plist)
        let run = PlutilToolTests.devkit(["-convert", "objc", "-o", "-", plist.path])
        #expect(String(decoding: run.output, as: UTF8.self) == """
            /// Generated from Small.plist
            __attribute__((visibility("hidden")))
            NSDictionary * const Small = @{
                @"a" : @"x\\033y\\n",
                @"b" : @NO,
            };

            """)
    }
}
