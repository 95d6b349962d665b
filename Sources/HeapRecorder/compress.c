// The recording's one zstd stream (format version 4, DKH_RECORD_COMPRESSED).
//
// Every write after the file header is compressed into one stream shared by all threads and
// ends at a flush, so each write(2) is one COMPRESSED record that decompresses to whole
// records: a file cut anywhere still reads up to its last complete record, as before. One
// stream rather than one per write because most writes are small and alike (a short-lived
// thread's events, pairs and clock: a few hundred bytes that repeat from thread to thread),
// which only a window over earlier writes compresses (Scripts/bench/RESULTS.md, issue 19).
//
// The stream is held by one thread at a time, from compression to write(2), so the file's
// order is the stream's. A write the stream cannot take — the holder is this very thread (a
// signal handler interrupted it mid-write), or another thread keeps it longer than
// DKH_STREAM_WAIT_NS — is written as plain records, which the format allows anywhere.
#include "recorder_internal.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
// For ZSTD_customMem and ZSTD_createCCtx_advanced (exported by libzstd.so.1 since 1.3; the
// "static linking only" API is stable in practice for these two).
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

/// The largest write compressed (every write the recorder makes is smaller: a thread's
/// 64 KiB buffer, 8,192 addresses of a scan); larger ones go plain.
#define DKH_STREAM_CHUNK (128u * 1024)
/// How long a writer waits for the stream before writing plainly: far above a compression
/// (about 0.1 ms for 64 KiB), for a holder descheduled on a loaded machine.
#define DKH_STREAM_WAIT_NS 1000000000ull
#define DKH_COMPRESSED_HEADER_SIZE (DKH_RECORD_HEADER_SIZE + 4)
/// Deferred records (new stacks) held for the stream's next write.
#define DKH_DEFERRED_SIZE (32u * 1024)
/// The most zstd's match-finder tables get (as logs of their entries), whatever the level.
#define DKH_ZSTD_HASH_LOG 14u
#define DKH_ZSTD_CHAIN_LOG 14u

static struct {
    /// The thread id holding the stream, 0 when free.
    atomic_int holder;
    ZSTD_CCtx *context;
    /// Compressed writes go through the stream; 0 without one or after a zstd failure.
    int enabled;
    int level;
    /// Records that may wait for the next compressed write (new stacks: their events are
    /// written later, in a write that takes these first), so that 500 new stacks are not
    /// 500 compressed records with 20 bytes of framing each. Held with the stream.
    size_t deferred_used;
    uint8_t deferred[DKH_DEFERRED_SIZE];
    uint8_t out[DKH_COMPRESSED_HEADER_SIZE + ZSTD_COMPRESSBOUND(DKH_STREAM_CHUNK) + 1024];
} stream;

// zstd's memory from mmap: its own allocations must not come back through the malloc hooks,
// and a signal handler's write may run while the program is inside malloc.
#define DKH_ZSTD_ALLOC_HEADER 64
static void *zstd_alloc(void *opaque, size_t size) {
    (void)opaque;
    size_t total = size + DKH_ZSTD_ALLOC_HEADER;
    uint8_t *p = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    memcpy(p, &total, sizeof total);
    return p + DKH_ZSTD_ALLOC_HEADER;
}

static void zstd_free(void *opaque, void *address) {
    (void)opaque;
    if (!address) return;
    uint8_t *p = (uint8_t *)address - DKH_ZSTD_ALLOC_HEADER;
    size_t total;
    memcpy(&total, p, sizeof total);
    munmap(p, total);
}

