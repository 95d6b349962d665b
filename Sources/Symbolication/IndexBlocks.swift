internal import SymbolCacheFormat
import BinaryReading
import Synchronization
import System

/// Which blocks of an index's large arrays have been checked, and the search keys of those
/// that have (format 8, see `IndexFile`). Opening a cache checks only its header and small
/// arrays; a block of line rows, ranges, subroutines, symbols, string spans or string bytes
/// is checked the first time a lookup needs it: its checksum, every reference in it, its
/// order, and how it joins the blocks beside it (through the block keys and range carries,
/// which the header's checksum covers). A core dump's few dozen addresses touch a few dozen
/// blocks of libc's 8 MB index instead of all of it. A block that fails makes the lookup
/// throw, and `ImageSymbolizer` rebuilds the index; nothing is answered from it.
///
/// Shared between threads: a block's bit is set (release) after its sample keys are written,
/// and read (acquire) before they are; checking takes a lock.
final class IndexBlocks: @unchecked Sendable {
    /// The large arrays, in the order of their blocks' checksums.
    enum Kind: Int, CaseIterable {
        case lines, ranges, subroutines, symbols, spans, stringBytes

        /// Records in one block.
        var perBlock: Int {
            switch self {
            case .lines: Int(DKS_LINES_PER_BLOCK)
            case .ranges: Int(DKS_RANGES_PER_BLOCK)
            case .subroutines: Int(DKS_SUBROUTINES_PER_BLOCK)
            case .symbols: Int(DKS_SYMBOLS_PER_BLOCK)
            case .spans: Int(DKS_SPANS_PER_BLOCK)
            case .stringBytes: Int(DKS_STRING_BYTES_PER_BLOCK)
            }
        }

        var name: String {
            switch self {
            case .lines: "line rows"
            case .ranges: "ranges"
            case .subroutines: "subroutines"
            case .symbols: "symbols"
            case .spans: "string spans"
            case .stringBytes: "string bytes"
            }
        }
    }

    /// One key sample every `sampleStride` records of the sorted arrays (lines, ranges,
    /// symbols), as `SampledKeys` keeps them: a block's 16 samples stay in one or two cache
    /// lines, so a search inside a checked block touches its records in one place only.
    static let sampleStride = 8

    static func blockCount(_ kind: Kind, records: Int) -> Int { (records + kind.perBlock - 1) / kind.perBlock }

    /// The index's arrays (views into `storage`'s bytes, kept alive by the `AddressIndex`).
    private let lines: UnsafeBufferPointer<AddressIndex.LineRecord>
    private let ranges: UnsafeBufferPointer<AddressIndex.RangeRecord>
    private let depthStarts: UnsafeBufferPointer<UInt32>
    private let subroutines: UnsafeBufferPointer<AddressIndex.SubroutineRecord>
    private let symbols: UnsafeBufferPointer<AddressIndex.SymbolRecord>
    private let spans: UnsafeBufferPointer<AddressIndex.StringSpan>
    private let blob: UnsafeRawBufferPointer
    /// Per block, in `Kind` order: the stored checksum.
    private let checksums: UnsafeBufferPointer<UInt64>
    /// The first key of every block of lines, ranges and symbols (checked at open).
    let lineKeys: UnsafeBufferPointer<UInt64>
    let rangeKeys: UnsafeBufferPointer<UInt64>
    let symbolKeys: UnsafeBufferPointer<UInt64>
    /// Per block of ranges: the max end carried into it from the range before it.
    private let carries: UnsafeBufferPointer<UInt64>
    /// Where each kind's blocks start in `checksums` and in the bits (a pointer, not an
    /// array: the check runs several times a lookup, and an array's bounds check and
    /// reference count were a tenth of a warm lookup).
    private let firstBlock: UnsafeMutablePointer<Int>
    /// Keeps the bytes behind every view alive (the index's buffer or the mapped cache).
    let storage: MappedFile
    /// Offsets of each array in the file, for errors.
    private let offsets: [Int]
    /// One bit per block: checked and intact.
    private let bits: UnsafeMutablePointer<Atomic<UInt64>>
    private let wordCount: Int
    /// One bit per string id: its span's block and the blocks of its bytes were checked. A
    /// lookup checks every string its frames name; this dense bitmap answers that without
    /// reading the span again (a cache miss per string on a big index).
    private let stringBits: UnsafeMutablePointer<Atomic<UInt64>>
    private let stringWordCount: Int
    /// Sample keys, written for a block when it is checked.
    let lineSamples: UnsafeMutableBufferPointer<UInt64>
    let rangeSamples: UnsafeMutableBufferPointer<UInt64>
    let symbolSamples: UnsafeMutableBufferPointer<UInt64>
    private let lock = Mutex<Void>(())

