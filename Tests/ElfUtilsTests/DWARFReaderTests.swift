import DevKitTestSupport
import ElfUtils
import Foundation
import Testing

/// libdw through DWARFReader on a shared object compiled at test time from Fixtures/inlined.c:
/// units, line rows and inlined calls come out as Swift values; bytes that are no ELF file
/// give a `DWError`.
@Suite struct DWARFReaderTests {
    static let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/inlined.c")

    /// The fixture's units, read from an object file built with DWARF `version`; nil without clang.
    func units(dwarfVersion version: Int) throws -> [DWARFUnit]? {
        guard let clang = TestProcess.find("clang") else { print("skipped: clang not installed"); return nil }
        let directory = try TestProcess.temporaryDirectory("devkit-elfutils")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Linked (a shared object without libc): libdw reads relocated DWARF, not a `.o`'s.
        let object = directory.appendingPathComponent("libinlined.so").path
        let result = try TestProcess.run(clang, ["-O2", "-g", "-gdwarf-\(version)", "-shared", "-fPIC", "-nostdlib",
                                                 Self.source.path, "-o", object])
        guard result.status == 0 else { Issue.record("clang failed: \(result.stderr)"); return nil }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: object))
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 16)
        defer { buffer.deallocate() }
        bytes.copyBytes(to: buffer)
        final class Owner {}
        let reader = try DWARFReader(image: UnsafeRawBufferPointer(buffer), owner: Owner())
        var units: [DWARFUnit] = []
        try reader.forEachUnit { units.append($0) }
        return units
    }

    @Test(arguments: [4, 5])
    func unitLinesAndInlinedCalls(dwarfVersion: Int) throws {
        guard let units = try units(dwarfVersion: dwarfVersion) else { return }
        let unit = try #require(units.first { $0.name?.hasSuffix("inlined.c") == true })
        #expect(unit.version == dwarfVersion)
        #expect(!unit.lineRows.isEmpty)
        #expect(unit.lineRows.contains { $0.isEndSequence })
        #expect(unit.lineRows.contains { $0.line == 5 })  // square's body
        let function = try #require(unit.subroutines.first { $0.name == "sum_of_squares" })
        #expect(function.depth == 0)
        let inlined = try #require(unit.subroutines.first { $0.name == "square" && $0.depth == 1 })
        #expect(inlined.callLine == 11)
        #expect(!inlined.ranges.isEmpty)
        #expect(inlined.ranges.allSatisfy { unit.ranges[$0].start < unit.ranges[$0].end })
    }

    @Test func bytesThatAreNoELFFile() {
        let bytes: [UInt8] = Array("no ELF file here, only text".utf8)
        final class Owner {}
        #expect(throws: DWError.self) {
            try bytes.withUnsafeBytes { raw in
                let reader = try DWARFReader(image: raw, owner: Owner())
                try reader.forEachUnit { _ in }
            }
        }
    }
}
