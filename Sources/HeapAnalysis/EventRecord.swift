/// One DKH_RECORD_EVENTS record, located in the recording's bytes and already validated.
struct EventRecord: Sendable {
    var thread: UInt32
    var baseSeq: UInt64
    var lastSeq: UInt64
    /// Absolute byte range of the events (after the record's 16-byte events header).
    var events: Range<Int>
    var count: Int
    /// Version 5: the events are in columns (`events` spans all of them).
    var columns: EventColumns?
}
