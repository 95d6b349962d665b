import Dispatch

/// Events handed from one thread to another in order: a ring of `slots` chunks of
/// `chunkSize` events, two semaphores counting the chunks filled and the chunks free.
///
/// The replay of a large recording runs in two stages on two cores: a second thread decodes
/// the threads' streams and merges them (`StreamMerge`) into the pipe, and the calling thread
/// takes the events out and replays them (the address table and the generations). Each stage
/// was about half of cross-thread's replay. A chunk at a time keeps the semaphores (an atomic
/// each, a futex only when one side waits) out of the per-event work. The ring is long (64 ×
/// 1,024 events of 48 bytes, 3 MiB): on a machine whose other core is busy, a side that
/// waits for the other waits for a time slice, and with 8 chunks that happened every few
/// thousand events (cross-thread's heapdiff 0.17 s with 64 chunks, 0.22 s with 8, against
/// 0.21 s on one thread, in one hyperfine run while another process took a core).
final class EventPipe: @unchecked Sendable {
    static let chunkSize = 1_024
    static let slots = 64

    /// `slots` chunks, one after the other; chunk `s` belongs to the writer between a wait on
    /// `free` and its signal of `filled`, to the reader between its wait on `filled` and its
    /// signal of `free`: never to both (the semaphores order the memory accesses too).
    private let events: UnsafeMutablePointer<HeapEvent>
    /// Events in each chunk; 0 marks the end of the stream.
    private let counts: UnsafeMutablePointer<Int>
    private let filled = DispatchSemaphore(value: 0)
    /// Starts at 0 and is signalled `slots` times: libdispatch traps when a semaphore is freed
    /// with a value below the one it was made with, as this one ends (the end's slot is taken).
    private let free = DispatchSemaphore(value: 0)
    /// Signalled by the writer's thread when it has finished with everything the reader's
    /// caller owns (the recording's bytes).
    private let writerDone = DispatchSemaphore(value: 0)

    init() {
        events = .allocate(capacity: Self.slots * Self.chunkSize)
        counts = .allocate(capacity: Self.slots)
        counts.initialize(repeating: 0, count: Self.slots)
        for _ in 0..<Self.slots { free.signal() }
    }

    deinit {
        events.deallocate()
        counts.deallocate()
    }

    /// Runs `produce` on another thread with the pipe's writing end, then ends the stream, and
    /// feeds every event it wrote to `sink` here, in order. Returns once `produce` returned.
    func run<Sink: HeapEventSink>(into sink: inout Sink, _ produce: @escaping @Sendable (inout Writer) -> Void) {
        // Not a concurrentPerform: that may run both sides on one thread, one after the other,
        // and the writer would wait forever for room.
        DispatchQueue.global().async { [self] in
            var writer = Writer(pipe: self)
            produce(&writer)
            writer.finish()
            writerDone.signal()
        }
        var slot = 0
        while true {
            filled.wait()
            let count = counts[slot]
            guard count > 0 else { break }
            let chunk = events + slot * Self.chunkSize
            for i in 0..<count { sink.receive(chunk[i]) }
            free.signal()
            slot = slot == Self.slots - 1 ? 0 : slot + 1
        }
        writerDone.wait()
    }

    /// The writing end: a sink that fills the current chunk and hands it over when full.
    struct Writer: HeapEventSink {
        private let pipe: EventPipe
        private var slot = 0
        private var chunk: UnsafeMutablePointer<HeapEvent>
        private var count = 0

        fileprivate init(pipe: EventPipe) {
            self.pipe = pipe
            pipe.free.wait()
            chunk = pipe.events
        }

        @inline(__always)
        mutating func receive(_ event: HeapEvent) {
            (chunk + count).initialize(to: event)
            count &+= 1
            if count == EventPipe.chunkSize { handOver() }
        }

        /// Publishes the current chunk (`count` events, 0 for the end) and takes the next slot.
        @inline(never)
        private mutating func handOver() {
            pipe.counts[slot] = count
            pipe.filled.signal()
            slot = slot == EventPipe.slots - 1 ? 0 : slot + 1
            count = 0
            pipe.free.wait()
            chunk = pipe.events + slot * EventPipe.chunkSize
        }

        /// Hands over what is left, then the end.
        fileprivate mutating func finish() {
            if count > 0 { handOver() }
            pipe.counts[slot] = 0
            pipe.filled.signal()
        }
    }
}
