// Shared state of the heap recorder. Nothing here may call malloc: the recorder's memory
// comes from mmap, and every allocator entry point runs through the hooks in hooks.c.
#ifndef DEVKIT_HEAP_RECORDER_INTERNAL_H
#define DEVKIT_HEAP_RECORDER_INTERNAL_H

#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "devkit_heap_format.h"

/// Recorder internals are hidden: the library exports only the interposed functions and
/// devkit_heap_mark.
#define DKH_INTERNAL __attribute__((visibility("hidden")))

#define DKH_MAX_THREADS 1024
/// Scratch space where a flush encodes records before write(2).
#define DKH_THREAD_BUFFER_SIZE (64 * 1024)
/// Room reserved at the start of a thread buffer for the record and events headers.
#define DKH_EVENTS_HEADER_SIZE (DKH_RECORD_HEADER_SIZE + 16)
/// Events a thread holds (decoded, so that a free can cancel its allocation) before a flush.
/// A program that frees its blocks in the order it made them (a queue, a ring, a cache) only
/// gets its pairs cancelled when the buffer holds more than twice the blocks it keeps alive:
/// after a flush each of those frees is written and takes a slot beside the next allocation.
/// 2,048 wrote every event of a ring of 1,024 strings (Scripts/bench/heap `realloc`: 3.4 MB);
/// 8,192 cancels them (0.11 MB) for 590 KB of buffer per thread, touched as it fills.
#define DKH_PENDING_EVENTS 8192
/// Cancelled events are squeezed out once the buffer holds twice the events left after the
/// last squeeze (at least this many): the pending events then stay within twice what the
/// program keeps alive, rather than every new event taking a fresh cache line of the whole
/// buffer, which pushed the allocator's own lines out of the cache (Scripts/bench/heap
/// `realloc`: 1-2 % of its recorded run, RESULTS.md).
#define DKH_SQUEEZE_MIN 2048
/// Address -> pending allocation index: open addressing, at most half full.
#define DKH_PENDING_INDEX_BITS 14
#define DKH_PENDING_INDEX_SIZE (1u << DKH_PENDING_INDEX_BITS)
#define DKH_INDEX_EMPTY 0xffffu
/// Cancelled-pair counters per (stack, size); flushed as a record at 3/4 full.
#define DKH_PAIR_TABLE_SIZE 1024
#define DKH_PAIR_TABLE_LIMIT (DKH_PAIR_TABLE_SIZE / 4 * 3)
/// Pairs counted before the counters are written anyway: a thread that only churns would
/// otherwise hold its counts until it ends, and a SIGKILL would lose all of them. The counters
/// are also written when they are older than DKH_PAIR_FLUSH_NS (looked at every
/// DKH_PAIR_CLOCK_EVERY pairs) and at every mark: a SIGKILL loses at most this many pairs a
/// thread, and only those counted in its last 0.1 s.
#define DKH_PAIR_FLUSH_COUNT (1u << 16)
#define DKH_PAIR_FLUSH_NS 100000000ull
#define DKH_PAIR_CLOCK_EVERY 256u
/// Process-wide "seq of the last allocation at an address hashing here" (see hooks.c).
#define DKH_LAST_ALLOC_BITS 16
/// Sequence numbers a thread reserves at once, and how far other threads' reservations may
/// run past its block before it takes a new one (dkh_take_seq). One atomic increment shared
/// by the cores per allocation cost 0.4-0.6x of the bare run on two-thread workloads.
#define DKH_SEQ_BLOCK 64
#define DKH_SEQ_LAG 1024
/// Largest encoded event: tag + 5 ULEB128 numbers of at most 10 bytes.
#define DKH_MAX_EVENT_SIZE 64
/// A thread flush writes a clock record when none was written in this long (writer.c).
#define DKH_FLUSH_CLOCK_NS 1000000ull
#define DKH_DEFAULT_STACK_DEPTH 64
#define DKH_MAX_STACK_DEPTH 256
#define DKH_STACK_CACHE_SIZE 1024

