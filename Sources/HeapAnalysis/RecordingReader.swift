import BinaryReading
import HeapRecordFormat
import System

/// Reads a recording (format in Sources/HeapRecordFormat/FORMAT.md) through `ByteCursor`.
///
/// Everything after the header is length-prefixed records, so a file cut anywhere (a crash,
/// a full disk, a copy in progress) reads up to its last complete record, with a warning
/// naming the offset where it stops. Version 4's compressed records are expanded first
/// (`CompressedRecords`); a damaged one is an error at its offset. A malformed record also stops reading there, with a
/// warning: what came before is kept.
public enum RecordingReader {
    /// Reads a recording held in memory (tests, fuzzing): the bytes are copied once.
    public static func read(_ bytes: [UInt8], path: String,
                            progress: ((_ bytesRead: Int, _ totalBytes: Int) -> Void)? = nil) throws(RecordingError) -> HeapRecording {
        try read(MappedFile(copying: bytes, path: path), path: path, progress: progress)
    }

    /// Reads a recording from `file`, which the recording keeps (its events are decoded from
    /// the file's bytes when replayed).
    public static func read(_ file: MappedFile, path: String,
                            progress: ((_ bytesRead: Int, _ totalBytes: Int) -> Void)? = nil) throws(RecordingError) -> HeapRecording {
        try read(file, path: path, progress: progress, validatingAheadFrom: Processors.online > 1 ? eventsValidatedAhead : .max)
    }

    /// `validatingAheadFrom`: the events bytes from which `validateEventsAhead` runs (tests
    /// give 0, or `.max` for the record loop alone).
    static func read(_ file: MappedFile, path: String, progress: ((_ bytesRead: Int, _ totalBytes: Int) -> Void)? = nil,
                     validatingAheadFrom minimum: Int) throws(RecordingError) -> HeapRecording {
        var cursor = ByteCursor(file.bytes, section: "recording")
        do throws(DecodeError) { return try read(&cursor, path: path, storage: file, progress: progress, validatingAheadFrom: minimum) } catch {
            throw RecordingError(path: path, offset: error.offset, message: "\(error.section): \(error.reason)")
        }
    }

    /// The recording with its compressed records expanded (version 4; older versions are
    /// returned as they are): the header, then every record plainly, in file order, up to the
    /// last complete one. For tools and tests that look at records one by one.
    public static func plainRecords(_ bytes: [UInt8], path: String) throws(RecordingError) -> [UInt8] {
        let file = MappedFile(copying: bytes, path: path)
        var cursor = ByteCursor(file.bytes, section: "recording")
        do throws(DecodeError) {
            let header = try readHeader(&cursor)
            guard header.version >= 4 else { return bytes }
            let expanded = try CompressedRecords.expand(file.bytes, headerSize: cursor.offset).expanded
            // The buffer belongs to `expanded`: kept alive until copied.
            return withExtendedLifetime(expanded) { Array(expanded.bytes) }
        } catch {
            throw RecordingError(path: path, offset: error.offset, message: "\(error.section): \(error.reason)")
        }
    }

