internal import SymbolCacheFormat
import BinaryReading
import System

/// The layout of an `AddressIndex` in one buffer, which is also the on-disk cache format
/// (`$XDG_CACHE_HOME/devkit/symbols/<build-id>`), memory-mapped on reuse. The header's
/// offsets and the records are declared in Sources/SymbolCacheFormat/include/devkit_symbol_cache.h:
///
/// ```
/// 0    magic "DKSYMIDX"
/// 8    format version (UInt32), byte-order mark 0x01020304, reserved (0)
/// 20   identifier length (UInt32), identifier bytes (64, zero-padded)
/// 88   image size, image mtime (ns), debug-file size, debug-file mtime
/// 120  10 × (offset, count): lines, ranges, depth starts, subroutines, symbols,
///      string spans, string bytes, block checksums, block keys, range carries;
///      each array at the 8-byte aligned end of the one before, zero padding
/// 280  checksum of the header's other bytes and the four small arrays (UInt64)
/// 288  the arrays
/// ```
/// Every integer is little-endian: the header's are written as such, and the arrays are the
/// records copied from memory, so caches are read and written on little-endian machines only.
/// Opening checks identity, the layout, the padding, the header's checksum (which covers the
/// depth starts, every block's checksum and first key, and the range carries) and the small
/// arrays' own order; the large arrays are checked block by block when a lookup first reads
/// them (`IndexBlocks`). Every byte of the file is covered by one of the checks, and a cache
/// that fails any check is rebuilt, never trusted (`ImageSymbolizer`).
enum IndexFile {
    static let magic = Array(DKS_MAGIC.utf8)
    static let version = UInt32(DKS_FORMAT_VERSION)
    static let byteOrderMark: UInt32 = DKS_BYTE_ORDER_MARK
    static let headerSize = Int(DKS_HEADER_SIZE)
    static let sectionCount = Int(DKS_SECTION_COUNT)
    static let checksumOffset = Int(DKS_OFFSET_CHECKSUM)
    static let sectionsOffset = Int(DKS_OFFSET_SECTIONS)
    /// Bytes per record of each array, in section order.
    static let strides = [MemoryLayout<AddressIndex.LineRecord>.stride, MemoryLayout<AddressIndex.RangeRecord>.stride, 4,
                          MemoryLayout<AddressIndex.SubroutineRecord>.stride, MemoryLayout<AddressIndex.SymbolRecord>.stride,
                          MemoryLayout<AddressIndex.StringSpan>.stride, 1, 8, 8, 8]
    /// Sections of the large arrays, in `IndexBlocks.Kind` order.
    static let blockedSections = [0, 1, 3, 4, 5, 6]

    /// What the index was built from; a cache is used only when all of it matches.
    struct Identity: Equatable, Sendable {
        /// Build-id bytes (at most 64).
        var identifier: [UInt8]
        var imageSize: UInt64
        var imageModified: Int64
        var debugSize: UInt64
        var debugModified: Int64
    }

    struct Contents {
        var identity: Identity
        var lines: [AddressIndex.LineRecord]
        var ranges: [AddressIndex.RangeRecord]
        var depthStarts: [UInt32]
        var subroutines: [AddressIndex.SubroutineRecord]
        var symbols: [AddressIndex.SymbolRecord]
        var stringSpans: [AddressIndex.StringSpan]
        var stringBlob: [UInt8]
    }

    /// Where the arrays lie in a file holding `counts` records of each: each at the aligned
    /// end of the one before; and the file's size.
    static func layout(_ counts: [Int]) -> (offsets: [Int], total: Int)? {
        var offsets: [Int] = []
        var end = headerSize
        for (count, stride) in zip(counts, strides) {
            end = (end + 7) & ~7
            offsets.append(end)
            let (size, overflow) = count.multipliedReportingOverflow(by: stride)
            guard !overflow, size <= Int.max / 2 - end else { return nil }
            end += size
        }
        return (offsets, (end + 7) & ~7)
    }