/// A small lock the owner takes around every append and a flusher takes from outside.
typedef atomic_int dkh_spinlock;
static inline void dkh_lock(dkh_spinlock *l) {
    while (atomic_exchange_explicit(l, 1, memory_order_acquire)) {
        while (atomic_load_explicit(l, memory_order_relaxed)) __builtin_ia32_pause();
    }
}
static inline int dkh_trylock(dkh_spinlock *l) {
    return !atomic_exchange_explicit(l, 1, memory_order_acquire);
}
static inline void dkh_unlock(dkh_spinlock *l) { atomic_store_explicit(l, 0, memory_order_release); }
/// Takes the lock unless it stays held for about `spins` pauses (a holder that will not let go:
/// a thread the exit scan stopped). Returns 1 when taken.
static inline int dkh_lock_bounded(dkh_spinlock *l, uint64_t spins) {
    for (uint64_t i = 0; i < spins; i++) {
        if (dkh_trylock(l)) return 1;
        __builtin_ia32_pause();
    }
    return dkh_trylock(l);
}
/// About 50 ms of pauses on current x86 (a pause is 10-150 cycles).
#define DKH_EXIT_LOCK_SPINS (1u << 22)

typedef struct dkh_stack_cache_entry {
    uint64_t hash;
    const uint64_t *frames;
    uint32_t id;
    uint32_t depth;
} dkh_stack_cache_entry;

/// Words a remembered stack walk may have read (unwind.c); a walk that read more is not kept.
#define DKH_WALK_READS 96
/// Walk shapes remembered per thread, in sets of DKH_WALK_CACHE_WAYS by first state.
#define DKH_WALK_CACHE_SIZE 64
#define DKH_WALK_CACHE_WAYS 4
/// Walks remembered per thread by the words they read (unwind.c): slots of the table that
/// finds them, and words of the arena that holds them (256 KiB, touched as it fills: about
/// 1,500 walks of 20 frames; a full arena starts again). Scripts/bench/heap `swift` fills 80 KiB.
#define DKH_WALK_VECTOR_BITS 12
#define DKH_WALK_VECTOR_SIZE (1u << DKH_WALK_VECTOR_BITS)
#define DKH_WALK_ARENA_WORDS (1u << 15)

/// The shape of a stack walk (unwind.c): the state at the program's first frame and where the
/// walk read the stack. Every walk from that state that finds the same words there is the same
/// walk; the words of each such walk seen before, and its stack, are in the thread's vector
/// table under the shape's `gen`.
typedef struct dkh_walk_entry {
    uint64_t pc, sp, rbp;
    uint32_t epoch;      // the frame rules' epoch + 1; 0: empty
    uint32_t gen;        // names the shape in the vector table (unique in the thread slot)
    uint32_t reads;
    uint32_t needs_rbp;  // the walk depended on rbp at the first frame
    uint32_t last;       // the arena record (offset + 1) of the shape's last walk found or stored; 0: none
    uint64_t read_at[DKH_WALK_READS];
} dkh_walk_entry;

/// A buffered event, kept decoded until the flush encodes it.
typedef struct dkh_pending_event {
    uint64_t seq;
    uint64_t ptr;
    uint64_t size;
    uint64_t type;
    uint32_t stack;
    uint32_t marks;    // allocations: dkh.marks_finished just before the seq was taken
    /// The run after this event (until the thread's next buffered event): the highest
    /// `pending_bytes` in it and the seq where it was reached (see writer.c, "short-lived").
    uint64_t run_bytes;
    uint64_t run_seq;
    uint32_t run_blocks;
    uint16_t link;     // cancelled: an earlier event (or DKH_RUN_HEAD) that holds its run now
    uint8_t tag;       // dkh_event_tag, 0 = cancelled (skipped when encoding)
    uint8_t indexed;   // allocations: the address index points here
} dkh_pending_event;
/// `link` value naming the run before the first buffered event.
#define DKH_RUN_HEAD 0xffffu

/// Counters of the cancelled pairs of one (stack, size).
typedef struct dkh_pair_entry {
    uint64_t size;
    uint64_t count;   // 0 = empty slot
    uint64_t type;    // Swift type metadata of a class instance, else 0
    uint32_t stack;
} dkh_pair_entry;

