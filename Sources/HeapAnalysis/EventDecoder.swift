import BinaryReading
import HeapRecordFormat

/// Decodes the events of one record (format: FORMAT.md, "Events"): one after the other
/// (versions 1 to 4) or in columns (version 5).
///
/// Works on the raw bytes with its own bounds checks rather than through `ByteCursor`: a
/// recording of every event decodes millions of tags and varints, twice (validation, then the
/// replay), and the per-byte calls dominated `heapdiff`'s profile.
struct EventDecoder {
    /// One column's unread bytes, relative to `bytes`.
    struct Column {
        var at: Int
        let end: Int
    }

    let bytes: UnsafeRawBufferPointer
    /// Offset of `bytes` in the whole recording, for error messages.
    let baseOffset: Int
    var position = 0
    let thread: UInt32
    var seq: UInt64
    var address: UInt64 = 0
    /// Version 5: the columns (`position` is unused), each field predicted from the previous
    /// event's that has it.
    let columnar: Bool
    var tags = Column(at: 0, end: 0), seqs = Column(at: 0, end: 0), allocAddresses = Column(at: 0, end: 0),
        freeAddresses = Column(at: 0, end: 0), sizes = Column(at: 0, end: 0), stacks = Column(at: 0, end: 0),
        types = Column(at: 0, end: 0), shortBytes = Column(at: 0, end: 0), shortBlocks = Column(at: 0, end: 0)
    var freeAddress: UInt64 = 0
    var stack: UInt64 = 0
    var shortLivedBytes: UInt64 = 0

    init(_ bytes: UnsafeRawBufferPointer, baseOffset: Int, thread: UInt32, baseSeq: UInt64) {
        self.bytes = bytes
        self.baseOffset = baseOffset
        self.thread = thread
        self.seq = baseSeq
        columnar = false
    }

    /// A version-5 record's columns: `bounds` as in `EventColumns`, relative to `bytes`.
    init(_ bytes: UnsafeRawBufferPointer, baseOffset: Int, thread: UInt32, baseSeq: UInt64, columnBounds bounds: [Int]) {
        self.bytes = bytes
        self.baseOffset = baseOffset
        self.thread = thread
        self.seq = baseSeq
        columnar = true
        func column(_ c: dkh_event_column) -> Column { Column(at: bounds[Int(c.rawValue)], end: bounds[Int(c.rawValue) + 1]) }
        tags = column(DKH_COLUMN_TAG)
        seqs = column(DKH_COLUMN_SEQ)
        allocAddresses = column(DKH_COLUMN_ALLOC_ADDRESS)
        freeAddresses = column(DKH_COLUMN_FREE_ADDRESS)
        sizes = column(DKH_COLUMN_SIZE)
        stacks = column(DKH_COLUMN_STACK)
        types = column(DKH_COLUMN_TYPE)
        shortBytes = column(DKH_COLUMN_SHORT_BYTES)
        shortBlocks = column(DKH_COLUMN_SHORT_BLOCKS)
    }

    /// The events of a validated record, in the recording's bytes.
    init(_ record: EventRecord, in buffer: UnsafeRawBufferPointer) {
        let bytes = UnsafeRawBufferPointer(rebasing: buffer[record.events])
        let base = record.events.lowerBound
        if let columns = record.columns {
            self.init(bytes, baseOffset: base, thread: record.thread, baseSeq: record.baseSeq,
                      columnBounds: columns.bounds.map { $0 - base })
        } else {
            self.init(bytes, baseOffset: base, thread: record.thread, baseSeq: record.baseSeq)
        }
    }

    func error(_ reason: String, at relative: Int? = nil) -> DecodeError {
        DecodeError(section: "events", offset: baseOffset + (relative ?? position), reason: reason)
    }

    /// A ULEB128 number; most are one byte (deltas, small sizes).
    @inline(__always)
    private mutating func varint() throws(DecodeError) -> UInt64 {
        guard position < bytes.count else { throw error("truncated: an event is cut short") }
        let first = bytes[position]
        position += 1
        if first < 0x80 { return UInt64(first) }
        return try varintTail(first)
    }

