import BinaryReading
import HeapRecordFormat

/// One DKH_RECORD_EVENTS record, located in the recording's bytes and already validated.
struct EventRecord: Sendable {
    var thread: UInt32
    var baseSeq: UInt64
    var lastSeq: UInt64
    /// Absolute byte range of the events (after the record's 16-byte events header).
    var events: Range<Int>
    var count: Int
}

/// Decodes the events of one record (format: FORMAT.md, "Events").
///
/// Works on the raw bytes with its own bounds checks rather than through `ByteCursor`: a
/// recording of every event decodes millions of tags and varints, twice (validation, then the
/// replay), and the per-byte calls dominated `heapdiff`'s profile.
struct EventDecoder {
    let bytes: UnsafeRawBufferPointer
    /// Offset of `bytes` in the whole recording, for error messages.
    let baseOffset: Int
    var position = 0
    let thread: UInt32
    var seq: UInt64
    var address: UInt64 = 0

    init(_ bytes: UnsafeRawBufferPointer, baseOffset: Int, thread: UInt32, baseSeq: UInt64) {
        self.bytes = bytes
        self.baseOffset = baseOffset
        self.thread = thread
        self.seq = baseSeq
    }

    /// The events of a validated record, in the recording's bytes.
    init(_ record: EventRecord, in buffer: UnsafeRawBufferPointer) {
        self.init(UnsafeRawBufferPointer(rebasing: buffer[record.events]), baseOffset: record.events.lowerBound,
                  thread: record.thread, baseSeq: record.baseSeq)
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
        let start = position - 1
        var result = UInt64(first & 0x7f)
        var shift: UInt64 = 7
        while true {
            guard position < bytes.count else { throw error("truncated: an event is cut short") }
            let byte = bytes[position]
            position += 1
            guard shift < 63 || (shift == 63 && byte & 0x7e == 0) else {
                throw error("ULEB128 number does not fit in 64 bits", at: start)
            }
            result |= UInt64(byte & 0x7f) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
    }

    /// The next event, nil at the end of the record.
    @inline(__always)
    mutating func next() throws(DecodeError) -> HeapEvent? {
        guard position < bytes.count else { return nil }
        let tagOffset = position
        let tag = bytes[position]
        position += 1
        seq &+= try varint()
        let delta = try varint()
        address &+= (delta >> 1) ^ (0 &- (delta & 1))  // zigzag
        switch tag {
        case UInt8(DKH_EVENT_ALLOC.rawValue), UInt8(DKH_EVENT_ALLOC_TYPED.rawValue):
            let size = try varint()
            let stack = try varint()
            // Invariant: stack ids are 32-bit.
            guard stack <= UInt32.max else { throw error("stack id \(stack) is out of range") }
            let type = tag == UInt8(DKH_EVENT_ALLOC_TYPED.rawValue) ? try varint() : 0
            return HeapEvent(seq: seq, kind: .allocation, address: address, size: size, stack: UInt32(stack),
                             typeMetadata: type, thread: thread)
        case UInt8(DKH_EVENT_FREE.rawValue):
            return HeapEvent(seq: seq, kind: .free, address: address, size: 0, stack: 0, typeMetadata: 0, thread: thread)
        default:
            throw error("unknown event tag \(tag)", at: tagOffset)
        }
    }

    /// Reads a record's events header and checks every event once, so that replaying it
    /// later cannot fail.
    static func validate(_ payload: inout ByteCursor) throws(DecodeError) -> EventRecord {
        let thread = try payload.read(UInt32.self, endian: .little)
        _ = try payload.read(UInt32.self, endian: .little)
        let baseSeq = try payload.read(UInt64.self, endian: .little)
        let start = payload.offset
        var decoder = EventDecoder(try payload.readBytes(payload.remaining), baseOffset: start, thread: thread, baseSeq: baseSeq)
        var count = 0
        var previous = baseSeq
        while let event = try decoder.next() {
            // Invariant: a thread writes its events in the order it made them.
            guard event.seq >= previous else { throw decoder.error("event sequence numbers go backwards") }
            previous = event.seq
            count += 1
        }
        return EventRecord(thread: thread, baseSeq: baseSeq, lastSeq: previous, events: start..<payload.offset, count: count)
    }
}

/// Receives events in order from `HeapRecording.replay(into:)`.
protocol HeapEventSink {
    mutating func receive(_ event: HeapEvent)
}

extension HeapRecording {
    /// Calls `body` with every allocation and free in global (sequence) order.
    public func forEachEvent(_ body: (HeapEvent) -> Void) {
        struct ClosureSink: HeapEventSink {
            let body: (HeapEvent) -> Void
            func receive(_ event: HeapEvent) { body(event) }
        }
        withoutActuallyEscaping(body) { body in
            var sink = ClosureSink(body: body)
            replay(into: &sink)
        }
    }