/// One thread's event buffer. Slots live in an mmap'd pool and are reused after a thread ends.
typedef struct dkh_thread {
    atomic_int in_use;
    /// Who may touch the buffer (writer.c, "Buffer ownership"): other threads take `lock`
    /// and raise `flusher`; the owner marks itself `busy` without a locked instruction, and
    /// takes `lock` only when it finds `flusher` raised (then `owner_locked`).
    dkh_spinlock lock;
    atomic_int busy;
    atomic_int flusher;
    int owner_locked;
    pid_t tid;
    /// The thread's block of sequence numbers (see dkh_take_seq): the next one to use, the
    /// block's end, and `dkh.seq_epoch` as read before the block was reserved. Only the
    /// owner touches them; seq_end 0 makes the next event reserve a block.
    uint64_t seq_next, seq_end;
    uint32_t seq_epoch;
    uint8_t *buffer;      // DKH_THREAD_BUFFER_SIZE bytes of encoding scratch, mmap'd once per slot
    uint8_t *columns;     // DKH_EVENT_COLUMNS regions of DKH_THREAD_BUFFER_SIZE: a record's columns as encoded
    dkh_pending_event *events;  // DKH_PENDING_EVENTS, mmap'd with the buffer
    uint16_t *index;            // DKH_PENDING_INDEX_SIZE event indices by address
    dkh_pair_entry *pairs;      // DKH_PAIR_TABLE_SIZE
    uint16_t *pair_slots;       // DKH_PAIR_TABLE_LIMIT: the used slots of pairs, in order of first use
    uint64_t *pair_keys;        // 2 x DKH_PAIR_TABLE_LIMIT: the used slots sorted for encoding, and room to sort them
    uint32_t event_count;       // events[0..event_count) hold events, some cancelled
    uint32_t squeeze_at;        // event_count at which make_room next squeezes or grows the buffer
    uint32_t cancelled;         // of those, cancelled (tag 0)
    uint32_t pair_count;        // used slots of pairs
    uint32_t pairs_counted;     // pairs counted since the counters were last written
    uint32_t pair_marks;        // the marks value every counted pair shares (see writer.c)
    uint64_t pair_seq;          // seq of the first counted pair's allocation: its generation
    uint64_t pair_started_ns;   // CLOCK_MONOTONIC_COARSE when the first pair was counted
    /// Bytes and blocks allocated since the last flush and not cancelled since (buffered
    /// allocations alive or freed by a written free); and the run before the first event.
    uint64_t pending_bytes;
    uint32_t pending_blocks;
    uint32_t head_run_blocks;
    uint64_t head_run_bytes;
    uint64_t head_run_seq;
    /// An event was cancelled since the last flush. Until one is, every run's highest level is
    /// what the written allocations hold, and the flush has no short-lived level to look for
    /// (writer.c, encode_events).
    int cancelled_since_flush;
    /// The thread's stack (pthread_getattr_np), which bounds what the stack walk reads; 0 when
    /// unknown (then libunwind walks it).
    uintptr_t stack_low, stack_high;
    /// Stacks walked before: shapes by the state at their first frame outside the recorder,
    /// and the words each walk read (mmap'd once per slot, kept when the slot is reused).
    dkh_walk_entry walks[DKH_WALK_CACHE_SIZE];
    uint32_t walk_gen;          // the last gen given to a shape (never reset: old vectors stay stale)
    uint32_t walk_repeats;      // the last walk repeated its shape's last one: the next is tried as a repeat first
    uint32_t walk_arena_used;   // words of walk_arena in use
    uint32_t *walk_vectors;     // DKH_WALK_VECTOR_SIZE arena records (offset + 1; 0: empty)
    uint64_t *walk_arena;       // DKH_WALK_ARENA_WORDS
    dkh_stack_cache_entry cache[DKH_STACK_CACHE_SIZE];
} dkh_thread;

