import FrameModel
import System

/// One heap recording as written by libdevkit-heap.so: the process, its module map, the
/// interned stacks and every allocation and free in global order.
public struct HeapRecording: Sendable {
    /// The file the recording was read from, for messages.
    public var path: String
    public var header: Header
    /// The recorded program's command line.
    public var command: [String] = []
    /// Every module the program had loaded, in load order (a module loaded twice appears twice).
    public var modules: [ModuleMapping] = []
    /// Interned call stacks by id.
    public var stacks = StackTable()
    /// Number of allocations and frees; `forEachEvent` visits them in order.
    public internal(set) var eventCount = 0
    /// Allocation/free pairs the recorder cancelled (a block freed by its allocating thread
    /// before any mark could see it): counted here, absent from `forEachEvent`.
    public internal(set) var cancelledPairs: [CancelledPairs] = []
    /// Sum of `cancelledPairs` counts.
    public internal(set) var cancelledPairCount = 0
    /// The file's bytes, mapped (a pipe's are copied): events are decoded from them when
    /// replayed, not stored twice.
    let storage: MappedFile
    /// Where the events records are in `storage`, in file order.
    var eventRecords: [EventRecord] = []
    /// Generation marks in order, the first normally the start mark.
    public var marks: [GenerationMark] = []
    /// How the recording ended; nil when the file stops before an end record (a crash the
    /// recorder could not catch, a kill, or a truncated copy).
    public var end: RecordingEnd?
    /// Problems that did not stop reading: a truncated tail, a malformed record.
    public var warnings: [RecordingWarning] = []
    /// The exit scan (`devkit heap record --scan-at-exit`); nil when the recording has none
    /// (not requested, or the program ended by `_exit`, a signal or a kill).
    public var scan: ExitScan?
    /// UNREACHABLE addresses by scan seq, until their SCAN record arrives.
    var pendingUnreachable: [UInt64: [UInt64]] = [:]

    public struct Header: Sendable, Equatable {
        public var version: UInt32
        public var pid: UInt32
        public var parentPID: UInt32
        /// Start time, nanoseconds since the Unix epoch.
        public var startTimeNanoseconds: UInt64
    }

    init(path: String, header: Header, storage: MappedFile) {
        self.path = path
        self.header = header
        self.storage = storage
    }
}

/// A loaded ELF object as the recording saw it: the image (path, build-id), and where and
/// during which events it was mapped, to place return addresses recorded at any time.
public struct ModuleMapping: Sendable, Equatable {
    /// The recorder's id for the module (stable within one recording).
    public var id: UInt32
    public var path: String
    /// The GNU build-id note, as lowercase hex; empty when the object has none.
    public var buildID: String
    /// Load bias: runtime address minus file address (`dlpi_addr`).
    public var loadBias: UInt64
    /// Runtime address ranges of the PT_LOAD segments.
    public var segments: [Range<UInt64>]
    /// Sequence numbers during which the module was mapped.
    public var loadedAt: UInt64
    public var unloadedAt: UInt64 = .max

    /// The image, to find its file and symbols again: the path, the build-id, and the load
    /// address (the first segment's start).
    public var image: ImageReference {
        ImageReference(path: path, identifier: buildID.isEmpty ? nil : buildID, loadAddress: segments.first?.lowerBound)
    }

    /// The file name without its directory.
    public var name: String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    public func contains(_ address: UInt64, at seq: UInt64) -> Bool {
        guard seq >= loadedAt, seq < unloadedAt else { return false }
        return segments.contains { $0.contains(address) }
    }
}

/// Interned call stacks: frames innermost first, stored flat.
public struct StackTable: Sendable {
    private var ranges: [UInt32: Range<Int>] = [:]
    private var frames: [UInt64] = []

    public init() {}

    public var count: Int { ranges.count }

    mutating func insert(id: UInt32, frames newFrames: some Collection<UInt64>) {
        let start = frames.count
        frames.append(contentsOf: newFrames)
        ranges[id] = start..<frames.count
    }

    /// The return addresses of stack `id`, innermost first; empty for an unknown id.
    public subscript(id: UInt32) -> ArraySlice<UInt64> {
        guard let range = ranges[id] else { return [] }
        return frames[range]
    }

    public func contains(_ id: UInt32) -> Bool { ranges[id] != nil }
}

/// Allocation/free pairs of one thread, stack and size that the recorder counted instead of
/// writing (a DKH_RECORD_PAIRS entry). All lie in the generation containing `seq`.
public struct CancelledPairs: Sendable, Equatable {
    /// A sequence number inside their generation.
    public var seq: UInt64
    public var thread: UInt32
    public var stack: UInt32
    /// Requested size of each block.
    public var size: UInt64
    public var count: Int
    public var bytes: UInt64 { size &* UInt64(count) }
}

/// One allocation or free.
public struct HeapEvent: Sendable, Equatable {
    public enum Kind: UInt8, Sendable {
        case allocation
        case free
    }

    /// Global order across threads.
    public var seq: UInt64
    public var kind: Kind
    public var address: UInt64
    /// Requested size in bytes (0 for a free).
    public var size: UInt64
    /// Interned stack id (allocations; 0 = unknown).
    public var stack: UInt32
    /// Swift type metadata address for a class instance, else 0.
    public var typeMetadata: UInt64
    public var thread: UInt32
}

/// The start of a generation (a heapshot).
public struct GenerationMark: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The recording started.
        case start
        /// The program called `devkit_heap_mark`.
        case api
        /// The mark signal (`devkit heap mark`).
        case signal
        /// `devkit heap record --interval`.
        case interval
        /// A kind this reader does not know.
        case other(UInt32)
    }

    public var seq: UInt64
    public var kind: Kind
    public var label: String
}

/// How the recorded process ended.
public struct RecordingEnd: Sendable, Equatable {
    public enum Reason: Sendable, Equatable {
        /// `exit` or a return from `main`.
        case exit
        /// `_exit` / `_Exit` with this status.
        case immediateExit(Int32)
        /// A fatal signal with this number.
        case signal(Int32)
        /// A write failed (full disk): nothing after this point was recorded.
        case writeFailed
        case other(UInt32)
    }

    public var seq: UInt64
    public var reason: Reason
}

/// A problem found while reading that did not stop it.
public struct RecordingWarning: Sendable, Equatable, CustomStringConvertible {
    public var offset: Int
    public var message: String

    public var description: String { "offset 0x\(String(offset, radix: 16)): \(message)" }
}

/// What the recorder's exit scan found: the live blocks nothing in the program pointed to.
public struct ExitScan: Sendable, Equatable {
    public struct Flags: OptionSet, Sendable, Equatable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// The live table dropped blocks: the result cannot be trusted.
        public static let tableIncomplete = Flags(rawValue: 1)
        /// process_vm_readv was refused: other threads' stacks were not scanned.
        public static let noProcessVMReadv = Flags(rawValue: 2)
        /// /proc/self/maps was unreadable: no stack was scanned.
        public static let noMaps = Flags(rawValue: 4)
    }

    public var seq: UInt64
    public var flags: Flags
    /// Stacks of threads other than the exiting one that were scanned.
    public var otherThreadsScanned: UInt32
    /// Blocks the recorder knew alive when it scanned.
    public var liveBlocks: UInt64
    public var unreachableBlocks: UInt64
    public var unreachableBytes: UInt64
    /// Bytes of roots and blocks read.
    public var bytesRead: UInt64
    public var durationNanoseconds: UInt64
    /// Start addresses of the unreachable blocks.
    public var unreachable: Set<UInt64>
}