void dkh_stream_init(void) {
    // DEVKIT_HEAP_ZSTD: 0 writes plain records (as version 3 did, under version 4's header);
    // 1-19 the zstd level. Level 3 by default: on Scripts/bench/heap's workloads it writes
    // about what level 5 does (within the spread of cross-thread's sizes from run to run, swift
    // 8 % more) for 40 M fewer instructions on cross-thread, whose every event is written.
    // Level 1 wrote more (cross-thread 0.38-1.02 MB against level 5's 0.16-0.57 MB) for no CPU
    // time perf stat could tell apart (RESULTS.md, issue 19).
    const char *setting = getenv("DEVKIT_HEAP_ZSTD");
    int level = setting && *setting ? atoi(setting) : 3;
    stream.enabled = 0;
    if (level <= 0) return;
    stream.level = level > 19 ? 19 : level;
    if (!stream.context) {
        ZSTD_customMem memory = {zstd_alloc, zstd_free, NULL};
        stream.context = ZSTD_createCCtx_advanced(memory);
        if (!stream.context) return;
    }
    stream.enabled = 1;
}

void dkh_stream_begin(void) {
    atomic_store(&stream.holder, 0);
    // A forked child's copy holds the parent's records: the parent writes them (the child
    // writes every stack again itself).
    stream.deferred_used = 0;
    if (!stream.context) return;
    ZSTD_CCtx_reset(stream.context, ZSTD_reset_session_and_parameters);
    // Levels up to 19 keep zstd's window within DKH_ZSTD_WINDOW_LOG_MAX (2^23 at 19).
    if (ZSTD_isError(ZSTD_CCtx_setParameter(stream.context, ZSTD_c_compressionLevel, stream.level))) stream.enabled = 0;
    // The default tables (2^17 + 2^16 entries at level 3, 2^19 + 2^18 at 5) are sized for
    // inputs of many megabytes and cleared when the first record is compressed: level 5's cost
    // about 750 page faults, 1.8 ms of every recorded run's start-up. A write is at most 64 KiB
    // of columns that repeat their own recent bytes: tables of 2^14 entries (64 KiB each)
    // wrote recordings as small, and their lines stay in the cache between writes.
    ZSTD_compressionParameters chosen = ZSTD_getCParams(stream.level, 0, 0);
    if (chosen.hashLog > DKH_ZSTD_HASH_LOG) ZSTD_CCtx_setParameter(stream.context, ZSTD_c_hashLog, DKH_ZSTD_HASH_LOG);
    if (chosen.chainLog > DKH_ZSTD_CHAIN_LOG) ZSTD_CCtx_setParameter(stream.context, ZSTD_c_chainLog, DKH_ZSTD_CHAIN_LOG);
}

/// 1 when this thread now holds the stream; 0 when it cannot (see the top of the file).
static int stream_enter(int self) {
    uint64_t deadline = 0;
    for (uint32_t spins = 0;; spins++) {
        int expected = 0;
        if (atomic_compare_exchange_weak_explicit(&stream.holder, &expected, self, memory_order_acquire, memory_order_relaxed))
            return 1;
        if (expected == self) return 0;
        if (spins < 1024) {
            __builtin_ia32_pause();
            continue;
        }
        uint64_t now = dkh_monotonic_ns(1);
        if (!deadline) deadline = now + DKH_STREAM_WAIT_NS;
        else if (now >= deadline) return 0;
        sched_yield();
    }
}

static void stream_leave(void) { atomic_store_explicit(&stream.holder, 0, memory_order_release); }

/// Compresses `count` parts (`total` bytes, whole records) as one COMPRESSED record and writes
/// it. Returns 0 written, -1 the write failed (recording stopped), 1 not compressed (the
/// caller writes the parts plainly; nothing of them entered the stream's output).
static int write_compressed(const void *const *parts, const size_t *sizes, int count, size_t total) {
    ZSTD_outBuffer out = {stream.out + DKH_COMPRESSED_HEADER_SIZE, sizeof stream.out - DKH_COMPRESSED_HEADER_SIZE, 0};
    size_t left = 0;
    for (int i = 0; i < count; i++) {
        ZSTD_inBuffer in = {parts[i], sizes[i], 0};
        while (in.pos < in.size) {
            left = ZSTD_compressStream2(stream.context, &out, &in, ZSTD_e_continue);
            if (ZSTD_isError(left) || (out.pos == out.size && in.pos < in.size)) goto broken;
        }
    }
    ZSTD_inBuffer none = {NULL, 0, 0};
    do {
        left = ZSTD_compressStream2(stream.context, &out, &none, ZSTD_e_flush);
        if (ZSTD_isError(left)) goto broken;
    } while (left != 0 && out.pos < out.size);
    // The buffer holds the bound of a whole chunk: a flush that does not fit is a broken stream.
    if (left != 0) goto broken;
    dkh_put_u32(stream.out, DKH_RECORD_COMPRESSED);
    dkh_put_u32(stream.out + 4, (uint32_t)(4 + out.pos));
    dkh_put_u32(stream.out + 8, (uint32_t)total);
    return dkh_write_plain(stream.out, DKH_COMPRESSED_HEADER_SIZE + out.pos);
broken:
    // Part of this write may be inside the stream, never flushed to the file: no later piece
    // may follow it. Everything from here on is written plainly.
    stream.enabled = 0;
    return 1;
}