    struct Arrays {
        var lines: UnsafeBufferPointer<AddressIndex.LineRecord>
        var ranges: UnsafeBufferPointer<AddressIndex.RangeRecord>
        var depthStarts: UnsafeBufferPointer<UInt32>
        var subroutines: UnsafeBufferPointer<AddressIndex.SubroutineRecord>
        var symbols: UnsafeBufferPointer<AddressIndex.SymbolRecord>
        var spans: UnsafeBufferPointer<AddressIndex.StringSpan>
        var blob: UnsafeRawBufferPointer
        var checksums: UnsafeBufferPointer<UInt64>
        var keys: UnsafeBufferPointer<UInt64>
        var carries: UnsafeBufferPointer<UInt64>
        /// File offsets of lines, ranges, subroutines, symbols, spans and string bytes.
        var offsets: [Int]
    }

    /// `arrays`' small arrays must have been checked (`IndexFile.open`): one checksum per
    /// block, one key per block of lines, ranges and symbols, one carry per block of ranges;
    /// they are views into `storage`.
    init(_ arrays: Arrays, storage: MappedFile) {
        self.storage = storage
        lines = arrays.lines
        ranges = arrays.ranges
        depthStarts = arrays.depthStarts
        subroutines = arrays.subroutines
        symbols = arrays.symbols
        spans = arrays.spans
        blob = arrays.blob
        checksums = arrays.checksums
        carries = arrays.carries
        offsets = arrays.offsets
        let lineBlocks = Self.blockCount(.lines, records: lines.count), rangeBlocks = Self.blockCount(.ranges, records: ranges.count)
        let keys = arrays.keys
        lineKeys = UnsafeBufferPointer(rebasing: keys[0..<lineBlocks])
        rangeKeys = UnsafeBufferPointer(rebasing: keys[lineBlocks..<(lineBlocks + rangeBlocks)])
        symbolKeys = UnsafeBufferPointer(rebasing: keys[(lineBlocks + rangeBlocks)...])
        var first: [Int] = []
        var total = 0
        for (kind, count) in zip(Kind.allCases, [lines.count, ranges.count, subroutines.count, symbols.count, spans.count, blob.count]) {
            first.append(total)
            total += Self.blockCount(kind, records: count)
        }
        firstBlock = .allocate(capacity: first.count)
        firstBlock.initialize(from: first, count: first.count)
        wordCount = (total + 63) / 64
        bits = .allocate(capacity: max(wordCount, 1))
        for i in 0..<max(wordCount, 1) { (bits + i).initialize(to: Atomic<UInt64>(0)) }
        stringWordCount = max((spans.count + 63) / 64, 1)
        stringBits = .allocate(capacity: stringWordCount)
        for i in 0..<stringWordCount { (stringBits + i).initialize(to: Atomic<UInt64>(0)) }
        // Not initialised: a sample is written when its block is checked and read only after.
        func samples(_ count: Int) -> UnsafeMutableBufferPointer<UInt64> {
            .allocate(capacity: max((count + Self.sampleStride - 1) / Self.sampleStride, 1))
        }
        lineSamples = samples(lines.count)
        rangeSamples = samples(ranges.count)
        symbolSamples = samples(symbols.count)
    }

    deinit {
        firstBlock.deallocate()
        bits.deinitialize(count: max(wordCount, 1))
        bits.deallocate()
        stringBits.deinitialize(count: stringWordCount)
        stringBits.deallocate()
        lineSamples.deallocate()
        rangeSamples.deallocate()
        symbolSamples.deallocate()
    }

