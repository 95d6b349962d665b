import DevKitTestSupport
import HeapAnalysis
import Testing

/// Format version 5: EVENTS and PAIRS records in columns. The same events and pairs written as
/// version-4 rows and as version-5 columns read the same; a cut file reads up to its last whole
/// record; damaged columns stop reading at their record with a one-line warning, never a trap.
struct EventColumnsTests {
    enum Event {
        case alloc(seq: UInt64, address: UInt64, size: UInt64, stack: UInt32, type: UInt64)
        case free(seq: UInt64, address: UInt64)
        case shortLived(seq: UInt64, bytes: UInt64, blocks: UInt64)
    }

    struct Pair {
        var stack: UInt32, size: UInt64, count: UInt64, type: UInt64
    }

    static func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] { RecordingReaderTests.le(value) }
    static func uleb(_ value: UInt64) -> [UInt8] { HeapPeakTests.uleb(value) }
    static func zigzag(_ delta: UInt64) -> [UInt8] {
        let d = Int64(bitPattern: delta)
        return uleb(UInt64(bitPattern: (d << 1) ^ (d >> 63)))
    }

    /// Version 1–4 rows: each event's tag, seq delta, address delta, then its other fields.
    static func rows(thread: UInt32, base: UInt64, _ events: [Event]) -> [UInt8] {
        var out = le(thread) + le(UInt32(0)) + le(base)
        var seq = base, address: UInt64 = 0
        for event in events {
            switch event {
            case let .alloc(s, a, size, stack, type):
                out += [type == 0 ? 1 : 3] + uleb(s - seq) + zigzag(a &- address) + uleb(size) + uleb(UInt64(stack))
                if type != 0 { out += uleb(type) }
                (seq, address) = (s, a)
            case let .free(s, a):
                out += [2] + uleb(s - seq) + zigzag(a &- address)
                (seq, address) = (s, a)
            case let .shortLived(s, bytes, blocks):
                out += [4] + uleb(s - seq) + zigzag(0) + uleb(bytes) + uleb(blocks)
                seq = s
            }
        }
        return out
    }

    /// Version 5 columns (FORMAT.md, "Events"), written independently of the recorder's C.
    static func columns(thread: UInt32, base: UInt64, _ events: [Event]) -> [UInt8] {
        var column = [[UInt8]](repeating: [], count: 9)
        var seq = base, allocAddress: UInt64 = 0, freeAddress: UInt64 = 0, stack: UInt64 = 0, shortBytes: UInt64 = 0
        for event in events {
            switch event {
            case let .alloc(s, a, size, st, type):
                column[0] += [type == 0 ? 1 : 3]
                column[1] += uleb(s - seq)
                column[2] += zigzag(a &- allocAddress)
                column[4] += uleb(size)
                column[5] += zigzag(UInt64(st) &- stack)
                if type != 0 { column[6] += uleb(type) }
                (seq, allocAddress, stack) = (s, a, UInt64(st))
            case let .free(s, a):
                column[0] += [2]
                column[1] += uleb(s - seq)
                column[3] += zigzag(a &- freeAddress)
                (seq, freeAddress) = (s, a)
            case let .shortLived(s, bytes, blocks):
                column[0] += [4]
                column[1] += uleb(s - seq)
                column[7] += zigzag(bytes &- shortBytes)
                column[8] += uleb(blocks)
                (seq, shortBytes) = (s, bytes)
            }
        }
        return le(thread) + le(UInt32(0)) + le(base) + column[..<8].flatMap { uleb(UInt64($0.count)) } + column.flatMap { $0 }
    }

    static func pairRows(thread: UInt32, seq: UInt64, _ pairs: [Pair]) -> [UInt8] {
        le(thread) + le(UInt32(0)) + le(seq)
            + pairs.flatMap { uleb(UInt64($0.stack)) + uleb($0.size) + uleb($0.count) + uleb($0.type) }
    }

    static func pairColumns(thread: UInt32, seq: UInt64, _ pairs: [Pair]) -> [UInt8] {
        var column = [[UInt8]](repeating: [], count: 4)
        var stack: UInt64 = 0, type: UInt64 = 0
        for pair in pairs {
            column[0] += zigzag(UInt64(pair.stack) &- stack)
            column[1] += uleb(pair.size)
            column[2] += uleb(pair.count)
            column[3] += zigzag(pair.type &- type)
            (stack, type) = (UInt64(pair.stack), pair.type)
        }
        return le(thread) + le(UInt32(0)) + le(seq) + uleb(UInt64(pairs.count)) + column[..<3].flatMap { uleb(UInt64($0.count)) }
            + column.flatMap { $0 }
    }

    /// Two threads' seeded events (allocations plain and typed, frees of either thread's
    /// blocks, short-lived levels), in records of at most 40 events, and their pairs.
    static func recording(version: UInt32, seed: UInt64, events: UInt64 = 600) -> [UInt8] {
        var random = SplitMix64(seed: seed)
        var threads: [[Event]] = [[], []]
        var live: [UInt64] = []
        var pairs: [[Pair]] = [[], []]
        for seq in UInt64(1)...events {
            let thread = Int(random.next() % 2)
            switch random.next() % 7 {
            case 0, 1, 2:
                let address = 0x7f00_0000_0000 + (random.next() % 4096) * 16
                let type: UInt64 = random.next() % 3 == 0 ? 0x5555_0000_1000 + random.next() % 8 * 64 : 0
                threads[thread].append(.alloc(seq: seq, address: address, size: 1 + random.next() % 5000,
                                              stack: UInt32(random.next() % 40), type: type))
                live.append(address)
            case 3...4 where !live.isEmpty:
                let address = live.remove(at: Int(random.next() % UInt64(live.count)))
                threads[thread].append(.free(seq: seq, address: address))
            case 5:
                threads[thread].append(.shortLived(seq: seq, bytes: random.next() % 100_000, blocks: random.next() % 20))
            default:
                pairs[thread].append(Pair(stack: UInt32(random.next() % 40), size: random.next() % 300,
                                          count: 1 + random.next() % 1000, type: random.next() % 2 == 0 ? 0 : 0x5555_0000_2000))
            }
        }
        var records: [(type: UInt32, payload: [UInt8])] = [(6, le(UInt64(0)) + le(UInt32(0)) + Array("start".utf8))]
        for (thread, events) in threads.enumerated() {
            var start = 0
            while start < events.count {
                let chunk = Array(events[start..<min(start + 40, events.count)])
                let base: UInt64 = switch chunk[0] {
                case let .alloc(seq, _, _, _, _), let .free(seq, _), let .shortLived(seq, _, _): seq
                }
                let tid = UInt32(100 + thread)
                records.append((5, version >= 5 ? columns(thread: tid, base: base, chunk) : rows(thread: tid, base: base, chunk)))
                start += 40
            }
            let sorted = pairs[thread].sorted { ($0.stack, $0.size, $0.type) < ($1.stack, $1.size, $1.type) }
            let tid = UInt32(100 + thread)
            records.append((10, version >= 5 ? pairColumns(thread: tid, seq: 1, sorted) : pairRows(thread: tid, seq: 1, sorted)))
        }
        records.append((7, le(events + 1) + le(UInt32(1)) + le(Int32(0))))
        return RecordingReaderTests.handMade(version: version, records: records)
    }

    /// What the reader makes of a recording's events and pairs.
    static func contents(_ recording: HeapRecording) -> [String] {
        var lines: [String] = []
        recording.forEachEvent { event in
            lines.append("\(event.seq) \(event.kind) \(event.thread) \(event.address) \(event.size) \(event.stack) \(event.typeMetadata)")
        }
        let timeline = HeapTimeline(recording)
        lines.append("peak \(timeline.peak.bytes) \(timeline.peak.blocks) \(timeline.peak.seq)")
        lines += timeline.shortLived.map { "short \($0)" }
        lines += recording.cancelledPairs.map { "pairs \($0.thread) \($0.stack) \($0.size) \($0.count) \($0.typeMetadata)" }
        return lines
    }

    @Test(arguments: [1, 2, 3])
    func columnsReadAsRows(seed: UInt64) throws {
        let rows = try RecordingReader.read(Self.recording(version: 4, seed: seed), path: "rows")
        let columns = try RecordingReader.read(Self.recording(version: 5, seed: seed), path: "columns")
        #expect(rows.warnings.isEmpty && columns.warnings.isEmpty)
        #expect(columns.eventCount == rows.eventCount && rows.eventCount > 300)
        #expect(Self.contents(columns) == Self.contents(rows))
    }

    /// Every prefix reads up to its last whole record (never more events than the whole file),
    /// with a warning at the cut record's offset; under 40 bytes it is a header error.
    @Test func everyPrefixOfAColumnRecording() throws {
        let bytes = Self.recording(version: 5, seed: 4)
        let full = try RecordingReader.read(bytes, path: "full")
        var previous = 0
        for length in 0..<bytes.count {
            do {
                let partial = try RecordingReader.read(Array(bytes[..<length]), path: "cut")
                #expect(partial.eventCount >= previous && partial.eventCount <= full.eventCount)
                previous = partial.eventCount
                #expect(partial.warnings.count == 1)
                _ = HeapTimeline(partial)
            } catch {
                #expect(length < 40, "prefix of \(length) bytes: \(error)")
            }
        }
        #expect(previous <= full.eventCount)
    }

    /// A damaged column (lengths that overrun the record, a column with bytes no event uses, a
    /// varint running past its column, an unknown tag) stops reading at that record with a
    /// one-line warning naming its offset; the records before it are kept.
    @Test func damagedColumnsAreOneLineWarnings() throws {
        let mark: (UInt32, [UInt8]) = (6, Self.le(UInt64(0)) + Self.le(UInt32(0)) + Array("start".utf8))
        let good = Self.columns(thread: 1, base: 1, [.alloc(seq: 1, address: 0x1000, size: 32, stack: 0, type: 0)])
        let events: [Event] = [.alloc(seq: 2, address: 0x2000, size: 300, stack: 0, type: 0), .free(seq: 3, address: 0x2000)]
        let payload = Self.columns(thread: 1, base: 2, events)
        // The header (16 bytes), 8 column lengths of one byte each, then the columns.
        var overrun = payload
        overrun[16 + 4] = 0x7f  // the size column claims 127 bytes
        var extra = payload
        extra[16 + 0] += 1  // the tag column takes the seq column's first byte: columns misaligned
        var unknownTag = payload
        unknownTag[16 + 8] = 9
        var cutVarint = payload
        cutVarint[16 + 8 + 2 + 2 + 2] |= 0x80  // the allocation address (3 bytes) runs into the free column
        for (name, damaged) in [("overrun", overrun), ("extra", extra), ("tag", unknownTag), ("varint", cutVarint)] {
            let bytes = RecordingReaderTests.handMade(version: 5, records: [mark, (5, good), (5, damaged)])
            let recording = try RecordingReader.read(bytes, path: name)
            #expect(recording.eventCount == 1, "\(name)")
            #expect(recording.warnings.count == 1, "\(name)")
            let warning = try #require(recording.warnings.first)
            #expect(warning.message.hasPrefix("malformed record at offset 0x"), "\(name): \(warning.message)")
            #expect(!warning.message.contains("\n"))
            #expect(warning.offset > 40 + 8 + 17 + 8 + good.count, "\(name)")
        }
        // The same payload undamaged reads both records.
        let fine = try RecordingReader.read(RecordingReaderTests.handMade(version: 5, records: [mark, (5, good), (5, payload)]), path: "fine")
        #expect(fine.eventCount == 3 && fine.warnings.count == 1)  // no end record
    }

    /// Damaged pair columns: a count larger than the columns hold, bytes left over.
    @Test func damagedPairColumns() throws {
        let mark: (UInt32, [UInt8]) = (6, Self.le(UInt64(0)) + Self.le(UInt32(0)) + Array("start".utf8))
        let pairs = [Pair(stack: 3, size: 48, count: 7, type: 0), Pair(stack: 5, size: 16, count: 2, type: 0x1000)]
        let payload = Self.pairColumns(thread: 1, seq: 1, pairs)
        let read = try RecordingReader.read(RecordingReaderTests.handMade(version: 5, records: [mark, (10, payload)]), path: "pairs")
        #expect(read.cancelledPairs.map { "\($0.stack) \($0.size) \($0.count) \($0.typeMetadata)" } == ["3 48 7 0", "5 16 2 4096"])
        var moreEntries = payload
        moreEntries[16] = 3
        var leftOver = payload
        leftOver[16] = 1
        for damaged in [moreEntries, leftOver] {
            let recording = try RecordingReader.read(RecordingReaderTests.handMade(version: 5, records: [mark, (10, damaged)]), path: "p")
            #expect(recording.cancelledPairs.isEmpty)
            #expect(recording.warnings.first?.message.hasPrefix("malformed record at offset 0x") == true)
        }
    }

    /// Every byte of a column recording set to a few values: reads or stops with warnings, never traps.
    @Test func mutatedBytesNeverCrash() throws {
        let bytes = Self.recording(version: 5, seed: 5, events: 120)
        for index in 40..<bytes.count {
            for value: UInt8 in [0, 0x7f, 0x80, 0xff] {
                var copy = bytes
                copy[index] = value
                if let recording = try? RecordingReader.read(copy, path: "fuzz") {
                    _ = HeapTimeline(recording)
                    #expect(recording.warnings.allSatisfy { !$0.message.contains("\n") })
                }
            }
        }
    }
}
