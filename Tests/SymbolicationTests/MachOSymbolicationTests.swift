import DevKitTestSupport
import System
import Foundation
import ObjectFile
import Symbolication
import Testing

/// Mach-O through the same libdw path: thin and fat executables with their dSYMs, made by
/// Scripts/fixtures/make-macho (they live in ObjectFileTests, whose Mach-O parsing tests own
/// them), against `llvm-symbolizer --obj` on the dSYM for every address of `__TEXT,__text`.
@Suite struct MachOSymbolicationTests {
    static let directory = Toolchain.fixtures.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ObjectFileTests/Fixtures/macho")
    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    struct Case: CustomStringConvertible, Sendable {
        var arch: String
        var binary: String
        var selectArch: Bool
        var description: String { "\(binary)\(selectArch ? " --arch \(arch)" : "")" }
    }

    static let cases: [Case] = ["arm64", "x86_64"].flatMap { arch in
        [Case(arch: arch, binary: "inline-\(arch)", selectArch: false),
         Case(arch: arch, binary: "inline-\(arch).dSYM", selectArch: false),
         Case(arch: arch, binary: "inline-fat", selectArch: true),
         Case(arch: arch, binary: "inline-fat.dSYM", selectArch: true)]
    }

    /// `__TEXT,__text` of a thin fixture, read with ObjectFile's Mach-O reader.
    func textRange(_ arch: String) throws -> Range<UInt64> {
        let file = try MappedFile(path: Self.path("inline-\(arch)"))
        let image = try #require(try MachOFile.images(Array(file.bytes)).first)
        let contents = try MachOContents.read(image, bytes: file.bytes)
        let text = try #require(contents.sections.first { $0.segment == "__TEXT" && $0.name == "__text" })
        #expect(contents.uuid?.count == 16)
        return text.address..<(text.address + text.size)
    }

    @Test(arguments: cases)
    func matchesLLVMSymbolizer(_ test: Case) throws {
        guard let symbolizer = Toolchain.llvmSymbolizer else { print("skipped: llvm-symbolizer not installed"); return }
        let addresses = Array(try textRange(test.arch))
        let dsym = Self.path("inline-\(test.arch).dSYM/Contents/Resources/DWARF/inline-\(test.arch)")
        let input = addresses.map { "0x" + String($0, radix: 16) + "\n" }.joined()
        let expected = try Toolchain.run(symbolizer, ["--inlines", "--obj", dsym], stdin: input).stdout
            .components(separatedBy: "\n\n").map { $0.trimmingCharacters(in: .newlines) }
        var options = SymbolicationOptions()
        if test.selectArch { options.architecture = test.arch }
        let image = try ImageSymbolizer(path: Self.path(test.binary), options: options)
        #expect(image.debugInfoPath?.hasSuffix(".dSYM/Contents/Resources/DWARF/\(test.binary.replacingOccurrences(of: ".dSYM", with: ""))") == true)
        var mismatches = 0
        var inlined = 0
        for (address, want) in zip(addresses, expected) {
            let frames = try image.frames(at: address)
            inlined += frames.count - 1
            let got = frames.map { "\($0.function ?? "??")\n\($0.file ?? "??"):\($0.line):\($0.column)" }.joined(separator: "\n")
            if got != want {
                mismatches += 1
                if mismatches <= 3 { Issue.record("0x\(String(address, radix: 16)):\nllvm-symbolizer:\n\(want)\ndevkit:\n\(got)") }
            }
        }
        #expect(mismatches == 0)
        #expect(inlined > 0)
    }

    @Test func fatFileNeedsAnArchitecture() throws {
        #expect {
            try ImageSymbolizer(path: Self.path("inline-fat"))
        } throws: { error in
            (error as? SymbolicationError)?.message.contains("choose one with --arch") == true
        }
        var options = SymbolicationOptions()
        options.architecture = "i386"
        #expect(throws: SymbolicationError.self) { try ImageSymbolizer(path: Self.path("inline-fat"), options: options) }
    }

    /// The UUID is checked like a build-id (Apple's dashed uppercase form accepted), and a
    /// dSYM whose UUID differs from the binary's is never used.
    @Test func uuidIdentity() throws {
        let thin = try ImageSymbolizer(path: Self.path("inline-arm64"))
        let uuid = try #require(thin.identifier)
        var dashed = uuid.uppercased()
        for position in [8, 13, 18, 23] { dashed.insert("-", at: dashed.index(dashed.startIndex, offsetBy: position)) }
        var options = SymbolicationOptions()
        options.expectedIdentifier = dashed
        #expect(try ImageSymbolizer(path: Self.path("inline-arm64"), options: options).isVerified)
        options.expectedIdentifier = String(repeating: "0", count: 32)
        #expect(throws: SymbolicationError.self) { try ImageSymbolizer(path: Self.path("inline-arm64"), options: options) }

        // The x86_64 dSYM placed beside the arm64 binary under its name: not used.
        let temporary = try Toolchain.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: temporary) }
        try FileManager.default.copyItem(atPath: Self.path("inline-arm64"), toPath: temporary.appendingPathComponent("inline-arm64").path)
        let wrong = temporary.appendingPathComponent("inline-arm64.dSYM/Contents/Resources/DWARF")
        try FileManager.default.createDirectory(at: wrong, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.path("inline-x86_64.dSYM/Contents/Resources/DWARF/inline-x86_64"),
                                         toPath: wrong.appendingPathComponent("inline-arm64").path)
        let image = try ImageSymbolizer(path: temporary.appendingPathComponent("inline-arm64").path)
        #expect(image.debugInfoPath == nil)
        let text = try textRange("arm64")
        let frames = try image.frames(at: text.lowerBound)
        #expect(frames.first?.source == .symbolTable)
        #expect(frames.first?.function == "compute")
    }

    /// Every prefix and random byte flips of a dSYM's DWARF file and of a fat binary: errors, never a crash.
    @Test func corruptMachO() throws {
        for name in ["inline-arm64.dSYM/Contents/Resources/DWARF/inline-arm64", "inline-fat"] {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.path(name))))
            var options = SymbolicationOptions()
            options.architecture = "arm64"
            for length in stride(from: 0, to: bytes.count, by: name == "inline-fat" ? 41 : 7) {
                let file = MappedFile(copying: bytes[0..<length], path: "prefix")
                if let image = try? ImageSymbolizer(file: file, options: options) { _ = try? image.frames(at: 0x1_0000_0430) }
            }
            var generator = SplitMix64(seed: 0xfeed)
            for _ in 0..<200 {
                var copy = bytes
                generator.damage(&copy, maxFlips: 6, headBytes: 1024)
                if let image = try? ImageSymbolizer(file: MappedFile(copying: copy, path: "flipped"), options: options) {
                    for address in stride(from: UInt64(0x1_0000_0400), to: 0x1_0000_0500, by: 7) { _ = try? image.frames(at: address) }
                }
            }
        }
    }
}
