// The recording file and the per-thread event buffers.
#include "recorder_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <linux/membarrier.h>
#include <unistd.h>

__thread dkh_thread *dkh_this_thread __attribute__((tls_model("initial-exec")));

size_t dkh_put_u32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
    return 4;
}

size_t dkh_put_u64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
    return 8;
}

static inline size_t put_uleb(uint8_t *p, uint64_t v) {
    // Most fields are deltas of one or two bytes.
    if (v < 0x80) {
        p[0] = (uint8_t)v;
        return 1;
    }
    if (v < 0x4000) {
        p[0] = (uint8_t)(v | 0x80);
        p[1] = (uint8_t)(v >> 7);
        return 2;
    }
    size_t n = 0;
    do {
        uint8_t byte = v & 0x7f;
        v >>= 7;
        if (v) byte |= 0x80;
        p[n++] = byte;
    } while (v);
    return n;
}

static inline uint64_t zigzag(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }

/// Appends `value` in decimal to `p` (async-signal-safe); returns the characters written.
static size_t put_decimal(char *p, uint64_t value) {
    char digits[20];
    size_t n = 0;
    do {
        digits[n++] = (char)('0' + value % 10);
        value /= 10;
    } while (value);
    for (size_t i = 0; i < n; i++) p[i] = digits[n - 1 - i];
    return n;
}

/// Tells `devkit heap record` that this process's recording stopped early: MARK_DIR/
/// incomplete.PID holds "BYTES ERRNO\n", the recording's size when the write failed and why.
/// The mark directory is private to the user and on another file system than a full disk
/// in the usual case (XDG_RUNTIME_DIR or /tmp); without one nothing is written.
static void note_incomplete(int error) {
    if (!dkh.mark_dir[0]) return;
    char path[sizeof dkh.mark_dir + 32];
    size_t n = strlen(dkh.mark_dir);
    memcpy(path, dkh.mark_dir, n);
    memcpy(path + n, "/incomplete.", 12);
    n += 12;
    n += put_decimal(path + n, (uint64_t)getpid());
    path[n] = 0;
    struct stat info;
    uint64_t size = fstat(dkh.fd, &info) == 0 && info.st_size > 0 ? (uint64_t)info.st_size : 0;
    char text[48];
    size_t length = put_decimal(text, size);
    text[length++] = ' ';
    length += put_decimal(text + length, (uint64_t)(error > 0 ? error : 0));
    text[length++] = '\n';
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) return;
    ssize_t written = write(fd, text, length);
    (void)written;
    close(fd);
}

void dkh_disable_after_write_failure(int error) {
    // A full disk or a closed descriptor: stop recording, never disturb the target. The
    // first failure (several threads may see one) says so to `devkit heap record`.
    atomic_store(&dkh.active, 0);
    static atomic_int noted;
    int expected = 0;
    if (atomic_compare_exchange_strong(&noted, &expected, 1)) note_incomplete(error);
}

/// Writes all bytes with write(2) (async-signal-safe; O_APPEND keeps each call's bytes
/// together), uncompressed. Returns 0 on success; on failure recording stops.
int dkh_write_plain(const void *bytes, size_t count) {
    const uint8_t *p = bytes;
    while (count > 0) {
        ssize_t n = write(dkh.fd, p, count);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            dkh_disable_after_write_failure(n < 0 ? errno : ENOSPC);
            return -1;
        }
        p += n;
        count -= (size_t)n;
    }
    return 0;
}

/// Whole records, compressed into the recording's stream (compress.c).
int dkh_write_all(const void *bytes, size_t count) {
    const void *parts[1] = {bytes};
    size_t sizes[1] = {count};
    return dkh_write_parts(parts, sizes, 1);
}

/// One record in one write(2) (one compressed record, or plain when it fits in a stack buffer).
void dkh_write_record(uint32_t type, const void *payload, uint32_t length) {
    if (dkh.fd < 0) return;
    uint8_t small[4096];
    if (length + DKH_RECORD_HEADER_SIZE <= sizeof small) {
        dkh_put_u32(small, type);
        dkh_put_u32(small + 4, length);
        memcpy(small + DKH_RECORD_HEADER_SIZE, payload, length);
        dkh_write_all(small, DKH_RECORD_HEADER_SIZE + length);
    } else {
        uint8_t header[DKH_RECORD_HEADER_SIZE];
        dkh_put_u32(header, type);
        dkh_put_u32(header + 4, length);
        // Plain, two writes: a cut between them leaves a truncated last record.
        const void *parts[2] = {header, payload};
        size_t sizes[2] = {sizeof header, length};
        dkh_write_parts(parts, sizes, 2);
    }
}

void dkh_write_record_deferred(uint32_t type, const void *payload, uint32_t length) {
    if (dkh.fd < 0) return;
    uint8_t small[4096];
    if (length + DKH_RECORD_HEADER_SIZE > sizeof small) {
        dkh_write_record(type, payload, length);
        return;
    }
    dkh_put_u32(small, type);
    dkh_put_u32(small + 4, length);
    memcpy(small + DKH_RECORD_HEADER_SIZE, payload, length);
    dkh_write_deferred(small, DKH_RECORD_HEADER_SIZE + length);
}