    private static func read(_ fileCursor: inout ByteCursor, path: String, storage file: MappedFile,
                             progress: ((Int, Int) -> Void)?, validatingAheadFrom minimum: Int) throws(DecodeError) -> HeapRecording {
        let header = try readHeader(&fileCursor)
        // Version 4: COMPRESSED records are expanded first (header and plain records copied),
        // and the records read from that; offsets in warnings are taken back to the file's.
        var compressed: CompressedRecords?
        var storage = file
        var cursor = fileCursor
        if header.version >= 4 {
            let records = try CompressedRecords.expand(file.bytes, headerSize: fileCursor.offset)
            compressed = records
            storage = records.expanded
            cursor = ByteCursor(storage.bytes, section: "recording")
            try cursor.skip(fileCursor.offset)
        }
        var recording = HeapRecording(path: path, header: header, storage: storage)
        if let compressed { recording.warnings = compressed.warnings }
        let ahead = validateEventsAhead(storage.bytes, from: cursor.offset, columns: header.version >= 5, minimumBytes: minimum)
        var nextAhead = 0
        var nextProgress = 0
        while cursor.remaining > 0 {
            let recordOffset = cursor.offset
            if let progress, recordOffset >= nextProgress {
                progress(recordOffset, storage.bytes.count)
                nextProgress = recordOffset + (1 << 20)
            }
            // Invariant: a record is an 8-byte header and `length` payload bytes, all present.
            guard cursor.remaining >= DKH_RECORD_HEADER_SIZE else {
                recording.warnings.append(RecordingWarning(
                    offset: recordOffset,
                    message: "recording ends inside a record header (\(cursor.remaining) of 8 bytes); read up to here"))
                break
            }
            let type = try cursor.read(UInt32.self, endian: .little)
            let length = Int(try cursor.read(UInt32.self, endian: .little))
            guard length <= Int(DKH_MAX_RECORD_LENGTH) else {
                recording.warnings.append(RecordingWarning(
                    offset: recordOffset,
                    message: "record length \(length) exceeds the format's limit; stopped reading here"))
                break
            }
            guard length <= cursor.remaining else {
                recording.warnings.append(RecordingWarning(
                    offset: recordOffset,
                    message: "last record (type \(type)) is cut short: \(length) bytes announced, \(cursor.remaining) present; read up to here"))
                break
            }
            var payload = try cursor.subCursor(count: length, section: "record type \(type)")
            if nextAhead < ahead.count, ahead[nextAhead].offset == recordOffset {
                let record = ahead[nextAhead].record
                nextAhead += 1
                // Refused ahead: validated again below, to say why and where.
                if let record {
                    recording.eventRecords.append(record)
                    recording.eventCount += record.count
                    continue
                }
            }
            do {
                try readRecord(type: type, &payload, into: &recording)
            } catch {
                recording.warnings.append(RecordingWarning(
                    offset: error.offset, message: "malformed record at offset 0x\(String(recordOffset, radix: 16)): \(error.reason); stopped reading here"))
                break
            }
        }
        recording.marks.sort { $0.seq < $1.seq }
        recording.clock.sortBySeq()
        // A complete file without an end record: the program was killed (SIGKILL, or a
        // crash the recorder could not catch) before it could flush its threads' buffers,
        // so the last generation lacks their events (issue 15, section 6).
        if recording.end == nil, recording.warnings.isEmpty {
            recording.warnings.append(RecordingWarning(
                offset: cursor.offset,
                message: "no end record: the program was killed before the recorder finished; the last generation may miss the events still buffered in it"))
        }
        if let compressed {
            // The expansion's own warnings are at file offsets already; the end of the
            // expanded records is the end of the file.
            for index in compressed.warnings.count..<recording.warnings.count {
                let expandedOffset = recording.warnings[index].offset
                guard expandedOffset < storage.bytes.count else {
                    recording.warnings[index].offset = file.bytes.count
                    continue
                }
                let (offset, inCompressed) = compressed.fileOffset(ofExpanded: expandedOffset)
                if inCompressed {
                    recording.warnings[index].message += " (in the compressed record at this offset: byte \(expandedOffset) of the decompressed recording)"
                }
                recording.warnings[index].offset = offset
            }
        }
        return recording
    }

    /// Events bytes from which `read` validates ahead on two threads (with two processors):
    /// below, the threads cost more than they save.
    static let eventsValidatedAhead = 1 << 18

    /// The events records from `start` on, validated ahead of the record loop on up to two
    /// threads (validation was a fifth of cross-thread's `heapdiff`), in file order: each
    /// record's offset and what `EventDecoder.validate` made of it, nil where it refused. The
    /// framing is scanned as the loop reads it, up to the first record that ends the loop;
    /// the loop still decides everything else (a refused record is validated again there, for
    /// its error, and ends reading; records after it are never used). Empty below
    /// `minimumBytes` bytes of events.
    static func validateEventsAhead(_ bytes: UnsafeRawBufferPointer, from start: Int, columns: Bool,
                                    minimumBytes: Int) -> [(offset: Int, record: EventRecord?)] {
        guard minimumBytes < Int.max else { return [] }
        var records: [(offset: Int, payload: Range<Int>)] = []
        var eventBytes = 0
        var at = start
        let header = Int(DKH_RECORD_HEADER_SIZE)
        while bytes.count - at >= header {
            let type = bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndian
            let length = Int(bytes.loadUnaligned(fromByteOffset: at + 4, as: UInt32.self).littleEndian)
            guard length <= Int(DKH_MAX_RECORD_LENGTH), length <= bytes.count - at - header else { break }
            if type == DKH_RECORD_EVENTS.rawValue {
                records.append((at, at + header..<at + header + length))
                eventBytes += length
            }
            at += header + length
        }
        guard eventBytes >= minimumBytes else { return [] }
        // Read only while the loop waits for the results.
        nonisolated(unsafe) let bytes = bytes
        let validated = ParallelMap.map(records, jobs: 2) { record -> EventRecord? in
            var payload = ByteCursor(UnsafeRawBufferPointer(rebasing: bytes[record.payload]), section: "record type \(DKH_RECORD_EVENTS.rawValue)",
                                     baseOffset: record.payload.lowerBound)
            return try? EventDecoder.validate(&payload, columns: columns)
        }
        return zip(records, validated).map { ($0.offset, $1) }
    }

