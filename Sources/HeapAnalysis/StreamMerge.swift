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
            // Through the element's address: the decoder is mutated in place, not copied out and back.
            if let event = try? (decoders.baseAddress! + i).pointee.next() {
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
