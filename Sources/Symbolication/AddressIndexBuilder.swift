internal import SymbolCacheFormat
import ElfUtils
import System
import ObjectFile

/// Builds an `AddressIndex` from DWARF units and symbols; strings are interned on the way.
struct AddressIndexBuilder {
    private var lines: [AddressIndex.LineRecord] = []
    private var subroutines: [AddressIndex.SubroutineRecord] = []
    private var symbols: [AddressIndex.SymbolRecord] = []
    private var stringBlob: [UInt8] = []
    private var stringSpans: [AddressIndex.StringSpan] = []
    private var interned: [String: UInt32] = [:]
    private var pendingRanges: [(depth: Int, start: UInt64, end: UInt64, subroutine: UInt32)] = []
    /// Line-table sequences kept: where each starts in `lines` and its first address.
    private var sequences: [(address: UInt64, start: Int, count: Int)] = []
    /// Address ranges of code sections: ranges outside are discarded (linkers leave the
    /// DWARF of dropped functions in place with address 0 or -1, "tombstones").
    private let codeRanges: [(UInt64, UInt64)]

    init(codeRanges: [(UInt64, UInt64)], expectedLineRows: Int = 0) {
        self.codeRanges = codeRanges.sorted { $0.0 < $1.0 }
        lines.reserveCapacity(expectedLineRows)
    }

    private func isCode(_ address: UInt64) -> Bool {
        if codeRanges.isEmpty { return address != 0 && address < UInt64.max - 1 }
        return codeRanges.contains { $0.0 <= address && address < $0.1 }
    }

    mutating func intern(_ string: String) -> UInt32 {
        if let id = interned[string] { return id }
        let id = UInt32(stringSpans.count)
        let offset = UInt32(clamping: stringBlob.count)
        stringBlob.append(contentsOf: string.utf8)
        stringSpans.append(AddressIndex.StringSpan(offset: offset, length: UInt32(clamping: string.utf8.count)))
        interned[string] = id
        return id
    }

    mutating func add(_ unit: DWARFUnit) {
        var fileIDs: [UInt32] = []
        fileIDs.reserveCapacity(unit.files.count)
        // Names under directory 0 already start with it (libdw joined them), and directory 0
        // is the compilation directory: prefixing that again gave glibc's (relative comp dir
        // "./stdio-common") "./stdio-common/./stdio-common/vfprintf-internal.c".
        let firstDirectoryPrefix = unit.firstDirectory.flatMap { $0.isEmpty ? nil : $0 + "/" }
        for file in unit.files {
            // A relative name under another directory is relative to the unit's compilation
            // directory, as llvm-symbolizer has it (libdw leaves it relative when its directory
            // entry is). A directory other than 0 whose name starts with directory 0's would be
            // taken for it; compilers write those relative to it ("../sysdeps/x86") or absolute.
            var path = file
            if !path.hasPrefix("/"), !path.isEmpty, !path.hasPrefix("<"), let directory = unit.compilationDirectory, !directory.isEmpty,
               !(firstDirectoryPrefix.map { path.hasPrefix($0) } ?? false) {
                path = directory + "/" + path
            }
            fileIDs.append(intern(Self.normalizedPath(path)))
        }
        func fileID(_ index: Int) -> UInt32 { index >= 0 && index < fileIDs.count ? fileIDs[index] : StringTable.none }

        // Line rows: split into sequences (each ends with an end-of-sequence row; the reader
        // already told a sequence starting where another ended from that one's zero-length tail).
        var sequenceStart = lines.count
        for row in unit.lineRows {
            lines.append(AddressIndex.LineRecord(
                address: row.address, file: fileID(Int(row.file)), line: row.line, column: row.column,
                flags: row.isEndSequence ? AddressIndex.endSequenceFlag : 0))
            if row.isEndSequence {
                // Sequences of discarded code (tombstone addresses) are dropped.
                if isCode(lines[sequenceStart].address) {
                    sequences.append((lines[sequenceStart].address, sequenceStart, lines.count - sequenceStart))
                } else {
                    lines.removeSubrange(sequenceStart...)
                }
                sequenceStart = lines.count
            }
        }
        // Rows after the last end of sequence belong to no complete sequence.
        lines.removeSubrange(sequenceStart...)

        for subroutine in unit.subroutines {
            var kept = false
            let id = UInt32(subroutines.count)
            for range in unit.ranges[subroutine.ranges] where isCode(range.start) {
                pendingRanges.append((subroutine.depth, range.start, range.end, id))
                kept = true
            }
            guard kept else { continue }
            subroutines.append(AddressIndex.SubroutineRecord(
                name: subroutine.name.map { intern($0) } ?? StringTable.none,
                callFile: subroutine.callFile.map { fileID($0) } ?? StringTable.none,
                callLine: subroutine.callLine, callColumn: subroutine.callColumn))
        }
    }

