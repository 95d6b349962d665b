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
///   range can reach the address (gimli's addr2line does the same).
/// - `subroutines`: name and call site of each function or inlined call.
/// - `symbols`: symbol-table functions sorted by address, for code without DWARF.
///
/// The arrays are views into one contiguous buffer laid out as `IndexFile` describes: the
/// same bytes whether just built or memory-mapped from the on-disk cache. Every cross
/// reference (string ids, subroutine ids, depth bounds) was validated when the buffer was
/// opened, so lookups do not check them again.
struct AddressIndex: @unchecked Sendable {
    struct LineRecord: Sendable {
        var address: UInt64
        var file: UInt32       // string id
        var line: UInt32
        var column: UInt32
        var flags: UInt32      // bit 0: end of sequence
    }
    struct RangeRecord: Sendable {
        var start: UInt64
        var end: UInt64
        var maxEnd: UInt64
        var subroutine: UInt32
        var reserved: UInt32 = 0
    }
    struct SubroutineRecord: Sendable {
        var name: UInt32       // string id, or `StringTable.none`
        var callFile: UInt32   // string id, or `StringTable.none`
        var callLine: UInt32
        var callColumn: UInt32
    }
    struct SymbolRecord: Sendable {
        var start: UInt64
        var end: UInt64
        var name: UInt32
        /// For a local symbol, the `STT_FILE` symbol before it (its source file), else `StringTable.none`.
        var file: UInt32
        /// `SymbolRecord.imageTableFlag` or 0.
        var flags: UInt32 = 0
        var reserved: UInt32 = 0

        /// The symbol is in the image's own table (`.symtab`, or `.dynsym` when stripped), not
        /// only in its separate debug file's: such a name is the one to show for a function
        /// (see `ImageSymbolizer.frames(at:)`).
        static let imageTableFlag: UInt32 = 1
        var isInImageTable: Bool { flags & Self.imageTableFlag != 0 }
    }
    struct StringSpan: Sendable {
        var offset: UInt32
        var length: UInt32
    }

    /// Keeps the buffer behind the views alive.
    let storage: MappedFile
    let lines: UnsafeBufferPointer<LineRecord>
    let ranges: UnsafeBufferPointer<RangeRecord>
    let depthStarts: UnsafeBufferPointer<UInt32>
    let subroutines: UnsafeBufferPointer<SubroutineRecord>
    let symbols: UnsafeBufferPointer<SymbolRecord>
    let strings: StringTable
    /// Every `lineSampleStride`-th row's address: a 70 KB array for 560k rows that stays in
    /// cache, so a lookup's binary search touches the big row array only within one block.
    let lineSamples: [UInt64]
    static let lineSampleStride = 32

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
        lineSamples = stride(from: 0, to: lines.count, by: Self.lineSampleStride).map { lines[$0].address }
    }

    static let endSequenceFlag: UInt32 = 1

    // MARK: lookup

    /// The line row covering `address`, if any.
    func line(at address: UInt64) -> LineRecord? {
        // The last sample at or before the address names the block holding the answer.
        var low = 0, high = lineSamples.count
        while low < high {
            let mid = (low + high) / 2
            if lineSamples[mid] <= address { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return nil }
        // Last row with row.address <= address, within that block.
        let blockStart = (low - 1) * Self.lineSampleStride
        low = blockStart
        high = min(blockStart + Self.lineSampleStride, lines.count)
        while low < high {
            let mid = (low + high) / 2
            if lines[mid].address <= address { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return nil }
        let row = lines[low - 1]
        return row.flags & Self.endSequenceFlag == 0 ? row : nil
    }

    /// Subroutines containing `address`, outermost (the function) first.
    func subroutineChain(at address: UInt64) -> [UInt32] {
        var chain: [UInt32] = []
        guard depthStarts.count > 1 else { return chain }
        for depth in 0..<(depthStarts.count - 1) {
            let lower = Int(depthStarts[depth]), upper = Int(depthStarts[depth + 1])
            var low = lower, high = upper
            while low < high {
                let mid = (low + high) / 2
                if ranges[mid].start <= address { low = mid + 1 } else { high = mid }
            }
            var found: UInt32?
            var index = low - 1
            while index >= lower, ranges[index].maxEnd > address {
                if ranges[index].end > address { found = ranges[index].subroutine; break }
                index -= 1
            }
            guard let found else { break }
            chain.append(found)
        }
        return chain
    }

    /// The symbol-table function containing `address`.
    func symbol(at address: UInt64) -> SymbolRecord? {
        var low = 0, high = symbols.count
        while low < high {
            let mid = (low + high) / 2
            if symbols[mid].start <= address { low = mid + 1 } else { high = mid }
        }
        guard low > 0 else { return nil }
        let symbol = symbols[low - 1]
        return address < symbol.end ? symbol : nil
    }
}
