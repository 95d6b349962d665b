@testable import ElfUtils
@testable import ObjectFile
@testable import Symbolication
import Testing

/// The index builder on hand-made units: what real binaries have only sometimes (overlapping
/// sequences, aliases spread over a stripped image's .dynsym and its debug file's .symtab).
@Suite struct AddressIndexBuilderTests {
    func row(_ address: UInt64, _ line: UInt32, end: Bool = false) -> DWARFLineRow {
        DWARFLineRow(address: address, file: 0, line: line, column: 1, isEndSequence: end)
    }

    func unit(_ rows: [DWARFLineRow]) -> DWARFUnit {
        DWARFUnit(version: 5, name: "u.c", compilationDirectory: "/src", files: ["/src/u.c"], firstDirectory: "/src",
                  lineRows: rows, subroutines: [], ranges: [])
    }

    func index(_ units: [DWARFUnit], symbols: [ELFSymbol] = [], debugSymbols: [ELFSymbol] = []) -> AddressIndex {
        var builder = AddressIndexBuilder(codeRanges: [(0x1000, 0x9000)])
        for unit in units { builder.add(unit) }
        builder.add(symbols: symbols, debugSymbols: debugSymbols)
        let identity = IndexFile.Identity(identifier: [], imageSize: 0, imageModified: 0, debugSize: 0, debugModified: 0)
        return IndexFile.serialize(builder.finish(identity: identity))
    }

    /// Rows stay in address order (line(at:) binary-searches them all at once): a sequence
    /// overlapping an earlier one cuts that one short, and identical copies (libstdc++'s cold
    /// parts of inline functions, in every unit that used them) collapse into one.
    @Test func overlappingSequencesKeepRowsSorted() throws {
        let copy = [row(0x1100, 10), row(0x1110, 11), row(0x1120, 0, end: true)]
        let long = [row(0x2000, 20), row(0x2100, 21), row(0x2300, 0, end: true)]
        let inside = [row(0x2200, 30), row(0x2210, 0, end: true)]
        let index = index([unit(copy), unit(long + copy), unit(inside), unit(copy)])
        #expect(zip(index.lines, index.lines.dropFirst()).allSatisfy { $0.address <= $1.address })
        #expect(index.lines.filter { $0.address == 0x1100 }.count == 1)
        #expect(try index.line(at: 0x1115)?.line == 11)
        #expect(try index.line(at: 0x2150)?.line == 21)
        #expect(try index.line(at: 0x2205)?.line == 30)
        // The long sequence ended where the one inside it began.
        #expect(try index.line(at: 0x2250) == nil)
    }

    /// Among aliases at one address the stripped image's own table (.dynsym) wins, then the
    /// last of equal size in table order, as llvm-symbolizer picks; the debug file's .symtab
    /// names what .dynsym lacks, and such a record is not "in the image table".
    @Test func aliasesPreferTheImageTable() throws {
        func function(_ name: String, _ address: UInt64, _ size: UInt64, binding: UInt8 = 1) -> ELFSymbol {
            ELFSymbol(name: name, value: address, size: size, type: ELFSymbol.functionType, binding: binding, sectionIndex: 1)
        }
        let dynamic = [function("memalign", 0x1000, 0x40, binding: 2), function("__libc_memalign", 0x1000, 0x40),
                       function("aligned_alloc", 0x1000, 0x40, binding: 2)]
        let debug = [function("__memalign", 0x1000, 0x40, binding: 0), function("aligned_alloc@GLIBC_2.16", 0x1000, 0x40),
                     function("helper.part.0", 0x2000, 0x10, binding: 0)]
        let index = index([], symbols: dynamic, debugSymbols: debug)
        let first = try index.symbol(at: 0x1010)
        #expect(first.flatMap { index.strings.string($0.name) } == "aligned_alloc")
        #expect(first?.isInImageTable == true)
        let second = try index.symbol(at: 0x2008)
        #expect(second.flatMap { index.strings.string($0.name) } == "helper.part.0")
        #expect(second?.isInImageTable == false)
    }
}