    /// libdw joins directory and name with a "/" even when the directory ends in one
    /// ("/" + "<compiler-generated>" → "//<compiler-generated>"); llvm-symbolizer does not.
    static func normalizedPath(_ path: String) -> String {
        // A byte scan for "//": String.contains(String) goes through _StringProcessing's
        // substring search, which was a tenth of python3.11d's cold index build.
        var previousWasSlash = false
        let hasDoubleSlash = path.utf8.contains { byte in
            let isSlash = byte == UInt8(ascii: "/")
            defer { previousWasSlash = isSlash }
            return isSlash && previousWasSlash
        }
        guard hasDoubleSlash else { return path }
        var result = ""
        var lastWasSlash = false
        for character in path {
            if character == "/" {
                if lastWasSlash { continue }
                lastWasSlash = true
            } else {
                lastWasSlash = false
            }
            result.append(character)
        }
        return result
    }

    /// Adds the image's own symbols and, for a stripped image, those of its separate debug
    /// file (`debugSymbols`, which name local functions the image's `.dynsym` does not have).
    mutating func add(symbols: [ELFSymbol], debugSymbols: [ELFSymbol] = []) {
        var records: [(record: AddressIndex.SymbolRecord, order: Int)] = []
        records.reserveCapacity(symbols.count + debugSymbols.count)
        for (table, flags) in [(symbols, AddressIndex.SymbolRecord.imageTableFlag), (debugSymbols, 0)] {
            var currentFile = StringTable.none
            for symbol in table {
                // Local symbols follow the STT_FILE symbol of their translation unit.
                if symbol.type == ELFSymbol.fileType {
                    currentFile = symbol.name.isEmpty ? StringTable.none : intern(symbol.name)
                    continue
                }
                // Labels count as functions, as llvm-symbolizer counts them: a label inside a
                // sized assembly function names the code from there on.
                guard symbol.isDefinedFunction || symbol.isDefinedLabel, !symbol.name.isEmpty, isCode(symbol.value) else { continue }
                let file = symbol.binding == ELFSymbol.localBinding ? currentFile : StringTable.none
                records.append((AddressIndex.SymbolRecord(start: symbol.value, end: symbol.size, name: intern(symbol.name), file: file, flags: flags),
                                records.count))
            }
        }
        // Sorted by start; among aliases at one address the image's own table wins, then the
        // one with a size, then the larger size, then the one later in its table. llvm-symbolizer
        // keeps the last of (address, size)-equal symbols in table order: `_IO_getc` over
        // `getc` and `fgetc`, `aligned_alloc` over `__libc_memalign` in libc's `.dynsym`; in a
        // `.symtab` the globals come after the locals, so a global wins.
        records.sort { a, b in
            if a.record.start != b.record.start { return a.record.start < b.record.start }
            if a.record.flags != b.record.flags { return a.record.flags < b.record.flags }
            if a.record.end != b.record.end { return a.record.end < b.record.end }
            return a.order < b.order
        }
        var unique: [AddressIndex.SymbolRecord] = []
        unique.reserveCapacity(records.count)
        for (record, _) in records {
            if let last = unique.last, last.start == record.start {
                unique[unique.count - 1] = record
            } else {
                unique.append(record)
            }
        }
        // `end` held the size: a symbol without one reaches the next symbol or the end of its code section.
        for i in unique.indices {
            let size = unique[i].end
            if size > 0 {
                unique[i].end = unique[i].start &+ size
            } else {
                let sectionEnd = codeRanges.first { $0.0 <= unique[i].start && unique[i].start < $0.1 }?.1 ?? unique[i].start &+ 1
                unique[i].end = i + 1 < unique.count ? min(unique[i + 1].start, sectionEnd) : sectionEnd
            }
        }
        self.symbols = unique
    }

