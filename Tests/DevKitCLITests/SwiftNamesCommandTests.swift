import DevKitTestSupport
import Foundation
import Testing

/// `--names short|full` end to end: `symbolicate --binary` on a Swift program built here
/// (full by default, as llvm-symbolizer), a Swift runtime crash log of the shared corpus
/// (short by default, as Xcode), and `heapdiff` on a recorded Swift program (short by default).
@Suite(.serialized) struct SwiftNamesCommandTests {
    /// Tests/SymbolicationTests/Fixtures/generics.swift built with `swiftc -g -O`, and the
    /// addresses and names of its own Swift functions (nm).
    static func buildGenerics(in directory: URL) throws -> (binary: String, symbols: [(address: String, name: String)])? {
        guard let swiftc = TestProcess.find("swiftc"), SwiftDemangleOracle.tool != nil else {
            print("skipped: swiftc or swift-demangle not installed"); return nil
        }
        let binary = directory.appendingPathComponent("generics").path
        let source = CLI.repoRoot.appendingPathComponent("Tests/SymbolicationTests/Fixtures/generics.swift").path
        let build = try TestProcess.run(swiftc, ["-g", "-O", "-module-name", "generics", source, "-o", binary])
        try #require(build.status == 0, "swiftc failed: \(build.stderr)")
        let nm = try TestProcess.run(try #require(TestProcess.find("nm", "llvm-nm")), [binary])
        let symbols = nm.stdout.split(separator: "\n").compactMap { line -> (String, String)? in
            let fields = line.split(separator: " ")
            guard fields.count == 3, fields[1] == "t" || fields[1] == "T", fields[2].hasPrefix("$s8generics") else { return nil }
            return ("0x" + fields[0], String(fields[2]))
        }
        return (binary, symbols)
    }

    /// Each function's outermost name at its first address: full by default and with
    /// `--names full` equal to `swift-demangle`, with `--names short` to `swift-demangle --simplified`.
    @Test func binaryAddressesGetFullNamesUnlessAskedForShort() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let (binary, symbols) = try Self.buildGenerics(in: directory) else { return }
        #expect(symbols.count >= 8)
        let full = try SwiftDemangleOracle.demangle(symbols.map(\.name), simplified: false)
        let short = try SwiftDemangleOracle.demangle(symbols.map(\.name), simplified: true)
        #expect(full.contains("generics.Stack.items.getter : [A]"), "the program has a sugared name to check")
        for (arguments, expected) in [([], full), (["--names", "full"], full), (["--names", "short"], short)] {
            let result = try CLI.run(["symbolicate", "--binary", binary, "--no-inlines", "--no-cache"] + arguments + symbols.map(\.address))
            #expect(result.status == 0, "\(result.stderr)")
            let names = result.stdout.components(separatedBy: "\n\n").compactMap { $0.split(separator: "\n").first.map(String.init) }
            #expect(names == expected, "\(arguments)")
        }
        // The address-list route (a file of addresses with --binary) defaults to full names too.
        let list = directory.appendingPathComponent("addresses.txt")
        try (symbols.first { $0.name == "$s8generics5StackV5itemsSayxGvg" }.map { $0.address + "\n" } ?? "").write(to: list, atomically: true, encoding: .utf8)
        let fromList = try CLI.run(["symbolicate", "--binary", binary, "--no-cache", list.path])
        #expect(fromList.stdout.contains("generics.Stack.items.getter : [A]"), "\(fromList.stdout)")
    }