void dkh_write_header(void) {
    uint8_t h[DKH_HEADER_SIZE] = {0};
    memcpy(h, DKH_MAGIC, DKH_MAGIC_SIZE);
    dkh_put_u32(h + 8, DKH_FORMAT_VERSION);
    dkh_put_u32(h + 12, DKH_HEADER_SIZE);
    dkh_put_u32(h + 16, (uint32_t)getpid());
    dkh_put_u32(h + 20, (uint32_t)getppid());
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    dkh_put_u64(h + 24, (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec);
    dkh_put_u32(h + 32, (uint32_t)sizeof(void *));
    dkh_put_u32(h + 36, dkh.attached ? DKH_HEADER_ATTACHED : 0);
    dkh_write_plain(h, sizeof h);
    // Every file (a forked child's too) starts a new zstd stream after its header.
    dkh_stream_begin();
}

uint64_t dkh_monotonic_ns(int coarse) {
    struct timespec now;
    clock_gettime(coarse ? CLOCK_MONOTONIC_COARSE : CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

/// Encodes a DKH_RECORD_CLOCK record (DKH_CLOCK_RECORD_SIZE bytes) at `p`: `seq` and now.
static size_t put_clock(uint8_t *p, uint64_t seq) {
    dkh_put_u32(p, DKH_RECORD_CLOCK);
    dkh_put_u32(p + 4, 16);
    dkh_put_u64(p + 8, seq);
    dkh_put_u64(p + 16, dkh_monotonic_ns(0));
    return DKH_CLOCK_RECORD_SIZE;
}

/// A flush's clock record, unless another flush wrote one less than DKH_FLUSH_CLOCK_NS ago:
/// 2,000 short-lived threads ending within 50 ms need no 2,000 readings (each 16 bytes of
/// new entropy to a compressor). Returns the bytes written at `p`.
static size_t put_flush_clock(uint8_t *p) {
    static _Atomic uint64_t last_ns;
    uint64_t now = dkh_monotonic_ns(1), last = atomic_load_explicit(&last_ns, memory_order_relaxed);
    if (now - last < DKH_FLUSH_CLOCK_NS && now >= last) return 0;
    atomic_store_explicit(&last_ns, now, memory_order_relaxed);
    return put_clock(p, atomic_load_explicit(&dkh.seq, memory_order_relaxed));
}

void dkh_write_clock(uint64_t seq) {
    if (dkh.fd < 0) return;
    uint8_t record[DKH_CLOCK_RECORD_SIZE];
    dkh_write_all(record, put_clock(record, seq));
}

static void *map_pages(size_t size) {
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

/// Per-slot memory, mapped once when a slot is first claimed and kept for reuse: the encoding
/// scratch buffer, the pending events, their address index, the pair counters and the column
/// regions (pages are only touched as a column grows into them).
static int map_thread_memory(dkh_thread *t) {
    size_t events = sizeof(dkh_pending_event) * DKH_PENDING_EVENTS;
    size_t index = sizeof(uint16_t) * DKH_PENDING_INDEX_SIZE;
    size_t pairs = sizeof(dkh_pair_entry) * DKH_PAIR_TABLE_SIZE;
    size_t keys = sizeof(uint64_t) * 2 * DKH_PAIR_TABLE_LIMIT;
    size_t slots = sizeof(uint16_t) * DKH_PAIR_TABLE_LIMIT;
    size_t columns = (size_t)DKH_EVENT_COLUMNS * DKH_THREAD_BUFFER_SIZE;
    uint8_t *p = map_pages(DKH_THREAD_BUFFER_SIZE + events + index + pairs + keys + slots + columns);
    if (!p) return -1;
    t->buffer = p;
    p += DKH_THREAD_BUFFER_SIZE;
    t->events = (dkh_pending_event *)p;
    p += events;
    t->index = (uint16_t *)p;
    p += index;
    t->pairs = (dkh_pair_entry *)p;
    p += pairs;
    t->pair_keys = (uint64_t *)p;
    p += keys;
    t->pair_slots = (uint16_t *)p;
    p += slots;
    t->columns = p;
    memset(t->index, 0xff, index);
    return 0;
}

dkh_thread *dkh_claim_thread(void) {
    if (dkh_this_thread) return dkh_this_thread;
    if (!dkh.threads) return NULL;
    // A second thread: from now on the last-allocation table has several writers
    // (dkh_raise_last_alloc says why this order; this thread writes it only after).
    if (!atomic_load_explicit(&dkh.last_alloc_shared, memory_order_relaxed) && atomic_fetch_add(&dkh.slot_askers, 1) > 0) {
        atomic_store(&dkh.last_alloc_shared, 1);
        if (dkh.asymmetric_buffers) syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
    }
    for (int i = 0; i < DKH_MAX_THREADS; i++) {
        dkh_thread *t = &dkh.threads[i];
        int expected = 0;
        if (atomic_load_explicit(&t->in_use, memory_order_relaxed)) continue;
        // Counted before it is claimed, so loops over the slots may stop at dkh.thread_slots.
        int counted = atomic_load(&dkh.thread_slots);
        while (counted < i + 1 && !atomic_compare_exchange_weak(&dkh.thread_slots, &counted, i + 1)) {
        }
        if (!atomic_compare_exchange_strong(&t->in_use, &expected, 1)) continue;
        if (!t->buffer && map_thread_memory(t) != 0) {
            atomic_store(&t->in_use, 0);
            return NULL;
        }
        t->tid = (pid_t)syscall(SYS_gettid);
        dkh_unwind_thread_init(t);
        dkh_reset_thread(t, 0);
        t->seq_next = t->seq_end = 0;
        dkh_this_thread = t;
        // The key's destructor flushes the buffer when the thread ends.
        pthread_setspecific(dkh.thread_key, t);
        return t;
    }
    return NULL;
}

// ---- buffer ownership ---------------------------------------------------------------------
// A thread's buffer is changed by its owner on every allocation and free, and by other
// threads only rarely (a mark writes every thread's pair counters; exit, a crash and a detach
// flush every buffer). A spinlock taken on every append cost a locked instruction, a full
// barrier behind the allocator's own stores, twice per pair: about 10% of a recorded pairs or
// realloc workload (Scripts/bench/heap). So the owner only raises `busy`, with a plain store,
// and reads `flusher`; another thread takes `lock`, raises `flusher`, then calls
// membarrier(2), which makes every running thread of the process pass a full barrier, and
// reads `busy`. Either the owner sees `flusher` raised (and waits on `lock` for the flusher
// to finish), or the flusher sees `busy` (and waits for it to drop, or gives up): they never
// both go ahead (the asymmetric form of Dekker's algorithm). Without membarrier (a kernel
// before 4.14, a seccomp filter) every append takes `lock` as before.

void dkh_buffers_init(void) {
    long commands = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    dkh.asymmetric_buffers = commands > 0 && (commands & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
                             syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
    // Without membarrier a lone thread's plain stores to the last-allocation table could not
    // be ordered against a second thread's first raise (dkh_raise_last_alloc).
    if (!dkh.asymmetric_buffers) atomic_store(&dkh.last_alloc_shared, 1);
}

/// The owner's entry without the lock: 1 when it holds the buffer (leave by dropping `busy`);
/// 0, holding nothing, when it must take the lock (no membarrier, or a flusher is at it).
static inline int owner_enter_unlocked(dkh_thread *t) {
    if (!dkh.asymmetric_buffers) return 0;
    atomic_store_explicit(&t->busy, 1, memory_order_relaxed);
    // Only the compiler must keep the order: a flusher's membarrier orders the processor.
    atomic_signal_fence(memory_order_seq_cst);
    if (__builtin_expect(atomic_load_explicit(&t->flusher, memory_order_relaxed), 0)) {
        atomic_store_explicit(&t->busy, 0, memory_order_release);
        return 0;
    }
    return 1;
}

void dkh_owner_enter(dkh_thread *t) {
    if (owner_enter_unlocked(t)) return;
    dkh_lock(&t->lock);
    if (dkh.asymmetric_buffers) t->owner_locked = 1;
}

void dkh_owner_leave(dkh_thread *t) {
    if (!dkh.asymmetric_buffers || t->owner_locked) {
        t->owner_locked = 0;
        dkh_unlock(&t->lock);
        return;
    }
    atomic_store_explicit(&t->busy, 0, memory_order_release);
}

int dkh_flusher_enter(dkh_thread *t, int mode) {
    if (mode == 2) {
        if (!dkh_lock_bounded(&t->lock, DKH_EXIT_LOCK_SPINS)) return 0;
    } else if (mode == 1) {
        if (!dkh_trylock(&t->lock)) return 0;
    } else {
        dkh_lock(&t->lock);
    }
    if (!dkh.asymmetric_buffers) return 1;
    atomic_store(&t->flusher, 1);
    syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
    for (uint64_t spins = 0; atomic_load_explicit(&t->busy, memory_order_acquire); spins++) {
        if (mode == 1 || (mode == 2 && spins >= DKH_EXIT_LOCK_SPINS)) {
            atomic_store_explicit(&t->flusher, 0, memory_order_relaxed);
            dkh_unlock(&t->lock);
            return 0;
        }
        __builtin_ia32_pause();
    }
    return 1;
}

void dkh_flusher_leave(dkh_thread *t) {
    atomic_store_explicit(&t->flusher, 0, memory_order_relaxed);
    dkh_unlock(&t->lock);
}

// ---- the address index: pending allocations by address ---------------------------------
// Open addressing with linear probing and backward-shift deletion; at most DKH_PENDING_EVENTS
// entries in DKH_PENDING_INDEX_SIZE slots, so probes stay short and a free slot always exists.

static inline uint32_t index_home(uint64_t ptr) {
    return (uint32_t)(((ptr >> 4) * 0x9E3779B97F4A7C15ull) >> (64 - DKH_PENDING_INDEX_BITS));
}

/// The slot holding `ptr`, or the empty slot where it would go.
static inline uint32_t index_probe(const dkh_thread *t, uint64_t ptr) {
    uint32_t i = index_home(ptr);
    while (t->index[i] != DKH_INDEX_EMPTY && t->events[t->index[i]].ptr != ptr) i = (i + 1) & (DKH_PENDING_INDEX_SIZE - 1);
    return i;
}

static void index_remove_slot(dkh_thread *t, uint32_t hole) {
    const uint32_t mask = DKH_PENDING_INDEX_SIZE - 1;
    for (uint32_t j = (hole + 1) & mask; t->index[j] != DKH_INDEX_EMPTY; j = (j + 1) & mask) {
        uint32_t home = index_home(t->events[t->index[j]].ptr);
        // Move j into the hole unless its home lies cyclically in (hole, j].
        if (((j - home) & mask) >= ((j - hole) & mask)) {
            t->index[hole] = t->index[j];
            hole = j;
        }
    }
    t->index[hole] = DKH_INDEX_EMPTY;
}

static void index_rebuild(dkh_thread *t) {
    memset(t->index, 0xff, sizeof(uint16_t) * DKH_PENDING_INDEX_SIZE);
    for (uint32_t i = 0; i < t->event_count; i++) {
        if (t->events[i].tag && t->events[i].indexed) t->index[index_probe(t, t->events[i].ptr)] = (uint16_t)i;
    }
}

/// Index slots cleared one by one after a flush of at most this many events; more, and the
/// whole index is cleared at once.
#define INDEX_CLEAR_ONE_BY_ONE 256

/// Empties the address index. A short-lived thread's few events are cleared slot by slot (all
/// 32 KiB at every thread's end were a tenth of recording Scripts/bench/heap `threads`).
/// `whole`: the buffer may be inconsistent (a forked child's copy of another thread's).
static void index_clear(dkh_thread *t, int whole) {
    uint16_t used[INDEX_CLEAR_ONE_BY_ONE];
    uint32_t n = 0;
    if (!whole && t->event_count <= INDEX_CLEAR_ONE_BY_ONE) {
        // Where each indexed event is, all found before any is cleared (a probe stops at an
        // empty slot).
        for (uint32_t i = 0; i < t->event_count; i++) {
            if (t->events[i].tag && t->events[i].indexed) used[n++] = (uint16_t)index_probe(t, t->events[i].ptr);
        }
        for (uint32_t i = 0; i < n; i++) t->index[used[i]] = DKH_INDEX_EMPTY;
        return;
    }
    memset(t->index, 0xff, sizeof(uint16_t) * DKH_PENDING_INDEX_SIZE);
}

/// Empties the pair counters: the used slots (listed), or every slot when `whole`.
static void pairs_clear(dkh_thread *t, int whole) {
    if (whole) {
        memset(t->pairs, 0, sizeof(dkh_pair_entry) * DKH_PAIR_TABLE_SIZE);
    } else {
        for (uint32_t i = 0; i < t->pair_count; i++) t->pairs[t->pair_slots[i]] = (dkh_pair_entry){0};
    }
    t->pair_count = 0;
    t->pairs_counted = 0;
}

/// Drops everything buffered (after a flush wrote it, or in a forked child, where it is the
/// parent's: `whole`, which clears every table entirely).
void dkh_reset_thread(dkh_thread *t, int whole) {
    if (!t->buffer) return;
    index_clear(t, whole);
    if (whole || t->pair_count) pairs_clear(t, whole);
    t->event_count = 0;
    t->squeeze_at = DKH_SQUEEZE_MIN;
    t->cancelled = 0;
    t->pending_bytes = 0;
    t->pending_blocks = 0;
    t->head_run_bytes = 0;
    t->head_run_blocks = 0;
    t->head_run_seq = 0;
    t->cancelled_since_flush = 0;
}

// ---- cancelled pairs ------------------------------------------------------------------

static inline size_t uleb_size(uint64_t v) {
    // Seven bits a byte: ceil(significant bits / 7), without a loop.
    return (size_t)(64 - __builtin_clzll(v | 1) + 6) / 7;
}

/// Pair entries in (stack, size, type) order: the same keys come out in the same order in
/// every record, so a record's columns repeat the one before it where the counts do.
static inline int pair_before(const dkh_pair_entry *a, const dkh_pair_entry *b) {
    if (a->stack != b->stack) return a->stack < b->stack;
    if (a->size != b->size) return a->size < b->size;
    return a->type < b->type;
}

/// Whether the entry of sort key `a` (see sort_pair_slots) goes before that of `b`.
static inline int key_before(const dkh_thread *t, uint64_t a, uint64_t b) {
    if (a >> 32 != b >> 32) return a >> 32 < b >> 32;
    return pair_before(&t->pairs[(uint32_t)a], &t->pairs[(uint32_t)b]);
}

/// Sorts keys[0..n) by insertion; gives up (returns 0) once it has moved more than `budget`.
static int insertion_sort_keys(const dkh_thread *t, uint64_t *keys, uint32_t n, uint64_t budget) {
    uint64_t moves = 0;
    for (uint32_t i = 1; i < n; i++) {
        const uint64_t x = keys[i];
        uint32_t j = i;
        while (j > 0 && key_before(t, x, keys[j - 1])) {
            keys[j] = keys[j - 1];
            j--;
        }
        keys[j] = x;
        moves += i - j;
        if (moves > budget) return 0;
    }
    return 1;
}

/// The used slots of the pair table in (stack, size, type) order, in `keys` or `spare` (each
/// key is the entry's stack above its slot). The keys come in the order of their first
/// pair's free. That is mostly their stacks' order (ids are given in order of first sight),
/// so an insertion sort is tried first; once it has moved more than a few keys per key, a
/// radix sort by stack, a byte at a time (bytes equal in every key skipped), and the
/// insertion sort again for entries of one stack. Scripts/bench/heap `swift` (its trees'
/// every path is a stack) frees far from stack order: there the heap sort this replaces took
/// 29 M of the 1,555 M instructions recorded, this takes 14 M. No allocation: a crash handler
/// writes pairs too.
static uint64_t *sort_pair_slots(const dkh_thread *t, uint64_t *keys, uint64_t *spare) {
    const uint32_t n = t->pair_count;
    for (uint32_t i = 0; i < n; i++) keys[i] = (uint64_t)t->pairs[t->pair_slots[i]].stack << 32 | t->pair_slots[i];
    if (insertion_sort_keys(t, keys, n, 4 * (uint64_t)n)) return keys;
    uint32_t count[256];
    for (int shift = 32; shift < 64; shift += 8) {
        memset(count, 0, sizeof count);
        for (uint32_t i = 0; i < n; i++) count[(keys[i] >> shift) & 0xff]++;
        if (count[(keys[0] >> shift) & 0xff] == n) continue;
        for (uint32_t d = 0, at = 0; d < 256; d++) {
            uint32_t c = count[d];
            count[d] = at;
            at += c;
        }
        for (uint32_t i = 0; i < n; i++) spare[count[(keys[i] >> shift) & 0xff]++] = keys[i];
        uint64_t *sorted = spare;
        spare = keys;
        keys = sorted;
    }
    insertion_sort_keys(t, keys, n, UINT64_MAX);
    return keys;
}

/// Encodes the pair counters as one DKH_RECORD_PAIRS record at `b` and clears them; returns
/// its size (0 without counters).
static size_t encode_pairs(dkh_thread *t, uint8_t *b) {
    if (!t->pair_count) return 0;
    const uint32_t count = t->pair_count;
    const uint64_t *keys = sort_pair_slots(t, t->pair_keys, t->pair_keys + DKH_PAIR_TABLE_LIMIT);
    // Columns (FORMAT.md, "Cancelled pairs"): stacks as deltas, sizes, counts, types as deltas.
    size_t length[3] = {0, 0, 0};
    uint64_t stack = 0;
    for (uint32_t i = 0; i < count; i++) {
        const dkh_pair_entry *e = &t->pairs[(uint32_t)keys[i]];
        length[0] += uleb_size(zigzag((int64_t)(e->stack - stack)));
        length[1] += uleb_size(e->size);
        length[2] += uleb_size(e->count);
        stack = e->stack;
    }
    size_t n = DKH_RECORD_HEADER_SIZE;
    n += dkh_put_u32(b + n, (uint32_t)t->tid);
    n += dkh_put_u32(b + n, 0);
    n += dkh_put_u64(b + n, t->pair_seq);
    n += put_uleb(b + n, count);
    for (int c = 0; c < 3; c++) n += put_uleb(b + n, length[c]);
    // DKH_PAIR_TABLE_LIMIT entries of at most 5 + 3 x 10 bytes fit the 64 KiB buffer.
    uint8_t *column[4] = {b + n, b + n + length[0], b + n + length[0] + length[1],
                          b + n + length[0] + length[1] + length[2]};
    uint64_t type = 0;
    stack = 0;
    for (uint32_t i = 0; i < count; i++) {
        const dkh_pair_entry *e = &t->pairs[(uint32_t)keys[i]];
        column[0] += put_uleb(column[0], zigzag((int64_t)(e->stack - stack)));
        column[1] += put_uleb(column[1], e->size);
        column[2] += put_uleb(column[2], e->count);
        column[3] += put_uleb(column[3], zigzag((int64_t)(e->type - type)));
        stack = e->stack;
        type = e->type;
    }
    pairs_clear(t, 0);
    n = (size_t)(column[3] - b);
    dkh_put_u32(b, DKH_RECORD_PAIRS);
    dkh_put_u32(b + 4, (uint32_t)(n - DKH_RECORD_HEADER_SIZE));
    return n;
}

/// The most bytes encode_pairs writes: the headers (a count and three lengths of at most 5
/// bytes each) and 5 + 3 x 10 bytes an entry.
static inline size_t pairs_bound(const dkh_thread *t) {
    return DKH_RECORD_HEADER_SIZE + 16 + 20 + (size_t)t->pair_count * 35;
}

/// Writes the pair counters as one DKH_RECORD_PAIRS record (encoded in the scratch buffer,
/// which holds nothing between flushes) and clears them.
static void flush_pairs_locked(dkh_thread *t) {
    size_t n = encode_pairs(t, t->buffer);
    if (n && dkh.fd >= 0) dkh_write_all(t->buffer, n);
}

/// The same at a thread's end: the records may wait for the stream's next write (below).
static void flush_pairs_at_exit(dkh_thread *t) {
    size_t n = encode_pairs(t, t->buffer);
    if (n && dkh.fd >= 0) dkh_write_deferred(t->buffer, n);
}

/// Counts a cancelled allocation/free pair. Every pair counted together shares `marks`
/// (dkh.marks_finished at its allocation, equal to marks_started at its free), which puts
/// them all in one generation; a pair with another value flushes the counters first. So do
/// DKH_PAIR_FLUSH_COUNT pairs and counters older than DKH_PAIR_FLUSH_NS (the coarse clock is
/// read every DKH_PAIR_CLOCK_EVERY pairs), which bounds what a SIGKILL loses.
static void count_pair(dkh_thread *t, const dkh_pending_event *e) {
    if (t->pair_count &&
        (t->pair_marks != e->marks || t->pair_count >= DKH_PAIR_TABLE_LIMIT || t->pairs_counted >= DKH_PAIR_FLUSH_COUNT ||
         (t->pairs_counted % DKH_PAIR_CLOCK_EVERY == 0 && dkh_monotonic_ns(1) - t->pair_started_ns >= DKH_PAIR_FLUSH_NS)))
        flush_pairs_locked(t);
    if (!t->pair_count) {
        t->pair_marks = e->marks;
        t->pair_seq = e->seq;
        t->pair_started_ns = dkh_monotonic_ns(1);
    }
    uint32_t i = (uint32_t)((((e->size * 0x9E3779B97F4A7C15ull) ^ e->stack ^ e->type) * 0xff51afd7ed558ccdull) >> 54) &
                 (DKH_PAIR_TABLE_SIZE - 1);
    while (t->pairs[i].count && (t->pairs[i].stack != e->stack || t->pairs[i].size != e->size || t->pairs[i].type != e->type)) {
        i = (i + 1) & (DKH_PAIR_TABLE_SIZE - 1);
    }
    if (!t->pairs[i].count) {
        t->pairs[i].stack = e->stack;
        t->pairs[i].size = e->size;
        t->pairs[i].type = e->type;
        t->pair_slots[t->pair_count++] = (uint16_t)i;
    }
    t->pairs[i].count++;
    t->pairs_counted++;
}

// ---- flushing ---------------------------------------------------------------------------

/// Where column `c` of the events record being encoded starts: each column has its own region
/// of DKH_THREAD_BUFFER_SIZE bytes.
static inline uint8_t *column_start(const dkh_thread *t, int c) { return t->columns + (size_t)c * DKH_THREAD_BUFFER_SIZE; }

/// Writes an events record: its header in the scratch buffer (`header` bytes), its columns
/// where they were encoded. The last of a flush is followed, in the same write, by a clock
/// record and, when they fit, the pair counters (one write, one compressed record). The
/// stream takes the columns where they lie; only a plain write, which must be one piece,
/// copies them behind the header (on Scripts/bench/heap `cross-thread`, where every event is
/// written, the copy was 33 M of the recorder's 895 M instructions). `last` 2: the thread's
/// final flush, whose records may wait for the stream's next write (compress.c): 2,000
/// short-lived threads are then a few compressed records, not 2,000 with 20 bytes of framing
/// each, and what a SIGKILL can lose grows by at most DKH_DEFERRED_SIZE of ended threads'
/// records.
static void write_events_record(dkh_thread *t, size_t header, const size_t length[DKH_EVENT_COLUMNS], uint64_t base_seq,
                                int last) {
    uint8_t *b = t->buffer;
    size_t used = header;
    for (int c = 0; c < DKH_EVENT_COLUMNS; c++) used += length[c];
    dkh_put_u32(b, DKH_RECORD_EVENTS);
    dkh_put_u32(b + 4, (uint32_t)(used - DKH_RECORD_HEADER_SIZE));
    dkh_put_u32(b + 8, (uint32_t)t->tid);
    dkh_put_u32(b + 12, 0);
    dkh_put_u64(b + 16, base_seq);
    // The clock and pairs after the header for now, sized for the record in one piece.
    size_t tail = 0;
    if (last) {
        tail += put_flush_clock(b + header);
        if (t->pair_count && used + tail + pairs_bound(t) <= DKH_THREAD_BUFFER_SIZE) tail += encode_pairs(t, b + header + tail);
    }
    if (dkh.fd < 0) return;
    if (last != 2) {
        const void *parts[DKH_EVENT_COLUMNS + 2] = {b};
        size_t sizes[DKH_EVENT_COLUMNS + 2] = {header};
        int count = 1;
        for (int c = 0; c < DKH_EVENT_COLUMNS; c++) {
            if (!length[c]) continue;
            parts[count] = column_start(t, c);
            sizes[count++] = length[c];
        }
        if (tail) parts[count] = b + header, sizes[count++] = tail;
        if (dkh_write_parts_compressed(parts, sizes, count) <= 0) return;
    }
    memmove(b + used, b + header, tail);
    size_t at = header;
    for (int c = 0; c < DKH_EVENT_COLUMNS; at += length[c], c++) memcpy(b + at, column_start(t, c), length[c]);
    if (last == 2) dkh_write_deferred(b, used + tail);
    else dkh_write_all(b, used + tail);
}

// ---- short-lived blocks: the level that cancelled pairs reached --------------------------
// A cancelled pair is never written, yet its block was alive between its allocation and free,
// and a peak of live bytes may be made of such blocks. `pending_bytes` counts every
// allocation since the flush and drops a cancelled one's bytes at its free: at any moment it
// is (bytes of the window's allocations that will be written) + (bytes of cancelled-to-be
// blocks alive). Each buffered event keeps the highest `pending_bytes` of the run after it,
// until the thread's next buffered event; a cancelled allocation's run joins the run before
// it. When the flush encodes the events it sums the written allocations' bytes as it goes
// (`written`): a run's highest level minus that sum is what cancelled blocks alone held at
// their highest in the run, and is written after the run's event as a SHORT_LIVED event.
// Between two written events of one thread nothing else of that thread changed, so a reader
// adding it to its level there gets this thread's exact level; other threads' short-lived
// blocks at the same moment are not known (FORMAT.md, "Cancelled pairs").

/// The run that event `i` (or DKH_RUN_HEAD) stands for, following links of cancelled events.
static uint32_t run_owner(dkh_thread *t, uint32_t i) {
    uint32_t root = i;
    while (root != DKH_RUN_HEAD && !t->events[root].tag) root = t->events[root].link;
    // Path compression: later lookups through the same cancelled events are short.
    while (i != DKH_RUN_HEAD && !t->events[i].tag && t->events[i].link != root) {
        uint32_t next = t->events[i].link;
        t->events[i].link = (uint16_t)root;
        i = next;
    }
    return root;
}

static inline void run_raise(dkh_thread *t, uint32_t owner, uint64_t bytes, uint32_t blocks, uint64_t seq) {
    if (owner == DKH_RUN_HEAD) {
        if (bytes > t->head_run_bytes) {
            t->head_run_bytes = bytes;
            t->head_run_blocks = blocks;
            t->head_run_seq = seq;
        }
    } else if (bytes > t->events[owner].run_bytes) {
        t->events[owner].run_bytes = bytes;
        t->events[owner].run_blocks = blocks;
        t->events[owner].run_seq = seq;
    }
}

/// The event's run starts at the level now.
static inline void run_start(dkh_thread *t, dkh_pending_event *e) {
    e->run_bytes = t->pending_bytes;
    e->run_blocks = t->pending_blocks;
    e->run_seq = e->seq;
}

/// Cancels buffered event `i`: its run joins the run before it.
static void run_merge_cancelled(dkh_thread *t, uint32_t i) {
    uint32_t owner = i == 0 ? DKH_RUN_HEAD : run_owner(t, i - 1);
    dkh_pending_event *e = &t->events[i];
    t->cancelled_since_flush = 1;
    run_raise(t, owner, e->run_bytes, e->run_blocks, e->run_seq);
    e->link = (uint16_t)owner;
}

// ---- encoding: events in columns (FORMAT.md, "Events") ------------------------------------
// A record holds its events column by column, each column one field of every event that has
// it, predicted from the same field of the event before: zstd then sees runs of small equal
// numbers (sequence deltas of 1, the same stack, the allocator's strides) instead of rows where
// every field breaks the pattern of the one before.

enum {
    COL_TAG = DKH_COLUMN_TAG,
    COL_SEQ = DKH_COLUMN_SEQ,
    COL_ALLOC = DKH_COLUMN_ALLOC_ADDRESS,
    COL_FREE = DKH_COLUMN_FREE_ADDRESS,
    COL_SIZE = DKH_COLUMN_SIZE,
    COL_STACK = DKH_COLUMN_STACK,
    COL_TYPE = DKH_COLUMN_TYPE,
    COL_SHORT_BYTES = DKH_COLUMN_SHORT_BYTES,
    COL_SHORT_BLOCKS = DKH_COLUMN_SHORT_BLOCKS,
    DKH_COLUMNS = DKH_EVENT_COLUMNS
};
/// Bytes after the events header: DKH_COLUMNS - 1 column lengths, each a ULEB128 number
/// below 2^21 (3 bytes). The tag column's length is the event count (a tag is one byte).
#define DKH_COLUMNS_HEADER_MAX (3 * (DKH_COLUMNS - 1))

/// Where a flush is in the pending events: the next one to look at, whether the short-lived
/// level of the run before it is still due (the head run's, or the last written event's), and
/// what the written allocations so far hold.
typedef struct dkh_walk {
    uint32_t next;
    uint8_t level_due;
    uint64_t written_bytes;
    uint32_t written_blocks;
} dkh_walk;

/// The due run's level: the head run's before any event is written, else the last written
/// event's run.
static inline void due_run(const dkh_thread *t, uint32_t next, uint64_t *bytes, uint32_t *blocks, uint64_t *seq) {
    if (next == 0) {
        *bytes = t->head_run_bytes, *blocks = t->head_run_blocks, *seq = t->head_run_seq;
    } else {
        const dkh_pending_event *e = &t->events[next - 1];
        *bytes = e->run_bytes, *blocks = e->run_blocks, *seq = e->run_seq;
    }
}

/// Moves the walk to the next event to write (a due level with bytes, else the next event not
/// cancelled) and gives its seq; 0 when nothing is left. Without a cancelled event since the
/// last flush no run has a level to write (see encode_events).
static int walk_peek(const dkh_thread *t, dkh_walk *w, uint64_t *seq) {
    if (w->level_due && t->cancelled_since_flush) {
        uint64_t bytes;
        uint32_t blocks;
        due_run(t, w->next, &bytes, &blocks, seq);
        if (bytes > w->written_bytes) return 1;
        w->level_due = 0;
    }
    while (w->next < t->event_count && !t->events[w->next].tag) w->next++;
    if (w->next == t->event_count) return 0;
    *seq = t->events[w->next].seq;
    return 1;
}

/// Where each column of the record being encoded ends (column_start: where it starts).
typedef struct dkh_column_ends {
    uint8_t *at[DKH_COLUMNS];
} dkh_column_ends;

/// Appends `v` at column `c`'s end; returns its size.
static inline size_t column_put(dkh_column_ends *ends, int c, uint64_t v) {
    size_t n = put_uleb(ends->at[c], v);
    ends->at[c] += n;
    return n;
}

/// The previous event's fields, from which the next event's are predicted.
typedef struct dkh_predictor {
    uint64_t seq;         // the record's base seq at first
    // Addresses: allocations and frees apart, so that a thread freeing blocks in the order
    // another made them (a queue) repeats that thread's column of allocation deltas.
    uint64_t alloc_ptr, free_ptr, stack, short_bytes;
} dkh_predictor;

/// Encodes the walk's events into the empty columns of a record while it has room for one
/// more; the walk is left at the first event of the next record. One loop for all kinds of
/// events: a flush runs it for every event a thread writes (cross-thread frees are never
/// cancelled), so it keeps the columns' ends in hand rather than walking an event at a time
/// through a copy of it. `levels` 0: no event was cancelled since the last flush, so every
/// run's highest level is what the written allocations hold (pending_bytes only ever dropped
/// at a cancellation), and there is no short-lived level to look for.
__attribute__((always_inline)) static inline void encode_events(const dkh_thread *t, dkh_walk *w, dkh_predictor *p,
                                                                dkh_column_ends *c, size_t room, const int levels) {
    size_t total = 0;
    const dkh_pending_event *events = t->events;
    const uint32_t count = t->event_count;
    uint64_t written_bytes = w->written_bytes;
    uint32_t written_blocks = w->written_blocks;
    uint32_t i = w->next;
    int level_due = w->level_due;
    for (;;) {
        if (levels && level_due) {
            uint64_t run_bytes, seq;
            uint32_t run_blocks;
            due_run(t, i, &run_bytes, &run_blocks, &seq);
            if (run_bytes > written_bytes) {
                if (total + DKH_MAX_EVENT_SIZE > room) break;
                uint64_t bytes = run_bytes - written_bytes;
                *c->at[COL_TAG]++ = DKH_EVENT_SHORT_LIVED;
                total += 1 + column_put(c, COL_SEQ, seq - p->seq);
                total += column_put(c, COL_SHORT_BYTES, zigzag((int64_t)(bytes - p->short_bytes)));
                total += column_put(c, COL_SHORT_BLOCKS, run_blocks > written_blocks ? run_blocks - written_blocks : 0);
                p->seq = seq;
                p->short_bytes = bytes;
            }
            level_due = 0;
        }
        while (i < count && !events[i].tag) i++;
        if (i == count || total + DKH_MAX_EVENT_SIZE > room) break;
        const dkh_pending_event *e = &events[i++];
        *c->at[COL_TAG]++ = e->tag;
        total += 1 + column_put(c, COL_SEQ, e->seq - p->seq);
        p->seq = e->seq;
        if (e->tag == DKH_EVENT_FREE) {
            total += column_put(c, COL_FREE, zigzag((int64_t)(e->ptr - p->free_ptr)));
            p->free_ptr = e->ptr;
        } else {
            total += column_put(c, COL_ALLOC, zigzag((int64_t)(e->ptr - p->alloc_ptr)));
            total += column_put(c, COL_SIZE, e->size);
            total += column_put(c, COL_STACK, zigzag((int64_t)((uint64_t)e->stack - p->stack)));
            if (e->tag == DKH_EVENT_ALLOC_TYPED) total += column_put(c, COL_TYPE, e->type);
            p->alloc_ptr = e->ptr;
            p->stack = e->stack;
            written_bytes += e->size;
            written_blocks++;
        }
        level_due = 1;
    }
    w->next = i;
    w->level_due = (uint8_t)level_due;
    w->written_bytes = written_bytes;
    w->written_blocks = written_blocks;
}

/// Encodes the thread's pending events (skipping cancelled ones) as DKH_RECORD_EVENTS records,
/// as many as the scratch buffer needs, each run's short-lived level after its event, then
/// writes the pair counters. Caller holds t->lock. `at_exit`: the thread's final flush.
static void thread_flush(dkh_thread *t, int at_exit) {
    if (!t->buffer) return;
    // Room for a record's columns: the buffer less the headers and the clock record after it.
    const size_t room = DKH_THREAD_BUFFER_SIZE - DKH_EVENTS_HEADER_SIZE - DKH_COLUMNS_HEADER_MAX - DKH_CLOCK_RECORD_SIZE;
    dkh_walk walk = {.level_due = 1};
    uint64_t base_seq;
    int more = walk_peek(t, &walk, &base_seq);
    while (more) {
        // Each field at its column's end, each column in its own region (the events fit in
        // `room` together, so each column does alone); written one after another.
        dkh_predictor p = {.seq = base_seq};
        dkh_column_ends ends;
        for (int c = 0; c < DKH_COLUMNS; c++) ends.at[c] = column_start(t, c);
        if (t->cancelled_since_flush) encode_events(t, &walk, &p, &ends, room, 1);
        else encode_events(t, &walk, &p, &ends, room, 0);
        uint64_t record_seq = base_seq;
        more = walk_peek(t, &walk, &base_seq);
        size_t n = DKH_EVENTS_HEADER_SIZE;
        size_t length[DKH_COLUMNS];
        for (int c = 0; c < DKH_COLUMNS; c++) length[c] = (size_t)(ends.at[c] - column_start(t, c));
        for (int c = 0; c < DKH_COLUMNS - 1; c++) n += put_uleb(t->buffer + n, length[c]);
        write_events_record(t, n, length, record_seq, more ? 0 : at_exit ? 2 : 1);
    }
    if (at_exit) flush_pairs_at_exit(t);
    else flush_pairs_locked(t);
    dkh_reset_thread(t, 0);
}

void dkh_thread_flush_locked(dkh_thread *t) { thread_flush(t, 0); }

/// `events` clamped to what make_room may next stop at.
static inline uint32_t squeeze_point(uint32_t events) {
    return events < DKH_SQUEEZE_MIN ? DKH_SQUEEZE_MIN : events > DKH_PENDING_EVENTS ? DKH_PENDING_EVENTS : events;
}

/// Room for one more pending event. At `squeeze_at` events: squeezes out cancelled events when
/// they are a quarter of the buffer or more (DKH_SQUEEZE_MIN says why so early), else lets the
/// buffer grow; a full buffer that cannot be squeezed is flushed.
static void make_room(dkh_thread *t) {
    if (t->event_count < t->squeeze_at) return;
    if (t->event_count && t->cancelled >= t->event_count / 4) {
        uint32_t kept = 0;
        for (uint32_t i = 0; i < t->event_count; i++) {
            if (t->events[i].tag) t->events[kept++] = t->events[i];
        }
        t->event_count = kept;
        t->cancelled = 0;
        index_rebuild(t);
        t->squeeze_at = squeeze_point(2 * kept);
        if (t->event_count < t->squeeze_at) return;
    }
    if (t->event_count < DKH_PENDING_EVENTS) {
        t->squeeze_at = squeeze_point(2 * t->squeeze_at);
        return;
    }
    dkh_thread_flush_locked(t);
}

/// A slot for one more pending event; the caller owns the buffer, which has room (make_room).
static inline dkh_pending_event *event_slot(dkh_thread *t) { return &t->events[t->event_count++]; }

/// Buffers an allocation; the caller owns the buffer, which has room.
__attribute__((always_inline)) static inline void put_alloc(dkh_thread *t, uint64_t seq, uint32_t marks, uint64_t ptr,
                                                            uint64_t size, uint32_t stack, uint64_t type) {
    dkh_pending_event *e = event_slot(t);
    uint32_t index = (uint32_t)(e - t->events);
    *e = (dkh_pending_event){.seq = seq, .ptr = ptr, .size = size, .type = type, .stack = stack, .marks = marks,
                             .tag = type ? DKH_EVENT_ALLOC_TYPED : DKH_EVENT_ALLOC, .indexed = 1};
    t->pending_bytes += size;
    t->pending_blocks++;
    run_start(t, e);
    uint32_t slot = index_probe(t, ptr);
    // An older pending allocation at this address was freed by another thread (or its free
    // went unrecorded): it stays buffered, only the newest is found by address.
    if (t->index[slot] != DKH_INDEX_EMPTY) t->events[t->index[slot]].indexed = 0;
    t->index[slot] = (uint16_t)index;
}

/// dkh_append_alloc when the buffer is full, or its owner must take the lock.
__attribute__((noinline)) static void append_alloc_slow(dkh_thread *t, uint64_t seq, uint32_t marks, uint64_t ptr,
                                                        uint64_t size, uint32_t stack, uint64_t type) {
    dkh_owner_enter(t);
    make_room(t);
    put_alloc(t, seq, marks, ptr, size, stack, type);
    dkh_owner_leave(t);
}

void dkh_append_alloc(dkh_thread *t, uint64_t seq, uint32_t marks, uint64_t ptr, uint64_t size, uint32_t stack,
                      uint64_t type) {
    // The usual case calls nothing, so it saves no registers (a call in it cost 17 instructions
    // an allocation in pushes, pops and moves); the rest is a tail call.
    if (__builtin_expect(t->event_count >= t->squeeze_at || !owner_enter_unlocked(t), 0)) {
        append_alloc_slow(t, seq, marks, ptr, size, stack, type);
        return;
    }
    put_alloc(t, seq, marks, ptr, size, stack, type);
    atomic_store_explicit(&t->busy, 0, memory_order_release);
}

/// A free. When this thread's allocation of the block is still pending, no mark came between
/// the two and no other thread has allocated at this address since, the pair changes nothing
/// a heapshot shows: both events are dropped and the pair is only counted (FORMAT.md, PAIRS).
/// Otherwise the free is buffered as an event with its own seq.
void dkh_append_free(dkh_thread *t, uint64_t ptr, int cancellable, const dkh_event_seq *early) {
    // Null when the table could not be mapped: then no pair is proven safe to cancel (the
    // index still finds pending allocations). realloc's early seq has the slot already.
    _Atomic uint64_t *last_slot = early ? early->slot : dkh_last_alloc_slot_if_any(ptr);
    dkh_owner_enter(t);
    uint32_t slot = index_probe(t, ptr);
    if (t->index[slot] != DKH_INDEX_EMPTY) {
        uint32_t i = t->index[slot];
        dkh_pending_event *alloc = &t->events[i];
        index_remove_slot(t, slot);
        alloc->indexed = 0;
        // marks_finished as read before the allocation took its seq equals marks_started now:
        // no mark lies between the two (FORMAT.md, "Cancelled pairs", says why). The
        // last-allocation slot still holding the allocation's seq: no other thread allocated
        // at this address since, so this free is of that very block. realloc's slot held it
        // before the call and holds the free's own seq since.
        uint64_t last = last_slot ? atomic_load_explicit(last_slot, memory_order_relaxed) : UINT64_MAX;
        int same_block = early ? early->seen == alloc->seq && last == early->seq : last == alloc->seq;
        if (cancellable && alloc->marks == atomic_load(&dkh.marks_started) && same_block) {
            count_pair(t, alloc);
            alloc->tag = 0;
            run_merge_cancelled(t, i);
            t->pending_bytes -= alloc->size;
            t->pending_blocks--;
            if (i + 1 == t->event_count) {
                // The usual case (allocate, use, free): the buffer just shrinks.
                t->event_count--;
                while (t->event_count && !t->events[t->event_count - 1].tag) {
                    t->event_count--;
                    t->cancelled--;
                }
            } else {
                t->cancelled++;
            }
            dkh_owner_leave(t);
            return;
        }
    }
    // realloc's seq (taken and published before the real call), unless this thread took
    // another since (a signal handler's allocation during the real call, already buffered
    // after it): the buffer's seqs must grow. Otherwise a seq after the block's allocation,
    // perhaps another thread's; the slot then holds this free's seq, which the block's next
    // allocation follows.
    const int early_seq = early && t->seq_next == early->seq + 1;
    dkh_event_seq seq = early_seq ? *early : dkh_take_event_seq(t, last_slot);
    make_room(t);
    dkh_pending_event *e = event_slot(t);
    *e = (dkh_pending_event){.seq = seq.seq, .ptr = ptr, .tag = DKH_EVENT_FREE};
    run_start(t, e);
    dkh_owner_leave(t);
    if (!early_seq) dkh_publish_event_seq(&seq);
}

/// Flushes every thread's buffer. From a crash handler (`trylock_only`) a buffer whose lock
/// is held (the crash happened while appending) is skipped rather than waited for.
void dkh_flush_all(int trylock_only) {
    if (!dkh.threads) return;
    for (int i = 0, slots = atomic_load(&dkh.thread_slots); i < slots; i++) {
        dkh_thread *t = &dkh.threads[i];
        if (!atomic_load(&t->in_use)) continue;
        // trylock_only 2: other threads are stopped for the exit scan, outside the recorder:
        // none should hold its buffer; if one does anyway, its events are lost rather than
        // the exit hung.
        if (!dkh_flusher_enter(t, trylock_only)) continue;
        dkh_thread_flush_locked(t);
        dkh_flusher_leave(t);
    }
}

/// Writes every thread's pair counters (at a mark: what a SIGKILL could lose). A buffer whose
/// lock is held is skipped: its owner is appending (perhaps interrupted by the mark signal on
/// this very thread) and writes its counters itself soon.
void dkh_flush_all_pairs(void) {
    if (!dkh.threads) return;
    for (int i = 0, slots = atomic_load(&dkh.thread_slots); i < slots; i++) {
        dkh_thread *t = &dkh.threads[i];
        if (!atomic_load(&t->in_use) || !t->buffer || !t->pair_count) continue;
        if (!dkh_flusher_enter(t, 1)) continue;
        flush_pairs_locked(t);
        dkh_flusher_leave(t);
    }
}

/// In a forked child only the forking thread exists; every buffer holds the parent's events,
/// which the parent writes itself. Drop them all and free the other threads' slots.
void dkh_threads_after_fork_child(dkh_thread *self) {
    if (!dkh.threads) return;
    for (int i = 0, slots = atomic_load(&dkh.thread_slots); i < slots; i++) {
        dkh_thread *t = &dkh.threads[i];
        atomic_store(&t->lock, 0);
        atomic_store(&t->busy, 0);
        atomic_store(&t->flusher, 0);
        t->owner_locked = 0;
        dkh_reset_thread(t, 1);
        if (t != self) atomic_store(&t->in_use, 0);
    }
    if (self) self->tid = (pid_t)syscall(SYS_gettid);
}

DKH_INTERNAL void dkh_thread_destructor(void *value);
void dkh_thread_destructor(void *value) {
    dkh_thread *t = value;
    if (!t) return;
    dkh_owner_enter(t);
    thread_flush(t, 1);
    dkh_owner_leave(t);
    dkh_this_thread = NULL;
    // The stack cache stays: interned stacks never change, so its entries serve the slot's
    // next thread as well.
    atomic_store(&t->in_use, 0);
}
