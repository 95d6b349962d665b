internal import SymbolCacheFormat
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
/// same bytes whether just built or memory-mapped from the on-disk cache. Every cross
/// reference (string ids, subroutine ids, depth bounds) was validated when the buffer was
/// opened, so lookups do not check them again.
struct AddressIndex: @unchecked Sendable {
    // The records are declared in Sources/SymbolCacheFormat/include/devkit_symbol_cache.h,
    // which fixes their layout (the cache file holds them as they are in memory).
    typealias LineRecord = dks_line_record
    typealias RangeRecord = dks_range_record
    typealias SubroutineRecord = dks_subroutine_record
    typealias SymbolRecord = dks_symbol_record
    typealias StringSpan = dks_string_span

    /// Keeps the buffer behind the views alive.
    let storage: MappedFile
    let lines: UnsafeBufferPointer<LineRecord>
    let ranges: UnsafeBufferPointer<RangeRecord>
    let depthStarts: UnsafeBufferPointer<UInt32>
    let subroutines: UnsafeBufferPointer<SubroutineRecord>
    let symbols: UnsafeBufferPointer<SymbolRecord>
    let strings: StringTable
    /// Every 8th row's address (560 KB for python3.11d's 560k rows: a core's L2 holds it),
    /// range's start and symbol's start: a lookup's binary searches touch the big arrays
    /// only within one block of 8 records.
    let lineSamples: SampledKeys
    let rangeSamples: SampledKeys
    let symbolSamples: SampledKeys

    init(storage: MappedFile, lines: UnsafeBufferPointer<LineRecord>, ranges: UnsafeBufferPointer<RangeRecord>,
         depthStarts: UnsafeBufferPointer<UInt32>, subroutines: UnsafeBufferPointer<SubroutineRecord>,
         symbols: UnsafeBufferPointer<SymbolRecord>, strings: StringTable) {
        self.storage = storage
        self.lines = lines
        self.ranges = ranges
        self.depthStarts = depthStarts
        self.subroutines = subroutines
        self.symbols = symbols
        self.strings = strings
        lineSamples = SampledKeys(lines, stride: 8) { $0.address }
        rangeSamples = SampledKeys(ranges, stride: 8) { $0.start }
        symbolSamples = SampledKeys(symbols, stride: 8) { $0.start }
    }

    static let endSequenceFlag: UInt32 = DKS_LINE_END_SEQUENCE

    // MARK: lookup

    /// The line row covering `address`, if any.
    func line(at address: UInt64) -> LineRecord? {
        // Last row with row.address <= address.
        let after = lineSamples.upperBound(lines, in: 0..<lines.count, of: address) { $0.address }
        guard after > 0 else { return nil }
        let row = lines[after - 1]
        return row.flags & Self.endSequenceFlag == 0 ? row : nil
    }

    /// The most subroutines one address can be in: one per depth.
    var longestChain: Int { max(1, depthStarts.count - 1) }

    /// Subroutines containing `address`, outermost (the function) first, written to `chain`
    /// (at least `longestChain` long); returns how many.
    func subroutineChain(at address: UInt64, into chain: UnsafeMutableBufferPointer<UInt32>) -> Int {
        var functionRange = 0
        return subroutineChain(at: address, into: chain, functionRange: &functionRange)
    }

    /// `subroutineChain(at:into:)`, also giving the index of the function's range found
    /// (depth 0; meaningful when the chain is not empty).
    func subroutineChain(at address: UInt64, into chain: UnsafeMutableBufferPointer<UInt32>, functionRange: inout Int) -> Int {
        guard depthStarts.count > 1 else { return 0 }
        var count = 0
        // An inlined call's code lies inside its caller's: a range of the next depth that
        // contains the address starts no lower than the range found at this depth. Without
        // that bound the scan below walked back over every range a long one before it
        // overlapped (maxEnd), most of a warm lookup in deeply inlined C++.
        var parentStart: UInt64 = 0
        for depth in 0..<(depthStarts.count - 1) {
            let lower = Int(depthStarts[depth]), upper = Int(depthStarts[depth + 1])
            var found: UInt32?
            var index = rangeSamples.upperBound(ranges, in: lower..<upper, of: address) { $0.start } - 1
            while index >= lower, ranges[index].maxEnd > address, ranges[index].start >= parentStart {
                if ranges[index].end > address {
                    found = ranges[index].subroutine
                    parentStart = ranges[index].start
                    if depth == 0 { functionRange = index }
                    break
                }
                index -= 1
            }
            guard let found else { break }
            chain[count] = found
            count += 1
        }
        return count
    }

    /// The symbol-table function containing `address`.
    func symbol(at address: UInt64) -> SymbolRecord? {
        let after = symbolSamples.upperBound(symbols, in: 0..<symbols.count, of: address) { $0.start }
        guard after > 0 else { return nil }
        let symbol = symbols[after - 1]
        return address < symbol.end ? symbol : nil
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
