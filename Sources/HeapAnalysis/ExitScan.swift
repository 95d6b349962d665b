/// What the recorder's exit scan found: the live blocks nothing in the program pointed to,
/// and (recorders since leak kinds) how the others were reached.
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
        /// The recorder's table of the program's own mappings was full: some were not scanned.
        public static let mappingsIncomplete = Flags(rawValue: 8)
    }

    /// The memcheck kinds of the scan (the SCAN record's second part and the LEAK_KIND
    /// records); absent from recordings made before them.
    public struct Kinds: Sendable, Equatable {
        public var indirectlyLostBlocks: UInt64
        public var indirectlyLostBytes: UInt64
        public var possiblyLostBlocks: UInt64
        public var possiblyLostBytes: UInt64
        /// Other threads stopped at exit, whose registers were scanned.
        public var threadsStopped: UInt32
        /// Other threads that did not stop (signal blocked): registers not scanned.
        public var threadsUnanswered: UInt32
        /// Mappings the program made itself that were scanned, and the bytes read from them.
        public var mappingsScanned: UInt32
        public var mappedBytesRead: UInt64
        /// Start addresses of the indirectly lost blocks (a subset of `unreachable`).
        public var indirectlyLost: Set<UInt64>
        /// Start addresses of the possibly lost blocks (reached, so not in `unreachable`).
        public var possiblyLost: Set<UInt64>
    }

    public var seq: UInt64
    public var flags: Flags
    /// Stacks of threads other than the exiting one that were scanned.
    public var otherThreadsScanned: UInt32
    /// Blocks the recorder knew alive when it scanned.
    public var liveBlocks: UInt64
    /// Blocks nothing reached: definitely and indirectly lost.
    public var unreachableBlocks: UInt64
    public var unreachableBytes: UInt64
    /// Bytes of roots and blocks read.
    public var bytesRead: UInt64
    public var durationNanoseconds: UInt64
    /// Start addresses of the unreachable blocks.
    public var unreachable: Set<UInt64>
    public var kinds: Kinds?

    /// The kind of the live block at `address`. Without `kinds` (an older recording) an
    /// unreachable block counts as definitely lost and a reached one as still reachable.
    public func kind(of address: UInt64) -> LeakKind {
        if unreachable.contains(address) {
            return kinds?.indirectlyLost.contains(address) == true ? .indirectlyLost : .definitelyLost
        }
        return kinds?.possiblyLost.contains(address) == true ? .possiblyLost : .stillReachable
    }
}