    private static func readHeader(_ cursor: inout ByteCursor) throws(DecodeError) -> HeapRecording.Header {
        var header = try cursor.subCursor(count: min(cursor.remaining, Int(DKH_HEADER_SIZE)), section: "file header")
        guard header.count >= DKH_MAGIC_SIZE,
              Array(try header.readBytes(Int(DKH_MAGIC_SIZE))) == Array(DKH_MAGIC.utf8)
        else {
            throw header.error("not a devkit heap recording (no DKITHEAP magic)", at: 0)
        }
        let version = try header.read(UInt32.self, endian: .little)
        // Invariant: this reader reads versions DKH_FORMAT_VERSION_MIN through DKH_FORMAT_VERSION
        // (version 2 only adds PAIRS records, which version 1 files simply lack; version 3 adds
        // a type to each PAIRS entry; version 4 COMPRESSED records, expanded before reading).
        guard version >= DKH_FORMAT_VERSION_MIN, version <= DKH_FORMAT_VERSION else {
            throw header.error("format version \(version) is not supported (this devkit reads versions \(DKH_FORMAT_VERSION_MIN) to \(DKH_FORMAT_VERSION))", at: 8)
        }
        let headerSize = Int(try header.read(UInt32.self, endian: .little))
        let pid = try header.read(UInt32.self, endian: .little)
        let parentPID = try header.read(UInt32.self, endian: .little)
        let start = try header.read(UInt64.self, endian: .little)
        let pointerSize = try header.read(UInt32.self, endian: .little)
        let flags = try header.read(UInt32.self, endian: .little)
        guard pointerSize == 8 else { throw header.error("pointer size \(pointerSize) is not supported", at: 32) }
        // Invariant: later versions may grow the header; it is never smaller than version 1's.
        guard headerSize >= Int(DKH_HEADER_SIZE) else {
            throw header.error("header size \(headerSize) is smaller than \(DKH_HEADER_SIZE)", at: 12)
        }
        try cursor.skip(headerSize - Int(DKH_HEADER_SIZE))
        return HeapRecording.Header(version: version, pid: pid, parentPID: parentPID, startTimeNanoseconds: start,
                                    attached: flags & DKH_HEADER_ATTACHED.rawValue != 0)
    }

    /// A version-5 PAIRS record's entries (after its thread and seq): an entry count, the byte
    /// lengths of the stack, size and count columns, then the columns, the type column to the
    /// end; stacks and types are zigzag deltas to the previous entry's.
    private static func readPairColumns(
        _ payload: inout ByteCursor,
        _ append: (_ stack: UInt64, _ size: UInt64, _ count: UInt64, _ type: UInt64, ByteCursor) throws(DecodeError) -> Void
    ) throws(DecodeError) {
        let entries = try payload.readULEB128()
        var columns: [ByteCursor] = []
        var lengths: [Int] = []
        for _ in 0..<3 {
            let length = try payload.readULEB128()
            guard length <= UInt64(payload.remaining) else {
                throw payload.error("pair column announces \(length) bytes, more than the record holds")
            }
            lengths.append(Int(length))
        }
        // Invariant: every entry takes at least one byte in each of the four columns.
        guard lengths.reduce(0, +) <= payload.remaining, entries <= UInt64(lengths.min() ?? 0) else {
            throw payload.error("pair columns announce more than the record holds")
        }
        for (index, length) in lengths.enumerated() {
            columns.append(try payload.subCursor(count: length, section: "record type \(DKH_RECORD_PAIRS.rawValue) column \(index)"))
        }
        columns.append(try payload.subCursor(count: payload.remaining, section: "record type \(DKH_RECORD_PAIRS.rawValue) column 3"))
        var stack: UInt64 = 0, type: UInt64 = 0
        for _ in 0..<entries {
            stack &+= EventDecoder.unzigzag(try columns[0].readULEB128())
            let size = try columns[1].readULEB128()
            let count = try columns[2].readULEB128()
            type &+= EventDecoder.unzigzag(try columns[3].readULEB128())
            try append(stack, size, count, type, columns[2])
        }
        // Invariant: the columns hold exactly `entries` entries.
        for column in columns where column.remaining > 0 {
            throw column.error("\(column.remaining) bytes after the record's \(entries) pair entries")
        }
    }

