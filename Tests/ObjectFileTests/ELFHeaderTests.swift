import BinaryReading
import ObjectFile
import System
import Testing

/// The ELF header: `e_type` from a file's first bytes (how devkit tells a core from a crash
/// log without reading it), and a truncated header's error.
@Suite struct ELFHeaderTests {
    /// `e_ident` for a 64-bit file of byte order `data` (1 little, 2 big), then `e_type`.
    static func prefix(data: UInt8, type: UInt16) -> [UInt8] {
        var bytes: [UInt8] = [0x7f, 0x45, 0x4c, 0x46, 2, data, 1] + Array(repeating: 0, count: 9)
        bytes += data == 2 ? [UInt8(type >> 8), UInt8(type & 0xff)] : [UInt8(type & 0xff), UInt8(type >> 8)]
        return bytes
    }

    @Test func typeFromThePrefix() {
        #expect(ELFHeader.type(ofPrefix: Self.prefix(data: 1, type: 4)) == ELFHeader.core)
        #expect(ELFHeader.type(ofPrefix: Self.prefix(data: 2, type: 4)) == ELFHeader.core)
        #expect(ELFHeader.type(ofPrefix: Self.prefix(data: 1, type: 3)) == ELFHeader.sharedObject)
        #expect(ELFHeader.type(ofPrefix: Self.prefix(data: 2, type: 2)) == ELFHeader.executable)
        #expect(Self.prefix(data: 1, type: 4).count == ELFHeader.typePrefixCount)
    }

    @Test func notAnELFPrefix() {
        #expect(ELFHeader.type(ofPrefix: Array(Self.prefix(data: 1, type: 4).prefix(17))) == nil)
        #expect(ELFHeader.type(ofPrefix: Self.prefix(data: 3, type: 4)) == nil)
        var noMagic = Self.prefix(data: 1, type: 4)
        noMagic[1] = 0x46
        #expect(ELFHeader.type(ofPrefix: noMagic) == nil)
        #expect(ELFHeader.type(ofPrefix: Array("Process: crashy [123]\n".utf8)) == nil)
    }

    @Test func truncatedHeaderNamesTheOffset() throws {
        let file = MappedFile(copying: [0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0], path: "short")
        do {
            _ = try ELFFile(file)
            Issue.record("a 10-byte file must not open")
        } catch {
            #expect(error.offset <= 10)
            #expect(error.description.hasPrefix("offset 0x"))
        }
    }
}
