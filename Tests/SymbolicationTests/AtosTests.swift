import Diagnostics
import Foundation
@testable import Symbolication
import Testing

/// `devkit atos`: Apple's command line parsed as atos's man page gives it, and its answers
/// checked address by address against llvm-symbolizer (the line atos prints is built from the
/// same function, file and line; only the layout is atos's).
@Suite struct AtosTests {
    @Test func theCommandLineAtosScriptsUse() throws {
        let parsed = try AtosArguments.parse(["-o", "App.app.dSYM", "-arch", "arm64", "-l", "0x104000000", "-i", "-fullPath", "0x104f6c394", "0x104f6c3a0"])
        var expected = AtosArguments(binary: "App.app.dSYM")
        expected.architecture = "arm64"
        expected.base = .loadAddress(0x1_0400_0000)
        expected.inlinedFrames = true
        expected.fullPath = true
        expected.addresses = ["0x104f6c394", "0x104f6c3a0"]
        #expect(parsed == expected)
        #expect(try AtosArguments.parse(["-o", "a", "-s", "0x4000"]).base == .slide(0x4000))
        #expect(try AtosArguments.parse(["-o", "a", "-offset", "-f", "list"]).addressFile == "list")
    }

    @Test func swiftNamesShortByDefaultAsApplesAtos() throws {
        #expect(try AtosArguments.parse(["-o", "a", "0x10"]).names == .short)
        #expect(try AtosArguments.parse(["-o", "a", "--names", "full", "0x10"]).names == .full)
        #expect(try AtosArguments.parse(["--names=full", "-o", "a"]).names == .full)
        #expect(try AtosArguments.parse(["-o", "a", "--names", "full", "--names", "short"]).names == .short)
        #expect(try AtosArguments.parse(["-o", "a", "--names", "full", "0x10"]).addresses == ["0x10"])
    }

    @Test(arguments: [
        (["0x1000"], "no binary: give -o BINARY or -o APP.dSYM"),
        (["-o"], "-o needs a value"),
        (["-o", "a", "-l", "zz"], "-l: \"zz\" is not an address"),
        (["-o", "a", "-x"], "unknown option -x"),
        (["-o", "a", "-p", "123"], "-p (a running process) is not supported on Linux; use -o with -l"),
        (["-o", "a", "--names", "simplified"], "--names: \"simplified\" is not short or full"),
        (["-o", "a", "--names"], "--names needs a value"),
    ])
    func usageErrors(_ arguments: [String], _ message: String) {
        let error = #expect(throws: Diagnostic.self) { try AtosArguments.parse(arguments) }
        #expect(error?.message == message)
        #expect(error?.kind == .usage)
    }

    @Test func theImageNameIsTheBinarysEvenForADSYM() {
        #expect(AtosSession.imageName(of: "/x/App.app.dSYM") == "App")
        #expect(AtosSession.imageName(of: "Kit.framework.dSYM") == "Kit")
        #expect(AtosSession.imageName(of: "build/inline-arm64.dSYM") == "inline-arm64")
        #expect(AtosSession.imageName(of: "build/App") == "App")
    }

    /// Every address of the fixture's `__text` (Mach-O through its dSYM, loaded at a slide)
    /// and of an ELF built here: with -i, atos's lines are llvm-symbolizer's frames; without,
    /// one line naming the outermost function and the address's own line.
    @Test(arguments: ["macho", "elf"])
    func answersMatchLLVMSymbolizer(_ kind: String) throws {
        guard let symbolizer = Toolchain.llvmSymbolizer else { print("skipped: llvm-symbolizer not installed"); return }
        let binary: String, debug: String, addresses: [UInt64]
        if kind == "macho" {
            binary = MachOSymbolicationTests.path("inline-arm64.dSYM")
            debug = MachOSymbolicationTests.path("inline-arm64.dSYM/Contents/Resources/DWARF/inline-arm64")
            addresses = Array(try MachOSymbolicationTests().textRange("arm64")).filter { $0 % 4 == 0 }
        } else {
            // Removed with the process's temporary files: the session below maps it.
            let directory = try Toolchain.temporaryDirectory()
            guard let built = try Toolchain.compile("inline.c", compiler: "clang", flags: ["-g", "-O2"], output: "inline", in: directory) else {
                print("skipped: clang not installed"); return
            }
            binary = built
            debug = built
            let text = try Toolchain.run(Toolchain.find("llvm-objdump", "objdump") ?? "objdump", ["-h", built]).stdout
            let line = try #require(text.split(separator: "\n").first { $0.contains(" .text ") })
            let fields = line.split(separator: " ")
            let size = try #require(UInt64(fields[2], radix: 16)), start = try #require(UInt64(fields[3], radix: 16))
            addresses = Array(stride(from: start, to: start + size, by: 1))
        }
        let slide: UInt64 = 0x4000
        let input = addresses.map { "0x" + String($0, radix: 16) + "\n" }.joined()
        let oracle = try Toolchain.run(symbolizer, ["--inlines", "--obj", debug], stdin: input).stdout
            .components(separatedBy: "\n\n").map { $0.trimmingCharacters(in: .newlines).split(separator: "\n").map(String.init) }
        var arguments = try AtosArguments.parse(["-o", binary, "-s", "0x4000", "-i"])
        let inlined = try AtosSession(arguments)
        arguments.inlinedFrames = false
        let outermost = try AtosSession(arguments)
        let name = AtosSession.imageName(of: binary)
        var mismatches = 0, checked = 0, inlinedSeen = 0
        for (address, frames) in zip(addresses, oracle) where frames.first != "??" {
            checked += 1
            if frames.count > 2 { inlinedSeen += 1 }
            // llvm-symbolizer: function, file:line:column pairs, innermost first.
            let pairs = stride(from: 0, to: frames.count - 1, by: 2).map { (frames[$0], frames[$0 + 1]) }
            func line(_ function: String, _ location: String) -> String {
                let parts = location.split(separator: ":")
                let file = parts.first.map { $0.split(separator: "/").last.map(String.init) ?? String($0) } ?? "??"
                let number = parts.count > 1 ? String(parts[1]) : "0"
                return number == "0" ? "\(function) (in \(name))" : "\(function) (in \(name)) (\(file):\(number))"
            }
            let want = pairs.map { line($0.0, $0.1) }.joined(separator: "\n") + "\n"
            let wantOutermost = line(pairs.last!.0, pairs.first!.1) + "\n"
            let got = inlined.lines(for: address + slide), gotOutermost = outermost.lines(for: address + slide)
            // Lines without a line number end in "+ offset" in atos; compare up to there.
            func trimmed(_ text: String) -> String {
                text.split(separator: "\n").map { $0.components(separatedBy: " + ").first! }.joined(separator: "\n") + "\n"
            }
            if trimmed(got) != want || trimmed(gotOutermost) != wantOutermost {
                mismatches += 1
                if mismatches <= 3 { Issue.record("0x\(String(address, radix: 16)): want\n\(want)\(wantOutermost)got\n\(got)\(gotOutermost)") }
            }
        }
        #expect(mismatches == 0)
        #expect(checked > 20 && inlinedSeen > 0, "\(checked) addresses, \(inlinedSeen) with inlined frames")
        #expect(inlined.lines(for: 0x1) == "0x1\n")
    }
}