    private static func readRecord(
        type: UInt32, _ payload: inout ByteCursor, into recording: inout HeapRecording
    ) throws(DecodeError) {
        switch type {
        case DKH_RECORD_EVENTS.rawValue:
            let record = try EventDecoder.validate(&payload, columns: recording.header.version >= 5)
            recording.eventRecords.append(record)
            recording.eventCount += record.count
        case DKH_RECORD_PAIRS.rawValue:
            let thread = try payload.read(UInt32.self, endian: .little)
            _ = try payload.read(UInt32.self, endian: .little)
            let seq = try payload.read(UInt64.self, endian: .little)
            // Decoded into a local array first: a malformed entry drops the whole record, so
            // totals never count half of one.
            var pairs: [CancelledPairs] = []
            func append(stack: UInt64, size: UInt64, count: UInt64, type: UInt64, _ cursor: ByteCursor) throws(DecodeError) {
                // Invariant: stack ids are 32-bit; count × size fits 64 bits (bytes are exact).
                guard stack <= UInt32.max else { throw cursor.error("stack id \(stack) is out of range") }
                guard count > 0, count <= UInt64(Int32.max), !size.multipliedReportingOverflow(by: count).overflow else {
                    throw cursor.error("pair count \(count) of size \(size) is out of range")
                }
                pairs.append(CancelledPairs(seq: seq, thread: thread, stack: UInt32(stack), size: size, count: Int(count),
                                            typeMetadata: type))
            }
            if recording.header.version >= 5 {
                try readPairColumns(&payload, append)
            } else {
                while payload.remaining > 0 {
                    let stack = try payload.readULEB128()
                    let size = try payload.readULEB128()
                    let count = try payload.readULEB128()
                    // Version 2 entries have no type: their Swift instances show as malloc blocks.
                    let type = recording.header.version >= 3 ? try payload.readULEB128() : 0
                    try append(stack: stack, size: size, count: count, type: type, payload)
                }
            }
            recording.cancelledPairs.append(contentsOf: pairs)
            recording.cancelledPairCount += pairs.reduce(0) { $0 + $1.count }
        case DKH_RECORD_CLOCK.rawValue:
            let seq = try payload.read(UInt64.self, endian: .little)
            let nanoseconds = try payload.read(UInt64.self, endian: .little)
            recording.clock.append(.init(seq: seq, nanoseconds: nanoseconds))
        case DKH_RECORD_STACK.rawValue:
            let id = try payload.read(UInt32.self, endian: .little)
            let depth = Int(try payload.read(UInt32.self, endian: .little))
            // Invariant: the frame count matches the payload (8 bytes a frame).
            guard depth == payload.remaining / 8, payload.remaining % 8 == 0 else {
                throw payload.error("stack \(id) announces \(depth) frames but has \(payload.remaining) bytes")
            }
            var frames: [UInt64] = []
            frames.reserveCapacity(depth)
            for _ in 0..<depth { frames.append(try payload.read(UInt64.self, endian: .little)) }
            recording.stacks.insert(id: id, frames: frames)
        case DKH_RECORD_MODULE.rawValue:
            recording.modules.append(try readModule(&payload))
        case DKH_RECORD_MODULE_UNLOAD.rawValue:
            let seq = try payload.read(UInt64.self, endian: .little)
            let id = try payload.read(UInt32.self, endian: .little)
            if let index = recording.modules.lastIndex(where: { $0.id == id && $0.unloadedAt == .max }) {
                recording.modules[index].unloadedAt = seq
            }
        case DKH_RECORD_MARK.rawValue:
            let seq = try payload.read(UInt64.self, endian: .little)
            let kind = try payload.read(UInt32.self, endian: .little)
            let label = String(decoding: try payload.readBytes(payload.remaining), as: UTF8.self)
            recording.marks.append(GenerationMark(seq: seq, kind: markKind(kind), label: label))
        case DKH_RECORD_END.rawValue:
            let seq = try payload.read(UInt64.self, endian: .little)
            let reason = try payload.read(UInt32.self, endian: .little)
            let status = try payload.read(Int32.self, endian: .little)
            recording.end = RecordingEnd(seq: seq, reason: endReason(reason, status: status))
        case DKH_RECORD_UNREACHABLE.rawValue:
            let seq = try payload.read(UInt64.self, endian: .little)
            // Invariant: whole 8-byte addresses follow the seq.
            guard payload.remaining % 8 == 0 else {
                throw payload.error("unreachable-blocks record has \(payload.remaining) bytes of addresses, not a multiple of 8")
            }
            var addresses: [UInt64] = []
            addresses.reserveCapacity(payload.remaining / 8)
            while payload.remaining > 0 { addresses.append(try payload.read(UInt64.self, endian: .little)) }
            recording.pendingUnreachable[seq, default: []].append(contentsOf: addresses)
        case DKH_RECORD_LEAK_KIND.rawValue:
            let seq = try payload.read(UInt64.self, endian: .little)
            let kind = try payload.read(UInt32.self, endian: .little)
            _ = try payload.read(UInt32.self, endian: .little)  // reserved
            // Invariant: whole 8-byte addresses follow the header.
            guard payload.remaining % 8 == 0 else {
                throw payload.error("leak-kind record has \(payload.remaining) bytes of addresses, not a multiple of 8")
            }
            // Invariant: only the kinds the format defines (a later kind would need a new reader).
            guard kind == DKH_LEAK_INDIRECTLY_LOST.rawValue || kind == DKH_LEAK_POSSIBLY_LOST.rawValue else {
                throw payload.error("leak-kind record of unknown kind \(kind)")
            }
            var addresses: [UInt64] = []
            addresses.reserveCapacity(payload.remaining / 8)
            while payload.remaining > 0 { addresses.append(try payload.read(UInt64.self, endian: .little)) }
            recording.pendingLeakKinds[LeakKindRecordKey(seq: seq, kind: kind), default: []].append(contentsOf: addresses)
        case DKH_RECORD_SCAN.rawValue:
            let seq = try payload.read(UInt64.self, endian: .little)
            let flags = try payload.read(UInt32.self, endian: .little)
            let threads = try payload.read(UInt32.self, endian: .little)
            let live = try payload.read(UInt64.self, endian: .little)
            let count = try payload.read(UInt64.self, endian: .little)
            let bytes = try payload.read(UInt64.self, endian: .little)
            let read = try payload.read(UInt64.self, endian: .little)
            let duration = try payload.read(UInt64.self, endian: .little)
            let addresses = recording.pendingUnreachable.removeValue(forKey: seq) ?? []
            // Invariant: the scan's UNREACHABLE records, all before it, hold `count` addresses.
            guard addresses.count == count else {
                throw payload.error("scan announces \(count) unreachable blocks but its records list \(addresses.count)")
            }
            let indirect = recording.pendingLeakKinds.removeValue(forKey: LeakKindRecordKey(seq: seq, kind: DKH_LEAK_INDIRECTLY_LOST.rawValue)) ?? []
            let possible = recording.pendingLeakKinds.removeValue(forKey: LeakKindRecordKey(seq: seq, kind: DKH_LEAK_POSSIBLY_LOST.rawValue)) ?? []
            let unreachable = Set(addresses)
            var kinds: ExitScan.Kinds?
            // A recorder with leak kinds writes the longer SCAN payload; an older one, 56 bytes.
            if payload.remaining >= Int(DKH_SCAN_PAYLOAD_SIZE - DKH_SCAN_PAYLOAD_SIZE_V1) {
                let indirectCount = try payload.read(UInt64.self, endian: .little)
                let indirectBytes = try payload.read(UInt64.self, endian: .little)
                let possibleCount = try payload.read(UInt64.self, endian: .little)
                let possibleBytes = try payload.read(UInt64.self, endian: .little)
                let stopped = try payload.read(UInt32.self, endian: .little)
                let unanswered = try payload.read(UInt32.self, endian: .little)
                let mappings = try payload.read(UInt32.self, endian: .little)
                _ = try payload.read(UInt32.self, endian: .little)  // reserved
                let mappedBytes = try payload.read(UInt64.self, endian: .little)
                // Invariant: the LEAK_KIND records hold as many addresses as the scan counted.
                guard indirect.count == indirectCount, possible.count == possibleCount else {
                    throw payload.error("scan announces \(indirectCount) indirectly and \(possibleCount) possibly lost blocks but its records list \(indirect.count) and \(possible.count)")
                }
                let indirectSet = Set(indirect), possibleSet = Set(possible)
                // Invariant: indirectly lost blocks are unreachable, possibly lost ones reached.
                guard indirectSet.isSubset(of: unreachable), possibleSet.isDisjoint(with: unreachable) else {
                    throw payload.error("scan's leak kinds contradict its unreachable blocks")
                }
                kinds = ExitScan.Kinds(
                    indirectlyLostBlocks: indirectCount, indirectlyLostBytes: indirectBytes,
                    possiblyLostBlocks: possibleCount, possiblyLostBytes: possibleBytes,
                    threadsStopped: stopped, threadsUnanswered: unanswered, mappingsScanned: mappings,
                    mappedBytesRead: mappedBytes, indirectlyLost: indirectSet, possiblyLost: possibleSet)
            }
            recording.scan = ExitScan(
                seq: seq, flags: ExitScan.Flags(rawValue: flags), otherThreadsScanned: threads, liveBlocks: live,
                unreachableBlocks: count, unreachableBytes: bytes, bytesRead: read, durationNanoseconds: duration,
                unreachable: unreachable, kinds: kinds)
        case DKH_RECORD_COMMAND.rawValue:
            let bytes = try payload.readBytes(payload.remaining)
            recording.command = bytes.split(separator: 0, omittingEmptySubsequences: false)
                .map { String(decoding: $0, as: UTF8.self) }
            if recording.command.last == "" { recording.command.removeLast() }
        default:
            break  // a record type from a later minor version: skipped by design
        }
    }

