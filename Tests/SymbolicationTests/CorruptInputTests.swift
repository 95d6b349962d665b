import BinaryReading
import DevKitTestSupport
import System
import Foundation
import ObjectFile
import Symbolication
import Testing

/// Truncated and corrupted object files give errors, never a crash or a hang.
@Suite struct CorruptInputTests {
    func smallBinary() throws -> [UInt8]? {
        let directory = try Toolchain.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let binary = try Toolchain.compile("small.c", compiler: "clang", flags: ["-O2", "-g", "-nostdlib", "-Wl,--build-id=sha1"], output: "small", in: directory) else { return nil }
        return Array(try Data(contentsOf: URL(fileURLWithPath: binary)))
    }

    /// Every prefix of a small ELF: the header parser, symbols, build-id and the whole
    /// symbolizer (libdw included) either succeed or throw.
    @Test func everyPrefix() throws {
        guard let bytes = try smallBinary() else { return }
        var failures = 0
        for length in 0..<bytes.count {
            let file = MappedFile(copying: bytes[0..<length], path: "prefix-\(length)")
            if let elf = try? ELFFile(file) {
                _ = try? elf.symbols()
                _ = try? elf.buildID()
                _ = try? elf.debugLink()
            }
            do {
                let image = try ImageSymbolizer(file: file)
                _ = try image.frames(at: 0x1000)
            } catch {
                failures += 1
                #expect(!error.description.isEmpty)
            }
        }
        #expect(failures > bytes.count / 2, "most prefixes cut the section headers off and must fail")
    }

    /// Random byte flips (fixed seed, so a failure reproduces).
    @Test func randomFlips() throws {
        guard let original = try smallBinary() else { return }
        var generator = SplitMix64(seed: 0x5eed)
        for _ in 0..<1500 {
            var bytes = original
            generator.damage(&bytes, maxFlips: 8, headBytes: 512)
            let file = MappedFile(copying: bytes, path: "flipped")
            if let image = try? ImageSymbolizer(file: file) {
                for address in stride(from: UInt64(0), to: 0x3000, by: 0x35) { _ = try? image.frames(at: address) }
            }
        }
    }

    @Test func truncatedHeaderNamesTheOffset() throws {
        let file = MappedFile(copying: [0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0], path: "short")
        #expect(throws: DecodeError.self) { try ELFFile(file) }
        do {
            _ = try ImageSymbolizer(file: file)
            Issue.record("a 10-byte file must not open")
        } catch {
            #expect(error.kind == .malformed)
            #expect(error.description.hasPrefix("short: offset 0x"))
        }
    }
}
