internal import SymbolCacheFormat
import BinaryReading
import ElfUtils
import System
import ObjectFile

/// The per-image symbolication index (STYLE.md §8): flat arrays of fixed-size records,
/// sorted once and binary-searched, with every string in one blob.
///
/// - `lines`: every line-table row of every unit, sequences ordered by start address;
///   the row for an address is the last one at or before it (none if that is an end of
///   sequence).
/// - `ranges`: code ranges of functions (depth 0) and inlined calls (depth 1, 2, …), sorted
///   by (depth, start); `depthStarts[d]` is where depth `d` begins. Each record keeps the
///   largest end among records of its depth up to itself, so a search for the ranges
///   containing an address is one binary search plus a scan that stops as soon as no earlier
///   range can reach the address (gimli's addr2line does the same). A function's range also
///   says how its outermost frame is named (`outermostName`: the symbol-table name that
///   covers all of it, the DWARF name, or a symbol search at each address).
/// - `subroutines`: name and call site of each function or inlined call.
/// - `symbols`: symbol-table functions sorted by address, for code without DWARF.
///
/// The arrays are views into one contiguous buffer laid out as `IndexFile` describes: the
/// same bytes whether just built or memory-mapped from the on-disk cache. Opening checked the
/// header and the small arrays only; every lookup checks the blocks it reads first
/// (`IndexBlocks`: checksum, cross references, order) and throws if one is damaged, so
/// nothing is answered from bytes that were not checked. A block checked once is not checked
/// again, and a checked block's records are read without further checks.
///
/// A class, not a struct: a lookup passes the index through several closures, and copying a
/// struct of a dozen fields (retaining its blocks) there was a tenth of a warm lookup.
final class AddressIndex: @unchecked Sendable {
    // The records are declared in Sources/SymbolCacheFormat/include/devkit_symbol_cache.h,
    // which fixes their layout (the cache file holds them as they are in memory).
    typealias LineRecord = dks_line_record
    typealias RangeRecord = dks_range_record
    typealias SubroutineRecord = dks_subroutine_record
    typealias SymbolRecord = dks_symbol_record
    typealias StringSpan = dks_string_span

    /// The buffer behind the views (kept alive by `blocks`, so a copy of the index retains
    /// one object, not two).
    var storage: MappedFile { blocks.storage }
    /// The arrays as stored: read through the lookups below, which check their blocks.
    let lines: UnsafeBufferPointer<LineRecord>
    let ranges: UnsafeBufferPointer<RangeRecord>
    let depthStarts: UnsafeBufferPointer<UInt32>
    let subroutines: UnsafeBufferPointer<SubroutineRecord>
    let symbols: UnsafeBufferPointer<SymbolRecord>
    let strings: StringTable
    /// Which blocks were checked, each block's first key, and the sample keys of the checked
    /// blocks (every 8th row's address, range's start and symbol's start): a lookup finds the
    /// block in the block keys, then searches the block's 16 samples and touches the big
    /// arrays only within one run of 8 records.
    let blocks: IndexBlocks

    init(lines: UnsafeBufferPointer<LineRecord>, ranges: UnsafeBufferPointer<RangeRecord>,
         depthStarts: UnsafeBufferPointer<UInt32>, subroutines: UnsafeBufferPointer<SubroutineRecord>,
         symbols: UnsafeBufferPointer<SymbolRecord>, strings: StringTable, blocks: IndexBlocks) {
        self.lines = lines
        self.ranges = ranges
        self.depthStarts = depthStarts
        self.subroutines = subroutines
        self.symbols = symbols
        self.strings = strings
        self.blocks = blocks
    }

    static let endSequenceFlag: UInt32 = DKS_LINE_END_SEQUENCE

    // MARK: lookup

    /// In `range` of a sorted array (or one sorted run of it), the first index whose key is
    /// above `value`, as `SortedSearch.upperBound` gives it, reading one checked block only:
    /// the block keys say which block holds the answer, and that block is checked before its
    /// samples and records are read.
    @inline(__always)
    private func upperBound<Record>(_ records: UnsafeBufferPointer<Record>, _ kind: IndexBlocks.Kind, in range: Range<Int>, of value: UInt64,
                                    blockKeys: UnsafeBufferPointer<UInt64>, samples: UnsafeMutableBufferPointer<UInt64>,
                                    key: (Record) -> UInt64) throws(DecodeError) -> Int {
        let per = kind.perBlock
        // Blocks whose first record lies inside the range.
        let firstBlock = (range.lowerBound + per - 1) / per, endBlock = (range.upperBound + per - 1) / per
        var low = range.lowerBound, high = range.upperBound
        if firstBlock < endBlock {
            let block = SortedSearch.upperBound(blockKeys, in: firstBlock..<endBlock, of: value) { $0 }
            if block > firstBlock { low = (block - 1) * per }
            if block < endBlock { high = block * per }
        }
        // low..<high lies inside one block.
        guard low < high else { return low }
        try blocks.check(kind, block: low / per)
        return SampledKeys.upperBound(keys: UnsafeBufferPointer(samples), stride: IndexBlocks.sampleStride, records, in: low..<high, of: value, key: key)
    }

