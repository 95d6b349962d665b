/// A recording replayed: every block with the generation it was made in and when (if ever)
/// it was freed, the generations with their statistics, the peak of live bytes (over the run
/// and per generation) with the blocks alive then, and live bytes over time (bounded points).
public struct HeapTimeline: Sendable {
    /// The most bytes alive at once, found in the replay (every recorded allocation and free,
    /// in order, and the levels that the recorder's cancelled pairs reached between a thread's
    /// events): exact when one thread allocates at a time, or with `--every-event`. Blocks of
    /// cancelled pairs of several threads alive at the same moment are counted for one of
    /// them only (each thread writes its own level), so then it can be lower than the truth.
    public struct Peak: Sendable, Equatable {
        public var bytes: UInt64 = 0
        public var blocks = 0
        /// Of `bytes` and `blocks`: blocks of cancelled pairs, alive then but never recorded
        /// (so not among the blocks `isAliveAtPeak` finds).
        public var shortLivedBytes: UInt64 = 0
        public var shortLivedBlocks = 0
        /// Sequence number of the allocation that reached it (a generation's mark when nothing
        /// allocated in the generation rose above the level it started at).
        public var seq: UInt64 = 0
        /// Index into `generations`.
        public var generation = 0

        public init(bytes: UInt64 = 0, blocks: Int = 0, seq: UInt64 = 0, generation: Int = 0, shortLivedBytes: UInt64 = 0,
                    shortLivedBlocks: Int = 0) {
            (self.bytes, self.blocks, self.seq, self.generation) = (bytes, blocks, seq, generation)
            (self.shortLivedBytes, self.shortLivedBlocks) = (shortLivedBytes, shortLivedBlocks)
        }
    }

    /// Live bytes and blocks at `seq`: the highest level in one slice of the run.
    public struct Point: Sendable, Equatable {
        public var seq: UInt64
        public var bytes: UInt64
        public var blocks: Int
    }

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

        /// The most bytes alive at once during the generation (its start level included).
        public var peak = Peak()

