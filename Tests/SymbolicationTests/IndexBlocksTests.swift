import BinaryReading
@testable import ElfUtils
@testable import ObjectFile
@testable import Symbolication
import System
import Testing

/// The index read block by block (format 8): lookups through the block keys and the samples
/// written as blocks are checked give exactly what a scan of the whole arrays gives, on an
/// index whose line rows, ranges of every depth and symbols span many blocks, with long
/// functions whose ends are carried across block boundaries; and a block damaged in memory
/// is refused when a lookup first needs it, not before, while the others still answer.
@Suite struct IndexBlocksTests {
    /// 700 functions (every tenth a long one overlapping the next nine), each with an inlined
    /// call and every other one a second inlined call inside it; a line row every 4 bytes;
    /// a symbol per function. 0x1000-aligned starts, so the code is 0x1000…0x2be000.
    func makeIndex() -> AddressIndex {
        var subroutines: [DWARFSubroutine] = []
        var ranges: [(start: UInt64, end: UInt64)] = []
        var rows: [DWARFLineRow] = []
        var symbols: [ELFSymbol] = []
        for f in 0..<700 {
            let start = 0x1000 + UInt64(f) * 0x1000
            let end = start + (f % 10 == 0 ? 0x9000 : 0x800)
            ranges.append((start, end))
            subroutines.append(DWARFSubroutine(name: "f\(f)", depth: 0, ranges: (ranges.count - 1)..<ranges.count, callFile: nil, callLine: 0, callColumn: 0))
            ranges.append((start + 0x100, start + 0x400))
            subroutines.append(DWARFSubroutine(name: "inl\(f)", depth: 1, ranges: (ranges.count - 1)..<ranges.count, callFile: 0, callLine: UInt32(f), callColumn: 3))
            if f % 2 == 0 {
                ranges.append((start + 0x200, start + 0x300))
                subroutines.append(DWARFSubroutine(name: "deep\(f)", depth: 2, ranges: (ranges.count - 1)..<ranges.count, callFile: 0, callLine: UInt32(f + 1), callColumn: 5))
            }
            for offset in stride(from: UInt64(0), to: 0x800, by: 0x40) {
                rows.append(DWARFLineRow(address: start + offset, file: 0, line: UInt32(f * 100) + UInt32(offset / 0x40), column: 1, isEndSequence: false))
            }
            rows.append(DWARFLineRow(address: start + 0x800, file: 0, line: 0, column: 0, isEndSequence: true))
            symbols.append(ELFSymbol(name: "sym\(f)", value: start, size: 0x700, type: ELFSymbol.functionType, binding: 1, sectionIndex: 1))
        }
        let unit = DWARFUnit(version: 5, name: "u.c", compilationDirectory: "/src", files: ["/src/u.c"], firstDirectory: "/src",
                             lineRows: rows, subroutines: subroutines, ranges: ranges)
        var builder = AddressIndexBuilder(codeRanges: [(0x1000, 0x300000)])
        builder.add(unit)
        builder.add(symbols: symbols)
        return IndexFile.serialize(builder.finish(identity: IndexFile.Identity(identifier: [], imageSize: 0, imageModified: 0, debugSize: 0, debugModified: 0)))
    }

    /// The answers of a scan over every record: the last row at or before the address, per
    /// depth the last range containing it that starts inside the one found a depth above,
    /// and the last symbol at or before it that reaches it.
    func scanned(_ index: AddressIndex, _ address: UInt64) -> (line: UInt32?, chain: [UInt32], symbol: UInt32?) {
        let row = index.lines.lastIndex { $0.address <= address }.map { index.lines[$0] }
        var chain: [UInt32] = []
        var parentStart: UInt64 = 0
        for depth in 0..<(index.depthStarts.count - 1) {
            let run = Int(index.depthStarts[depth])..<Int(index.depthStarts[depth + 1])
            guard let found = run.last(where: { index.ranges[$0].start <= address && address < index.ranges[$0].end && index.ranges[$0].start >= parentStart })
            else { break }
            chain.append(index.ranges[found].subroutine)
            parentStart = index.ranges[found].start
        }
        let symbol = index.symbols.lastIndex { $0.start <= address }.flatMap { address < index.symbols[$0].end ? index.symbols[$0].name : nil }
        return (row.flatMap { $0.flags & AddressIndex.endSequenceFlag == 0 ? $0.line : nil }, chain, symbol)
    }

