// The live table: address -> size of every block the recording knows alive, kept only with
// --scan-at-exit (DEVKIT_HEAP_SCAN_AT_EXIT=1) so the exit scan knows what the heap holds.
//
// 64 shards, each an open-addressing (linear probing) hash under its own spinlock: threads
// allocating at once rarely meet on a lock. Deletion shifts the following entries back
// (no tombstones), so probes stay short however much the program churns. A shard doubles
// (mmap a new array, rehash, munmap the old) at half full, up to DKH_LIVE_MAX_SHARD_SLOTS;
// past that an insert is dropped and the scan says it is incomplete, so memory stays bounded
// (16 bytes a slot, at most 2 slots per live block).
//
// Cost, measured on the 2-core test machine (-O2 build, noisy): Programs/workload.c `threads`
// (8 threads, 1.6M malloc/free pairs) 0.15 -> 0.17 s user with the table; a program keeping
// 900k blocks alive (2.7M calls) 0.2 -> 0.35 s user, +70 MB at exit (table, and the scan's
// sorted snapshot), plus the scan itself, 0.3 s. Without --scan-at-exit the hooks test one
// global flag.
//
// Ordering: an entry changes only while the calling thread owns the block at that address:
// malloc inserts after the real malloc returns, free removes before the real free. realloc
// removes the old entry before the real realloc (hooks.c) and puts it back if realloc fails:
// once the real realloc has freed the old block, another thread may malloc that address and
// insert it, and a removal done after that would take that thread's entry instead (that block
// would be neither scanned nor reported; Tests/HeapRecorderTests/Programs/realloc_race.c
// stresses it). The event stream still writes realloc's free after the real call: only the
// live table needs the earlier removal.
#include "leaks_internal.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define SHARD_BITS 6
#define SHARDS (1u << SHARD_BITS)
#define INITIAL_SLOTS 4096u
/// 2^22 slots a shard (64 MiB): 2^27 slots, 2^26 live blocks in all.
#define DKH_LIVE_MAX_SHARD_SLOTS (1u << 22)
#define MAX_THREADS 1024

int dkh_live_enabled;

typedef struct shard {
    dkh_spinlock lock;
    atomic_int overflowed;
    dkh_live_block *slots;  // addr 0 = empty (malloc never returns 0 for a recorded block)
    size_t capacity;        // a power of two
    size_t count;
    char pad[64 - sizeof(dkh_spinlock) - sizeof(atomic_int) - 3 * sizeof(size_t)];  // a cache line each
} shard;

static shard shards[SHARDS] __attribute__((aligned(64)));

/// A stack-pointer sample and the thread pointer of every thread that allocated, for scanning
/// other threads' stacks at exit. A key destructor marks the thread ended: glibc keeps the
/// stacks of joined threads in a cache, with their thread descriptor, whose DTV (a block the
/// recording saw allocated) glibc reuses; the scan then reads only that descriptor.
typedef struct thread_entry {
    atomic_int state;  // 0 free, 1 alive, 2 ended (reusable)
    pid_t tid;
    uintptr_t stack_sample;
    uintptr_t thread_pointer;
} thread_entry;
static thread_entry threads[MAX_THREADS];
static __thread thread_entry *this_thread __attribute__((tls_model("initial-exec")));
static __thread int thread_registered __attribute__((tls_model("initial-exec")));
static pthread_key_t thread_key;

static inline uint64_t mix(uint64_t h) {
    // murmur3's finalizer: every output bit depends on every input bit.
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    return h;
}

/// The 4 KiB heap page picks the shard (top bits) and a random window; the block's place in
/// its page picks the slot in that window. Blocks allocated one after another then share a
/// shard and neighbouring slots, so the table is touched like the heap is (a fully random
/// slot per block makes every insert a cache miss: 3x slower on a million-block heap).
static inline uint64_t hash_address(uintptr_t addr) {
    return mix(addr >> 12) + ((addr >> 4) & 255);
}

