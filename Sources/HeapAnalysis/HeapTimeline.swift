/// A recording replayed: every block with the generation it was made in and when (if ever)
/// it was freed, and the generations with their statistics.
public struct HeapTimeline: Sendable {
    /// An allocated block.
    public struct Block: Sendable, Equatable {
        public var seq: UInt64
        public var address: UInt64
        public var size: UInt64
        public var stack: UInt32
        public var typeMetadata: UInt64
        /// Index into `generations`.
        public var generation: Int
        /// Sequence number of the free; `.max` while alive at the end of the recording.
        public var freedAt: UInt64 = .max

        public var isAliveAtEnd: Bool { freedAt == .max }
        /// Alive at sequence number `seq` (made before it, not yet freed).
        public func isAlive(at seq: UInt64) -> Bool { self.seq < seq && freedAt >= seq }
    }

    /// A generation: from its mark to the next one (or the end).
    public struct Generation: Sendable, Equatable {
        public var index: Int
        public var mark: GenerationMark
        /// Sequence number where the next generation starts (`.max` for the last).
        public var endSeq: UInt64
        /// Blocks made in this generation.
        public var allocatedCount = 0
        public var allocatedBytes: UInt64 = 0
        /// Bytes alive on the whole heap when the generation started and ended.
        public var heapBytesAtStart: UInt64 = 0
        public var heapBytesAtEnd: UInt64 = 0

        /// Heap growth over the generation (negative when it shrank).
        public var growth: Int64 { Int64(bitPattern: heapBytesAtEnd &- heapBytesAtStart) }
    }

    public var generations: [Generation] = []
    /// Blocks that outlived the generation they were made in (alive at its next mark or at
    /// the end), in allocation order; with `keepingEveryBlock`, every block.
    public var blocks: [Block] = []
    /// Blocks allocated and freed by one thread with no mark in between, which the recorder
    /// counted instead of recording (see `CancelledPairs`), merged per generation, stack and
    /// size. They are in the generations' allocated totals; none is ever alive at a mark.
    public struct ShortLived: Sendable, Equatable {
        public var generation: Int
        public var stack: UInt32
        public var size: UInt64
        public var count: Int
        /// Swift type metadata of class instances, else 0.
        public var typeMetadata: UInt64 = 0
        public var bytes: UInt64 { size &* UInt64(count) }
    }

    public var shortLived: [ShortLived] = []
    /// Frees of addresses the recording never saw allocated (made before recording started,
    /// or by another process image after fork).
    public var unmatchedFrees = 0
    /// Allocations at an address that was still alive: the free was not recorded.
    public var missedFrees = 0

    /// Replays `recording` in sequence order. Blocks freed within their own generation are
    /// counted but not kept, unless `keepingEveryBlock` (tests, small recordings).
    /// `progress` gets (events replayed, all events) every 2^16 events.
    public init(_ recording: HeapRecording, keepingEveryBlock: Bool = false,
                progress: ((_ eventsDone: Int, _ eventCount: Int) -> Void)? = nil) {
        var marks = recording.marks
        if marks.first.map({ $0.kind != .start }) ?? true {
            // A recording cut before its start mark still has a first generation.
            marks.insert(GenerationMark(seq: 0, kind: .start, label: "start"), at: 0)
        }
        var replay = Replay(generations: marks.indices.map { index in
            Generation(index: index, mark: marks[index], endSeq: index + 1 < marks.count ? marks[index + 1].seq : .max)
        }, keepingEveryBlock: keepingEveryBlock)
        if let progress {
            replay.progress = { progress($0, recording.eventCount) }
        }
        recording.replay(into: &replay)
        replay.finish()
        generations = replay.generations
        blocks = replay.kept
        addCancelledPairs(recording.cancelledPairs)
        unmatchedFrees = replay.unmatchedFrees
        missedFrees = replay.missedFrees
    }

    /// Adds the recorder's cancelled pairs to their generations' allocated totals.
    private mutating func addCancelledPairs(_ pairs: [CancelledPairs]) {
        guard !pairs.isEmpty else { return }
        struct Key: Hashable { var generation: Int, stack: UInt32, size: UInt64, type: UInt64 }
        var merged: [Key: Int] = [:]
        var order: [Key] = []
        let starts = generations.map(\.mark.seq)
        for pair in pairs {
            // The last generation starting at or before the pair's seq (the first one when none
            // does: a recording cut before its start mark).
            var low = 0, high = starts.count
            while low < high {
                let middle = (low + high) / 2
                if starts[middle] <= pair.seq { low = middle + 1 } else { high = middle }
            }
            let generation = max(low - 1, 0)
            generations[generation].allocatedCount += pair.count
            generations[generation].allocatedBytes &+= pair.bytes
            let key = Key(generation: generation, stack: pair.stack, size: pair.size, type: pair.typeMetadata)
            if let count = merged[key] {
                merged[key] = count + pair.count
            } else {
                merged[key] = pair.count
                order.append(key)
            }
        }
        shortLived = order.map {
            ShortLived(generation: $0.generation, stack: $0.stack, size: $0.size, count: merged[$0]!, typeMetadata: $0.type)
        }
    }

