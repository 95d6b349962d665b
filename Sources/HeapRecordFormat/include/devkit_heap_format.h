// The devkit heap recording format, defined once for the recorder (C) and the reader (Swift).
// FORMAT.md beside this directory describes it in prose. All integers are little-endian.
#ifndef DEVKIT_HEAP_FORMAT_H
#define DEVKIT_HEAP_FORMAT_H

#include <stdint.h>

/// The first 8 bytes of every recording.
#define DKH_MAGIC "DKITHEAP"
#define DKH_MAGIC_SIZE 8
/// Bumped when a reader of the previous version could misread a file. New record types do
/// not bump it: readers skip record types they do not know (version 4's COMPRESSED records
/// did: a version-3 reader would have skipped nearly everything silently; version 5's EVENTS
/// and PAIRS payloads are laid out in columns, which a version-4 reader would misread).
#define DKH_FORMAT_VERSION 5
/// The oldest version this reader still reads (version 1 has no PAIRS records, version 2's
/// PAIRS entries have no type).
#define DKH_FORMAT_VERSION_MIN 1

/// File header (DKH_HEADER_SIZE bytes). `header_size` lets later versions grow it.
typedef struct dkh_file_header {
    char magic[8];           // DKH_MAGIC
    uint32_t version;        // DKH_FORMAT_VERSION
    uint32_t header_size;    // sizeof(dkh_file_header) when written
    uint32_t pid;
    uint32_t parent_pid;
    uint64_t start_time_ns;  // CLOCK_REALTIME at start
    uint32_t pointer_size;   // 8
    uint32_t flags;          // dkh_header_flags
} dkh_file_header;
#define DKH_HEADER_SIZE 40

/// Every record after the header: an 8-byte header, then `length` bytes of payload. A
/// recording cut anywhere is readable up to its last complete record.
typedef struct dkh_record_header {
    uint32_t type;    // dkh_record_type
    uint32_t length;  // payload bytes that follow
} dkh_record_header;
#define DKH_RECORD_HEADER_SIZE 8
/// No record is longer than this; a reader refuses larger lengths as corrupt.
#define DKH_MAX_RECORD_LENGTH (64u << 20)
/// A DKH_RECORD_CLOCK record with its header.
#define DKH_CLOCK_RECORD_SIZE (DKH_RECORD_HEADER_SIZE + 16)