static inline shard *shard_for(uintptr_t addr) { return &shards[mix(addr >> 12) >> (64 - SHARD_BITS)]; }

static dkh_live_block *map_slots(size_t capacity) {
    void *p = mmap(NULL, capacity * sizeof(dkh_live_block), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

/// Places an entry known absent. Caller holds the lock; capacity has room.
static void place(shard *s, uintptr_t addr, uint64_t size) {
    size_t mask = s->capacity - 1;
    size_t i = (size_t)hash_address(addr) & mask;
    while (s->slots[i].addr) {
        if (s->slots[i].addr == addr) {  // a free we never saw: the new block replaces it
            s->slots[i].size = size;
            return;
        }
        i = (i + 1) & mask;
    }
    s->slots[i].addr = addr;
    s->slots[i].size = size;
    s->count++;
}

/// Doubles the shard. Caller holds the lock. Returns 0 when it cannot grow.
static int grow(shard *s) {
    size_t capacity = s->capacity ? s->capacity * 2 : INITIAL_SLOTS;
    if (capacity > DKH_LIVE_MAX_SHARD_SLOTS) return 0;
    dkh_live_block *slots = map_slots(capacity);
    if (!slots) return 0;
    dkh_live_block *old = s->slots;
    size_t old_capacity = s->capacity;
    s->slots = slots;
    s->capacity = capacity;
    s->count = 0;
    for (size_t i = 0; i < old_capacity; i++)
        if (old[i].addr) place(s, old[i].addr, old[i].size);
    if (old) munmap(old, old_capacity * sizeof(dkh_live_block));
    return 1;
}

static void register_thread(void) {
    thread_registered = 1;
    // Free slots first; then ended ones (a new thread most likely reuses that cached stack).
    for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < MAX_THREADS; i++) {
        int expected = pass == 0 ? 0 : 2;
        if (atomic_load_explicit(&threads[i].state, memory_order_relaxed) != expected ||
            !atomic_compare_exchange_strong(&threads[i].state, &expected, 1))
            continue;
        volatile char here = 0;  // a stack address of this thread: finds its stack mapping later
        threads[i].tid = (pid_t)syscall(SYS_gettid);
        threads[i].stack_sample = (uintptr_t)&here;
        threads[i].thread_pointer = (uintptr_t)__builtin_thread_pointer();
        this_thread = &threads[i];
        // Our key is created in the constructor, among the first: below PTHREAD_KEY_2NDLEVEL_SIZE,
        // so pthread_setspecific stores into the thread descriptor and never allocates.
        pthread_setspecific(thread_key, &threads[i]);
        return;
    }
}

static void thread_ended(void *value) {
    thread_entry *t = value;
    if (t) atomic_store(&t->state, 2);
    this_thread = NULL;
}

void dkh_live_insert_slow(uintptr_t addr, uint64_t size) {
    if (!thread_registered) register_thread();
    shard *s = shard_for(addr);
    dkh_lock(&s->lock);
    if ((s->count + 1) * 2 > s->capacity && !grow(s) && s->count + 1 >= s->capacity - s->capacity / 8) {
        // Cannot grow and nearly full (long probes): drop it; the scan reports it incomplete.
        atomic_store(&s->overflowed, 1);
        dkh_unlock(&s->lock);
        return;
    }
    place(s, addr, size);
    dkh_unlock(&s->lock);
}

int dkh_live_remove_slow(uintptr_t addr, uint64_t *size) {
    int found = 0;
    uint64_t h = hash_address(addr);  // the slot; the shard comes from the page alone
    shard *s = shard_for(addr);
    dkh_lock(&s->lock);
    if (s->capacity) {
        size_t mask = s->capacity - 1;
        size_t i = (size_t)h & mask;
        while (s->slots[i].addr && s->slots[i].addr != addr) i = (i + 1) & mask;
        if (s->slots[i].addr) {
            found = 1;
            if (size) *size = s->slots[i].size;
            // Backward-shift deletion: move later entries of the probe run into the hole
            // when their home slot is at or before it, so lookups never stop early.
            size_t hole = i, j = i;
            for (;;) {
                j = (j + 1) & mask;
                if (!s->slots[j].addr) break;
                size_t home = (size_t)hash_address(s->slots[j].addr) & mask;
                if (((j - home) & mask) >= ((j - hole) & mask)) {
                    s->slots[hole] = s->slots[j];
                    hole = j;
                }
            }
            s->slots[hole].addr = 0;
            s->slots[hole].size = 0;
            s->count--;
        }
    }
    dkh_unlock(&s->lock);
    return found;
}

size_t dkh_live_snapshot(dkh_live_block *out, size_t capacity) {
    size_t n = 0;
    for (unsigned k = 0; k < SHARDS; k++) {
        shard *s = &shards[k];
        // At exit the other threads are stopped outside the recorder, so none holds a shard; a
        // thread stopped inside fork's handlers would (they hold every shard across fork): after
        // a bounded wait the shard is read as it is and the scan says it is incomplete.
        int locked = dkh_lock_bounded(&s->lock, DKH_EXIT_LOCK_SPINS);
        if (!locked) atomic_store(&s->overflowed, 1);
        for (size_t i = 0; i < s->capacity && n < capacity; i++)
            if (s->slots[i].addr) out[n++] = s->slots[i];
        if (locked) dkh_unlock(&s->lock);
    }
    return n;
}

size_t dkh_live_count(void) {
    size_t n = 0;
    for (unsigned k = 0; k < SHARDS; k++) n += shards[k].count;
    return n;
}

int dkh_live_overflowed(void) {
    for (unsigned k = 0; k < SHARDS; k++)
        if (atomic_load(&shards[k].overflowed)) return 1;
    return 0;
}

size_t dkh_live_threads(dkh_thread_info *out, size_t capacity) {
    size_t n = 0;
    for (int i = 0; i < MAX_THREADS && n < capacity; i++) {
        int state = atomic_load(&threads[i].state);
        if (!state) continue;
        out[n].stack_sample = threads[i].stack_sample;
        out[n].thread_pointer = threads[i].thread_pointer;
        out[n].tid = threads[i].tid;
        out[n].alive = state == 1;
        n++;
    }
    return n;
}

// Fork: hold every shard lock across fork() so the child's table is consistent and no lock
// is left taken by a thread that does not exist in the child.
static void before_fork(void) {
    for (unsigned k = 0; k < SHARDS; k++) dkh_lock(&shards[k].lock);
}
static void after_fork_parent(void) {
    for (unsigned k = 0; k < SHARDS; k++) dkh_unlock(&shards[k].lock);
}
static void after_fork_child(void) {
    for (unsigned k = 0; k < SHARDS; k++) dkh_unlock(&shards[k].lock);
    // Only the forking thread exists in the child.
    for (int i = 0; i < MAX_THREADS; i++)
        if (&threads[i] != this_thread) atomic_store(&threads[i].state, 0);
    if (this_thread) this_thread->tid = (pid_t)syscall(SYS_gettid);
}

void dkh_leaks_init(void) {
    const char *scan = getenv("DEVKIT_HEAP_SCAN_AT_EXIT");
    if (!scan || strcmp(scan, "1") != 0) return;
    if (pthread_key_create(&thread_key, thread_ended) != 0) return;
    pthread_atfork(before_fork, after_fork_parent, after_fork_child);
    // The exit scan stops the other threads with this signal: unblocked here, at start, so the
    // threads the program creates inherit it unblocked even when the program was started with
    // every signal blocked (a thread that blocks it itself is scanned without its registers).
    sigset_t scan_signal;
    sigemptyset(&scan_signal);
    sigaddset(&scan_signal, DKH_SCAN_SIGNAL);
    pthread_sigmask(SIG_UNBLOCK, &scan_signal, NULL);
    dkh_live_enabled = 1;
}
