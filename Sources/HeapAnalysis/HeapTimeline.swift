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

    public var blocks: [Block] = []
    public var generations: [Generation] = []
    /// Frees of addresses the recording never saw allocated (made before recording started,
    /// or by another process image after fork).
    public var unmatchedFrees = 0
    /// Allocations at an address that was still alive: the free was not recorded.
    public var missedFrees = 0

    /// Replays `recording` in sequence order.
    public init(_ recording: HeapRecording) {
        var marks = recording.marks
        if marks.first.map({ $0.kind != .start }) ?? true {
            // A recording cut before its start mark still has a first generation.
            marks.insert(GenerationMark(seq: 0, kind: .start, label: "start"), at: 0)
        }
        generations = marks.indices.map { index in
            Generation(index: index, mark: marks[index],
                       endSeq: index + 1 < marks.count ? marks[index + 1].seq : .max)
        }
        var live: [UInt64: Int] = [:]
        live.reserveCapacity(min(recording.events.count / 2, 1 << 20))
        blocks.reserveCapacity(min(recording.events.count, 1 << 22))
        var generation = 0
        var heapBytes: UInt64 = 0
        for event in recording.events {
            while generation + 1 < generations.count, event.seq >= generations[generation].endSeq {
                generations[generation].heapBytesAtEnd = heapBytes
                generation += 1
                generations[generation].heapBytesAtStart = heapBytes
            }
            switch event.kind {
            case .allocation:
                if let previous = live[event.address] {
                    blocks[previous].freedAt = event.seq
                    heapBytes &-= blocks[previous].size
                    missedFrees += 1
                }
                live[event.address] = blocks.count
                blocks.append(Block(seq: event.seq, address: event.address, size: event.size, stack: event.stack,
                                    typeMetadata: event.typeMetadata, generation: generation))
                heapBytes &+= event.size
                generations[generation].allocatedCount += 1
                generations[generation].allocatedBytes &+= event.size
            case .free:
                guard let index = live.removeValue(forKey: event.address) else {
                    unmatchedFrees += 1
                    continue
                }
                blocks[index].freedAt = event.seq
                heapBytes &-= blocks[index].size
            }
        }
        generations[generation].heapBytesAtEnd = heapBytes
        for later in generations.indices where later > generation {
            generations[later].heapBytesAtStart = heapBytes
            generations[later].heapBytesAtEnd = heapBytes
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
    public func survivors(of generation: Int, until horizon: Horizon) -> [Block] {
        guard generations.indices.contains(generation) else { return [] }
        let endSeq = generations[generation].endSeq
        return blocks.filter { block in
            guard block.generation == generation else { return false }
            switch horizon {
            case .end: return block.isAliveAtEnd
            case .nextMark: return block.freedAt >= endSeq
            }
        }
    }
}