    /// Throws unless block `block` of `kind` is intact (checked now if it was not before).
    @inline(__always)
    func check(_ kind: Kind, block: Int) throws(DecodeError) {
        let global = firstBlock[kind.rawValue] + block
        if bits[global >> 6].load(ordering: .acquiring) & (1 << UInt64(global & 63)) != 0 { return }
        try checkSlowly(kind, block: block, global: global)
    }

    /// True once `markStringChecked(id)` was called (`id` below the span count).
    @inline(__always)
    func isStringChecked(_ id: UInt32) -> Bool {
        stringBits[Int(id >> 6)].load(ordering: .acquiring) & (1 << UInt64(id & 63)) != 0
    }

    /// Records that string `id`'s span and bytes are in checked blocks.
    func markStringChecked(_ id: UInt32) {
        stringBits[Int(id >> 6)].bitwiseOr(1 << UInt64(id & 63), ordering: .releasing)
    }

    /// Throws unless the blocks holding records `range` of `kind` are intact.
    @inline(__always)
    func check(_ kind: Kind, records range: Range<Int>) throws(DecodeError) {
        guard !range.isEmpty else { return }
        var block = range.lowerBound / kind.perBlock
        let last = (range.upperBound - 1) / kind.perBlock
        while true {
            try check(kind, block: block)
            guard block < last else { return }
            block += 1
        }
    }

    @inline(never)
    private func checkSlowly(_ kind: Kind, block: Int, global: Int) throws(DecodeError) {
        let result: Result<Void, DecodeError> = lock.withLock { _ in
            let mask: UInt64 = 1 << UInt64(global & 63)
            if bits[global >> 6].load(ordering: .acquiring) & mask != 0 { return .success(()) }
            do throws(DecodeError) {
                try verify(kind, block: block, global: global)
            } catch {
                return .failure(error)
            }
            bits[global >> 6].bitwiseOr(mask, ordering: .releasing)
            return .success(())
        }
        try result.get()
    }

    /// The checksum stored for a block: its bytes' and its number's, so two blocks swapped fail.
    static func blockChecksum(_ bytes: UnsafeRawBufferPointer, number: Int) -> UInt64 {
        IndexFile.checksum(bytes) ^ (UInt64(number) &+ 1) &* 0x9e37_79b9_7f4a_7c15
    }