    // MARK: writing

    /// Lays `contents` out in one new buffer and returns the index over it (its `storage`
    /// holds the bytes to write to the cache).
    static func serialize(_ contents: consuming Contents) -> AddressIndex {
        // The small arrays: block keys and range carries, worked out from the records.
        func firstKeys<T>(_ records: [T], _ kind: IndexBlocks.Kind, _ key: (T) -> UInt64) -> [UInt64] {
            Swift.stride(from: 0, to: records.count, by: kind.perBlock).map { key(records[$0]) }
        }
        let keys = firstKeys(contents.lines, .lines) { $0.address } + firstKeys(contents.ranges, .ranges) { $0.start }
            + firstKeys(contents.symbols, .symbols) { $0.start }
        var carries: [UInt64] = []
        var depth = 0, maxEnd: UInt64 = 0
        for (i, range) in contents.ranges.enumerated() {
            while depth + 1 < contents.depthStarts.count, Int(contents.depthStarts[depth + 1]) <= i { depth += 1 }
            let startsDepth = depth < contents.depthStarts.count && Int(contents.depthStarts[depth]) == i
            if i % IndexBlocks.Kind.ranges.perBlock == 0 { carries.append(startsDepth ? 0 : maxEnd) }
            maxEnd = startsDepth ? range.end : max(maxEnd, range.end)
        }
        let blockTotal = zip(IndexBlocks.Kind.allCases, [contents.lines.count, contents.ranges.count, contents.subroutines.count,
                                                         contents.symbols.count, contents.stringSpans.count, contents.stringBlob.count])
            .reduce(0) { $0 + IndexBlocks.blockCount($1.0, records: $1.1) }
        let counts = [contents.lines.count, contents.ranges.count, contents.depthStarts.count, contents.subroutines.count,
                      contents.symbols.count, contents.stringSpans.count, contents.stringBlob.count, blockTotal, keys.count, carries.count]
        guard let (offsets, total) = layout(counts) else { preconditionFailure("an index too large to lay out") }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: total, alignment: 16)
        // Zero only the header and the alignment gaps: the arrays are copied over the rest,
        // so untouched pages are not made resident twice.
        UnsafeMutableRawBufferPointer(rebasing: buffer[0..<headerSize]).initializeMemory(as: UInt8.self, repeating: 0)
        for i in 0..<sectionCount {
            let gapEnd = i + 1 < sectionCount ? offsets[i + 1] : total
            let gapStart = offsets[i] + counts[i] * strides[i]
            if gapEnd > gapStart { UnsafeMutableRawBufferPointer(rebasing: buffer[gapStart..<gapEnd]).initializeMemory(as: UInt8.self, repeating: 0) }
        }
        func copy<T>(_ array: [T], to section: Int) {
            array.withUnsafeBytes { source in
                guard let from = source.baseAddress, let to = buffer.baseAddress, source.count > 0 else { return }
                (to + offsets[section]).copyMemory(from: from, byteCount: source.count)
            }
        }
        // Each array is released once copied (the row array is most of the peak memory).
        copy(contents.lines, to: 0)
        contents.lines = []
        copy(contents.ranges, to: 1)
        contents.ranges = []
        copy(contents.depthStarts, to: 2)
        copy(contents.subroutines, to: 3)
        copy(contents.symbols, to: 4)
        copy(contents.stringSpans, to: 5)
        copy(contents.stringBlob, to: 6)
        copy(keys, to: 8)
        copy(carries, to: 9)
        // Every block's checksum.
        var block = 0
        for (kind, section) in zip(IndexBlocks.Kind.allCases, blockedSections) {
            let bytesPerBlock = kind.perBlock * strides[section], size = counts[section] * strides[section]
            for start in Swift.stride(from: 0, to: size, by: bytesPerBlock) {
                let bytes = UnsafeRawBufferPointer(rebasing: buffer[(offsets[section] + start)..<(offsets[section] + min(size, start + bytesPerBlock))])
                buffer.storeBytes(of: IndexBlocks.blockChecksum(bytes, number: block).littleEndian, toByteOffset: offsets[7] + block * 8, as: UInt64.self)
                block += 1
            }
        }