/// Writes the deferred records (held by the caller with the stream), compressed.
static int drain_deferred(void) {
    if (!stream.deferred_used) return 0;
    const void *parts[1] = {stream.deferred};
    size_t sizes[1] = {stream.deferred_used};
    // After a zstd failure (enabled 0) the stream takes nothing more: plainly.
    int result = stream.enabled ? write_compressed(parts, sizes, 1, stream.deferred_used) : 1;
    if (result == 1) result = dkh_write_plain(stream.deferred, stream.deferred_used);
    stream.deferred_used = 0;
    return result;
}

int dkh_write_parts_compressed(const void *const *parts, const size_t *sizes, int count) {
    size_t total = 0;
    for (int i = 0; i < count; i++) total += sizes[i];
    if (stream.enabled && total > 0 && total <= DKH_STREAM_CHUNK) {
        int self = (int)syscall(SYS_gettid);
        if (stream_enter(self)) {
            int result = 1;
            if (stream.enabled) {
                // The deferred records first, in the same compressed record when they fit.
                if (stream.deferred_used && stream.deferred_used + total <= DKH_STREAM_CHUNK && count < 4) {
                    const void *all[4] = {stream.deferred};
                    size_t all_sizes[4] = {stream.deferred_used};
                    for (int i = 0; i < count; i++) {
                        all[i + 1] = parts[i];
                        all_sizes[i + 1] = sizes[i];
                    }
                    result = write_compressed(all, all_sizes, count + 1, stream.deferred_used + total);
                    if (result != 1) stream.deferred_used = 0;
                }
                if (result == 1 && drain_deferred() == 0 && stream.enabled)
                    result = write_compressed(parts, sizes, count, total);
            }
            stream_leave();
            if (result <= 0) return result;
        }
    }
    return 1;
}

int dkh_write_parts(const void *const *parts, const size_t *sizes, int count) {
    int result = dkh_write_parts_compressed(parts, sizes, count);
    if (result <= 0) return result;
    for (int i = 0; i < count; i++) {
        if (dkh_write_plain(parts[i], sizes[i]) != 0) return -1;
    }
    return 0;
}

int dkh_write_deferred(const void *record, size_t size) {
    // A large write gains nothing from waiting.
    if (size > DKH_DEFERRED_SIZE / 4) return dkh_write_all(record, size);
    if (stream.enabled) {
        int self = (int)syscall(SYS_gettid);
        if (stream_enter(self)) {
            int result = 0;
            if (stream.enabled) {
                if (stream.deferred_used + size > DKH_DEFERRED_SIZE) result = drain_deferred();
                if (result == 0 && stream.enabled) {
                    memcpy(stream.deferred + stream.deferred_used, record, size);
                    stream.deferred_used += size;
                    stream_leave();
                    return 0;
                }
            }
            stream_leave();
            if (result != 0) return result;
        }
    }
    return dkh_write_plain(record, size);
}

void dkh_stream_drain(void) {
    if (!stream.enabled || !stream.deferred_used) return;
    int self = (int)syscall(SYS_gettid);
    if (!stream_enter(self)) return;  // the holder's write takes them
    if (stream.enabled) drain_deferred();
    stream_leave();
}