    /// The line row covering `address`, if any.
    func line(at address: UInt64) throws(DecodeError) -> LineRecord? {
        // Last row with row.address <= address.
        let after = try upperBound(lines, .lines, in: 0..<lines.count, of: address, blockKeys: blocks.lineKeys, samples: blocks.lineSamples) { $0.address }
        guard after > 0 else { return nil }
        let row = lines[after - 1]
        return row.flags & Self.endSequenceFlag == 0 ? row : nil
    }

    /// The most subroutines one address can be in: one per depth.
    var longestChain: Int { max(1, depthStarts.count - 1) }

    /// Subroutines containing `address`, outermost (the function) first, written to `chain`
    /// (at least `longestChain` long); returns how many.
    func subroutineChain(at address: UInt64, into chain: UnsafeMutableBufferPointer<UInt32>) throws(DecodeError) -> Int {
        var functionRange = 0
        return try subroutineChain(at: address, into: chain, functionRange: &functionRange)
    }

    /// `subroutineChain(at:into:)`, also giving the index of the function's range found
    /// (depth 0; meaningful when the chain is not empty). The subroutines it names are checked.
    func subroutineChain(at address: UInt64, into chain: UnsafeMutableBufferPointer<UInt32>, functionRange: inout Int) throws(DecodeError) -> Int {
        guard depthStarts.count > 1 else { return 0 }
        var count = 0
        // An inlined call's code lies inside its caller's: a range of the next depth that
        // contains the address starts no lower than the range found at this depth. Without
        // that bound the scan below walked back over every range a long one before it
        // overlapped (maxEnd), most of a warm lookup in deeply inlined C++.
        var parentStart: UInt64 = 0
        let per = IndexBlocks.Kind.ranges.perBlock
        for depth in 0..<(depthStarts.count - 1) {
            let lower = Int(depthStarts[depth]), upper = Int(depthStarts[depth + 1])
            var found: UInt32?
            var index = try upperBound(ranges, .ranges, in: lower..<upper, of: address, blockKeys: blocks.rangeKeys, samples: blocks.rangeSamples) { $0.start } - 1
            // The scan walks back from the block searched: each block it enters is checked first.
            var checkedFrom = index + 1
            while index >= lower {
                if index < checkedFrom {
                    try blocks.check(.ranges, block: index / per)
                    checkedFrom = index / per * per
                }
                guard ranges[index].maxEnd > address, ranges[index].start >= parentStart else { break }
                if ranges[index].end > address {
                    found = ranges[index].subroutine
                    parentStart = ranges[index].start
                    if depth == 0 { functionRange = index }
                    break
                }
                index -= 1
            }
            guard let found else { break }
            try blocks.check(.subroutines, block: Int(found) / IndexBlocks.Kind.subroutines.perBlock)
            chain[count] = found
            count += 1
        }
        return count
    }

    /// The symbol-table function containing `address`.
    func symbol(at address: UInt64) throws(DecodeError) -> SymbolRecord? {
        let after = try upperBound(symbols, .symbols, in: 0..<symbols.count, of: address, blockKeys: blocks.symbolKeys, samples: blocks.symbolSamples) { $0.start }
        guard after > 0 else { return nil }
        let symbol = symbols[after - 1]
        return address < symbol.end ? symbol : nil
    }

    /// Throws unless string `id` (or none) is intact: its span and the bytes it covers.
    @inline(__always)
    func checkString(_ id: UInt32) throws(DecodeError) {
        guard id != StringTable.none, Int(id) < strings.spans.count, !blocks.isStringChecked(id) else { return }
        try checkStringBlocks(id)
    }

    @inline(never)
    private func checkStringBlocks(_ id: UInt32) throws(DecodeError) {
        try blocks.check(.spans, block: Int(id) / IndexBlocks.Kind.spans.perBlock)
        let span = strings.spans[Int(id)]
        try blocks.check(.stringBytes, records: Int(span.offset)..<(Int(span.offset) + Int(span.length)))
        blocks.markStringChecked(id)
    }
}

extension AddressIndex.RangeRecord {
    init(start: UInt64, end: UInt64, maxEnd: UInt64, subroutine: UInt32) {
        self.init(start: start, end: end, maxEnd: maxEnd, subroutine: subroutine, outermostName: DKS_NAME_ASK_SYMBOLS)
    }

    static let askSymbols: UInt32 = DKS_NAME_ASK_SYMBOLS
    static let nameFromDWARF: UInt32 = DKS_NAME_FROM_DWARF
    static let symbolNameBase: UInt32 = DKS_NAME_SYMBOL_BASE
}

extension AddressIndex.SymbolRecord {
    init(start: UInt64, end: UInt64, name: UInt32, file: UInt32, flags: UInt32 = 0) {
        self.init(start: start, end: end, name: name, file: file, flags: flags, reserved: 0)
    }

    /// `flags` bit: the symbol is in the image's own table (`.symtab`, or `.dynsym` when
    /// stripped), not only in its separate debug file's: such a name is the one to show for a
    /// function (see `ImageSymbolizer.frames(at:)`).
    static let imageTableFlag: UInt32 = DKS_SYMBOL_IN_IMAGE_TABLE
    var isInImageTable: Bool { flags & Self.imageTableFlag != 0 }
}