    private func verify(_ kind: Kind, block: Int, global: Int) throws(DecodeError) {
        let per = kind.perBlock
        let lower = block * per
        func fail(_ reason: String) -> DecodeError {
            let stride = [MemoryLayout<AddressIndex.LineRecord>.stride, MemoryLayout<AddressIndex.RangeRecord>.stride,
                          MemoryLayout<AddressIndex.SubroutineRecord>.stride, MemoryLayout<AddressIndex.SymbolRecord>.stride,
                          MemoryLayout<AddressIndex.StringSpan>.stride, 1][kind.rawValue]
            return DecodeError(section: "symbol cache", offset: offsets[kind.rawValue] + lower * stride,
                               reason: "block \(block) of the \(kind.name): \(reason)")
        }
        let stringCount = UInt32(clamping: spans.count)
        func validString(_ id: UInt32) -> Bool { id == StringTable.none || id < stringCount }
        func bytes<T>(_ array: UnsafeBufferPointer<T>) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: array[lower..<min(array.count, lower + per)]))
        }
        let stored: UnsafeRawBufferPointer
        switch kind {
        case .lines: stored = bytes(lines)
        case .ranges: stored = bytes(ranges)
        case .subroutines: stored = bytes(subroutines)
        case .symbols: stored = bytes(symbols)
        case .spans: stored = bytes(spans)
        case .stringBytes: stored = UnsafeRawBufferPointer(rebasing: blob[lower..<min(blob.count, lower + per)])
        }
        // Invariant: the bytes are those written (a flipped bit in a line number would pass every other check).
        guard Self.blockChecksum(stored, number: global) == checksums[global] else { throw fail("checksum mismatch") }

        switch kind {
        case .lines:
            // Invariant: sorted, joined to its neighbours through the block keys, files that exist.
            let end = min(lines.count, lower + per)
            guard lines[lower].address == lineKeys[block] else { throw fail("first address differs from the block key") }
            var previous = lines[lower].address
            for i in lower..<end {
                let row = lines[i]
                guard validString(row.file), row.address >= previous else { throw fail("line rows corrupt") }
                previous = row.address
                if (i - lower) % Self.sampleStride == 0 { lineSamples[i / Self.sampleStride] = row.address }
            }
            if block + 1 < lineKeys.count, previous > lineKeys[block + 1] { throw fail("rows out of order with the next block") }
        case .ranges:
            try verifyRanges(block: block, fail: fail, validString: validString)
        case .subroutines:
            for i in lower..<min(subroutines.count, lower + per) where !validString(subroutines[i].name) || !validString(subroutines[i].callFile) {
                throw fail("subroutine names a missing string")
            }
        case .symbols:
            let end = min(symbols.count, lower + per)
            guard symbols[lower].start == symbolKeys[block] else { throw fail("first start differs from the block key") }
            var previous = symbols[lower].start
            for i in lower..<end {
                let symbol = symbols[i]
                guard symbol.start >= previous, validString(symbol.name), validString(symbol.file) else { throw fail("symbol table corrupt") }
                previous = symbol.start
                if (i - lower) % Self.sampleStride == 0 { symbolSamples[i / Self.sampleStride] = symbol.start }
            }
            if block + 1 < symbolKeys.count, previous > symbolKeys[block + 1] { throw fail("symbols out of order with the next block") }
        case .spans:
            for i in lower..<min(spans.count, lower + per) where Int(spans[i].offset) + Int(spans[i].length) > blob.count {
                throw fail("string outside the blob")
            }
        case .stringBytes:
            break
        }
    }

    /// Ranges: sorted by start within each depth, each `maxEnd` the running largest end of its
    /// depth (carried in from the block before through `carries`), subroutines that exist,
    /// and a function's outermost name a marker or a string (inlined calls have none).
    private func verifyRanges(block: Int, fail: (String) -> DecodeError, validString: (UInt32) -> Bool) throws(DecodeError) {
        let per = IndexBlocks.Kind.ranges.perBlock
        let lower = block * per, end = min(ranges.count, lower + per)
        guard ranges[lower].start == rangeKeys[block] else { throw fail("first start differs from the block key") }
        // The depth of the block's first range (depthStarts was checked at open).
        var depth = 0
        while Int(depthStarts[depth + 1]) <= lower { depth += 1 }
        var previousStart: UInt64 = 0, maxEnd: UInt64 = 0
        if Int(depthStarts[depth]) < lower {
            previousStart = ranges[lower].start
            maxEnd = carries[block]
        }
        for i in lower..<end {
            if i == Int(depthStarts[depth + 1]) {
                // A new depth starts here: its order and running end start afresh.
                while Int(depthStarts[depth + 1]) <= i { depth += 1 }
                previousStart = 0
                maxEnd = 0
            }
            let range = ranges[i]
            maxEnd = max(maxEnd, range.end)
            let name = range.outermostName
            let nameIsValid = depth == 0
                ? name < AddressIndex.RangeRecord.symbolNameBase || validString(name - AddressIndex.RangeRecord.symbolNameBase)
                : name == AddressIndex.RangeRecord.askSymbols
            guard range.start >= previousStart, range.maxEnd == maxEnd, Int(range.subroutine) < subroutines.count, nameIsValid else {
                throw fail("range table corrupt")
            }
            previousStart = range.start
            if (i - lower) % Self.sampleStride == 0 { rangeSamples[i / Self.sampleStride] = range.start }
        }
        // The next block continues this depth: it starts no lower and carries this end.
        if end < ranges.count, end < Int(depthStarts[depth + 1]) {
            guard previousStart <= rangeKeys[block + 1], maxEnd == carries[block + 1] else { throw fail("ranges out of order with the next block") }
        }
    }
}
