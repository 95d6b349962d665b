import Dispatch
import Synchronization

/// DWARF of one ELF image, read through libdw.
///
/// The image bytes are handed to libelf with `elf_memory`; `owner` must keep them alive
/// and unchanged as long as the reader exists. libdw decompresses `SHF_COMPRESSED` and
/// `.zdebug` sections itself.
public final class DWARFReader {
    private let handle: DWHandle
    /// Names of abstract origins, by DIE offset: inlined copies of one function look its name
    /// up once.
    private var originNames: [UInt64: String?] = [:]
    /// Units read since the last `reopen()`.
    private var unitsSinceReopen = 0
    private let image: UnsafeRawBufferPointer
    private let owner: AnyObject
    /// The sections line tables are read from by `LineProgram` (nil: libdw reads them all).
    private let lineSections: LineProgram.Sections?
    /// Line tables read since the last `reopen()`, by `.debug_line` offset; nil for one left to
    /// libdw. Units sharing a table get the first one's, as from libdw's own cache (file names
    /// joined with that unit's compilation directory).
    private var lineTables: [UInt64: LineProgram.Table?] = [:]

    public init(image: UnsafeRawBufferPointer, owner: AnyObject) throws(DWError) {
        let handle = try DWHandle.open(image: image, owner: owner)
        self.handle = handle
        self.image = image
        self.owner = owner
        lineSections = handle.sectionBytes(named: ".debug_line", in: image).map { debugLine in
            LineProgram.Sections(debugLine: debugLine, debugLineString: handle.sectionBytes(named: ".debug_line_str", in: image),
                                 debugString: handle.sectionBytes(named: ".debug_str", in: image))
        }
    }

    /// Calls `body` with each compilation or partial unit, in `.debug_info` order. Type units
    /// are skipped (they hold no code).
    ///
    /// With `jobs` above 1, units are read on that many threads, each through its own libdw
    /// handle (libdw's `Dwarf` is not thread-safe; separate ones over the same bytes are
    /// independent while libelf only reads them: not for an image with compressed sections,
    /// which is read on one thread), in batches: every thread takes the batch's next unread unit until none
    /// is left, then `body` gets the batch's units in order on the calling thread. The units
    /// are the same as with one job; only reading them overlaps.
    public func forEachUnit(jobs: Int = 1, _ body: (DWARFUnit) -> Void) throws(DWError) {
        // Where each unit header starts: a walk over headers only.
        var starts: [DWHandle.UnitCursor] = []
        var cursor = DWHandle.UnitCursor()
        let jobs = handle.canShareImage ? jobs : 1
        if jobs > 1 {
            while true {
                let start = cursor
                guard try handle.nextUnit(&cursor) != nil else { break }
                starts.append(start)
            }
        }
        guard jobs > 1, starts.count > 1 else {
            cursor = DWHandle.UnitCursor()
            while let (die, version, addressSize) = try handle.nextUnit(&cursor) {
                if let unit = try read(die, version: version, addressSize: addressSize) { body(unit) }
            }
            return
        }
        var readers = [self]
        for _ in 1..<min(jobs, starts.count) { readers.append(try DWARFReader(image: image, owner: owner)) }
        let batchSize = readers.count * Self.unitsPerBatchAndJob
        var batchStart = 0
        while batchStart < starts.count {
            let batch = Array(starts[batchStart..<min(batchStart + batchSize, starts.count)])
            batchStart += batch.count
            // Each slot is written by the one thread that took its index.
            let slots = UnsafeMutableBufferPointer<Result<DWARFUnit?, DWError>?>.allocate(capacity: batch.count)
            slots.initialize(repeating: nil)
            defer { slots.deinitialize(); slots.deallocate() }
            nonisolated(unsafe) let results = slots
            nonisolated(unsafe) let workers = readers
            let next = Atomic<Int>(0)
            DispatchQueue.concurrentPerform(iterations: workers.count) { job in
                let reader = workers[job]
                while true {
                    let index = next.add(1, ordering: .relaxed).oldValue
                    guard index < batch.count else { return }
                    results[index] = Result { () throws(DWError) in try reader.read(at: batch[index]) }
                }
            }
            for slot in slots {
                guard let slot else { continue }
                if let unit = try slot.get() { body(unit) }
            }
        }
    }

