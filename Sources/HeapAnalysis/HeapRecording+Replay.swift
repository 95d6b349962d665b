import System

extension HeapRecording {
    /// Calls `body` with every allocation and free in global (sequence) order (not the
    /// short-lived levels, which share a seq with the event before them).
    public func forEachEvent(_ body: (HeapEvent) -> Void) {
        struct ClosureSink: HeapEventSink {
            let body: (HeapEvent) -> Void
            func receive(_ event: HeapEvent) { if event.kind != .shortLived { body(event) } }
        }
        withoutActuallyEscaping(body) { body in
            var sink = ClosureSink(body: body)
            replay(into: &sink)
        }
    }

    /// Events from which `replay` decodes and merges on a second thread (`EventPipe`) while
    /// the sink takes them on the calling one: below, starting the thread costs more than it
    /// saves (a recording of cancelled pairs holds a few thousand events).
    static let pipelinedEventCount = 1 << 16

    /// Feeds every allocation and free to `sink` in global (sequence) order.
    ///
    /// Threads write their buffers independently, so records of different threads interleave
    /// in the file; one thread's records follow each other in order. The threads' streams
    /// are merged as they are decoded: no event is materialised beyond a chunk of the pipe,
    /// when `pipelined` (by default: a recording of at least `pipelinedEventCount` events, and
    /// a second processor that other work leaves free to run the merge on). On a machine whose
    /// other core is busy the pipe only costs: every event crosses from core to core, and the
    /// merge waits for time slices (cross-thread's heapdiff on 2 cores, at a load of 2.5: 123 ms
    /// of CPU and 122 ms wall on one thread, 145 and 146 ms pipelined; at a load of 1, the
    /// same wall time both ways, 113–133 ms in two rounds, and 123–150 ms of CPU against
    /// 153–180 ms pipelined).
    func replay<Sink: HeapEventSink>(into sink: inout Sink, pipelined: Bool? = nil) {
        let pipelined = pipelined ?? (eventCount >= Self.pipelinedEventCount && Processors.hasIdleProcessor)
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
                    while let event = d.nextValidated() { all.append(event) }
                }
                all.sort { $0.seq < $1.seq }
                for event in all { sink.receive(event) }
                return
            }
            guard pipelined else {
                // The merge holds the records and the buffer itself: a closure capturing the
                // recording here cost a retain/release per event.
                var merge = StreamMerge(streams: streams, records: records, buffer: buffer)
                merge.drain(into: &sink)
                merge.deallocate()
                return
            }
            // The bytes outlive the other thread's use: `run` returns after it.
            nonisolated(unsafe) let bytes = buffer
            let streams = streams
            EventPipe().run(into: &sink) { writer in
                var merge = StreamMerge(streams: streams, records: records, buffer: bytes)
                merge.drain(into: &writer)
                merge.deallocate()
            }
        }
    }
}