enum dkh_record_type {
    /// Payload: the command line, arguments separated by NUL bytes.
    DKH_RECORD_COMMAND = 1,
    /// Payload: u64 seq, u32 module id, u32 segment count, u64 load bias, u16 build-id length,
    /// build-id bytes, u16 path length, path bytes, then per segment u64 start, u64 end
    /// (runtime addresses of PT_LOAD segments).
    DKH_RECORD_MODULE = 2,
    /// Payload: u64 seq, u32 module id.
    DKH_RECORD_MODULE_UNLOAD = 3,
    /// Payload: u32 stack id, u32 frame count, then that many u64 return addresses,
    /// innermost first (the recorder's own frames removed).
    DKH_RECORD_STACK = 4,
    /// Payload: u32 thread id, u32 reserved, u64 base seq, then events (see below) to the end
    /// of the payload: before version 5 one after the other; since version 5 in columns
    /// (ULEB byte lengths of the first DKH_EVENT_COLUMNS - 1 columns, then the columns, the
    /// last to the end of the payload; FORMAT.md, "Events").
    DKH_RECORD_EVENTS = 5,
    /// Payload: u64 seq, u32 dkh_mark_kind, label bytes (UTF-8) to the end.
    DKH_RECORD_MARK = 6,
    /// Payload: u64 seq, u32 dkh_end_reason, i32 status (exit status or signal number).
    DKH_RECORD_END = 7,
    /// Payload: u64 scan seq, then u64 addresses of live blocks the exit scan could not reach,
    /// ascending. Several records for one scan; all precede its DKH_RECORD_SCAN.
    DKH_RECORD_UNREACHABLE = 8,
    /// Payload: u64 scan seq, u32 dkh_scan_flags, u32 other threads' stacks scanned, u64 live
    /// blocks, u64 unreachable blocks, u64 unreachable bytes, u64 root and block bytes read,
    /// u64 scan duration in ns (56 bytes); recorders that write DKH_RECORD_LEAK_KIND go on
    /// (DKH_SCAN_PAYLOAD_SIZE bytes in all) with u64 indirectly lost blocks, u64 their bytes,
    /// u64 possibly lost blocks, u64 their bytes, u32 other threads stopped (registers read),
    /// u32 other threads that did not stop, u32 program mappings scanned, u32 reserved, u64
    /// bytes of program mappings read. Written once, after the scan's UNREACHABLE and
    /// LEAK_KIND records.
    DKH_RECORD_SCAN = 9,
    /// Payload: u32 thread id, u32 reserved, u64 seq, then to the end of the payload entries
    /// of ULEB stack id, ULEB size, ULEB count, ULEB type metadata address (0: not a Swift
    /// class instance; since version 3): allocation/free pairs of that thread that the
    /// recorder cancelled (neither event written) because the block was freed before any mark
    /// could see it. All of a record's pairs belong to the generation containing `seq`.
    /// Since version 2. Since version 5 the entries are in columns: ULEB entry count, ULEB
    /// byte lengths of the stack, size and count columns, then the columns (stack ids as zigzag
    /// deltas, sizes, counts, types as zigzag deltas to the end), FORMAT.md "Cancelled pairs".
    DKH_RECORD_PAIRS = 10,
    /// Payload: u64 seq, u64 CLOCK_MONOTONIC time in ns: every seq below `seq` was taken by
    /// that time (a mark's own seq: taken at that time). Written with each mark and each
    /// flush of a thread's events; places events in time for the timeline.
    DKH_RECORD_CLOCK = 11,
    /// Payload: u64 scan seq, u32 dkh_leak_kind, u32 reserved, then u64 addresses (ascending)
    /// of live blocks of that kind. Indirectly lost blocks are among the UNREACHABLE ones (the
    /// rest of those are definitely lost); possibly lost ones are not (the scan reached them).
    /// Several records for one scan, all before its DKH_RECORD_SCAN. A new record type, not a
    /// new version: older readers skip it and read UNREACHABLE as before.
    DKH_RECORD_LEAK_KIND = 12,
    /// Payload: u32 length of the bytes this record decompresses to (1 to
    /// DKH_MAX_COMPRESSED_INPUT), then the next piece of the recording's one zstd stream,
    /// ending at a flush: what it decompresses to is whole records (never a header, never a
    /// COMPRESSED record). Concatenated in file order, the pieces are one zstd stream. Plain
    /// records may lie between them (a write the stream could not take at that moment); all
    /// records, plain or decompressed, are read in file order. Since version 4.
    DKH_RECORD_COMPRESSED = 13,
};

/// The most bytes one COMPRESSED record decompresses to; a reader refuses larger claims.
#define DKH_MAX_COMPRESSED_INPUT (1u << 20)
/// The largest zstd window (log2 bytes) a recorder uses and a reader accepts: bounds the
/// decoder's memory whatever a frame header claims.
#define DKH_ZSTD_WINDOW_LOG_MAX 23
/// A reader refuses a recording whose records would decompress to more than
/// DKH_MAX_EXPANSION_BASE + DKH_MAX_EXPANSION_RATIO times its compressed bytes (a hostile
/// file claiming gigabytes): real recordings compress 10 to 150 times.
#define DKH_MAX_EXPANSION_BASE (64ull << 20)
#define DKH_MAX_EXPANSION_RATIO 1024ull

/// The payload size of a DKH_RECORD_SCAN with the leak-kind counts.
#define DKH_SCAN_PAYLOAD_SIZE 112
/// The payload size of a DKH_RECORD_SCAN without them (recorders before leak kinds).
#define DKH_SCAN_PAYLOAD_SIZE_V1 56

/// Leak kinds in DKH_RECORD_LEAK_KIND, as valgrind memcheck names them.
enum dkh_leak_kind {
    /// Reachable only from unreachable blocks (memcheck's "indirectly lost").
    DKH_LEAK_INDIRECTLY_LOST = 2,
    /// Reached, but only through a pointer into its middle somewhere on the way (memcheck's
    /// "possibly lost").
    DKH_LEAK_POSSIBLY_LOST = 3,
};