    /// Units a thread reads per batch of `forEachUnit(jobs:)`, on average: enough that one large
    /// unit does not leave the other threads idle for long, few enough that a batch's units
    /// (line rows and functions as Swift values) stay a small part of the peak memory.
    static let unitsPerBatchAndJob = 8

    /// Units read between `reopen()`s: bounds libdw's memory without re-reading much
    /// (abbreviations are per unit anyway).
    static let unitsPerSession = 4

    /// The unit whose header is at `start`, or nil for a type unit.
    private func read(at start: DWHandle.UnitCursor) throws(DWError) -> DWARFUnit? {
        var cursor = start
        guard let (die, version, addressSize) = try handle.nextUnit(&cursor) else { return nil }
        return try read(die, version: version, addressSize: addressSize)
    }

    /// The unit of `die`, or nil for a type unit.
    private func read(_ die: DIE, version: Int, addressSize: Int) throws(DWError) -> DWARFUnit? {
        var cu = die
        let tag = handle.tag(&cu)
        guard tag == DWHandle.Tag.compileUnit || tag == DWHandle.Tag.partialUnit else { return nil }
        let compilationDirectory = handle.string(DWHandle.Attribute.compilationDirectory, of: &cu)
        var unit = DWARFUnit(version: version, name: handle.string(DWHandle.Attribute.name, of: &cu),
                             compilationDirectory: compilationDirectory,
                             files: [], firstDirectory: nil, lineRows: [], subroutines: [], ranges: [])
        // Subroutines first: their ranges tell line rows that start a sequence from the
        // zero-length tail of the one before (see `addLines`).
        readSubroutines(&cu, typesHoldFunctions: !Self.isC(handle.unsigned(DWHandle.Attribute.language, of: &cu)), into: &unit)
        if let table = lineTable(&cu, compilationDirectory: compilationDirectory, addressSize: addressSize) {
            unit.files = table.files
            unit.firstDirectory = table.firstDirectory
            addLines(table.rows.count, &cu, into: &unit) { table.rows[$0] }
        } else {
            let files = handle.files(of: &cu)
            unit.files = files.names
            unit.firstDirectory = files.firstDirectory
            // A unit without a line table (no DW_AT_stmt_list) is normal: no rows.
            if let lines = try? handle.lines(of: &cu) {
                addLines(lines.count, &cu, into: &unit) { index in
                    handle.row(index, of: lines).map { row in
                        DWARFLineRow(address: row.address, file: Int32(clamping: row.file), line: UInt32(clamping: row.line),
                                     column: UInt32(clamping: row.column), isEndSequence: row.endSequence)
                    }
                }
            }
        }
        // libdw keeps every unit's line table (~60 bytes a row) until dwarf_end: start
        // afresh every few units so a large binary's tables are not all in memory at once.
        unitsSinceReopen += 1
        if unitsSinceReopen == Self.unitsPerSession {
            unitsSinceReopen = 0
            lineTables.removeAll(keepingCapacity: true)
            try handle.reopen()
        }
        return unit
    }