    private mutating func varintTail(_ first: UInt8) throws(DecodeError) -> UInt64 {
        var rest = Column(at: position, end: bytes.count)
        defer { position = rest.at }
        return try Self.varintTail(bytes, UInt64(first & 0x7f), shift: 7, &rest, baseOffset, truncated: "truncated: an event is cut short")
    }

    /// The next event, nil at the end of the record.
    @inline(__always)
    mutating func next() throws(DecodeError) -> HeapEvent? {
        if columnar { return try nextInColumns() }
        guard position < bytes.count else { return nil }
        let tagOffset = position
        let tag = bytes[position]
        position += 1
        seq &+= try varint()
        let delta = try varint()
        address &+= Self.unzigzag(delta)
        switch tag {
        case UInt8(DKH_EVENT_ALLOC.rawValue), UInt8(DKH_EVENT_ALLOC_TYPED.rawValue):
            let size = try varint()
            let stack = try varint()
            // Invariant: stack ids are 32-bit.
            guard stack <= UInt32.max else { throw error("stack id \(stack) is out of range") }
            let type = tag == UInt8(DKH_EVENT_ALLOC_TYPED.rawValue) ? try varint() : 0
            return HeapEvent(seq: seq, kind: .allocation, address: address, size: size, stack: UInt32(stack),
                             typeMetadata: type, thread: thread)
        case UInt8(DKH_EVENT_SHORT_LIVED.rawValue):
            let bytes = try varint()
            let blocks = try varint()
            // Invariant: block counts are 32-bit, like stack ids.
            guard blocks <= UInt32.max else { throw error("short-lived block count \(blocks) is out of range") }
            return HeapEvent(seq: seq, kind: .shortLived, address: address, size: bytes, stack: UInt32(blocks), typeMetadata: 0,
                             thread: thread)
        case UInt8(DKH_EVENT_FREE.rawValue):
            return HeapEvent(seq: seq, kind: .free, address: address, size: 0, stack: 0, typeMetadata: 0, thread: thread)
        default:
            throw error("unknown event tag \(tag)", at: tagOffset)
        }
    }

    /// A ULEB128 number from `column` of `bytes`. Static, with the bytes passed in: a method
    /// reading `self` while a column of `self` is inout made the compiler copy the decoder on
    /// every call (`heapdiff`'s profile: a memcpy of the decoder per field).
    @inline(__always)
    private static func varint(_ bytes: UnsafeRawBufferPointer, _ column: inout Column, _ base: Int) throws(DecodeError) -> UInt64 {
        guard column.at < column.end else { throw columnError(base, column.at) }
        let first = bytes[column.at]
        column.at += 1
        if first < 0x80 { return UInt64(first) }
        // Two bytes inline too: most address and seq deltas of a column are one or two bytes.
        guard column.at < column.end else { throw columnError(base, column.at) }
        let second = bytes[column.at]
        column.at += 1
        if second < 0x80 { return UInt64(first & 0x7f) | UInt64(second) << 7 }
        return try varintTail(bytes, UInt64(first & 0x7f) | UInt64(second & 0x7f) << 7, shift: 14, &column, base)
    }

