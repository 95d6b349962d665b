import BinaryReading
import DevKitTestSupport
import Foundation
import ObjectFile
import System
import Testing

/// ObjectFile's Mach-O reader on the fixtures of Scripts/fixtures/make-macho (Fixtures/macho/):
/// thin and fat executables and their dSYM DWARF files.
@Suite struct MachOFileTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/macho")
    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: Self.directory.appendingPathComponent(name)))
    }

    func contents(_ name: String) throws -> [(architecture: String, contents: MachOContents)] {
        let file = try MappedFile(path: Self.directory.appendingPathComponent(name).path)
        return try MachOFile.images(file.bytes).map { ($0.architecture, try MachOContents.read($0, bytes: $0.bytes(in: file.bytes))) }
    }

    @Test func thinAndFatSlices() throws {
        #expect(try MachOFile.images(Self.bytes("inline-arm64")).map(\.architecture) == ["arm64"])
        #expect(try MachOFile.images(Self.bytes("inline-x86_64")).map(\.architecture) == ["x86_64"])
        let fat = try MachOFile.images(Self.bytes("inline-fat"))
        #expect(Set(fat.map(\.architecture)) == ["arm64", "x86_64"])
        #expect(fat.allSatisfy { $0.is64Bit && $0.offset > 0 })
        #expect(MachOFile.isMachO(Array(try Self.bytes("inline-fat").prefix(4))))
    }

    /// Each slice has `__TEXT,__text` and a UUID, and a dSYM's DWARF file has the UUID of its binary.
    @Test(arguments: ["arm64", "x86_64"])
    func sectionsAndUUID(_ architecture: String) throws {
        let binary = try #require(try contents("inline-\(architecture)").first?.contents)
        let text = try #require(binary.sections.first { $0.segment == "__TEXT" && $0.name == "__text" })
        #expect(text.size > 0)
        #expect(text.isCode)
        #expect(binary.uuid?.count == 16)
        let dsym = try contents("inline-\(architecture).dSYM/Contents/Resources/DWARF/inline-\(architecture)")
        #expect(dsym.first?.contents.uuid == binary.uuid)
        #expect(dsym.first?.contents.sections.contains { $0.segment == "__DWARF" } == true)
        let fatSlice = try contents("inline-fat").first { $0.architecture == architecture }
        #expect(fatSlice?.contents.uuid?.count == 16)
    }

    /// Every prefix and random byte flips of a fat file and a dSYM: a `DecodeError` or a
    /// model, never a trap.
    @Test func damagedFiles() throws {
        for name in ["inline-fat", "inline-arm64.dSYM/Contents/Resources/DWARF/inline-arm64"] {
            let bytes = try Self.bytes(name)
            func read(_ bytes: [UInt8]) {
                guard let images = try? MachOFile.images(bytes) else { return }
                bytes.withUnsafeBytes { raw in
                    for image in images { _ = try? MachOContents.read(image, bytes: image.bytes(in: raw)) }
                }
            }
            for length in stride(from: 0, to: bytes.count, by: 13) { read(Array(bytes[0..<length])) }
            var generator = SplitMix64(seed: 0xfeed)
            for _ in 0..<300 {
                var copy = bytes
                generator.damage(&copy, maxFlips: 6, headBytes: 1024)
                read(copy)
            }
        }
    }
}