/// DKH_RECORD_SCAN flags.
enum dkh_scan_flags {
    DKH_SCAN_TABLE_INCOMPLETE = 1,  // the live table dropped blocks: "unreachable" may be wrong
    DKH_SCAN_NO_VM_READV = 2,       // process_vm_readv refused: other threads' stacks not scanned
    DKH_SCAN_NO_MAPS = 4,           // /proc/self/maps unreadable: no stack scanned
    DKH_SCAN_MAPPINGS_INCOMPLETE = 8,  // the program's mappings table was full: some not scanned
};

/// Events inside DKH_RECORD_EVENTS: a tag byte, then ULEB128 / zigzag-SLEB128 fields.
/// seq delta is relative to the previous event of the record (the first: to base seq);
/// ptr delta is zigzag, relative to the previous event's pointer (the first: to 0).
enum dkh_event_tag {
    /// seq delta, ptr delta, size, stack id
    DKH_EVENT_ALLOC = 1,
    /// seq delta, ptr delta
    DKH_EVENT_FREE = 2,
    /// seq delta, ptr delta, size, stack id, type metadata address (a Swift class instance)
    DKH_EVENT_ALLOC_TYPED = 3,
    /// seq delta, ptr delta (0), bytes, blocks: at this seq the thread also had `blocks`
    /// blocks of `bytes` alive that it later freed as cancelled pairs (never written as
    /// events); the highest such level between two of its written events. Since version 3.
    DKH_EVENT_SHORT_LIVED = 4,
};

/// Columns of a version-5 DKH_RECORD_EVENTS record, in payload order: each holds one ULEB128
/// number per event that has the field, predicted from the previous such event of the record
/// (FORMAT.md, "Events").
enum dkh_event_column {
    DKH_COLUMN_TAG = 0,            // every event: its dkh_event_tag, one byte (the column's length is the event count)
    DKH_COLUMN_SEQ = 1,            // every event: seq delta (to the previous event; the first to base seq)
    DKH_COLUMN_ALLOC_ADDRESS = 2,  // allocations: zigzag(address - previous allocation's)
    DKH_COLUMN_FREE_ADDRESS = 3,   // frees: zigzag(address - previous free's address)
    DKH_COLUMN_SIZE = 4,           // allocations: size
    DKH_COLUMN_STACK = 5,          // allocations: zigzag(stack id - previous allocation's)
    DKH_COLUMN_TYPE = 6,           // typed allocations: type metadata address
    DKH_COLUMN_SHORT_BYTES = 7,    // short-lived levels: zigzag(bytes - previous level's bytes)
    DKH_COLUMN_SHORT_BLOCKS = 8,   // short-lived levels: blocks
};
#define DKH_EVENT_COLUMNS 9

enum dkh_mark_kind {
    DKH_MARK_START = 0,     // recording started: begins generation 0
    DKH_MARK_API = 1,       // devkit_heap_mark(label)
    DKH_MARK_SIGNAL = 2,    // the mark signal (SIGUSR2 by default)
    DKH_MARK_INTERVAL = 3,  // devkit heap record --interval
};

/// File header flags. Readers that predate a flag ignore it.
enum dkh_header_flags {
    /// Attached to a running process (`devkit heap record --pid`): blocks allocated before
    /// the attach are unknown, so a free of an address never seen allocated is one of them.
    DKH_HEADER_ATTACHED = 1,
};

enum dkh_end_reason {
    DKH_END_EXIT = 1,         // exit() / return from main: status unknown to the recorder (-1)
    DKH_END_UNDERSCORE_EXIT = 2,  // _exit/_Exit(status)
    DKH_END_SIGNAL = 3,       // a fatal signal (status = signal number)
    DKH_END_WRITE_FAILED = 4, // the disk filled up or a write failed: recording stopped here
    DKH_END_EXEC = 5,         // the image called exec (status 0); with --fork follow the new
                              // image records to OUTPUT.PID.N. Events follow if exec failed.
    DKH_END_DETACHED = 6,     // `devkit heap record --pid` detached (status 0): the process runs on
};

#endif
