// The devkit symbol cache ($XDG_CACHE_HOME/devkit/symbols/<build-id>): the records of a
// symbolication index, declared once so their layout is fixed by this header and checked at
// compile time, not discovered at run time. Symbolication's IndexFile writes and maps them.
//
// Every integer is little-endian. The header's fields are written one by one as such; the
// record arrays are copied from memory as they are, so devkit reads and writes caches only on
// little-endian machines (every machine it builds for).
#ifndef DEVKIT_SYMBOL_CACHE_H
#define DEVKIT_SYMBOL_CACHE_H

#include <stdint.h>
#include <stddef.h>

/// The field's name in Swift.
#define DKS_SWIFT_NAME(name) __attribute__((swift_name(#name)))

/// The first 8 bytes of every cache file.
#define DKS_MAGIC "DKSYMIDX"
/// Bumped whenever a reader of the previous version could misread a file: older or newer
/// files are rebuilt, never reinterpreted.
#define DKS_FORMAT_VERSION 8
/// Written at DKS_OFFSET_BYTE_ORDER: a file with other bytes there is not read.
#define DKS_BYTE_ORDER_MARK 0x01020304u

// File header (DKS_HEADER_SIZE bytes), by byte offset.
#define DKS_OFFSET_MAGIC 0
#define DKS_OFFSET_VERSION 8
#define DKS_OFFSET_BYTE_ORDER 12
/// uint32_t, 0 (reserved).
#define DKS_OFFSET_RESERVED 16
/// uint32_t identifier length, then DKS_MAX_IDENTIFIER bytes, zero-padded.
#define DKS_OFFSET_IDENTIFIER_LENGTH 20
#define DKS_OFFSET_IDENTIFIER 24
#define DKS_MAX_IDENTIFIER 64
/// uint64_t image size, int64_t image mtime (ns), uint64_t debug-file size, int64_t debug-file mtime.
#define DKS_OFFSET_IDENTITY 88
/// DKS_SECTION_COUNT × (uint64_t offset, uint64_t count): lines, ranges, depth starts
/// (uint32_t), subroutines, symbols, string spans, string bytes, block checksums (uint64_t),
/// block keys (uint64_t), range carries (uint64_t). Each array starts at the 8-byte aligned
/// end of the one before it (the first right after the header); the padding bytes are zero
/// and the file ends at the aligned end of the last.
#define DKS_OFFSET_SECTIONS 120
#define DKS_SECTION_COUNT 10
/// uint64_t checksum of the header's other bytes and of the small arrays (depth starts,
/// block checksums, block keys, range carries): checked when the file is opened.
#define DKS_OFFSET_CHECKSUM 280
#define DKS_HEADER_SIZE 288

// Blocks (format 8). The large arrays (lines, ranges, subroutines, symbols, string spans,
// string bytes) are cut into blocks of a fixed number of records; each block has its own
// checksum, and a block is checked (checksum, references, order) the first time a lookup
// needs it, so opening a cache reads the header and small arrays only.
#define DKS_LINES_PER_BLOCK 128
#define DKS_RANGES_PER_BLOCK 128
#define DKS_SUBROUTINES_PER_BLOCK 256
#define DKS_SYMBOLS_PER_BLOCK 128
#define DKS_SPANS_PER_BLOCK 512
#define DKS_STRING_BYTES_PER_BLOCK 4096
/// The block checksums: every block of lines, then ranges, subroutines, symbols, string
/// spans and string bytes. The block keys: the first key (address or start) of every block
/// of lines, then ranges, then symbols. The range carries: for each block of ranges, the
/// max_end of the range before its first one when both are of one depth, else 0.

/// dks_line_record.flags: the row ends a sequence (its address is one past the last).
#define DKS_LINE_END_SEQUENCE 1u
/// dks_symbol_record.flags: the symbol is in the image's own table, not only in its
/// separate debug file's.
#define DKS_SYMBOL_IN_IMAGE_TABLE 1u
/// A string id meaning "no string".
#define DKS_NO_STRING 0xffffffffu