/// Process-wide recorder state (one instance, `dkh`).
typedef struct dkh_state {
    atomic_int active;         // events are recorded
    int fd;
    int stack_depth;
    int mark_signal;
    int follow_forks;
    /// Injected into a running process (`devkit heap record --pid`): the header says so, and
    /// the hooks are reached through rewritten GOT entries (attach.c), not LD_PRELOAD.
    int attached;
    char output_path[4096];
    /// DEVKIT_HEAP_MARK_DIR, when it is a directory only this user can enter (mode 0700,
    /// ours); empty otherwise, and then signal marks carry no label.
    char mark_dir[3800];
    /// MARK_DIR/label.PID, the file `devkit heap mark` writes before signalling; empty
    /// without a usable mark directory.
    char mark_label_path[4096];
    /// Global event order across threads: the next sequence number no one has reserved.
    /// Threads reserve blocks of DKH_SEQ_BLOCK (dkh_take_seq); marks, module changes, the
    /// scan and the end take one each. Alone on its cache line, which the cores would
    /// otherwise fetch from each other with the fields read on every event.
    _Alignas(64) atomic_uint_fast64_t seq;
    char seq_line_rest[64 - sizeof(atomic_uint_fast64_t)];
    /// Marks begun / completed (a mark counts itself begun before taking its seq and
    /// completed after): a free compares them with the allocation's to see a mark between.
    atomic_uint marks_started;
    atomic_uint marks_finished;
    /// Raised after every seq taken outside the threads' blocks (a mark, a module change, the
    /// scan, the end) and before a mark counts itself finished: a thread whose block is older
    /// reserves another, so what follows such a record in time follows it in seq too.
    atomic_uint seq_epoch;
    /// More than one thread may write the last-allocation table (see dkh_raise_last_alloc):
    /// raised, for good, when a second thread first records (or without membarrier).
    atomic_int last_alloc_shared;
    int cancel_pairs;          // DEVKIT_HEAP_PAIRS != "keep"
    int fast_unwind;           // DEVKIT_HEAP_UNWIND != "libunwind" (unwind.c)
    /// membarrier(2) is registered: buffer owners need no locked instruction (writer.c).
    int asymmetric_buffers;
    _Atomic uint64_t *last_alloc;  // 1 << DKH_LAST_ALLOC_BITS slots
    pthread_key_t thread_key;
    uintptr_t self_start, self_end;  // our own mapped range: frames there are dropped
    dkh_thread *threads;             // DKH_MAX_THREADS slots
    /// Slots [0, thread_slots) have been claimed at some time, the others never: loops over the
    /// slots stop here. A slot spans pages of its own; a loop over all 1,024 faulted each one
    /// in (a mark at start-up: 1,024 of a recorded program's 2,000 page faults).
    atomic_int thread_slots;
    /// Threads that have asked for a slot (counted until last_alloc_shared is raised).
    atomic_int slot_askers;
    pthread_mutex_t stack_lock;
    pthread_mutex_t module_lock;
} dkh_state;

extern dkh_state dkh DKH_INTERNAL;

/// The last-allocation slot of an address: one per 32 bytes, the least distance between two
/// of glibc's blocks. Finer slots would stay unused between blocks and spread the table lines
/// the heap's traffic touches wider (one per 16 bytes cost realloc's recorded run 1-4 %,
/// RESULTS.md); coarser ones make glibc's smallest blocks share slots, whose pairs are then
/// written (swift's recording 10x larger at 64 bytes). Blocks closer than 32 bytes, from
/// another allocator, share a slot: some of their pairs are written rather than cancelled.
/// The 32 KiB region picks a random place in the table, the block's place in its region the
/// slot from there: blocks allocated one after another share cache lines of the table, as
/// they share the heap's (a random slot per block was a cache miss on every allocation and
/// free).
static inline _Atomic uint64_t *dkh_last_alloc_slot(uint64_t ptr) {
    uint64_t region = ((ptr >> 15) * 0x9E3779B97F4A7C15ull) >> (64 - DKH_LAST_ALLOC_BITS);
    return &dkh.last_alloc[(region + ((ptr >> 5) & 1023)) & ((1u << DKH_LAST_ALLOC_BITS) - 1)];
}

