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
/// 120  7 × (offset, count): lines, ranges, depth starts, subroutines, symbols,
///      string spans, string bytes; each array 8-byte aligned
/// 232  checksum of every other byte of the file (UInt64)
/// 256  the arrays
/// ```
/// Every integer is little-endian: the header's are written as such, and the arrays are the
/// records copied from memory, so caches are read and written on little-endian machines only.
/// Opening checks identity, bounds, every cross reference and sort order, and the
/// checksum: a cache that fails any check is rebuilt, never trusted.
enum IndexFile {
    static let magic = Array(DKS_MAGIC.utf8)
    static let version = UInt32(DKS_FORMAT_VERSION)
    static let byteOrderMark: UInt32 = DKS_BYTE_ORDER_MARK
    static let headerSize = Int(DKS_HEADER_SIZE)
    static let sectionCount = Int(DKS_SECTION_COUNT)

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

    // MARK: writing

    /// Lays `contents` out in one new buffer and returns the index over it (its `storage`
    /// holds the bytes to write to the cache).
    static func serialize(_ contents: consuming Contents) -> AddressIndex {
        var sections: [(offset: Int, count: Int, bytes: Int)] = []
        var end = headerSize
        func place(_ count: Int, stride: Int) {
            end = (end + 7) & ~7
            sections.append((end, count, count * stride))
            end += count * stride
        }
        place(contents.lines.count, stride: MemoryLayout<AddressIndex.LineRecord>.stride)
        place(contents.ranges.count, stride: MemoryLayout<AddressIndex.RangeRecord>.stride)
        place(contents.depthStarts.count, stride: 4)
        place(contents.subroutines.count, stride: MemoryLayout<AddressIndex.SubroutineRecord>.stride)
        place(contents.symbols.count, stride: MemoryLayout<AddressIndex.SymbolRecord>.stride)
        place(contents.stringSpans.count, stride: MemoryLayout<AddressIndex.StringSpan>.stride)
        place(contents.stringBlob.count, stride: 1)
        let total = (end + 7) & ~7
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: total, alignment: 16)
        // Zero only the header and the alignment gaps: the arrays are copied over the rest,
        // so untouched pages are not made resident twice.
        UnsafeMutableRawBufferPointer(rebasing: buffer[0..<headerSize]).initializeMemory(as: UInt8.self, repeating: 0)
        for (i, section) in sections.enumerated() {
            let gapEnd = i + 1 < sections.count ? sections[i + 1].offset : total
            let gapStart = section.offset + section.bytes
            if gapEnd > gapStart { UnsafeMutableRawBufferPointer(rebasing: buffer[gapStart..<gapEnd]).initializeMemory(as: UInt8.self, repeating: 0) }
        }
        func copy<T>(_ array: [T], to section: Int) {
            array.withUnsafeBytes { source in
                guard let from = source.baseAddress, let to = buffer.baseAddress, source.count > 0 else { return }
                (to + sections[section].offset).copyMemory(from: from, byteCount: source.count)
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
        for (i, section) in sections.enumerated() {
            put(UInt64(section.offset), at: 120 + i * 16)
            put(UInt64(section.count), at: 128 + i * 16)
        }
        put(fileChecksum(UnsafeRawBufferPointer(buffer)), at: 232)
        let file = MappedFile(adopting: buffer, count: total, path: "<index>")
        return makeIndex(file, sections: sections.map { ($0.offset, $0.count) })
    }

    // MARK: reading

    /// An index over a cache file, if it is intact and was built from `identity`.
    static func open(cache file: MappedFile, expecting identity: Identity) throws(DecodeError) -> AddressIndex {
        try open(file, expecting: identity, verify: true)
    }

    private static func open(_ file: MappedFile, expecting identity: Identity?, verify: Bool) throws(DecodeError) -> AddressIndex {
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
        let strides = [MemoryLayout<AddressIndex.LineRecord>.stride, MemoryLayout<AddressIndex.RangeRecord>.stride, 4,
                       MemoryLayout<AddressIndex.SubroutineRecord>.stride, MemoryLayout<AddressIndex.SymbolRecord>.stride,
                       MemoryLayout<AddressIndex.StringSpan>.stride, 1]
        for i in 0..<sectionCount {
            let offset = try cursor.read(UInt64.self, endian: .little), count = try cursor.read(UInt64.self, endian: .little)
            // Invariant: each array is aligned and lies inside the file.
            guard let start = Int(exactly: offset), let n = Int(exactly: count), start >= headerSize, start % 8 == 0,
                  case let (size, overflow) = n.multipliedReportingOverflow(by: strides[i]), !overflow,
                  size <= bytes.count - start
            else { throw cursor.error("array \(i) (offset \(offset), \(count) records) lies outside the \(bytes.count)-byte file") }
            sections.append((start, n))
        }
        let storedChecksum = try cursor.read(UInt64.self, endian: .little)
        if verify {
            // Invariant: the bytes are those written (a flipped bit in a line number would pass every other check).
            guard fileChecksum(bytes) == storedChecksum else {
                throw DecodeError(section: "symbol cache", offset: 232, reason: "checksum mismatch")
            }
        }

        let index = makeIndex(file, sections: sections)
        if verify { try validate(index) }
        return index
    }

    /// Typed views of the seven arrays; `sections` must lie inside `file` (checked by the callers).
    private static func makeIndex(_ file: MappedFile, sections: [(offset: Int, count: Int)]) -> AddressIndex {
        let bytes = file.bytes
        func view<T>(_ i: Int, as _: T.Type) -> UnsafeBufferPointer<T> {
            guard let base = bytes.baseAddress, sections[i].count > 0 else { return UnsafeBufferPointer(start: nil, count: 0) }
            return UnsafeBufferPointer(start: (base + sections[i].offset).bindMemory(to: T.self, capacity: sections[i].count), count: sections[i].count)
        }
        let blob = UnsafeRawBufferPointer(rebasing: bytes[sections[6].offset..<(sections[6].offset + sections[6].count)])
        return AddressIndex(storage: file, lines: view(0, as: AddressIndex.LineRecord.self), ranges: view(1, as: AddressIndex.RangeRecord.self),
                            depthStarts: view(2, as: UInt32.self), subroutines: view(3, as: AddressIndex.SubroutineRecord.self),
                            symbols: view(4, as: AddressIndex.SymbolRecord.self),
                            strings: StringTable(spans: view(5, as: AddressIndex.StringSpan.self), blob: blob))
    }

    /// Every reference in range and every array sorted, so lookups need no checks.
    private static func validate(_ index: AddressIndex) throws(DecodeError) {
        func fail(_ reason: String) -> DecodeError { DecodeError(section: "symbol cache", offset: headerSize, reason: reason) }
        let strings = index.strings
        let stringCount = UInt32(clamping: strings.spans.count)
        func validString(_ id: UInt32) -> Bool { id == StringTable.none || id < stringCount }
        for span in strings.spans where Int(span.offset) + Int(span.length) > strings.blob.count { throw fail("string outside the blob") }
        var previous: UInt64 = 0
        for row in index.lines {
            guard validString(row.file), row.address >= previous else { throw fail("line rows corrupt") }
            previous = row.address
        }
        for subroutine in index.subroutines where !validString(subroutine.name) || !validString(subroutine.callFile) {
            throw fail("subroutine names a missing string")
        }
        let depths = index.depthStarts
        guard depths.first == 0, depths.last.map({ Int($0) == index.ranges.count }) ?? false else { throw fail("depth table corrupt") }
        for d in 0..<(depths.count - 1) {
            guard depths[d] <= depths[d + 1] else { throw fail("depth table corrupt") }
            previous = 0
            var maxEnd: UInt64 = 0
            for i in Int(depths[d])..<Int(depths[d + 1]) {
                let range = index.ranges[i]
                maxEnd = max(maxEnd, range.end)
                // A function's precomputed outermost name is a marker or a string; inlined calls have none.
                let name = range.outermostName
                let nameIsValid = d == 0
                    ? name < AddressIndex.RangeRecord.symbolNameBase || validString(name - AddressIndex.RangeRecord.symbolNameBase)
                    : name == AddressIndex.RangeRecord.askSymbols
                guard range.start >= previous, range.maxEnd == maxEnd, Int(range.subroutine) < index.subroutines.count, nameIsValid else {
                    throw fail("range table corrupt")
                }
                previous = range.start
            }
        }
        previous = 0
        for symbol in index.symbols {
            guard symbol.start >= previous, validString(symbol.name), validString(symbol.file) else { throw fail("symbol table corrupt") }
            previous = symbol.start
        }
    }

    /// The checksum stored at offset 232: over the whole file except those 8 bytes.
    static func fileChecksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let header = checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<232]))
        let rest = checksum(UnsafeRawBufferPointer(rebasing: bytes[240...]))
        return header ^ (rest << 1 | rest >> 63)
    }

    /// A fast 64-bit checksum (multiply-xor over 8-byte words): detects corruption, not tampering.
    /// Four independent lanes (words i, i+1, i+2, i+3) so the multiplies overlap: every warm
    /// open checks the whole cache file, and one dependent chain made that the largest cost of
    /// opening a big image's index (version 4; earlier files are rebuilt).
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