    /// How a function's range `start..<end` names its outermost frame (see
    /// `dks_range_record.outermost_name`): as `AddressIndex.symbol(at:)` would at each of its
    /// addresses when that gives the same symbol, or none, everywhere in it.
    private func outermostName(_ start: UInt64, _ end: UInt64) -> UInt32 {
        let next = SortedSearch.upperBound(symbols, in: 0..<symbols.count, of: start) { $0.start }
        // A symbol starting inside the range takes over from there: ask at each address.
        if next < symbols.count, symbols[next].start < end { return AddressIndex.RangeRecord.askSymbols }
        guard next > 0 else { return AddressIndex.RangeRecord.nameFromDWARF }
        let covering = symbols[next - 1]
        if covering.end <= start { return AddressIndex.RangeRecord.nameFromDWARF }
        // Ending inside the range: covered at some addresses only.
        guard covering.end >= end else { return AddressIndex.RangeRecord.askSymbols }
        guard covering.isInImageTable else { return AddressIndex.RangeRecord.nameFromDWARF }
        guard covering.name < UInt32.max - AddressIndex.RangeRecord.symbolNameBase else { return AddressIndex.RangeRecord.askSymbols }
        return covering.name + AddressIndex.RangeRecord.symbolNameBase
    }

    /// Sorts what was added and lays it out in the `IndexFile` format.
    consuming func finish(identity: IndexFile.Identity) -> IndexFile.Contents {
        // Sequences in address order; already in order (the usual case) costs no copy.
        sequences.sort { $0.address < $1.address }
        var ordered = true
        var next = 0
        var previousEnd: UInt64 = 0
        for sequence in sequences {
            // Overlapping sequences need the cut below. Each sequence's last row is its end.
            if sequence.start != next || sequence.address < previousEnd { ordered = false; break }
            next += sequence.count
            previousEnd = lines[next - 1].address
        }
        if !ordered {
            var sorted: [AddressIndex.LineRecord] = []
            sorted.reserveCapacity(lines.count)
            for sequence in sequences {
                // `line(at:)` binary-searches all rows at once, so rows must never go back in
                // address. Sequences of different units should not overlap; when they do (bad
                // DWARF), the earlier one is cut short where the later one starts.
                if let last = sorted.last, last.address > sequence.address {
                    var end = last
                    while let row = sorted.last, row.address >= sequence.address { sorted.removeLast() }
                    if let row = sorted.last, row.flags & AddressIndex.endSequenceFlag == 0 {
                        end.address = sequence.address
                        sorted.append(end)
                    }
                }
                sorted.append(contentsOf: lines[sequence.start..<(sequence.start + sequence.count)])
            }
            lines = sorted
        }
        sequences = []

        pendingRanges.sort { ($0.depth, $0.start) < ($1.depth, $1.start) }
        var ranges: [AddressIndex.RangeRecord] = []
        ranges.reserveCapacity(pendingRanges.count)
        var depthStarts: [UInt32] = [0]
        var depth = 0
        var maxEnd: UInt64 = 0
        for range in pendingRanges {
            while range.depth > depth {
                depthStarts.append(UInt32(ranges.count))
                depth += 1
                maxEnd = 0
            }
            maxEnd = max(maxEnd, range.end)
            ranges.append(AddressIndex.RangeRecord(start: range.start, end: range.end, maxEnd: maxEnd, subroutine: range.subroutine))
        }
        if !ranges.isEmpty { depthStarts.append(UInt32(ranges.count)) }
        pendingRanges = []
        if depthStarts.count > 1 {
            for i in Int(depthStarts[0])..<Int(depthStarts[1]) { ranges[i].outermostName = outermostName(ranges[i].start, ranges[i].end) }
        }
        return IndexFile.Contents(identity: identity, lines: lines, ranges: ranges, depthStarts: depthStarts,
                                  subroutines: subroutines, symbols: symbols, stringSpans: stringSpans, stringBlob: stringBlob)
    }
}