    private static func readModule(_ payload: inout ByteCursor) throws(DecodeError) -> ModuleMapping {
        let seq = try payload.read(UInt64.self, endian: .little)
        let id = try payload.read(UInt32.self, endian: .little)
        let segmentCount = Int(try payload.read(UInt32.self, endian: .little))
        let bias = try payload.read(UInt64.self, endian: .little)
        let buildIDLength = Int(try payload.read(UInt16.self, endian: .little))
        let buildID = hexString(try payload.readBytes(buildIDLength))
        let pathLength = Int(try payload.read(UInt16.self, endian: .little))
        let path = String(decoding: try payload.readBytes(pathLength), as: UTF8.self)
        // Invariant: exactly `segmentCount` (start, end) pairs follow, each start <= end.
        guard segmentCount * 16 == payload.remaining else {
            throw payload.error("module \(id) announces \(segmentCount) segments but has \(payload.remaining) bytes for them")
        }
        var segments: [Range<UInt64>] = []
        for _ in 0..<segmentCount {
            let start = try payload.read(UInt64.self, endian: .little)
            let end = try payload.read(UInt64.self, endian: .little)
            guard start <= end else { throw payload.error("module \(id) has a segment ending before it starts", at: payload.position - 16) }
            segments.append(start..<end)
        }
        return ModuleMapping(id: id, path: path, buildID: buildID, loadBias: bias, segments: segments, loadedAt: seq)
    }

    private static func markKind(_ raw: UInt32) -> GenerationMark.Kind {
        switch raw {
        case DKH_MARK_START.rawValue: .start
        case DKH_MARK_API.rawValue: .api
        case DKH_MARK_SIGNAL.rawValue: .signal
        case DKH_MARK_INTERVAL.rawValue: .interval
        default: .other(raw)
        }
    }

    private static func endReason(_ raw: UInt32, status: Int32) -> RecordingEnd.Reason {
        switch raw {
        case DKH_END_EXIT.rawValue: .exit
        case DKH_END_UNDERSCORE_EXIT.rawValue: .immediateExit(status)
        case DKH_END_SIGNAL.rawValue: .signal(status)
        case DKH_END_WRITE_FAILED.rawValue: .writeFailed
        case DKH_END_EXEC.rawValue: .exec
        case DKH_END_DETACHED.rawValue: .detached
        default: .other(raw)
        }
    }
}
