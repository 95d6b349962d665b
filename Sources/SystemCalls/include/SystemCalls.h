#ifndef DEVKIT_SYSTEM_CALLS_H
#define DEVKIT_SYSTEM_CALLS_H

#include <stddef.h>
#include <stdint.h>

/// Starts writing back the dirty pages of `fd` in [offset, offset + length) without waiting
/// for them (Linux `sync_file_range(SYNC_FILE_RANGE_WRITE)`, which Swift's Glibc module does
/// not declare). A writer that starts each piece's writeback as it goes leaves its final
/// fsync little to wait for. 0 on success, -1 with errno otherwise; advice only.
int system_start_writeback(int fd, int64_t offset, int64_t length);

/// While the calling thread is inside a guard over a file mapping [base, base + length), a
/// SIGBUS from reading a page of it that the file no longer has (it was truncated after it
/// was mapped) does not end the process: the missing pages are replaced by zero-filled
/// anonymous memory and the fault is remembered, so the reader runs on to the end and
/// `mapped_guard_leave` tells the caller to discard what it read. Any other SIGBUS goes to
/// the handler that was there before (the Swift runtime's backtracer or the default).
/// 0 on success, -1 with errno when the handler could not be installed. Guards do not nest.
int mapped_guard_enter(const void *base, size_t length);

/// Ends the calling thread's guard: the offset into the range of the first page that was
/// missing, or -1 when every read found the file's bytes.
int64_t mapped_guard_leave(void);

#endif