        func put<T: FixedWidthInteger>(_ value: T, at offset: Int) {
            buffer.storeBytes(of: value.littleEndian, toByteOffset: offset, as: T.self)
        }
        for (i, byte) in magic.enumerated() { buffer[i] = byte }
        put(version, at: 8)
        put(byteOrderMark, at: 12)
        let identifier = contents.identity.identifier.prefix(64)
        put(UInt32(identifier.count), at: 20)
        for (i, byte) in identifier.enumerated() { buffer[24 + i] = byte }
        put(contents.identity.imageSize, at: 88)
        put(contents.identity.imageModified, at: 96)
        put(contents.identity.debugSize, at: 104)
        put(contents.identity.debugModified, at: 112)
        for i in 0..<sectionCount {
            put(UInt64(offsets[i]), at: sectionsOffset + i * 16)
            put(UInt64(counts[i]), at: sectionsOffset + 8 + i * 16)
        }
        let sections = (0..<sectionCount).map { (offsets[$0], counts[$0]) }
        put(headerChecksum(UnsafeRawBufferPointer(buffer), sections: sections), at: checksumOffset)
        let file = MappedFile(adopting: buffer, count: total, path: "<index>")
        // Its blocks are checked as lookups read them, as a cache's are.
        do { return try open(file, expecting: nil) } catch { preconditionFailure("a new index failed its own checks: \(error)") }
    }

    // MARK: reading

    /// An index over a cache file, if its header and small arrays are intact and it was built
    /// from `identity`; its blocks are checked as lookups read them.
    static func open(cache file: MappedFile, expecting identity: Identity) throws(DecodeError) -> AddressIndex {
        try open(file, expecting: identity)
    }

    private static func open(_ file: MappedFile, expecting identity: Identity?) throws(DecodeError) -> AddressIndex {
        let bytes = file.bytes
        var cursor = ByteCursor(bytes, section: "symbol cache header")
        // Invariant: the records in memory are little-endian, as the file's are.
        guard UInt32(1).littleEndian == 1 else { throw cursor.error("symbol caches are read on little-endian machines only") }
        // Invariant: our magic, format version and byte order (the record layout is fixed by the
        // C header, and any change to it bumps the version).
        guard bytes.count >= headerSize, try cursor.readBytes(8).elementsEqual(magic) else { throw cursor.error("not a devkit symbol cache") }
        guard try cursor.read(UInt32.self, endian: .little) == version else { throw cursor.error("format version differs") }
        guard try cursor.read(UInt32.self, endian: .little) == byteOrderMark else { throw cursor.error("written with another byte order") }
        _ = try cursor.read(UInt32.self, endian: .little)  // reserved
        let idLength = Int(try cursor.read(UInt32.self, endian: .little))
        guard idLength <= 64 else { throw cursor.error("identifier length \(idLength) is over 64") }
        let identifier = Array(try cursor.readBytes(64).prefix(idLength))
        let stored = Identity(identifier: identifier,
                              imageSize: try cursor.read(UInt64.self, endian: .little), imageModified: try cursor.read(Int64.self, endian: .little),
                              debugSize: try cursor.read(UInt64.self, endian: .little), debugModified: try cursor.read(Int64.self, endian: .little))
        // Invariant: built from this very image and debug file.
        if let identity, stored != identity { throw cursor.error("built from another file (build-id, size or modification time differ)") }

        var sections: [(offset: Int, count: Int)] = []
        for _ in 0..<sectionCount {
            let offset = try cursor.read(UInt64.self, endian: .little), count = try cursor.read(UInt64.self, endian: .little)
            guard let start = Int(exactly: offset), let n = Int(exactly: count) else { throw cursor.error("array at \(offset) of \(count) records") }
            sections.append((start, n))
        }
        // Invariant: the arrays lie where the writer puts them, end to end, and fill the file.
        guard let (offsets, total) = layout(sections.map(\.count)), offsets == sections.map(\.offset), total == bytes.count else {
            throw DecodeError(section: "symbol cache", offset: sectionsOffset, reason: "arrays laid out other than the format's way in \(bytes.count) bytes")
        }
        // Invariant: the header and small arrays are those written.
        let storedChecksum = try cursor.read(UInt64.self, endian: .little)
        guard headerChecksum(bytes, sections: sections) == storedChecksum else {
            throw DecodeError(section: "symbol cache", offset: checksumOffset, reason: "checksum mismatch")
        }
        // Invariant: the padding after each array is zero (no byte of the file goes unchecked).
        for i in 0..<sectionCount {
            let gapStart = sections[i].offset + sections[i].count * strides[i], gapEnd = i + 1 < sectionCount ? sections[i + 1].offset : total
            for offset in gapStart..<gapEnd where bytes[offset] != 0 {
                throw DecodeError(section: "symbol cache", offset: offset, reason: "padding not zero")
            }
        }
        let index = makeIndex(file, sections: sections)
        try validateSmallArrays(index, sections: sections)
        return index
    }

    /// Typed views of the arrays and the blocks' state; `sections` must lie inside `file`
    /// (checked by the callers).
    private static func makeIndex(_ file: MappedFile, sections: [(offset: Int, count: Int)]) -> AddressIndex {
        let bytes = file.bytes
        func view<T>(_ i: Int, as _: T.Type) -> UnsafeBufferPointer<T> {
            guard let base = bytes.baseAddress, sections[i].count > 0 else { return UnsafeBufferPointer(start: nil, count: 0) }
            return UnsafeBufferPointer(start: (base + sections[i].offset).bindMemory(to: T.self, capacity: sections[i].count), count: sections[i].count)
        }
        let blob = UnsafeRawBufferPointer(rebasing: bytes[sections[6].offset..<(sections[6].offset + sections[6].count)])
        let lines = view(0, as: AddressIndex.LineRecord.self), ranges = view(1, as: AddressIndex.RangeRecord.self)
        let depthStarts = view(2, as: UInt32.self), subroutines = view(3, as: AddressIndex.SubroutineRecord.self)
        let symbols = view(4, as: AddressIndex.SymbolRecord.self), spans = view(5, as: AddressIndex.StringSpan.self)
        let blocks = IndexBlocks(IndexBlocks.Arrays(
            lines: lines, ranges: ranges, depthStarts: depthStarts, subroutines: subroutines, symbols: symbols, spans: spans, blob: blob,
            checksums: view(7, as: UInt64.self), keys: view(8, as: UInt64.self), carries: view(9, as: UInt64.self),
            offsets: blockedSections.map { sections[$0].offset }), storage: file)
        return AddressIndex(lines: lines, ranges: ranges, depthStarts: depthStarts, subroutines: subroutines,
                            symbols: symbols, strings: StringTable(spans: spans, blob: blob), blocks: blocks)
    }

    /// The small arrays, checked whole at open: one checksum per block, one key per block of
    /// lines, ranges and symbols, one carry per block of ranges; depth starts from 0 to the
    /// range count, never decreasing; the block keys in order (within each depth for ranges),
    /// so the searches over them are sound before any block is read.
    private static func validateSmallArrays(_ index: AddressIndex, sections: [(offset: Int, count: Int)]) throws(DecodeError) {
        func fail(_ reason: String) -> DecodeError { DecodeError(section: "symbol cache", offset: headerSize, reason: reason) }
        let lineBlocks = IndexBlocks.blockCount(.lines, records: index.lines.count)
        let rangeBlocks = IndexBlocks.blockCount(.ranges, records: index.ranges.count)
        let symbolBlocks = IndexBlocks.blockCount(.symbols, records: index.symbols.count)
        let blockTotal = zip(IndexBlocks.Kind.allCases, blockedSections).reduce(0) { $0 + IndexBlocks.blockCount($1.0, records: sections[$1.1].count) }
        guard sections[7].count == blockTotal, sections[8].count == lineBlocks + rangeBlocks + symbolBlocks, sections[9].count == rangeBlocks else {
            throw fail("block tables of the wrong size")
        }
        let depths = index.depthStarts
        guard depths.first == 0, depths.last.map({ Int($0) == index.ranges.count }) ?? false, zip(depths, depths.dropFirst()).allSatisfy({ $0 <= $1 }) else {
            throw fail("depth table corrupt")
        }
        let blocks = index.blocks
        guard zip(blocks.lineKeys, blocks.lineKeys.dropFirst()).allSatisfy({ $0 <= $1 }),
              zip(blocks.symbolKeys, blocks.symbolKeys.dropFirst()).allSatisfy({ $0 <= $1 }) else { throw fail("block keys out of order") }
        let per = IndexBlocks.Kind.ranges.perBlock
        var depth = 0
        for block in 1..<max(rangeBlocks, 1) {
            // Blocks whose first ranges are of one depth: in order.
            let previousDepth = depth
            while Int(depths[depth + 1]) <= block * per { depth += 1 }
            if depth == previousDepth, blocks.rangeKeys[block - 1] > blocks.rangeKeys[block] { throw fail("block keys out of order") }
        }
    }

    /// The checksum stored at DKS_OFFSET_CHECKSUM: over the header's other bytes and the
    /// small arrays (depth starts, block checksums, block keys, range carries).
    static func headerChecksum(_ bytes: UnsafeRawBufferPointer, sections: [(offset: Int, count: Int)]) -> UInt64 {
        var hash = checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<checksumOffset]))
        for i in [2, 7, 8, 9] {
            let part = checksum(UnsafeRawBufferPointer(rebasing: bytes[sections[i].offset..<(sections[i].offset + sections[i].count * strides[i])]))
            hash = (hash ^ part) &* 0x100_0000_01b3 &+ (hash >> 29) &+ UInt64(i)
        }
        return hash
    }

    /// A fast 64-bit checksum (multiply-xor over 8-byte words): detects corruption, not tampering.
    /// Four independent lanes (words i, i+1, i+2, i+3) so the multiplies overlap: every block
    /// a lookup first reads is checked with it, and one dependent chain made that the largest
    /// cost of opening a big image's index when the whole file was checked (version 4).
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let prime: UInt64 = 0x100_0000_01b3
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (0x9e37_79b9_7f4a_7c15 ^ UInt64(bytes.count), 0xc2b2_ae3d_27d4_eb4f, 0x1656_67b1_9e37_79f9, 0x27d4_eb2f_1656_67c5)
        let words = bytes.count / 8
        var i = 0
        while i + 4 <= words {
            let offset = i * 8
            lanes.0 = (lanes.0 ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* prime &+ (lanes.0 >> 29)
            lanes.1 = (lanes.1 ^ bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)) &* prime &+ (lanes.1 >> 29)
            lanes.2 = (lanes.2 ^ bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self)) &* prime &+ (lanes.2 >> 29)
            lanes.3 = (lanes.3 ^ bytes.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self)) &* prime &+ (lanes.3 >> 29)
            i += 4
        }
        var hash = lanes.0 ^ (lanes.1 << 17 | lanes.1 >> 47) ^ (lanes.2 << 31 | lanes.2 >> 33) ^ (lanes.3 << 47 | lanes.3 >> 17)
        while i < words {
            hash = (hash ^ bytes.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self)) &* prime &+ (hash >> 29)
            i += 1
        }
        for j in (words * 8)..<bytes.count { hash = (hash ^ UInt64(bytes[j])) &* prime }
        return hash
    }
}
