import DevKitTestSupport
import ElfUtils
import Foundation
import Testing

/// Issue 15 §5: a compressed `.debug_info` that claims far more than its bytes can hold is
/// refused before libdw allocates the claim. The image is Fixtures/inlined.c built with
/// `-gz=zlib` at test time, its `Elf64_Chdr.ch_size` then raised to 1 GiB.
@Suite struct CompressedSectionTests {
    final class Owner {}

    /// The built image's bytes, and the file offset of `.debug_info`'s `ch_size`; nil without clang.
    func compressedImage() throws -> (bytes: [UInt8], chSizeOffset: Int)? {
        guard let clang = TestProcess.find("clang") else { print("skipped: clang not installed"); return nil }
        let directory = try TestProcess.temporaryDirectory("devkit-elfutils")
        defer { try? FileManager.default.removeItem(at: directory) }
        let object = directory.appendingPathComponent("libinlined.so").path
        let result = try TestProcess.run(clang, ["-O2", "-g", "-gz=zlib", "-shared", "-fPIC", "-nostdlib",
                                                 DWARFReaderTests.source.path, "-o", object])
        guard result.status == 0 else { Issue.record("clang failed: \(result.stderr)"); return nil }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: object)))
        func u16(_ o: Int) -> Int { Int(bytes[o]) | Int(bytes[o + 1]) << 8 }
        func u32(_ o: Int) -> Int { u16(o) | u16(o + 2) << 16 }
        func u64(_ o: Int) -> Int { u32(o) | u32(o + 4) << 32 }
        let sectionTable = u64(0x28), entrySize = u16(0x3A), count = u16(0x3C), namesIndex = u16(0x3E)
        let namesOffset = u64(sectionTable + namesIndex * entrySize + 0x18)
        for index in 0..<count {
            let header = sectionTable + index * entrySize
            var nameEnd = namesOffset + u32(header)
            while bytes[nameEnd] != 0 { nameEnd += 1 }
            let name = String(decoding: bytes[(namesOffset + u32(header))..<nameEnd], as: UTF8.self)
            guard name == ".debug_info" else { continue }
            let flags = u64(header + 8)
            try #require(flags & 0x800 != 0, "clang -gz did not compress .debug_info")
            return (bytes, u64(header + 0x18) + 8)  // Elf64_Chdr: ch_type, ch_reserved, ch_size
        }
        Issue.record("no .debug_info")
        return nil
    }

    func read(_ bytes: [UInt8]) throws(DWError) -> Int {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 16)
        defer { buffer.deallocate() }
        buffer.copyBytes(from: bytes)
        let reader = try DWARFReader(image: UnsafeRawBufferPointer(buffer), owner: Owner())
        var units = 0
        try reader.forEachUnit { _ in units += 1 }
        return units
    }

    @Test func honestlyCompressedDebugInfoIsRead() throws {
        guard let (bytes, _) = try compressedImage() else { return }
        #expect(try read(bytes) >= 1)
    }

    @Test func aClaimOfOneGibibyteIsRefused() throws {
        guard let (image, offset) = try compressedImage() else { return }
        var bytes = image
        let claim: UInt64 = 1 << 30
        for i in 0..<8 { bytes[offset + i] = UInt8(truncatingIfNeeded: claim >> (8 * UInt64(i))) }
        let error = #expect(throws: DWError.self) { try read(bytes) }
        #expect(error?.message.contains(".debug_info claims 1073741824 bytes uncompressed") == true, "\(String(describing: error))")
    }
}
