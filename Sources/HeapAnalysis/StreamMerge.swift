/// K-way merge of per-thread event streams by sequence number: a binary min-heap of stream
/// indices keyed by each stream's current event.
struct StreamMerge {
    private let all: [EventRecord]
    private let buffer: UnsafeRawBufferPointer
    private var records: [ArraySlice<Int>]
    // Per stream, mutated once per event: plain memory (trivial types), since array
    // subscripts paid a uniqueness check on every event.
    private let decoders: UnsafeMutableBufferPointer<EventDecoder>
    private let current: UnsafeMutableBufferPointer<HeapEvent>
    /// The min-heap of stream indices, `heapCount` of them: plain memory too (an array's
    /// uniqueness checks were 80 M of cross-thread's instructions, a sift every third event).
    private let heap: UnsafeMutablePointer<Int>
    private var heapCount = 0

    init(streams: [[Int]], records all: [EventRecord], buffer: UnsafeRawBufferPointer) {
        self.all = all
        self.buffer = buffer
        records = streams.map { $0[...] }
        decoders = .allocate(capacity: streams.count)
        for (i, stream) in streams.enumerated() { (decoders.baseAddress! + i).initialize(to: EventDecoder(all[stream[0]], in: buffer)) }
        current = .allocate(capacity: streams.count)
        current.initialize(repeating: HeapEvent(seq: 0, kind: .free, address: 0, size: 0, stack: 0, typeMetadata: 0, thread: 0))
        heap = .allocate(capacity: max(streams.count, 1))
        for stream in streams.indices where advance(stream) { push(stream) }
    }

    func deallocate() {
        decoders.deallocate()
        current.deallocate()
        heap.deallocate()
    }

    /// Moves stream `i` to its next event (into its next record when needed), kept in
    /// `current`; false at its end.
    private mutating func advance(_ i: Int) -> Bool {
        guard let event = next(i) else { return false }
        current[i] = event
        return true
    }

    /// Stream `i`'s next event (from its next record when needed), nil at its end. Returned,
    /// not stored in `current`: `drain` hands most events on at once, and reading one back
    /// from `current` right after storing it field by field stalled on every event (the
    /// stores could not forward to the wider loads; two-fifths of the merge's time in perf).
    @inline(__always)
    private mutating func next(_ i: Int) -> HeapEvent? {
        // Through the element's address: the decoder is mutated in place, not copied out and back.
        if let event = (decoders.baseAddress! + i).pointee.nextValidated() { return event }
        return nextRecord(i)
    }

    /// Moves stream `i` to its next record with an event and returns that event; nil at its
    /// end. Apart from `next`, which runs per event: touching `records` there cost an array
    /// uniqueness check per event.
    @inline(never)
    private mutating func nextRecord(_ i: Int) -> HeapEvent? {
        while true {
            records[i] = records[i].dropFirst()
            guard let next = records[i].first else { return nil }
            decoders[i] = EventDecoder(all[next], in: buffer)
            // Records were validated when the recording was read: decoding cannot fail here.
            if let event = (decoders.baseAddress! + i).pointee.nextValidated() { return event }
        }
    }

    /// Feeds every event to `sink` in sequence order: the same order as taking the top
    /// stream's event and sifting each time, without a sift per event. While the stream on top
    /// stays below both of its children (the heap's second smallest key), a sift would leave it
    /// on top: its events go out in a run, one comparison each (a thread that allocates a
    /// thousand blocks while the others wait, as most threads mostly do).
    mutating func drain<Sink: HeapEventSink>(into sink: inout Sink) {
        while heapCount > 0 {
            let top = heap[0], count = heapCount
            var limit = UInt64.max
            if count > 1 { limit = key(1) }
            if count > 2 { limit = min(limit, key(2)) }
            sink.receive(current[top])
            while true {
                guard let event = next(top) else {
                    heap[0] = heap[count - 1]
                    heapCount -= 1
                    if heapCount > 0 { siftDown(0) }
                    break
                }
                guard event.seq < limit else {
                    current[top] = event
                    siftDown(0)
                    break
                }
                sink.receive(event)
            }
        }
    }

    private func key(_ position: Int) -> UInt64 { current[heap[position]].seq }

    private mutating func push(_ stream: Int) {
        heap[heapCount] = stream
        var child = heapCount
        heapCount += 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard key(child) < key(parent) else { break }
            (heap[child], heap[parent]) = (heap[parent], heap[child])
            child = parent
        }
    }

    /// Moves the stream at `start` down to its place; its key is read once.
    private func siftDown(_ start: Int) {
        let stream = heap[start], streamKey = current[stream].seq
        var parent = start
        while true {
            let left = 2 &* parent &+ 1, right = left &+ 1
            guard left < heapCount else { break }
            var child = left, childKey = key(left)
            if right < heapCount {
                let rightKey = key(right)
                if rightKey < childKey { (child, childKey) = (right, rightKey) }
            }
            guard childKey < streamKey else { break }
            heap[parent] = heap[child]
            parent = child
        }
        heap[parent] = stream
    }
}