    /// `devkit atos` at each function's first address: short by default (as Apple's atos),
    /// equal to `swift-demangle --simplified`; with `--names full`, to `swift-demangle`. The
    /// same answers through a link named `atos` (the other route to the same parser).
    @Test func atosGetsShortNamesUnlessAskedForFull() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let (binary, symbols) = try Self.buildGenerics(in: directory) else { return }
        let full = try SwiftDemangleOracle.demangle(symbols.map(\.name), simplified: false)
        let short = try SwiftDemangleOracle.demangle(symbols.map(\.name), simplified: true)
        #expect(short != full)
        let link = directory.appendingPathComponent("atos").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: CLI.binary.path)
        for (arguments, expected) in [([], short), (["--names", "short"], short), (["--names", "full"], full), (["--names=full"], full)] {
            let viaCommand = try CLI.run(["atos", "-o", binary] + arguments + symbols.map(\.address))
            #expect(viaCommand.status == 0, "\(viaCommand.stderr)")
            let names = viaCommand.stdout.split(separator: "\n").map { line in
                line.range(of: " (in generics)").map { String(line[..<$0.lowerBound]) } ?? String(line)
            }
            #expect(names == expected, "\(arguments)")
            let viaLink = try TestProcess.run(link, ["-o", binary] + arguments + symbols.map(\.address))
            #expect(viaLink.stdout == viaCommand.stdout, "\(arguments)")
        }
    }

    /// A Swift runtime backtrace whose libswiftCore.so this toolchain has (found by build-id):
    /// Xcode's names by default, swift-demangle's with `--names full`.
    @Test func crashLogsGetShortNamesUnlessAskedForFull() throws {
        let log = CLI.repoRoot.appendingPathComponent("../shared/corpus/crash/swift-linux/swift6.3-linux-x86_64-index-out-of-range.txt").standardized
        guard FileManager.default.fileExists(atPath: log.path) else { print("skipped: no shared corpus"); return }
        let short = try CLI.run(["symbolicate", "--no-cache", log.path])
        guard short.stdout.contains("found      libswiftCore.so") else { print("skipped: this toolchain's libswiftCore.so is another build"); return }
        #expect(short.stdout.contains(" _assertionFailure(_:_:file:line:flags:) + 303\n"), "\(short.stdout)")
        #expect(short.stdout.contains(" specialized Array.subscript.getter + 85\n"), "\(short.stdout)")
        let full = try CLI.run(["symbolicate", "--no-cache", "--names", "full", log.path])
        #expect(full.stdout.contains(" Swift._assertionFailure(_: Swift.StaticString, _: Swift.StaticString, file: Swift.StaticString, line: Swift.UInt, flags: Swift.UInt32) -> Swift.Never + 303\n"), "\(full.stdout)")
        #expect(full.stdout.contains(" merged generic specialization <Swift.UInt64> of Swift.Array.subscript.getter : (Swift.Int) -> A + 85\n"), "\(full.stdout)")
        let bad = try CLI.run(["symbolicate", "--names", "simplified", log.path])
        #expect(bad.status == 2)
    }

    /// heapdiff of Tests/HeapRecorderTests/Programs/RetainCycle.swift recorded here: its class
    /// and functions short by default (`Node`, `Node.__allocating_init()`), in full with `--names full`.
    @Test func heapdiffGetsShortNamesUnlessAskedForFull() throws {
        guard let swiftc = TestProcess.find("swiftc") else { print("skipped: swiftc not installed"); return }
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let program = directory.appendingPathComponent("retain-cycle").path
        let source = CLI.repoRoot.appendingPathComponent("Tests/HeapRecorderTests/Programs/RetainCycle.swift").path
        let build = try TestProcess.run(swiftc, ["-g", "-Onone", source, "-o", program])
        try #require(build.status == 0, "swiftc failed: \(build.stderr)")
        let recording = directory.appendingPathComponent("retain-cycle.dkheap").path
        let record = try CLI.run(["heap", "record", "-o", recording, "--", program])
        try #require(record.status == 0, "\(record.stderr)")

        let types = try CLI.run(["heapdiff", recording, "--group-by", "type"]).stdout
        #expect(types.contains(" Node\n") && !types.contains("main.Node"), "\(types)")
        let fullTypes = try CLI.run(["heapdiff", recording, "--group-by", "type", "--names", "full"]).stdout
        #expect(fullTypes.contains(" main.Node\n"), "\(fullTypes)")
        let functions = try CLI.run(["heapdiff", recording, "--group-by", "function"]).stdout
        #expect(functions.contains("  Node.__allocating_init()\n") && !functions.contains("main.Node"), "\(functions)")
        let fullFunctions = try CLI.run(["heapdiff", recording, "--group-by", "function", "--names", "full"]).stdout
        #expect(fullFunctions.contains("  main.Node.__allocating_init() -> main.Node\n"), "\(fullFunctions)")
    }
}