/// A seq for one of `t`'s events, from the thread's block (FORMAT.md, "Sequence numbers").
/// `after`: a seq the event must follow (the last-allocation slot of its address), or
/// UINT64_MAX for none. A new block is reserved when the block is used up, when a mark or
/// module change came since it was reserved, when `after` is not below the block's next seq,
/// or when other threads have reserved more than DKH_SEQ_LAG seqs past it: so an event with
/// no such reason is placed at most that far before events that happened earlier.
static inline uint64_t dkh_take_seq(dkh_thread *t, uint64_t after) {
    uint32_t epoch = atomic_load(&dkh.seq_epoch);
    uint64_t next = t->seq_next;
    if (next >= t->seq_end || epoch != t->seq_epoch || (after != UINT64_MAX && after >= next) ||
        atomic_load_explicit(&dkh.seq, memory_order_relaxed) - t->seq_end > DKH_SEQ_LAG) {
        // Sequentially consistent: the epoch above is read before the block is reserved.
        next = atomic_fetch_add(&dkh.seq, DKH_SEQ_BLOCK);
        t->seq_end = next + DKH_SEQ_BLOCK;
        t->seq_epoch = epoch;
    }
    t->seq_next = next + 1;
    return next;
}

/// A seq outside the threads' blocks (a mark, a module change, the scan, the end): every thread's
/// next event takes a new block, after it.
static inline uint64_t dkh_take_global_seq(void) {
    uint64_t seq = atomic_fetch_add(&dkh.seq, 1);
    atomic_fetch_add(&dkh.seq_epoch, 1);
    return seq;
}

/// Raises `slot` from `seen` to `value` unless another thread raised it further meanwhile.
static inline void dkh_raise_slot_shared(_Atomic uint64_t *slot, uint64_t seen, uint64_t value) {
    while ((seen == UINT64_MAX || seen < value) &&
           !atomic_compare_exchange_weak_explicit(slot, &seen, value, memory_order_relaxed, memory_order_relaxed)) {
    }
}

/// Leaves `seq` in an address's last-allocation slot, which held `seen`. A slot only grows: a
/// slot shared by two addresses keeps the later of their seqs, which the next event at either
/// must follow. Two threads may raise one slot at once (two addresses hashing there), so the
/// raise is a compare-and-swap. That locked instruction cost a tenth of the bare run of a
/// one-thread program (Scripts/bench/heap, swift), which needs none: until a second thread
/// records, a plain store, then a look at whether one has begun meanwhile. The second thread
/// raises `last_alloc_shared` and calls membarrier(2) before it writes the table (the
/// asymmetric form of Dekker's algorithm, as for the buffers in writer.c): either its raises
/// see this store, or this thread sees the flag and raises the slot past every seq taken,
/// whatever the store may have overwritten.
static inline void dkh_raise_last_alloc(_Atomic uint64_t *slot, uint64_t seen, uint64_t seq) {
    if (__builtin_expect(atomic_load_explicit(&dkh.last_alloc_shared, memory_order_relaxed), 1)) {
        dkh_raise_slot_shared(slot, seen, seq);
        return;
    }
    if (seen == UINT64_MAX || seen < seq) atomic_store_explicit(slot, seq, memory_order_relaxed);
    atomic_signal_fence(memory_order_seq_cst);
    if (__builtin_expect(atomic_load_explicit(&dkh.last_alloc_shared, memory_order_relaxed), 0))
        dkh_raise_slot_shared(slot, atomic_load_explicit(slot, memory_order_relaxed), atomic_load(&dkh.seq));
}

/// The seq of an allocation or written free, with what publishing it needs: the address's
/// last-allocation slot (NULL without the table) and what the slot held when the seq was taken.
typedef struct dkh_event_seq {
    _Atomic uint64_t *slot;
    uint64_t seen, seq;
} dkh_event_seq;

/// The address's slot, or NULL when the table could not be mapped.
static inline _Atomic uint64_t *dkh_last_alloc_slot_if_any(uint64_t ptr) {
    return dkh.last_alloc ? dkh_last_alloc_slot(ptr) : NULL;
}

