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
    /// When sequence numbers were taken (CLOCK records), for the timeline; empty in
    /// recordings made before they existed.
    public internal(set) var clock = RecordingClock()
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
    /// LEAK_KIND addresses by scan seq and kind, until their SCAN record arrives.
    var pendingLeakKinds: [LeakKindRecordKey: [UInt64]] = [:]

    public struct Header: Sendable, Equatable {
        public var version: UInt32
        public var pid: UInt32
        public var parentPID: UInt32
        /// Start time, nanoseconds since the Unix epoch.
        public var startTimeNanoseconds: UInt64
        /// Attached to a running process (`heap record --pid`, header flag DKH_HEADER_ATTACHED):
        /// blocks allocated before the attach were never seen.
        public var attached = false
    }

    init(path: String, header: Header, storage: MappedFile) {
        self.path = path
        self.header = header
        self.storage = storage
    }
}