    /// Feeds every allocation and free to `sink` in global (sequence) order.
    ///
    /// Threads write their buffers independently, so records of different threads interleave
    /// in the file; one thread's records follow each other in order. The threads' streams
    /// are merged as they are decoded: no event is materialised.
    func replay<Sink: HeapEventSink>(into sink: inout Sink) {
        var streamOf: [UInt32: Int] = [:]
        var streams: [[Int]] = []
        var inOrder = true
        for (index, record) in eventRecords.enumerated() {
            if let stream = streamOf[record.thread] {
                if let last = streams[stream].last, eventRecords[last].lastSeq > record.baseSeq { inOrder = false }
                streams[stream].append(index)
            } else {
                streamOf[record.thread] = streams.count
                streams.append([index])
            }
        }
        let records = eventRecords
        let buffer = storage.bytes
        withExtendedLifetime(storage) {
            guard inOrder else {
                // A recorder that broke the per-thread order (not ours): sort everything.
                var all: [HeapEvent] = []
                for record in records {
                    var d = EventDecoder(record, in: buffer)
                    while let event = try? d.next() { all.append(event) }
                }
                all.sort { $0.seq < $1.seq }
                for event in all { sink.receive(event) }
                return
            }
            // The merge holds the records and the buffer itself: a closure capturing the
            // recording here cost a retain/release per event.
            var merge = StreamMerge(streams: streams, records: records, buffer: buffer)
            while let event = merge.next() { sink.receive(event) }
            merge.deallocate()
        }
    }
}

/// K-way merge of per-thread event streams by sequence number: a binary min-heap of stream
/// indices keyed by each stream's current event.
private struct StreamMerge {
    private let all: [EventRecord]
    private let buffer: UnsafeRawBufferPointer
    private var records: [ArraySlice<Int>]
    // Per stream, mutated once per event: plain memory (trivial types), since array
    // subscripts paid a uniqueness check on every event.
    private let decoders: UnsafeMutableBufferPointer<EventDecoder>
    private let current: UnsafeMutableBufferPointer<HeapEvent>
    private var heap: [Int] = []

    init(streams: [[Int]], records all: [EventRecord], buffer: UnsafeRawBufferPointer) {
        self.all = all
        self.buffer = buffer
        records = streams.map { $0[...] }
        decoders = .allocate(capacity: streams.count)
        for (i, stream) in streams.enumerated() { (decoders.baseAddress! + i).initialize(to: EventDecoder(all[stream[0]], in: buffer)) }
        current = .allocate(capacity: streams.count)
        current.initialize(repeating: HeapEvent(seq: 0, kind: .free, address: 0, size: 0, stack: 0, typeMetadata: 0, thread: 0))
        for stream in streams.indices where advance(stream) { push(stream) }
    }

    func deallocate() {
        decoders.deallocate()
        current.deallocate()
    }

    /// Moves stream `i` to its next event (into its next record when needed); false at its end.
    private mutating func advance(_ i: Int) -> Bool {
        while true {
            // Records were validated when the recording was read: decoding cannot fail here.
            if let event = try? decoders[i].next() {
                current[i] = event
                return true
            }
            records[i] = records[i].dropFirst()
            guard let next = records[i].first else { return false }
            decoders[i] = EventDecoder(all[next], in: buffer)
        }
    }

    mutating func next() -> HeapEvent? {
        guard let top = heap.first else { return nil }
        let event = current[top]
        if advance(top) {
            siftDown(0)
        } else {
            heap[0] = heap[heap.count - 1]
            heap.removeLast()
            if !heap.isEmpty { siftDown(0) }
        }
        return event
    }

    private func key(_ position: Int) -> UInt64 { current[heap[position]].seq }

    private mutating func push(_ stream: Int) {
        heap.append(stream)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard key(child) < key(parent) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count, key(left) < key(smallest) { smallest = left }
            if right < heap.count, key(right) < key(smallest) { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