        /// Heap growth over the generation (negative when it shrank).
        public var growth: Int64 { Int64(bitPattern: heapBytesAtEnd &- heapBytesAtStart) }
    }

    public var generations: [Generation] = []
    /// Blocks that outlived the generation they were made in (alive at its next mark or at
    /// the end) or were alive at the peak, by generation and sequence number; with
    /// `keepingEveryBlock`, every block.
    public var blocks: [Block] = []
    /// The most bytes alive at once over the whole recording.
    public var peak = Peak()
    /// Live bytes over the run: the run's seqs cut into at most `pointLimit` equal slices,
    /// each giving its highest level (so the peak is one of them), plus the start and the
    /// level at the end; in sequence order. Slices without events give no point.
    public var points: [Point] = []
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
    public init(_ recording: HeapRecording, keepingEveryBlock: Bool = false, pointLimit: Int = 1_000,
                progress: ((_ eventsDone: Int, _ eventCount: Int) -> Void)? = nil) {
        var marks = recording.marks
        if marks.first.map({ $0.kind != .start }) ?? true {
            // A recording cut before its start mark still has a first generation.
            marks.insert(GenerationMark(seq: 0, kind: .start, label: "start"), at: 0)
        }
        var replay = Replay(generations: marks.indices.map { index in
            Generation(index: index, mark: marks[index], endSeq: index + 1 < marks.count ? marks[index + 1].seq : .max)
        }, keepingEveryBlock: keepingEveryBlock, lastSeq: recording.eventRecords.reduce(0) { max($0, $1.lastSeq) },
        pointLimit: pointLimit)
        if let progress {
            replay.progress = { progress($0, recording.eventCount) }
        }
        recording.replay(into: &replay)
        replay.finish()
        generations = replay.generations
        blocks = replay.kept
        peak = replay.peak
        points = replay.points
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
        /// Alive at the peak (`peak`): what filled the heap at its largest.
        case peak
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
            case .peak: return isAliveAtPeak(block)
            }
        }
    }

    /// Made at or before the peak's allocation and freed after it (or never).
    public func isAliveAtPeak(_ block: Block) -> Bool {
        peak.bytes > 0 && block.seq <= peak.seq && block.freedAt > peak.seq
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
    /// The replay state: live blocks sit in `live`, by address.
    private struct Replay: HeapEventSink {
        var generations: [HeapTimeline.Generation]
        let keepingEveryBlock: Bool
        let live = LiveBlocks()
        var kept: [HeapTimeline.Block] = []
        var generation = 0
        var generationEnd: UInt64
        /// The current generation's allocated totals (written back at its end: an array
        /// element changed per event paid a uniqueness check each time).
        var allocatedCount = 0
        var allocatedBytes: UInt64 = 0
        var heapBytes: UInt64 = 0
        var liveBlocks = 0
        var peak = HeapTimeline.Peak()
        /// The current generation's peak (written back at its end).
        var generationPeak = HeapTimeline.Peak()
        /// Blocks alive at the peak so far that were freed within their own generation (not
        /// in `kept`). A new peak empties it: every block in it was freed before that peak.
        var alivePeakOnly: [HeapTimeline.Block] = []
        var points: [HeapTimeline.Point] = []
        /// The slice being replayed: its highest level so far, and where it ends.
        var slice = HeapTimeline.Point(seq: 0, bytes: 0, blocks: 0)
        var sliceEnd: UInt64 = 0
        let sliceWidth: UInt64
        /// The last event's sequence number.
        let lastSeq: UInt64
        var unmatchedFrees = 0
        var missedFrees = 0
        /// Called every 2^16 events (a counter test per event, not a call).
        var progress: ((Int) -> Void)?
        var received = 0

        init(generations: [HeapTimeline.Generation], keepingEveryBlock: Bool, lastSeq: UInt64, pointLimit: Int) {
            self.generations = generations
            self.keepingEveryBlock = keepingEveryBlock
            generationEnd = generations[0].endSeq
            generationPeak.seq = generations[0].mark.seq
            let limit = UInt64(max(pointLimit - 2, 1))
            sliceWidth = lastSeq / limit + 1
            self.lastSeq = lastSeq
            points = [HeapTimeline.Point(seq: generations[0].mark.seq, bytes: 0, blocks: 0)]
        }

        /// Moves to the slice holding `seq`, keeping the last one's highest level.
        private mutating func startSlice(at seq: UInt64) {
            if sliceEnd > 0 { points.append(slice) }
            slice = HeapTimeline.Point(seq: seq, bytes: heapBytes, blocks: liveBlocks)
            sliceEnd = (seq / sliceWidth + 1) * sliceWidth
        }

        @inline(__always)
        mutating func receive(_ event: HeapEvent) {
            received &+= 1
            if received & 0xFFFF == 0, let progress { progress(received) }
            while event.seq >= generationEnd, generation + 1 < generations.count {
                endGeneration()
                generation += 1
                generations[generation].heapBytesAtStart = heapBytes
                generationEnd = generations[generation].endSeq
                generationPeak = HeapTimeline.Peak(bytes: heapBytes, blocks: liveBlocks, seq: generations[generation].mark.seq,
                                                   generation: generation)
            }
            if event.seq >= sliceEnd { startSlice(at: event.seq) }
            switch event.kind {
            case .allocation:
                let block = LiveBlock(seq: event.seq, size: event.size, typeMetadata: event.typeMetadata, generation: generation,
                                      stack: event.stack)
                if let previous = live.insert(block, at: event.address) {
                    missedFrees += 1
                    release(previous, at: event.address, freedAt: event.seq)
                }
                heapBytes &+= event.size
                liveBlocks += 1
                allocatedCount += 1
                allocatedBytes &+= event.size
                if heapBytes > slice.bytes { slice = HeapTimeline.Point(seq: event.seq, bytes: heapBytes, blocks: liveBlocks) }
                // The run's peak is never above its generation's: one test in the usual case.
                if heapBytes > generationPeak.bytes {
                    generationPeak = HeapTimeline.Peak(bytes: heapBytes, blocks: liveBlocks, seq: event.seq, generation: generation)
                    if heapBytes > peak.bytes {
                        peak = generationPeak
                        alivePeakOnly.removeAll(keepingCapacity: true)
                    }
                }
            case .free:
                guard let block = live.remove(at: event.address) else {
                    unmatchedFrees += 1
                    return
                }
                release(block, at: event.address, freedAt: event.seq)
            case .shortLived:
                // A level that only cancelled pairs' blocks reached, on top of the recorded ones.
                let level = heapBytes &+ event.size, blocks = liveBlocks + Int(event.stack)
                if level > slice.bytes { slice = HeapTimeline.Point(seq: event.seq, bytes: level, blocks: blocks) }
                if level > generationPeak.bytes {
                    generationPeak = HeapTimeline.Peak(bytes: level, blocks: blocks, seq: event.seq, generation: generation,
                                                       shortLivedBytes: event.size, shortLivedBlocks: Int(event.stack))
                    if level > peak.bytes {
                        peak = generationPeak
                        alivePeakOnly.removeAll(keepingCapacity: true)
                    }
                }
            }
        }

        @inline(__always)
        private mutating func release(_ live: LiveBlock, at address: UInt64, freedAt seq: UInt64) {
            heapBytes &-= live.size
            liveBlocks -= 1
            // Most blocks die in the generation they were made in, whose end is at hand: the
            // generations' array is read only for the others.
            let madeIn = live.generation
            let endSeq = madeIn == generation ? generationEnd : generations[madeIn].endSeq
            if keepingEveryBlock || seq >= endSeq {
                kept.append(live.block(at: address, freedAt: seq))
            } else if live.seq <= peak.seq, peak.bytes > 0 {
                // Made by the peak and freed now, after it: alive at the peak.
                alivePeakOnly.append(live.block(at: address, freedAt: seq))
            }
        }

        /// Writes the current generation's level, peak and allocated totals back.
        private mutating func endGeneration() {
            generations[generation].heapBytesAtEnd = heapBytes
            generations[generation].peak = generationPeak
            generations[generation].allocatedCount += allocatedCount
            generations[generation].allocatedBytes &+= allocatedBytes
            (allocatedCount, allocatedBytes) = (0, 0)
        }

        mutating func finish() {
            endGeneration()
            for later in generations.indices where later > generation {
                generations[later].heapBytesAtStart = heapBytes
                generations[later].heapBytesAtEnd = heapBytes
                generations[later].peak = HeapTimeline.Peak(bytes: heapBytes, blocks: liveBlocks, seq: generations[later].mark.seq,
                                                            generation: later)
            }
            if sliceEnd > 0 { points.append(slice) }
            if let last = points.last, last.bytes != heapBytes || last.blocks != liveBlocks {
                points.append(HeapTimeline.Point(seq: max(last.seq, lastSeq), bytes: heapBytes, blocks: liveBlocks))
            }
            live.forEach { address, block in kept.append(block.block(at: address)) }
            kept.append(contentsOf: alivePeakOnly)
            // By generation, then sequence: the same as by sequence for any recording replayed in
            // order, and what `survivors(of:until:)`'s binary search needs even if one was not.
            kept.sort { ($0.generation, $0.seq) < ($1.generation, $1.seq) }
        }
    }
}
