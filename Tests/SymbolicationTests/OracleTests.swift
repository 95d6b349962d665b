import Foundation
import FrameModel
import Symbolication
import Testing

/// devkit's frames against `llvm-symbolizer --inlines` for every address (or every few) of
/// binaries compiled here: function chain, file, line and column must be equal.
///
/// Names are compared mangled (`--no-demangle` on both sides): demanglers differ in spacing
/// (`> >` against `>>`) and in what they accept (clang's `$_0` lambdas), which is not what
/// this test is about. Demangling has its own tests.
@Suite struct OracleTests {
    struct Build: CustomStringConvertible, Sendable {
        var source: String
        var compiler: String
        var flags: [String]
        var description: String { "\(compiler) \(flags.joined(separator: " ")) \(source)" }
    }

    static let builds: [Build] = [
        Build(source: "inline.c", compiler: "gcc", flags: ["-O2", "-g"]),
        Build(source: "inline.c", compiler: "clang", flags: ["-O2", "-g", "-gdwarf-4"]),
        Build(source: "inline.c", compiler: "clang", flags: ["-O2", "-g", "-gdwarf-5"]),
        Build(source: "templates.cpp", compiler: "g++", flags: ["-O2", "-g", "-gdwarf-4"]),
        Build(source: "templates.cpp", compiler: "g++", flags: ["-O2", "-g", "-gdwarf-5"]),
        Build(source: "templates.cpp", compiler: "clang++", flags: ["-O2", "-g", "-gdwarf-4"]),
        Build(source: "templates.cpp", compiler: "clang++", flags: ["-O2", "-g", "-gdwarf-5"]),
        Build(source: "generics.swift", compiler: "swiftc", flags: ["-g", "-O", "-module-name", "generics"]),
        // Closures inside methods. (The shape behind 25 of 100,000 answers in devkit's own
        // binary that missed their inlined calls, a closure's DIE under a method's code-less
        // definition, comes from swift-crypto and is not reproduced here: the symbolicate
        // bench's comparison with llvm-symbolizer covers it.)
        Build(source: "closures.swift", compiler: "swiftc", flags: ["-g", "-O", "-module-name", "closures"]),
    ]

    @Test(arguments: builds)
    func matchesLLVMSymbolizer(_ build: Build) throws {
        guard let symbolizer = Toolchain.llvmSymbolizer else {
            print("skipped: llvm-symbolizer not installed"); return
        }
        let directory = try Toolchain.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let binary = try Toolchain.compile(build.source, compiler: build.compiler, flags: build.flags, output: "a.out", in: directory) else {
            print("skipped: \(build.compiler) not installed"); return
        }
        try compareAllTextAddresses(binary, symbolizer: symbolizer, minimum: 300)
    }

    /// Issue 18: a label (`STT_NOTYPE`) inside a sized assembly function names the code after
    /// it, as llvm-symbolizer has it (BoringSSL's `process_extra_in_trailer` in devkit's own
    /// binary); before, devkit named all of it by the function.
    @Test func assemblyLabelsNameTheCodeAfterThem() throws {
        guard let symbolizer = Toolchain.llvmSymbolizer else {
            print("skipped: llvm-symbolizer not installed"); return
        }
        let directory = try Toolchain.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let binary = try Toolchain.compile("labels.S", compiler: "clang", flags: ["-g", "-shared", "-nostdlib"], output: "liblabels.so", in: directory) else {
            print("skipped: clang not installed"); return
        }
        // Every address of the 27-byte .text; assembly has no inlined calls.
        let list = try addresses(of: binary, minimum: 20)
        let expected = try oracle(binary, addresses: list, symbolizer: symbolizer)
        try expectSame(try ImageSymbolizer(path: binary, options: mangled), expected, binary: binary, addresses: list, expectsInlinedFrames: false)
        let text = try #require(try Toolchain.textSection(of: binary))
        let last = try ImageSymbolizer(path: binary, options: mangled).frames(at: text.start + 14)
        #expect(last.map(\.function) == ["inner_entry"])
    }

    /// Split debug info: `objcopy --only-keep-debug`, `strip`, `--add-gnu-debuglink`. The
    /// stripped binary must symbolicate exactly like the unsplit one did.
    @Test func separateDebugFileByDebuglink() throws {
        guard let symbolizer = Toolchain.llvmSymbolizer, let objcopy = Toolchain.find("objcopy", "llvm-objcopy") else {
            print("skipped: llvm-symbolizer or objcopy not installed"); return
        }
        let directory = try Toolchain.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let binary = try Toolchain.compile("templates.cpp", compiler: "clang++", flags: ["-O2", "-g"], output: "app", in: directory) else { return }
        let expected = try oracle(binary, addresses: try addresses(of: binary, minimum: 300), symbolizer: symbolizer)
        let debug = directory.appendingPathComponent("app.debug").path
        try Toolchain.run(objcopy, ["--only-keep-debug", binary, debug])
        try Toolchain.run(objcopy, ["--strip-debug", "--strip-unneeded", binary])
        try Toolchain.run(objcopy, ["--add-gnu-debuglink=\(debug)", binary])
        let image = try ImageSymbolizer(path: binary, options: mangled)
        #expect(image.debugInfoPath == debug)
        try expectSame(image, expected, binary: binary)
    }