/// One line-table row.
typedef struct dks_line_record {
    uint64_t address;
    uint32_t file;    // string id
    uint32_t line;
    uint32_t column;
    uint32_t flags;   // DKS_LINE_END_SEQUENCE
} dks_line_record;

/// The code range of a function (depth 0) or an inlined call (depth 1, 2, …).
typedef struct dks_range_record {
    uint64_t start;
    uint64_t end;
    /// The largest end among the ranges of this depth up to this one.
    uint64_t max_end DKS_SWIFT_NAME(maxEnd);
    uint32_t subroutine;  // index into the subroutines
    /// For a function's range (depth 0), how its outermost frame is named at every address
    /// in it, worked out when the index is built: DKS_NAME_ASK_SYMBOLS, DKS_NAME_FROM_DWARF,
    /// or the string id + DKS_NAME_SYMBOL_BASE of the image-table symbol covering all of it.
    /// DKS_NAME_ASK_SYMBOLS for inlined calls' ranges.
    uint32_t outermost_name DKS_SWIFT_NAME(outermostName);
} dks_range_record;

/// dks_range_record.outermost_name: symbols start or end inside the range, so the symbol
/// table is searched at each address.
#define DKS_NAME_ASK_SYMBOLS 0u
/// dks_range_record.outermost_name: no image-table symbol covers the range; the DWARF name stands.
#define DKS_NAME_FROM_DWARF 1u
/// dks_range_record.outermost_name: values from this one on are a symbol's string id plus it.
#define DKS_NAME_SYMBOL_BASE 2u

/// A function or inlined call: its name and, for an inlined call, its call site.
typedef struct dks_subroutine_record {
    uint32_t name;       // string id or DKS_NO_STRING
    uint32_t call_file DKS_SWIFT_NAME(callFile);  // string id or DKS_NO_STRING
    uint32_t call_line DKS_SWIFT_NAME(callLine);
    uint32_t call_column DKS_SWIFT_NAME(callColumn);
} dks_subroutine_record;

/// A symbol-table function.
typedef struct dks_symbol_record {
    uint64_t start;
    uint64_t end;
    uint32_t name;      // string id
    /// For a local symbol, the STT_FILE symbol before it (its source file), else DKS_NO_STRING.
    uint32_t file;
    uint32_t flags;     // DKS_SYMBOL_IN_IMAGE_TABLE
    uint32_t reserved;  // 0
} dks_symbol_record;

/// Where a string lies in the string bytes.
typedef struct dks_string_span {
    uint32_t offset;
    uint32_t length;
} dks_string_span;

_Static_assert(sizeof(dks_line_record) == 24, "dks_line_record is 24 bytes");
_Static_assert(offsetof(dks_line_record, file) == 8 && offsetof(dks_line_record, flags) == 20, "dks_line_record layout");
_Static_assert(sizeof(dks_range_record) == 32, "dks_range_record is 32 bytes");
_Static_assert(offsetof(dks_range_record, max_end) == 16 && offsetof(dks_range_record, subroutine) == 24, "dks_range_record layout");
_Static_assert(sizeof(dks_subroutine_record) == 16, "dks_subroutine_record is 16 bytes");
_Static_assert(sizeof(dks_symbol_record) == 32, "dks_symbol_record is 32 bytes");
_Static_assert(offsetof(dks_symbol_record, name) == 16 && offsetof(dks_symbol_record, flags) == 24, "dks_symbol_record layout");
_Static_assert(sizeof(dks_string_span) == 8, "dks_string_span is 8 bytes");
_Static_assert(DKS_OFFSET_CHECKSUM + 8 <= DKS_HEADER_SIZE, "the header holds the checksum");
_Static_assert(DKS_HEADER_SIZE % 8 == 0, "the arrays after the header are aligned");
_Static_assert(DKS_OFFSET_SECTIONS + DKS_SECTION_COUNT * 16 <= DKS_OFFSET_CHECKSUM, "the sections end before the checksum");

#endif