    /// Which blocks of a generation count as "still alive".
    public enum Horizon: Sendable {
        /// Alive when the recording ended (Instruments' heapshot at the last mark).
        case end
        /// Alive when the next generation started.
        case nextMark
    }

    /// Blocks made in `generation` that were alive at `horizon`.
    ///
    /// `blocks` is in allocation order and a block's generation never decreases with its
    /// sequence number, so each generation's blocks are one run, found by binary search: a
    /// report over every generation looks at each block once (100k generations were quadratic,
    /// issue 15 §5).
    public func survivors(of generation: Int, until horizon: Horizon) -> [Block] {
        guard generations.indices.contains(generation) else { return [] }
        let endSeq = generations[generation].endSeq
        return blocks[blockRange(of: generation)].filter { block in
            switch horizon {
            case .end: return block.isAliveAtEnd
            case .nextMark: return block.freedAt >= endSeq
            }
        }
    }

    /// The indices in `blocks` of the blocks made in `generation`.
    func blockRange(of generation: Int) -> Range<Int> {
        firstBlock(ofGenerationAtLeast: generation)..<firstBlock(ofGenerationAtLeast: generation + 1)
    }

    private func firstBlock(ofGenerationAtLeast generation: Int) -> Int {
        var low = 0, high = blocks.count
        while low < high {
            let middle = low + (high - low) / 2
            if blocks[middle].generation < generation { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension HeapTimeline {
    /// The replay state: live blocks sit in `pool`, found by address through `live`; slots of
    /// freed blocks are reused.
    private struct Replay: HeapEventSink {
        var generations: [HeapTimeline.Generation]
        let keepingEveryBlock: Bool
        var live = AddressTable()
        var pool: [HeapTimeline.Block] = []
        var freeSlots: [UInt32] = []
        var kept: [HeapTimeline.Block] = []
        var generation = 0
        var generationEnd: UInt64
        var heapBytes: UInt64 = 0
        var unmatchedFrees = 0
        var missedFrees = 0
        /// Called every 2^16 events (a counter test per event, not a call).
        var progress: ((Int) -> Void)?
        var received = 0

        init(generations: [HeapTimeline.Generation], keepingEveryBlock: Bool) {
            self.generations = generations
            self.keepingEveryBlock = keepingEveryBlock
            generationEnd = generations[0].endSeq
        }

        mutating func receive(_ event: HeapEvent) {
            received &+= 1
            if received & 0xFFFF == 0, let progress { progress(received) }
            while event.seq >= generationEnd, generation + 1 < generations.count {
                generations[generation].heapBytesAtEnd = heapBytes
                generation += 1
                generations[generation].heapBytesAtStart = heapBytes
                generationEnd = generations[generation].endSeq
            }
            switch event.kind {
            case .allocation:
                let block = HeapTimeline.Block(seq: event.seq, address: event.address, size: event.size, stack: event.stack,
                                               typeMetadata: event.typeMetadata, generation: generation)
                let slot: UInt32
                if let reused = freeSlots.popLast() {
                    slot = reused
                    pool[Int(slot)] = block
                } else {
                    slot = UInt32(pool.count)
                    pool.append(block)
                }
                if let previous = live.insert(slot, for: event.address) {
                    missedFrees += 1
                    release(previous, at: event.seq)
                }
                heapBytes &+= event.size
                generations[generation].allocatedCount += 1
                generations[generation].allocatedBytes &+= event.size
            case .free:
                guard let slot = live.removeValue(for: event.address) else {
                    unmatchedFrees += 1
                    return
                }
                release(slot, at: event.seq)
            }
        }

        private mutating func release(_ slot: UInt32, at seq: UInt64) {
            var block = pool[Int(slot)]
            block.freedAt = seq
            heapBytes &-= block.size
            if keepingEveryBlock || seq >= generations[block.generation].endSeq { kept.append(block) }
            freeSlots.append(slot)
        }

        mutating func finish() {
            generations[generation].heapBytesAtEnd = heapBytes
            for later in generations.indices where later > generation {
                generations[later].heapBytesAtStart = heapBytes
                generations[later].heapBytesAtEnd = heapBytes
            }
            live.forEach { _, slot in kept.append(pool[Int(slot)]) }
            // By generation, then sequence: the same as by sequence for any recording replayed in
            // order, and what `survivors(of:until:)`'s binary search needs even if one was not.
            kept.sort { ($0.generation, $0.seq) < ($1.generation, $1.seq) }
        }
    }
}