    /// A separate debug file found through `--debug-dir DIR/.build-id/xx/rest.debug`.
    @Test func separateDebugFileByBuildID() throws {
        guard let symbolizer = Toolchain.llvmSymbolizer, let objcopy = Toolchain.find("objcopy", "llvm-objcopy") else {
            print("skipped: llvm-symbolizer or objcopy not installed"); return
        }
        let directory = try Toolchain.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let binary = try Toolchain.compile("inline.c", compiler: "clang", flags: ["-O2", "-g", "-Wl,--build-id=sha1"], output: "app", in: directory) else { return }
        let expected = try oracle(binary, addresses: try addresses(of: binary, minimum: 100), symbolizer: symbolizer)
        let buildID = try #require(try ImageSymbolizer(path: binary).identifier)
        let store = directory.appendingPathComponent("debug/.build-id/\(buildID.prefix(2))")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        let debug = store.appendingPathComponent("\(buildID.dropFirst(2)).debug").path
        try Toolchain.run(objcopy, ["--only-keep-debug", binary, debug])
        try Toolchain.run(objcopy, ["--strip-all", binary])
        var options = mangled
        options.debugDirectories = [directory.appendingPathComponent("debug").path]
        let image = try ImageSymbolizer(path: binary, options: options)
        #expect(image.debugInfoPath == debug)
        try expectSame(image, expected, binary: binary)
    }

    /// Swift names are demangled by the runtime's demangler, in full by default (`SwiftNameTests` checks every form).
    @Test func swiftNamesAreDemangled() throws {
        let directory = try Toolchain.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let binary = try Toolchain.compile("generics.swift", compiler: "swiftc", flags: ["-g", "-O", "-module-name", "generics"],
                                                 output: "generics", in: directory) else { return }
        let image = try ImageSymbolizer(path: binary)
        let text = try #require(try Toolchain.textSection(of: binary))
        var names = Set<String>()
        for address in stride(from: text.start, to: text.start + text.size, by: 2) {
            for frame in try image.frames(at: address) { if let name = frame.function { names.insert(name) } }
        }
        #expect(names.contains("generics.work(Swift.Int) -> Swift.Int"))
        #expect(names.contains { $0.hasPrefix("generics.Stack.map<") })
        #expect(!names.contains { $0.hasPrefix("$s") })
    }

    // MARK: helpers

    var mangled: SymbolicationOptions {
        var options = SymbolicationOptions()
        options.demangle = false
        return options
    }

    /// Every address of .text when it is small, else an even spread of about 6000.
    func addresses(of binary: String, minimum: Int) throws -> [UInt64] {
        let text = try #require(try Toolchain.textSection(of: binary))
        let step = max(1, text.size / 6000)
        let result = Array(stride(from: text.start, to: text.start + text.size, by: Int(step)))
        #expect(result.count >= minimum, "too few addresses in \(binary)")
        return result
    }

    /// llvm-symbolizer's answer per address: its frames as (function, "file:line:column") text.
    func oracle(_ binary: String, addresses: [UInt64], symbolizer: String) throws -> [String] {
        let input = addresses.map { "0x" + String($0, radix: 16) + "\n" }.joined()
        let output = try Toolchain.run(symbolizer, ["--inlines", "--no-demangle", "--obj", binary], stdin: input)
        let blocks = output.stdout.components(separatedBy: "\n\n").map { $0.trimmingCharacters(in: .newlines) }
        #expect(blocks.count >= addresses.count)
        return Array(blocks.prefix(addresses.count))
    }

    func render(_ frames: [SymbolicatedFrame]) -> String {
        frames.map { "\($0.function ?? "??")\n\($0.file ?? "??"):\($0.line):\($0.column)" }.joined(separator: "\n")
    }

    func compareAllTextAddresses(_ binary: String, symbolizer: String, minimum: Int) throws {
        let list = try addresses(of: binary, minimum: minimum)
        let expected = try oracle(binary, addresses: list, symbolizer: symbolizer)
        try expectSame(try ImageSymbolizer(path: binary, options: mangled), expected, binary: binary, addresses: list)
    }

    func expectSame(_ image: ImageSymbolizer, _ expected: [String], binary: String, addresses list: [UInt64]? = nil,
                    expectsInlinedFrames: Bool = true) throws {
        let list = try list ?? addresses(of: binary, minimum: 0)
        var mismatches = 0
        var inlinedFrames = 0
        for (address, want) in zip(list, expected) {
            let frames = try image.frames(at: address)
            inlinedFrames += frames.count - 1
            let got = render(frames)
            if got != want {
                mismatches += 1
                if mismatches <= 3 { Issue.record("0x\(String(address, radix: 16)) in \(binary):\nllvm-symbolizer:\n\(want)\ndevkit:\n\(got)") }
            }
        }
        #expect(mismatches == 0, "\(mismatches) of \(list.count) addresses differ")
        if expectsInlinedFrames { #expect(inlinedFrames > 0, "the fixture should exercise inlined frames") }
    }
}
