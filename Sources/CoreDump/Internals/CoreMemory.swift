/// The crashed process's memory as a core holds it, read a word at a time for the unwinder
/// (`DwflCoreSession`'s own `memory_read`).
///
/// libdwfl's reader for cores scans every program header and asks libelf for an 8-byte
/// chunk at each read (`elf_getdata_rawchunk`, which allocates and files every chunk it
/// gives): on a 21-thread core that was 10 M instructions of the 13 M the unwinding took,
/// more than half of `eu-stack`'s whole run. This one answers as libdwfl's does, from the
/// mapped file: the first `PT_LOAD` segment (in program-header order) whose range, rounded
/// out to the smallest alignment above 1 among them (libdwfl's `segment_align`), holds all 8
/// bytes, read at the segment's file offset plus the distance from the rounded start, and no
/// answer when those bytes lie past the end of the file (a truncated core). Segments sorted
/// and apart (every core devkit has seen) are found by binary search, others by the scan.
final class CoreMemory {
    struct Segment {
        var start: UInt64
        var end: UInt64
        var offset: UInt64
    }

    /// Why the last read that failed did (for the unwinding's stop reason).
    enum Failure: Equatable {
        case outOfRange(UInt64)
        case pastEndOfFile(UInt64)

        var message: String {
            switch self {
            case .outOfRange(let address): "address 0x\(String(address, radix: 16)) out of range (not in the core)"
            case .pastEndOfFile(let address): "address 0x\(String(address, radix: 16)) lies past the end of the core file (truncated)"
            }
        }
    }

    private let file: UnsafeRawBufferPointer
    /// In program-header order.
    private let segments: [Segment]
    /// The same, sorted by start, when they do not overlap: searched instead of the scan.
    private let sorted: [Segment]?
    private(set) var lastFailure: Failure?

    /// `loads`: every `PT_LOAD` program header's `p_vaddr`, `p_memsz`, `p_offset` and
    /// `p_align`, in program-header order; `file`: the whole core, mapped.
    init(file: UnsafeRawBufferPointer, loads: [(address: UInt64, memorySize: UInt64, offset: UInt64, align: UInt64)]) {
        self.file = file
        // libdwfl's segment_align: the smallest p_align above 1 of the segments reported.
        let align = loads.map(\.align).filter { $0 > 1 }.min() ?? 0
        func roundedDown(_ address: UInt64) -> UInt64 { align > 1 ? address & (0 &- align) : address }
        func roundedUp(_ address: UInt64) -> UInt64 { align > 1 ? (address &+ align &- 1) & (0 &- align) : address }
        segments = loads.map { Segment(start: roundedDown($0.address), end: roundedUp($0.address &+ $0.memorySize), offset: $0.offset) }
        let byStart = segments.sorted { $0.start < $1.start }
        sorted = zip(byStart, byStart.dropFirst()).allSatisfy { $0.end <= $1.start } ? byStart : nil
    }

    /// The 8 bytes at `address` (little-endian, as the cores devkit unwinds itself are).
    func word(at address: UInt64) -> UInt64? {
        // libdwfl's test, with its wrap-around: addr < start || addr + 8 > end skips a segment.
        let last = address &+ 8
        var found: Segment?
        if let sorted {
            // The last segment starting at or before the address (if any) is the only candidate.
            var low = 0, high = sorted.count
            while low < high {
                let mid = (low + high) / 2
                if sorted[mid].start <= address { low = mid + 1 } else { high = mid }
            }
            if low > 0, last <= sorted[low - 1].end { found = sorted[low - 1] }
        } else {
            found = segments.first { address >= $0.start && last <= $0.end }
        }
        guard let segment = found else {
            lastFailure = .outOfRange(address)
            return nil
        }
        let offset = segment.offset &+ (address &- segment.start)
        // libelf refuses a chunk that does not lie inside the file (or whose offset is negative as an Int64).
        guard offset <= UInt64(Int64.max), offset <= UInt64(file.count), UInt64(file.count) - offset >= 8 else {
            lastFailure = .pastEndOfFile(address)
            return nil
        }
        return UInt64(littleEndian: file.loadUnaligned(fromByteOffset: Int(offset), as: UInt64.self))
    }

    /// Forgets the last failure (each thread's walk starts afresh).
    func clearFailure() { lastFailure = nil }
}