/// A seq for `t`'s event at the address of `slot` (from dkh_last_alloc_slot_if_any): after the
/// address's last allocation or written free of any thread, so a block freed on one thread and
/// handed back to another keeps its order. Without the table every event takes the next seq of
/// all. The caller publishes it with dkh_publish_event_seq before the block can change hands.
static inline dkh_event_seq dkh_take_event_seq(dkh_thread *t, _Atomic uint64_t *slot) {
    if (!slot) return (dkh_event_seq){.slot = NULL, .seen = UINT64_MAX, .seq = atomic_fetch_add(&dkh.seq, 1)};
    uint64_t seen = atomic_load_explicit(slot, memory_order_relaxed);
    return (dkh_event_seq){.slot = slot, .seen = seen, .seq = dkh_take_seq(t, seen)};
}

/// Leaves the event's seq in its address's slot, for the address's next event to follow.
static inline void dkh_publish_event_seq(const dkh_event_seq *event) {
    if (event->slot) dkh_raise_last_alloc(event->slot, event->seen, event->seq);
}

// writer.c
/// Whole records (one or more), compressed (compress.c) unless the stream cannot take them.
DKH_INTERNAL int dkh_write_all(const void *bytes, size_t count);
DKH_INTERNAL int dkh_write_plain(const void *bytes, size_t count);
DKH_INTERNAL void dkh_write_record(uint32_t type, const void *payload, uint32_t length);
/// The same, allowed to wait for the stream's next write (dkh_write_deferred).
DKH_INTERNAL void dkh_write_record_deferred(uint32_t type, const void *payload, uint32_t length);
DKH_INTERNAL void dkh_write_header(void);
/// This thread's slot (set once claimed; initial-exec, one load from the thread pointer).
DKH_INTERNAL extern __thread dkh_thread *dkh_this_thread __attribute__((tls_model("initial-exec")));
/// Claims a slot for this thread on its first event; NULL when the pool is exhausted.
DKH_INTERNAL dkh_thread *dkh_claim_thread(void);
/// This thread's slot, claimed on first use; NULL when the pool is exhausted. Inline: asked
/// on every allocation and free.
static inline dkh_thread *dkh_current_thread(void) {
    dkh_thread *t = dkh_this_thread;
    return __builtin_expect(t != NULL, 1) ? t : dkh_claim_thread();
}
/// The buffer's owner (its thread) around every change it makes to it.
DKH_INTERNAL void dkh_owner_enter(dkh_thread *t);
DKH_INTERNAL void dkh_owner_leave(dkh_thread *t);
/// Anyone else: `mode` 0 waits for the buffer, 1 gives up when it is in use (a signal
/// handler), 2 waits a bounded time (at exit). Returns 1 when the caller holds the buffer.
DKH_INTERNAL int dkh_flusher_enter(dkh_thread *t, int mode);
DKH_INTERNAL void dkh_flusher_leave(dkh_thread *t);
/// Registers this process for membarrier(2) (again after a fork); sets asymmetric_buffers.
DKH_INTERNAL void dkh_buffers_init(void);
DKH_INTERNAL void dkh_thread_flush_locked(dkh_thread *t);
/// `trylock_only`: 0 waits for each buffer's lock, 1 skips a buffer whose lock is held (a
/// signal handler), 2 waits a bounded time (at exit, with the other threads stopped).
DKH_INTERNAL void dkh_flush_all(int trylock_only);
DKH_INTERNAL void dkh_flush_all_pairs(void);
DKH_INTERNAL void dkh_write_clock(uint64_t seq);
DKH_INTERNAL uint64_t dkh_monotonic_ns(int coarse);
DKH_INTERNAL void dkh_append_alloc(dkh_thread *t, uint64_t seq, uint32_t marks, uint64_t ptr, uint64_t size, uint32_t stack,
                                   uint64_t type);
/// `early`: realloc's free of the old block, its seq taken and published before the real call
/// (once realloc has freed the block another thread may allocate at its address, and that
/// allocation must follow the free); NULL for a plain free.
DKH_INTERNAL void dkh_append_free(dkh_thread *t, uint64_t ptr, int cancellable, const dkh_event_seq *early);
DKH_INTERNAL void dkh_reset_thread(dkh_thread *t, int whole);
DKH_INTERNAL void dkh_threads_after_fork_child(dkh_thread *self);
DKH_INTERNAL void dkh_disable_after_write_failure(int error);
DKH_INTERNAL size_t dkh_put_u32(uint8_t *p, uint32_t v);
DKH_INTERNAL size_t dkh_put_u64(uint8_t *p, uint64_t v);

