import BinaryReading
import HeapRecordFormat

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
            // Allocations and frees: what `HeapRecording.eventCount` counts.
            if event.kind != .shortLived { count += 1 }
        }
        return EventRecord(thread: thread, baseSeq: baseSeq, lastSeq: previous, events: start..<payload.offset, count: count)
    }
}