    @Test func blockSearchesGiveTheScansAnswers() throws {
        let index = makeIndex()
        #expect(index.lines.count > 20 * 128)
        #expect(index.ranges.count > 8 * 128)
        #expect(index.symbols.count > 5 * 128)
        #expect(index.depthStarts.count == 4)
        var addresses: [UInt64] = [0, 0xfff, 0x1000, 0x2be000, 0x2c0000, .max]
        // Seeded (a linear congruential generator), so a failure repeats.
        var state: UInt64 = 18
        for _ in 0..<3000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            addresses.append(0x800 + (state >> 33) % 0x2b_f800)
        }
        // Every block boundary's neighbours.
        for record in stride(from: 0, to: index.lines.count, by: 128) {
            let address = index.lines[record].address
            addresses += [address &- 1, address, address + 1]
        }
        for record in stride(from: 0, to: index.ranges.count, by: 128) {
            let range = index.ranges[record]
            addresses += [range.start &- 1, range.start, range.end &- 1, range.end]
        }
        let chain = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: index.longestChain)
        defer { chain.deallocate() }
        for address in addresses {
            let expected = scanned(index, address)
            #expect(try index.line(at: address)?.line == expected.line, "line at \(address)")
            let depth = try index.subroutineChain(at: address, into: chain)
            #expect(Array(chain[0..<depth]) == expected.chain, "chain at \(address)")
            #expect(try index.symbol(at: address)?.name == expected.symbol, "symbol at \(address)")
        }
    }

    /// A flipped bit in one block of line rows: lookups reading other blocks answer, the
    /// first lookup needing that block throws and names it, and so does every later one.
    @Test func damagedBlockIsRefusedOnFirstUse() throws {
        let built = makeIndex()
        // A copy of the bytes, damaged in the line number of row 20 * 128 + 5 (block 20).
        var bytes = Array(built.storage.bytes)
        let linesOffset = Int(bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: IndexFile.sectionsOffset, as: UInt64.self) })
        bytes[linesOffset + (20 * 128 + 5) * 24 + 12] ^= 0x10
        let file = MappedFile(copying: bytes, path: "damaged")
        let index = try IndexFile.open(cache: file, expecting: IndexFile.Identity(identifier: [], imageSize: 0, imageModified: 0, debugSize: 0, debugModified: 0))
        let early = built.lines[5].address, damaged = built.lines[20 * 128 + 5].address
        #expect(try index.line(at: early)?.line == built.line(at: early)?.line)
        #expect(throws: DecodeError.self) { try index.line(at: damaged) }
        do {
            _ = try index.line(at: damaged)
        } catch {
            #expect(error.reason == "block 20 of the line rows: checksum mismatch")
        }
        #expect(throws: DecodeError.self) { try index.line(at: damaged + 1) }
        #expect(try index.line(at: early)?.line == built.line(at: early)?.line)
    }

    /// Damage to the small arrays (here one block's checksum) is found when the file is opened.
    @Test func damagedBlockTableIsRefusedAtOpen() throws {
        let built = makeIndex()
        var bytes = Array(built.storage.bytes)
        let checksums = Int(bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: IndexFile.sectionsOffset + 7 * 16, as: UInt64.self) })
        bytes[checksums + 3] ^= 1
        let file = MappedFile(copying: bytes, path: "damaged")
        #expect(throws: DecodeError.self) {
            try IndexFile.open(cache: file, expecting: IndexFile.Identity(identifier: [], imageSize: 0, imageModified: 0, debugSize: 0, debugModified: 0))
        }
    }
}