    /// The unit's line table as `LineProgram` reads it, or nil for libdw to read it: no
    /// sections to read it from, no `DW_AT_stmt_list` in the form libdw takes, a compilation
    /// directory whose bytes the String no longer holds (repaired UTF-8), a table `LineProgram`
    /// leaves to libdw, or one libdw read for an earlier unit of this session.
    private func lineTable(_ cu: inout DIE, compilationDirectory: String?, addressSize: Int) -> LineProgram.Table? {
        guard let lineSections, let offset = handle.statementList(of: &cu) else { return nil }
        if let known = lineTables[offset] { return known }
        var table: LineProgram.Table?
        if compilationDirectory?.unicodeScalars.contains("\u{FFFD}") != true {
            table = LineProgram.read(lineSections, at: offset, compilationDirectory: compilationDirectory.map { Array($0.utf8) },
                                     addressSize: addressSize)
        }
        lineTables[offset] = .some(table)
        return table
    }

    /// Appends the unit's `count` rows, in libdw's order, given by `row`.
    private func addLines(_ count: Int, _ cu: inout DIE, into unit: inout DWARFUnit, _ row: (Int) -> DWARFLineRow?) {
        let code = unitCode(&cu, unit)
        unit.lineRows.reserveCapacity(count)
        for index in 0..<count {
            guard let row = row(index) else { continue }
            // libdw sorts all of a unit's rows by address, putting an end of sequence before
            // other rows at its address, so sequences are no longer apart: a row there is
            // either the first of a sequence starting where the last one ended, or a row the
            // ended sequence had at its end address (GCC emits them after a final call to a
            // noreturn function). Kept as the latter, it would start a "sequence" reaching
            // to the unit's next end of sequence and cover other units' code (glibc's
            // loadmsgcat.c: 0x2639f to 0x38552). A sequence starting there describes code of
            // this unit; a zero-length row describes none and llvm-symbolizer never uses it.
            if !row.isEndSequence, let last = unit.lineRows.last, last.isEndSequence, last.address == row.address,
               !Self.contains(code, row.address) {
                continue
            }
            unit.lineRows.append(row)
        }
    }

