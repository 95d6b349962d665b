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