    /// The rest of a ULEB128 number whose first `shift / 7` bytes gave `low` (rows and
    /// columns both end here).
    private static func varintTail(_ bytes: UnsafeRawBufferPointer, _ low: UInt64, shift first: UInt64, _ column: inout Column,
                                   _ base: Int, truncated: String = columnTruncated) throws(DecodeError) -> UInt64 {
        let start = column.at - Int(first / 7)
        var result = low
        var shift = first
        while true {
            guard column.at < column.end else { throw DecodeError(section: "events", offset: base + column.at, reason: truncated) }
            let byte = bytes[column.at]
            column.at += 1
            guard shift < 63 || (shift == 63 && byte & 0x7e == 0) else {
                throw DecodeError(section: "events", offset: base + start, reason: "ULEB128 number does not fit in 64 bits")
            }
            result |= UInt64(byte & 0x7f) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
    }

    private static let columnTruncated = "truncated: a column ends before its events' fields"

    private static func columnError(_ base: Int, _ at: Int) -> DecodeError {
        DecodeError(section: "events", offset: base + at, reason: columnTruncated)
    }

    /// A zigzag-encoded delta (FORMAT.md: signed deltas, small either way) as the unsigned
    /// value added with wrapping.
    @inline(__always)
    static func unzigzag(_ value: UInt64) -> UInt64 { (value >> 1) ^ (0 &- (value & 1)) }

    /// The next event of a version-5 record: its tag, then its fields from their columns.
    @inline(__always)
    private mutating func nextInColumns() throws(DecodeError) -> HeapEvent? {
        guard tags.at < tags.end else { return nil }
        let tagOffset = tags.at
        let tag = bytes[tags.at]
        tags.at += 1
        let bytes = bytes, base = baseOffset
        seq &+= try Self.varint(bytes, &seqs, base)
        switch tag {
        case UInt8(DKH_EVENT_ALLOC.rawValue), UInt8(DKH_EVENT_ALLOC_TYPED.rawValue):
            address &+= Self.unzigzag(try Self.varint(bytes, &allocAddresses, base))
            let size = try Self.varint(bytes, &sizes, base)
            stack &+= Self.unzigzag(try Self.varint(bytes, &stacks, base))
            // Invariant: stack ids are 32-bit.
            guard stack <= UInt32.max else { throw error("stack id \(stack) is out of range", at: stacks.at - 1) }
            let type = tag == UInt8(DKH_EVENT_ALLOC_TYPED.rawValue) ? try Self.varint(bytes, &types, base) : 0
            return HeapEvent(seq: seq, kind: .allocation, address: address, size: size, stack: UInt32(stack),
                             typeMetadata: type, thread: thread)
        case UInt8(DKH_EVENT_FREE.rawValue):
            freeAddress &+= Self.unzigzag(try Self.varint(bytes, &freeAddresses, base))
            return HeapEvent(seq: seq, kind: .free, address: freeAddress, size: 0, stack: 0, typeMetadata: 0, thread: thread)
        case UInt8(DKH_EVENT_SHORT_LIVED.rawValue):
            shortLivedBytes &+= Self.unzigzag(try Self.varint(bytes, &shortBytes, base))
            let blocks = try Self.varint(bytes, &shortBlocks, base)
            // Invariant: block counts are 32-bit, like stack ids.
            guard blocks <= UInt32.max else { throw error("short-lived block count \(blocks) is out of range", at: shortBlocks.at - 1) }
            return HeapEvent(seq: seq, kind: .shortLived, address: 0, size: shortLivedBytes, stack: UInt32(blocks),
                             typeMetadata: 0, thread: thread)
        default:
            throw error("unknown event tag \(tag)", at: tagOffset)
        }
    }

    /// The next event of a validated version 1–4 record (kept out of `nextValidated`, which
    /// the merge inlines per event).
    @inline(never)
    private mutating func nextRow() -> HeapEvent? { try? next() }

    /// A ULEB128 number at `at` of a validated column: no bounds or overflow checks (validation
    /// found every column to end with a number's last byte, each number within 64 bits).
    @inline(__always)
    private static func validatedVarint(_ base: UnsafePointer<UInt8>, _ at: inout Int) -> UInt64 {
        var byte = base[at]
        at &+= 1
        if byte < 0x80 { return UInt64(byte) }
        var result = UInt64(byte & 0x7f)
        var shift: UInt64 = 7
        repeat {
            byte = base[at]
            at &+= 1
            // A masking shift: validation kept every number within 64 bits, so `shift` stays
            // below 64 (a smart shift's test of 64 and more was three instructions a byte).
            result |= UInt64(byte & 0x7f) &<< shift
            shift &+= 7
        } while byte >= 0x80
        return result
    }

    /// The next event of a record that `validate` accepted, nil at its end. The replay decodes
    /// every event once more; checked again, a column field cost a bounds test and a throw path
    /// per byte (half of the merge's instructions on 2.4 million events).
    @inline(__always)
    mutating func nextValidated() -> HeapEvent? {
        guard columnar else { return nextRow() }
        guard tags.at < tags.end, let raw = bytes.baseAddress else { return nil }
        let base = raw.assumingMemoryBound(to: UInt8.self)
        let tag = base[tags.at]
        tags.at &+= 1
        seq &+= Self.validatedVarint(base, &seqs.at)
        switch tag {
        case UInt8(DKH_EVENT_FREE.rawValue):
            freeAddress &+= Self.unzigzag(Self.validatedVarint(base, &freeAddresses.at))
            return HeapEvent(seq: seq, kind: .free, address: freeAddress, size: 0, stack: 0, typeMetadata: 0, thread: thread)
        case UInt8(DKH_EVENT_SHORT_LIVED.rawValue):
            shortLivedBytes &+= Self.unzigzag(Self.validatedVarint(base, &shortBytes.at))
            let blocks = Self.validatedVarint(base, &shortBlocks.at)
            return HeapEvent(seq: seq, kind: .shortLived, address: 0, size: shortLivedBytes, stack: UInt32(truncatingIfNeeded: blocks),
                             typeMetadata: 0, thread: thread)
        default:
            // ALLOC or ALLOC_TYPED: validation refused any other tag.
            address &+= Self.unzigzag(Self.validatedVarint(base, &allocAddresses.at))
            let size = Self.validatedVarint(base, &sizes.at)
            stack &+= Self.unzigzag(Self.validatedVarint(base, &stacks.at))
            let type = tag == UInt8(DKH_EVENT_ALLOC_TYPED.rawValue) ? Self.validatedVarint(base, &types.at) : 0
            return HeapEvent(seq: seq, kind: .allocation, address: address, size: size, stack: UInt32(truncatingIfNeeded: stack),
                             typeMetadata: type, thread: thread)
        }
    }

    /// Reads a record's events header and checks every event once, so that replaying it
    /// later cannot fail. `columns`: a version-5 record. A column record is first read by
    /// `acceptColumns`; only when that refuses it does the checked decoder run, to name the
    /// problem (`checkedOnly`: always, so tests can hold the two to the same verdicts).
    static func validate(_ payload: inout ByteCursor, columns: Bool, checkedOnly: Bool = false) throws(DecodeError) -> EventRecord {
        let thread = try payload.read(UInt32.self, endian: .little)
        _ = try payload.read(UInt32.self, endian: .little)
        let baseSeq = try payload.read(UInt64.self, endian: .little)
        var bounds: [Int]? = nil
        if columns {
            // DKH_EVENT_COLUMNS - 1 lengths; the last column takes the rest of the payload.
            var lengths: [Int] = []
            for _ in 1..<DKH_EVENT_COLUMNS {
                let length = try payload.readULEB128()
                guard length <= UInt64(payload.remaining) else {
                    throw payload.error("column \(lengths.count) announces \(length) bytes, more than the record holds")
                }
                lengths.append(Int(length))
            }
            let total = lengths.reduce(0, +)
            guard total <= payload.remaining else {
                throw payload.error("columns announce \(total) bytes, more than the record's \(payload.remaining)")
            }
            var columnBounds = [payload.offset]
            for length in lengths { columnBounds.append(columnBounds[columnBounds.count - 1] + length) }
            columnBounds.append(payload.offset + payload.remaining)
            bounds = columnBounds
        }
        let start = payload.offset
        let bytes = try payload.readBytes(payload.remaining)
        if !checkedOnly, let bounds, let (count, lastSeq) = acceptColumns(bytes, bounds: bounds.map { $0 - start }, baseSeq: baseSeq) {
            return EventRecord(thread: thread, baseSeq: baseSeq, lastSeq: lastSeq, events: start..<payload.offset, count: count,
                               columns: EventColumns(bounds: bounds))
        }
        var decoder = bounds.map {
            EventDecoder(bytes, baseOffset: start, thread: thread, baseSeq: baseSeq, columnBounds: $0.map { $0 - start })
        } ?? EventDecoder(bytes, baseOffset: start, thread: thread, baseSeq: baseSeq)
        var count = 0
        var previous = baseSeq
        while let event = try decoder.next() {
            // Invariant: a thread writes its events in the order it made them.
            guard event.seq >= previous else { throw decoder.error("event sequence numbers go backwards") }
            previous = event.seq
            // Allocations and frees: what `HeapRecording.eventCount` counts.
            if event.kind != .shortLived { count += 1 }
        }
        if let bounds {
            // Invariant: every column is read to its end (its length is exactly its fields').
            for (column, at) in decoder.columnPositions.enumerated() where at != bounds[column + 1] - start {
                throw decoder.error("column \(column) has \(bounds[column + 1] - start - at) bytes no event uses", at: at)
            }
        }
        return EventRecord(thread: thread, baseSeq: baseSeq, lastSeq: previous, events: start..<payload.offset, count: count,
                           columns: bounds.map { EventColumns(bounds: $0) })
    }

    /// The event count (allocations and frees) and last seq of a version-5 record whose every
    /// event is well formed, with the checks of `nextInColumns` and `validate`; nil when any
    /// fails, and then the checked decoder runs to say which and where.
    ///
    /// Column by column, not event by event: the record decodes if and only if its tags are
    /// all known, each column holds exactly as many well-formed numbers as the events with its
    /// field (`ColumnScan`), the seqs do not wrap and no stack id or block count leaves 32
    /// bits. Only the seq, stack and short-lived block columns are decoded, for the last two
    /// conditions; the others are counted eight bytes at a time (71 instructions an event in
    /// one loop over the events, 23 this way on cross-thread).
    private static func acceptColumns(_ bytes: UnsafeRawBufferPointer, bounds: [Int], baseSeq: UInt64) -> (Int, UInt64)? {
        guard bounds.count == Int(DKH_EVENT_COLUMNS) + 1 else { return nil }
        guard let raw = bytes.baseAddress else { return bounds[Int(DKH_EVENT_COLUMNS)] == 0 ? (0, baseSeq) : nil }
        let base = raw.assumingMemoryBound(to: UInt8.self)
        func start(_ c: dkh_event_column) -> Int { bounds[Int(c.rawValue)] }
        func end(_ c: dkh_event_column) -> Int { bounds[Int(c.rawValue) + 1] }
        /// Column `c` holds exactly `expected` well-formed numbers.
        func holds(_ c: dkh_event_column, _ expected: Int) -> Bool {
            ColumnScan.varintCount(base, from: start(c), to: end(c)) == expected
        }
        let tags = ColumnScan.tagCounts(base, from: start(DKH_COLUMN_TAG), to: end(DKH_COLUMN_TAG))
        let allocations = tags.alloc &+ tags.allocTyped
        guard tags.other == 0,
              holds(DKH_COLUMN_SEQ, tags.alloc &+ tags.free &+ tags.allocTyped &+ tags.shortLived),
              holds(DKH_COLUMN_ALLOC_ADDRESS, allocations), holds(DKH_COLUMN_FREE_ADDRESS, tags.free),
              holds(DKH_COLUMN_SIZE, allocations), holds(DKH_COLUMN_STACK, allocations), holds(DKH_COLUMN_TYPE, tags.allocTyped),
              holds(DKH_COLUMN_SHORT_BYTES, tags.shortLived), holds(DKH_COLUMN_SHORT_BLOCKS, tags.shortLived)
        else { return nil }
        // Every column now ends with a number's last byte: the unchecked reader stays inside.
        var seq = baseSeq
        var at = start(DKH_COLUMN_SEQ)
        let seqEnd = end(DKH_COLUMN_SEQ)
        while at < seqEnd {
            let (next, overflow) = seq.addingReportingOverflow(validatedVarint(base, &at))
            // Invariant (as `validate`): sequence numbers never go backwards, so never wrap.
            guard !overflow else { return nil }
            seq = next
        }
        var stack: UInt64 = 0
        at = start(DKH_COLUMN_STACK)
        let stackEnd = end(DKH_COLUMN_STACK)
        while at < stackEnd {
            stack &+= unzigzag(validatedVarint(base, &at))
            // Invariant: stack ids are 32-bit.
            guard stack <= UInt32.max else { return nil }
        }
        at = start(DKH_COLUMN_SHORT_BLOCKS)
        let blocksEnd = end(DKH_COLUMN_SHORT_BLOCKS)
        while at < blocksEnd {
            // Invariant: block counts are 32-bit, like stack ids.
            guard validatedVarint(base, &at) <= UInt32.max else { return nil }
        }
        return (allocations &+ tags.free, seq)
    }

    /// Each column's read position, in column order (validation checks they reached the ends).
    private var columnPositions: [Int] {
        [tags.at, seqs.at, allocAddresses.at, freeAddresses.at, sizes.at, stacks.at, types.at, shortBytes.at, shortBlocks.at]
    }
}