    /// The unit's code as sorted, disjoint ranges: the unit DIE's own (`DW_AT_ranges` or
    /// `DW_AT_low_pc`/`high_pc`), else its functions'.
    private func unitCode(_ cu: inout DIE, _ unit: DWARFUnit) -> [(UInt64, UInt64)] {
        var ranges: [(UInt64, UInt64)] = []
        if !handle.appendRanges(of: &cu, to: &ranges) {
            for subroutine in unit.subroutines where subroutine.depth == 0 {
                for range in unit.ranges[subroutine.ranges] { ranges.append((range.start, range.end)) }
            }
        }
        ranges.removeAll { $0.0 >= $0.1 }
        ranges.sort { $0.0 < $1.0 }
        // Merged, so a lookup needs only the one range starting last at or before an address.
        var merged: [(UInt64, UInt64)] = []
        merged.reserveCapacity(ranges.count)
        for range in ranges {
            if let last = merged.last, range.0 <= last.1 {
                merged[merged.count - 1].1 = max(last.1, range.1)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    /// Whether one of `ranges` (sorted by start) contains `address`.
    private static func contains(_ ranges: [(UInt64, UInt64)], _ address: UInt64) -> Bool {
        var low = 0, high = ranges.count
        while low < high {
            let mid = (low + high) / 2
            if ranges[mid].0 <= address { low = mid + 1 } else { high = mid }
        }
        return low > 0 && address < ranges[low - 1].1
    }

    /// Whether `language` (a unit's `DW_AT_language`) is C, any standard: C has no functions
    /// inside types.
    static func isC(_ language: UInt64?) -> Bool {
        // DW_LANG_C89, DW_LANG_C, DW_LANG_C99, DW_LANG_C11, DW_LANG_C17 (DWARF 5; not in
        // elfutils 0.188's dwarf.h).
        guard let language else { return false }
        return language == 0x0001 || language == 0x0002 || language == 0x000c || language == 0x001d || language == 0x002c
    }

    /// Walks the DIE tree without recursion (a corrupt file's nesting cannot exhaust the stack),
    /// descending only into DIEs that can contain code: functions, inlined calls, blocks,
    /// namespaces and modules, and types where the language defines functions inside them
    /// (`typesHoldFunctions`). Other types and variables are skipped with their children.
    private func readSubroutines(_ cu: inout DIE, typesHoldFunctions: Bool, into unit: inout DWARFUnit) {
        guard var die = handle.child(of: &cu) else { return }
        // For each open level: the parent DIE and the subroutine depth of its children.
        var stack: [(parent: DIE, childDepth: Int)] = []
        var depth = 0
        var ranges: [(UInt64, UInt64)] = []
        while true {
            let tag = handle.tag(&die)
            var descend = false
            var childDepth = depth
            switch tag {
            case DWHandle.Tag.subprogram, DWHandle.Tag.inlinedSubroutine:
                ranges.removeAll(keepingCapacity: true)
                var attributes = handle.subroutineAttributes(of: &die)
                if handle.appendRanges(of: &die, &attributes, to: &ranges) {
                    let inlined = tag == DWHandle.Tag.inlinedSubroutine
                    let level = inlined ? depth : 0
                    record(&die, &attributes, inlined: inlined, depth: level, ranges: ranges, into: &unit)
                    descend = true
                    childDepth = level + 1
                } else {
                    // A declaration or abstract instance has no code of its own, but functions
                    // defined inside it do: Swift emits a closure as a DW_TAG_subprogram with
                    // code under the enclosing function's DW_AT_specification DIE, which has
                    // none (devkit missed their inlined calls, llvm-symbolizer did not).
                    // Walking the other children costs little: without DW_AT_sibling libdw
                    // reads them anyway to find the next sibling.
                    descend = true
                }
            case DWHandle.Tag.lexicalBlock, DWHandle.Tag.tryBlock, DWHandle.Tag.catchBlock:
                descend = depth > 0
            case DWHandle.Tag.namespace, DWHandle.Tag.module:
                descend = depth == 0
            case DWHandle.Tag.structure, DWHandle.Tag.classType, DWHandle.Tag.union:
                // Methods defined inside (C++, Swift). Inside functions too: a lambda's
                // operator() is a function of its closure type, a class local to the function
                // that encloses the lambda (libstdc++'s fast_float.h). Not in C, whose
                // structures' members were two fifths of python3.11d's DIEs walked.
                descend = typesHoldFunctions
            default:
                descend = false
            }
            if descend, let child = handle.child(of: &die) {
                stack.append((die, depth))
                depth = childDepth
                die = child
                continue
            }
            // Next sibling, or climb until a level has one.
            while true {
                if let next = handle.sibling(of: &die) {
                    die = next
                    break
                }
                guard let level = stack.popLast() else { return }
                die = level.parent
                depth = level.childDepth
            }
        }
    }

    private func record(_ die: inout DIE, _ attributes: inout DWHandle.SubroutineAttributes, inlined: Bool, depth: Int,
                        ranges: [(UInt64, UInt64)], into unit: inout DWARFUnit) {
        let name: String?
        if let origin = handle.abstractOrigin(of: &die, &attributes) {
            if let cached = originNames[origin] {
                name = cached
            } else {
                name = handle.linkageOrName(of: &die, &attributes)
                originNames[origin] = name
            }
        } else {
            name = handle.linkageOrName(of: &die, &attributes)
        }
        let first = unit.ranges.count
        for range in ranges where range.0 < range.1 { unit.ranges.append((range.0, range.1)) }
        var subroutine = DWARFSubroutine(name: name, depth: depth, ranges: first..<unit.ranges.count,
                                         callFile: nil, callLine: 0, callColumn: 0)
        if inlined {
            let call = handle.callSite(of: &die, &attributes)
            subroutine.callFile = call.file.flatMap { Int(exactly: $0) }
            subroutine.callLine = UInt32(clamping: call.line ?? 0)
            subroutine.callColumn = UInt32(clamping: call.column ?? 0)
        }
        unit.subroutines.append(subroutine)
    }
}