// compress.c
/// Reads DEVKIT_HEAP_ZSTD and makes the compression context (once; memory from mmap).
DKH_INTERNAL void dkh_stream_init(void);
/// A new stream for a new file (after its header): at start, after a fork, after an attach.
DKH_INTERNAL void dkh_stream_begin(void);
/// Writes the parts (whole records together) as one COMPRESSED record, or plainly part by
/// part. Returns 0, or -1 when a write failed (recording stopped).
DKH_INTERNAL int dkh_write_parts(const void *const *parts, const size_t *sizes, int count);
/// The same when the stream takes them; 1 (nothing written) when it cannot, where
/// dkh_write_parts would write the parts plainly one by one: for parts that are not whole
/// records each, which another thread's plain write must not come between.
DKH_INTERNAL int dkh_write_parts_compressed(const void *const *parts, const size_t *sizes, int count);
/// One whole record that may wait for the stream's next write (a new stack: events naming it
/// come later, in a write that takes it first); plain when the stream cannot take it now.
DKH_INTERNAL int dkh_write_deferred(const void *record, size_t size);
/// Writes the records waiting for the stream now (after a module map: one compressed record
/// for all of it, written before anything else happens).
DKH_INTERNAL void dkh_stream_drain(void);

// stacks.c
DKH_INTERNAL uint32_t dkh_intern_stack(dkh_thread *t, const uint64_t *frames, uint32_t depth);
/// The same, `hash` computed by the caller with the steps below (the stack walk hashes each
/// frame as it finds it, beside its own chain of loads).
DKH_INTERNAL uint32_t dkh_intern_stack_hashed(dkh_thread *t, const uint64_t *frames, uint32_t depth, uint64_t hash);
#define DKH_STACK_HASH_START 0xcbf29ce484222325ull
static inline uint64_t dkh_stack_hash_step(uint64_t h, uint64_t frame) {
    h ^= frame;
    h *= 0x100000001b3ull;
    return h ^ (h >> 29);
}
static inline uint64_t dkh_stack_hash_end(uint64_t h, uint32_t depth) {
    h ^= (uint64_t)depth * 0x9E3779B97F4A7C15ull;
    return h ? h : 1;
}
DKH_INTERNAL void dkh_stacks_init(void);
DKH_INTERNAL void dkh_stacks_rewrite_all(void);

// unwind.c
/// The interned id (dkh_intern_stack) of the calling thread's stack: up to dkh.stack_depth
/// return addresses, innermost first, the recorder's own frames left out (what unw_backtrace
/// gives, filtered). `hook_frame`: the frame (frame pointer) of the recorder's outermost
/// function on the stack, an interposed one, where the walk starts.
DKH_INTERNAL uint32_t dkh_current_stack(dkh_thread *t, const void *hook_frame);
DKH_INTERNAL void dkh_unwind_init(void);
DKH_INTERNAL void dkh_unwind_thread_init(dkh_thread *t);
/// Forgets every learned frame rule (code was unloaded).
DKH_INTERNAL void dkh_unwind_forget(void);

// modules.c
DKH_INTERNAL void dkh_modules_refresh(void);
DKH_INTERNAL void dkh_modules_rewrite_all(void);
DKH_INTERNAL void dkh_find_self(void);

// attach.c: redirecting an attached process's calls into the hooks.
typedef struct dkh_hook {
    const char *name;
    void *hook;  // the agent's own definition (a hidden alias: `&malloc` would bind libc's)
} dkh_hook;
/// Points every loaded module's GOT entries for the hooked functions at the hooks (again
/// after a dlopen: new modules). Returns how many entries now point at a hook.
DKH_INTERNAL int dkh_got_patch(const dkh_hook *hooks, int count);
/// Puts back every original entry that still points at a hook.
DKH_INTERNAL void dkh_got_restore(const dkh_hook *hooks, int count);

#endif
