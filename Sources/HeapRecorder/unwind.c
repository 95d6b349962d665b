// Call stacks: the return addresses of the calling thread's frames, walked with a process-wide
// table that says, per return address, how its frame finds its caller. The table learns each
// address from libunwind the first time a stack passes through it; a frame it cannot describe
// (a signal frame, a rule it has not seen) sends the whole stack to libunwind.
//
// Why not unw_backtrace alone: libunwind's fast path keeps its cache of frames per thread.
// Each new thread maps and fills 256 KiB of it (64 page faults, 99% of a recorded program's
// page faults in Scripts/bench/heap `threads`) and unmaps it when it ends, and learns every
// frame again; 2,000 short-lived threads were 7 times slower to record than to run.
#include "recorder_internal.h"

#include <pthread.h>
#include <string.h>
#include <sys/mman.h>

#define UNW_LOCAL_ONLY
#include <libunwind.h>

/// How a frame whose return address is `pc` finds its caller's return address, stack pointer
/// (the frame's CFA) and frame pointer.
enum frame_rule_kind {
    RULE_UNKNOWN = 0,   // not learned yet (or learned before the last dlclose)
    RULE_STANDARD = 1,  // CFA = rbp + 16, the caller's rbp saved at CFA - 16
    RULE_SP = 2,        // CFA = rsp + offset; the caller's rbp saved at CFA - slot, or (slot 0) kept in rbp
    RULE_END = 3,       // the outermost frame (libunwind's unw_step said 0)
    RULE_SLOW = 4,      // none of these: libunwind walks every stack through it
};

/// A rule packs into 64 bits: kind (3), the table's epoch when learned (13), the CFA offset in
/// words (24), the rbp slot in words (24).
#define RULE_EPOCH_MASK 0x1fffu
#define RULE_WORDS_LIMIT (1u << 24)
#define RULE_TABLE_BITS 16
#define RULE_TABLE_SIZE (1u << RULE_TABLE_BITS)
/// Never more than half full, so a probe always ends at an empty slot.
#define RULE_TABLE_LIMIT (RULE_TABLE_SIZE / 2)

typedef struct frame_rule_slot {
    _Atomic uint64_t pc;    // 0: empty; set once, never cleared
    _Atomic uint64_t rule;  // 0 until learned
} frame_rule_slot;

static frame_rule_slot *rule_table;
static atomic_uint rule_count;
/// Bumped at every dlclose: a library loaded later may put other code at an address, so
/// rules learned before are ignored (and learned again).
static atomic_uint rule_epoch;

void dkh_unwind_init(void) {
    void *p = mmap(NULL, sizeof(frame_rule_slot) * RULE_TABLE_SIZE, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    rule_table = p == MAP_FAILED ? NULL : p;
}

void dkh_unwind_forget(void) { atomic_fetch_add(&rule_epoch, 1); }

void dkh_unwind_thread_init(dkh_thread *t) {
    // Walks a previous thread of this slot remembered read its own stack, which may be
    // unmapped now or lie partly outside this one's.
    for (int i = 0; i < DKH_WALK_CACHE_SIZE; i++) t->walks[i].epoch = 0;
    if (!t->walk_vectors) {
        size_t bytes = sizeof(uint32_t) * DKH_WALK_VECTOR_SIZE + sizeof(uint64_t) * DKH_WALK_ARENA_WORDS;
        void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p != MAP_FAILED) {
            t->walk_vectors = p;
            t->walk_arena = (uint64_t *)((uint8_t *)p + sizeof(uint32_t) * DKH_WALK_VECTOR_SIZE);
            t->walk_arena_used = 0;
        }
    }
    t->stack_low = t->stack_high = 0;
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
    void *base;
    size_t size;
    if (pthread_attr_getstack(&attr, &base, &size) == 0) {
        t->stack_low = (uintptr_t)base;
        t->stack_high = (uintptr_t)base + size;
    }
    pthread_attr_destroy(&attr);
}

static inline uint32_t rule_home(uint64_t pc) {
    return (uint32_t)((pc * 0x9E3779B97F4A7C15ull) >> (64 - RULE_TABLE_BITS));
}

static inline uint64_t make_rule(unsigned kind, uint64_t cfa_offset, uint64_t rbp_slot) {
    uint64_t epoch = atomic_load_explicit(&rule_epoch, memory_order_relaxed) & RULE_EPOCH_MASK;
    return kind | epoch << 3 | (cfa_offset / 8) << 16 | (rbp_slot / 8) << 40;
}

/// The rule learned for `pc` in `epoch` (the current one, read once per walk), or 0. Relaxed
/// loads: a rule is one word that depends on nothing else written, and a slot whose rule is
/// not stored yet reads 0 (unknown).
static inline uint64_t rule_find_in(frame_rule_slot *table, uint64_t epoch, uint64_t pc) {
    for (uint32_t i = rule_home(pc);; i = (i + 1) & (RULE_TABLE_SIZE - 1)) {
        uint64_t key = atomic_load_explicit(&table[i].pc, memory_order_relaxed);
        if (key == 0) return 0;
        if (key != pc) continue;
        uint64_t rule = atomic_load_explicit(&table[i].rule, memory_order_relaxed);
        return ((rule >> 3) & RULE_EPOCH_MASK) == epoch ? rule : 0;
    }
}

static void rule_store(uint64_t pc, uint64_t rule) {
    for (uint32_t i = rule_home(pc);; i = (i + 1) & (RULE_TABLE_SIZE - 1)) {
        uint64_t key = atomic_load_explicit(&rule_table[i].pc, memory_order_acquire);
        if (key == 0) {
            if (atomic_load_explicit(&rule_count, memory_order_relaxed) >= RULE_TABLE_LIMIT) return;
            if (!atomic_compare_exchange_strong(&rule_table[i].pc, &key, pc)) {
                if (key != pc) continue;  // another address took the slot meanwhile
            } else {
                atomic_fetch_add(&rule_count, 1);
            }
            key = pc;
        }
        if (key != pc) continue;
        atomic_store_explicit(&rule_table[i].rule, rule, memory_order_release);
        return;
    }
}

/// The rule that takes the frame at (pc, sp, rbp) to its caller at (caller_pc, cfa,
/// caller_rbp), as libunwind found it; `cursor` is at the caller, and says where the frame
/// saved the caller's rbp. RULE_SLOW unless one of the simple rules gives exactly that.
static uint64_t learn_rule(unw_cursor_t *cursor, uint64_t pc, uint64_t sp, uint64_t rbp, uint64_t caller_pc, uint64_t cfa,
                           uint64_t caller_rbp) {
    (void)pc;
    // The return address sits just below the CFA in every frame a call made (not in a
    // signal frame, whose caller is the interrupted context).
    if (cfa <= sp || cfa - sp < 8 || (cfa - sp) % 8 || (cfa - sp) / 8 >= RULE_WORDS_LIMIT) return RULE_SLOW;
    if (*(const uint64_t *)(cfa - 8) != caller_pc) return RULE_SLOW;
    uint64_t rbp_slot = 0;
    unw_save_loc_t location;
    if (unw_get_save_loc(cursor, UNW_X86_64_RBP, &location) == 0 && location.type == UNW_SLT_MEMORY &&
        location.u.addr >= sp && location.u.addr < cfa) {
        rbp_slot = cfa - location.u.addr;
    } else if (caller_rbp != rbp) {
        return RULE_SLOW;  // restored from somewhere else than this frame's stack
    }
    if (rbp_slot && (rbp_slot % 8 || *(const uint64_t *)(cfa - rbp_slot) != caller_rbp)) return RULE_SLOW;
    // A frame-pointer frame: its rbp points at the caller's saved rbp, 16 bytes below the CFA.
    // Its stack may grow by a variable amount (alloca), so the CFA comes from rbp.
    if (rbp_slot == 16 && rbp + 16 == cfa) return make_rule(RULE_STANDARD, 0, 0);
    return make_rule(RULE_SP, cfa - sp, rbp_slot);
}

static inline int in_self(uint64_t pc) { return pc >= dkh.self_start && pc < dkh.self_end; }

/// unw_backtrace's stack (libunwind's own fast path, with its per-thread cache), filtered.
static int libunwind_backtrace(uint64_t *frames, int max) {
    void *raw[DKH_MAX_STACK_DEPTH + 16];
    int count = unw_backtrace(raw, max + 16);
    int n = 0;
    for (int i = 0; i < count && n < max; i++) {
        if (!in_self((uint64_t)raw[i])) frames[n++] = (uint64_t)raw[i];
    }
    return n;
}

/// The stack as unw_backtrace gives it, and a rule learned for each frame on the way. The
/// rules come from a second walk with unw_step, which reports each frame's registers; it does
/// not always agree with unw_backtrace (libunwind 1.6 stepped out of a Swift
/// `__swift_instantiateConcreteTypeFromMangledName` frame with a wrong stack pointer), so a
/// frame's rule is kept only where both walks go from its return address to the same caller,
/// and none is learned past the first place they differ.
__attribute__((noinline)) static int slow_backtrace(uint64_t *frames, int max) {
    void *truth[DKH_MAX_STACK_DEPTH + 64];
    int count = unw_backtrace(truth, max + 64);
    int n = 0;
    for (int i = 0; i < count && n < max; i++) {
        if (!in_self((uint64_t)truth[i])) frames[n++] = (uint64_t)truth[i];
    }
    if (!rule_table) return n;
    unw_context_t context;
    unw_cursor_t cursor;
    if (unw_getcontext(&context) != 0 || unw_init_local(&cursor, &context) != 0) return n;
    unw_word_t pc = 0, sp = 0, rbp = 0;
    unw_get_reg(&cursor, UNW_REG_IP, &pc);
    unw_get_reg(&cursor, UNW_REG_SP, &sp);
    unw_get_reg(&cursor, UNW_X86_64_RBP, &rbp);
    // `matched`: the index in `truth` of this walk's current frame, once the two walks meet
    // (their innermost frames lie in this function, at different places).
    int matched = -1;
    for (int step = 0; step < count + 8; step++) {
        if (matched < 0) {
            for (int i = 0; i < count; i++) {
                if ((uint64_t)truth[i] == pc) {
                    matched = i;
                    break;
                }
            }
        } else if (matched >= count || (uint64_t)truth[matched] != pc) {
            return n;  // the walks differ from here on: learn nothing more
        }
        int more = unw_step(&cursor);
        if (more <= 0) {
            // The outermost frame, where unw_backtrace stopped too.
            if (matched == count - 1) rule_store(pc, make_rule(more == 0 ? RULE_END : RULE_SLOW, 0, 0));
            return n;
        }
        unw_word_t caller_pc = 0, cfa = 0, caller_rbp = 0;
        unw_get_reg(&cursor, UNW_REG_IP, &caller_pc);
        unw_get_reg(&cursor, UNW_REG_SP, &cfa);
        unw_get_reg(&cursor, UNW_X86_64_RBP, &caller_rbp);
        if (matched >= 0) {
            if (matched + 1 >= count) return n;  // unw_backtrace stopped at its depth limit here
            int agree = (uint64_t)truth[matched + 1] == caller_pc;
            rule_store(pc, agree ? learn_rule(&cursor, pc, sp, rbp, caller_pc, cfa, caller_rbp) : make_rule(RULE_SLOW, 0, 0));
            if (!agree) return n;
            matched++;
        }
        pc = caller_pc, sp = cfa, rbp = caller_rbp;
    }
    return n;
}

// ---- remembered walks -------------------------------------------------------------------
// A walk is a function of its state at the program's first frame (pc, sp, and rbp when a
// frame-pointer rule uses it before any rbp is read from the stack) and of the words it reads
// on the way, with the rules of one epoch. Each thread remembers the shape of its walks (where
// they read, by first state) and, per shape, the words each walk found and its stack's id: a
// walk from a remembered state reads those places (loads that do not wait on one another, not
// a chain of rule lookups), and the same words are the same stack. A recursive program's
// walks from one depth share a shape and differ in a few words (Scripts/bench/heap `swift`:
// 511 stacks from 9 shapes).

/// Multipliers of the words' hash, one per place read: independent products, summed.
static uint64_t word_keys[DKH_WALK_READS];

__attribute__((constructor)) static void word_keys_init(void) {
    uint64_t x = 0x243F6A8885A308D3ull;
    for (int i = 0; i < DKH_WALK_READS; i++) {
        // splitmix64
        uint64_t z = (x += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        word_keys[i] = (z ^ (z >> 31)) | 1;
    }
}

/// The words' sum, each times its place's multiplier (mod 2^64), from the shape's gen: linear
/// in each word, so a walk that differs from a remembered one in a few words gets its sum from
/// that one's and the differences (the shape's last walk, below).
static inline uint64_t words_sum(uint32_t gen, const uint64_t *words, uint32_t count) {
    uint64_t a = (uint64_t)gen * 0x9E3779B97F4A7C15ull, b = 0;
    uint32_t i = 0;
    // Scalar: vectorized, each 64-bit product is three pmuludq (SSE2 has no 64-bit multiply).
#pragma clang loop vectorize(disable) interleave(disable)
    for (; i + 1 < count; i += 2) {
        a += words[i] * word_keys[i];
        b += words[i + 1] * word_keys[i + 1];
    }
    if (i < count) a += words[i] * word_keys[i];
    return a + b;
}

/// Where a sum's walks go in the vector table (its bits mixed).
static inline uint64_t sum_hash(uint64_t sum, uint32_t count) {
    uint64_t h = sum ^ ((uint64_t)count * 0xD6E8FEB86659FD93ull);
    h ^= h >> 32;
    h *= 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 29);
}

static inline int words_equal(const uint64_t *a, const uint64_t *b, uint32_t count) {
    uint64_t diff = 0;
    for (uint32_t i = 0; i < count; i++) diff |= a[i] ^ b[i];
    return diff == 0;
}

/// Probes per lookup in the vector table (linear).
#define WALK_VECTOR_PROBES 4
/// A remembered walk in the arena: its words' sum, its shape's gen and its stack (one word),
/// the count of words, then the words. The table holds only where records start: it stays
/// small (16 KiB), mostly in the first-level cache.
#define WALK_RECORD_HEADER 3

static inline const uint64_t *walk_record(const dkh_thread *t, uint32_t ref) { return t->walk_arena + ref - 1; }

/// Whether the record at `ref` (0: none) is a walk of shape `gen` that read `words`.
static inline int record_matches(const dkh_thread *t, uint32_t ref, uint32_t gen, uint64_t sum, const uint64_t *words,
                                 uint32_t count) {
    if (!ref) return 0;
    const uint64_t *r = walk_record(t, ref);
    return r[0] == sum && (uint32_t)r[1] == gen && r[2] == count && words_equal(r + WALK_RECORD_HEADER, words, count);
}

/// The record of a remembered walk of shape `gen` that read `words` (whose sum is `sum`), or 0.
static inline uint32_t vector_find(const dkh_thread *t, uint32_t gen, uint64_t sum, const uint64_t *words, uint32_t count) {
    const uint64_t hash = sum_hash(sum, count);
    for (uint32_t p = 0; p < WALK_VECTOR_PROBES; p++) {
        uint32_t ref = t->walk_vectors[(hash + p) & (DKH_WALK_VECTOR_SIZE - 1)];
        if (record_matches(t, ref, gen, sum, words, count)) return ref;
    }
    return 0;
}

/// Forgets every remembered walk (the shapes' last records too, which now point at nothing).
static void vectors_clear(dkh_thread *t) {
    memset(t->walk_vectors, 0, sizeof(uint32_t) * DKH_WALK_VECTOR_SIZE);
    t->walk_arena_used = 0;
    for (int i = 0; i < DKH_WALK_CACHE_SIZE; i++) t->walks[i].last = 0;
}

/// Returns the new record.
static uint32_t vector_store(dkh_thread *t, uint32_t gen, const uint64_t *words, uint32_t count, uint32_t stack) {
    // A full arena starts again (stale shapes' words pile up in it; a program with many
    // distinct stacks fills it).
    if (t->walk_arena_used + WALK_RECORD_HEADER + count > DKH_WALK_ARENA_WORDS) vectors_clear(t);
    const uint64_t sum = words_sum(gen, words, count), hash = sum_hash(sum, count);
    uint32_t *slot = &t->walk_vectors[hash & (DKH_WALK_VECTOR_SIZE - 1)];
    // The first empty slot of the probes, else the first (its walk is forgotten).
    for (uint32_t p = 0; p < WALK_VECTOR_PROBES; p++) {
        uint32_t *s = &t->walk_vectors[(hash + p) & (DKH_WALK_VECTOR_SIZE - 1)];
        if (!*s) {
            slot = s;
            break;
        }
    }
    uint64_t *r = t->walk_arena + t->walk_arena_used;
    r[0] = sum;
    r[1] = gen | (uint64_t)stack << 32;
    r[2] = count;
    memcpy(r + WALK_RECORD_HEADER, words, count * sizeof(uint64_t));
    *slot = t->walk_arena_used + 1;
    t->walk_arena_used += WALK_RECORD_HEADER + count;
    return *slot;
}

/// Remembers a complete walk from the state (pc, sp, rbp) that read `words` at `at` and gave
/// `stack`: under its shape in the set at `set` when it is there, else under a new shape that
/// takes the set's empty or oldest entry.
static void walk_remember(dkh_thread *t, dkh_walk_entry *set, uint64_t epoch, uint64_t pc, uint64_t sp, uint64_t rbp,
                          uint32_t needs_rbp, const uint64_t *at, const uint64_t *words, uint32_t count, uint32_t stack) {
    dkh_walk_entry *entry = NULL, *victim = set;
    for (int way = 0; way < DKH_WALK_CACHE_WAYS; way++) {
        dkh_walk_entry *e = &set[way];
        if (e->epoch == epoch + 1 && e->pc == pc && e->sp == sp && e->needs_rbp == needs_rbp && (!needs_rbp || e->rbp == rbp) &&
            e->reads == count && words_equal(e->read_at, at, count)) {
            entry = e;
            break;
        }
        if (victim->epoch != 0 && (e->epoch == 0 || e->gen < victim->gen)) victim = e;
    }
    if (!entry) {
        entry = victim;
        // A new gen: vectors of the shape this one replaces are never found again. After 2^32
        // shapes the gens start over, so the old vectors and shapes go.
        if (++t->walk_gen == 0) {
            vectors_clear(t);
            for (int i = 0; i < DKH_WALK_CACHE_SIZE; i++) t->walks[i].epoch = 0;
            t->walk_gen = 1;
        }
        entry->pc = pc, entry->sp = sp, entry->rbp = rbp;
        entry->needs_rbp = needs_rbp;
        entry->reads = count;
        memcpy(entry->read_at, at, count * sizeof(uint64_t));
        entry->gen = t->walk_gen;
        entry->epoch = (uint32_t)epoch + 1;
    }
    entry->last = vector_store(t, entry->gen, words, count, stack);
}

/// The first entry of the set of shapes that start at (pc, sp).
static inline uint32_t walk_home(uint64_t pc, uint64_t sp) {
    return (uint32_t)(((pc ^ (sp << 17)) * 0x9E3779B97F4A7C15ull) >> 58) & (DKH_WALK_CACHE_SIZE - DKH_WALK_CACHE_WAYS);
}

/// Whether shape `e` starts at the state (pc, sp, rbp) of the walk's first frame.
static inline int walk_starts_at(const dkh_walk_entry *e, uint64_t epoch, uint64_t pc, uint64_t sp, uint64_t rbp) {
    return e->epoch == epoch + 1 && e->pc == pc && e->sp == sp && (!e->needs_rbp || e->rbp == rbp);
}

/// The record of shape `e`'s last walk, when the arena still holds it; NULL otherwise.
static inline const uint64_t *walk_last(const dkh_thread *t, const dkh_walk_entry *e) {
    const uint64_t *last = e->last ? walk_record(t, e->last) : NULL;
    return last && (uint32_t)last[1] == e->gen && last[2] == e->reads ? last : NULL;
}

/// Whether a walk from the first frame at (pc, sp) may be taken from remembered walks: frame
/// rules are in use, sp lies in this thread's stack and pc outside the recorder.
static inline int walk_recallable(const dkh_thread *t, uint64_t pc, uint64_t sp) {
    return dkh.fast_unwind && rule_table && sp >= t->stack_low && sp < t->stack_high && !in_self(pc);
}

/// The stack of a walk remembered from the program's first frame at (pc, sp, rbp), whose
/// shapes are in the set at `set`: when the words where one of them reads are those of a walk
/// remembered under it. 0 otherwise.
__attribute__((always_inline)) static inline uint32_t walk_recall(dkh_thread *t, dkh_walk_entry *set, uint64_t epoch,
                                                                 uint64_t pc, uint64_t sp, uint64_t rbp) {
    if (!t->walk_vectors) return 0;
    uint64_t words[DKH_WALK_READS];
    for (int way = 0; way < DKH_WALK_CACHE_WAYS; way++) {
        dkh_walk_entry *e = &set[way];
        if (!walk_starts_at(e, epoch, pc, sp, rbp)) continue;
        const uint32_t n = e->reads;
        // The shape's last walk first: a loop allocating at one place finds it; a recursion's
        // next walk at this depth differs from it in a few words, and its sum is the last's
        // plus their differences times their multipliers.
        const uint64_t *last = walk_last(t, e);
        uint64_t sum;
        if (last) {
            const uint64_t *seen = last + WALK_RECORD_HEADER;
            // Up to the first word that differs nothing changes the sum: compared only.
            uint32_t i = 0;
            for (; i < n; i++) {
                words[i] = *(const uint64_t *)e->read_at[i];
                if (words[i] != seen[i]) break;
            }
            if (i == n) {
                t->walk_repeats = 1;
                return (uint32_t)(last[1] >> 32);
            }
            sum = last[0];
#pragma clang loop vectorize(disable) interleave(disable)
            for (; i < n; i++) {
                words[i] = *(const uint64_t *)e->read_at[i];
                sum += (words[i] - seen[i]) * word_keys[i];
            }
        } else {
            for (uint32_t i = 0; i < n; i++) words[i] = *(const uint64_t *)e->read_at[i];
            sum = words_sum(e->gen, words, n);
        }
        uint32_t ref = vector_find(t, e->gen, sum, words, n);
        if (ref) {
            e->last = ref;
            return (uint32_t)(walk_record(t, ref)[1] >> 32);
        }
    }
    return 0;
}

/// The walk itself, when no remembered one answers from the first frame (`recalled`: that was
/// tried already, from the hook's caller).
__attribute__((noinline)) static uint32_t walk_stack(dkh_thread *t, const void *hook_frame, int recalled) {
    uint64_t frames[DKH_MAX_STACK_DEPTH];
    const int max = dkh.stack_depth;
    if (!dkh.fast_unwind) return dkh_intern_stack(t, frames, (uint32_t)libunwind_backtrace(frames, max));
    if (!rule_table) return dkh_intern_stack(t, frames, (uint32_t)slow_backtrace(frames, max));
    // The interposed function's frame: its caller's return address, stack pointer and frame
    // pointer start the walk (the recorder's frames below it need no walking).
    const uint64_t *frame = hook_frame;
    uint64_t pc = frame[1];
    uint64_t sp = (uint64_t)(frame + 2);
    uint64_t rbp = frame[0];
    // Every word read lies between the stack pointer and the top of this thread's stack (a
    // rule that points elsewhere, or a stack switched by sigaltstack, goes to libunwind).
    if (sp < t->stack_low || sp >= t->stack_high) return dkh_intern_stack(t, frames, (uint32_t)slow_backtrace(frames, max));
    const uint64_t epoch = atomic_load_explicit(&rule_epoch, memory_order_relaxed) & RULE_EPOCH_MASK;
    frame_rule_slot *const table = rule_table;
    // From the program's first frame on, where the walk reads and what it finds (to remember
    // it); `reads` becomes DKH_WALK_READS + 1 when there is more (then it is not remembered).
    uint64_t read_at[DKH_WALK_READS], words[DKH_WALK_READS];
    dkh_walk_entry *entry = NULL;
    uint64_t first_pc = 0, first_sp = 0, first_rbp = 0;
    uint32_t reads = 0;
    int needs_rbp = 0, rbp_from_memory = 0, count = 0, complete = 0;
    // The read that gave rbp its value, while no rule has used that value: a word read for
    // rbp matters only when a frame-pointer rule uses it before the next read replaces it
    // (code without frame pointers keeps data in rbp, which differs from call to call). Until
    // then its place is marked (bit 0) and left out of what is remembered.
    int rbp_read = -1;
    uint64_t hash = DKH_STACK_HASH_START;
    for (int step = 0; step < max + 64 && count < max; step++) {
        if (!in_self(pc)) {
            if (!entry) {
                // The program's first frame. A shape remembered from this state: read where it
                // reads; the same words as a remembered walk are its stack.
                entry = &t->walks[walk_home(pc, sp)];
                first_pc = pc, first_sp = sp, first_rbp = rbp;
                if (!recalled) {
                    uint32_t id = walk_recall(t, entry, epoch, pc, sp, rbp);
                    if (id) return id;
                }
            }
            frames[count++] = pc;
            hash = dkh_stack_hash_step(hash, pc);
        }
        uint64_t rule = rule_find_in(table, epoch, pc);
        unsigned kind = rule & 7;
        if (kind == RULE_END) {
            complete = 1;
            break;
        }
        uint64_t cfa;
        if (kind == RULE_STANDARD) {
            cfa = rbp + 16;
            if (entry) {
                // rbp as it was at the first frame, or as read, decides where this walk goes.
                if (!rbp_from_memory) needs_rbp = 1;
                else if (rbp_read >= 0) read_at[rbp_read] &= ~(uint64_t)1;
                rbp_read = -1;
            }
        } else if (kind == RULE_SP) {
            cfa = sp + ((rule >> 16) & (RULE_WORDS_LIMIT - 1)) * 8;
        } else {
            break;
        }
        uint64_t rbp_slot = kind == RULE_STANDARD ? 16 : (rule >> 40) * 8;
        if (cfa < sp + 8 || cfa < sp + rbp_slot || cfa > t->stack_high) break;
        pc = *(const uint64_t *)(cfa - 8);
        if (entry) {
            if (reads < DKH_WALK_READS) read_at[reads] = cfa - 8, words[reads] = pc;
            if (reads <= DKH_WALK_READS) reads++;
        }
        if (rbp_slot) {
            rbp = *(const uint64_t *)(cfa - rbp_slot);
            if (entry) {
                rbp_read = -1;
                if (reads < DKH_WALK_READS) read_at[reads] = (cfa - rbp_slot) | 1, words[reads] = rbp, rbp_read = (int)reads;
                if (reads <= DKH_WALK_READS) reads++;
                rbp_from_memory = 1;
            }
        }
        sp = cfa;
        if (step + 1 == max + 64 || count == max) complete = 1;
    }
    if (!complete) return dkh_intern_stack(t, frames, (uint32_t)slow_backtrace(frames, max));
    uint32_t id = dkh_intern_stack_hashed(t, frames, (uint32_t)count, dkh_stack_hash_end(hash, (uint32_t)count));
    if (entry && id && reads <= DKH_WALK_READS && t->walk_vectors) {
        // Only the reads the walk depended on.
        uint32_t kept = 0;
        for (uint32_t i = 0; i < reads; i++) {
            if (read_at[i] & 1) continue;
            read_at[kept] = read_at[i], words[kept] = words[i];
            kept++;
        }
        reads = kept;
        walk_remember(t, entry, epoch, first_pc, first_sp, first_rbp, (uint32_t)needs_rbp, read_at, words, reads, id);
    }
    return id;
}

/// The stack of this walk when it repeats the last walk of the first shape of the set that
/// starts at (pc, sp, rbp) word for word (what walk_recall finds first), else 0.
__attribute__((always_inline)) static inline uint32_t walk_repeat(const dkh_thread *t, const dkh_walk_entry *set,
                                                                 uint64_t epoch, uint64_t pc, uint64_t sp, uint64_t rbp) {
    for (int way = 0; way < DKH_WALK_CACHE_WAYS; way++) {
        const dkh_walk_entry *e = &set[way];
        if (!walk_starts_at(e, epoch, pc, sp, rbp)) continue;
        const uint64_t *last = walk_last(t, e);
        if (!last) return 0;
        const uint64_t *seen = last + WALK_RECORD_HEADER;
        for (uint32_t i = 0; i < e->reads; i++) {
            if (*(const uint64_t *)e->read_at[i] != seen[i]) return 0;
        }
        return (uint32_t)(last[1] >> 32);
    }
    return 0;
}

/// dkh_current_stack past the repeat: a walk remembered from the first frame (tried in a small
/// frame, before the walk's), else the walk.
__attribute__((noinline)) static uint32_t current_stack_full(dkh_thread *t, const void *hook_frame) {
    const uint64_t *frame = hook_frame;
    const uint64_t pc = frame[1], sp = (uint64_t)(frame + 2), rbp = frame[0];
    if (!walk_recallable(t, pc, sp)) return walk_stack(t, hook_frame, 0);
    const uint64_t epoch = atomic_load_explicit(&rule_epoch, memory_order_relaxed) & RULE_EPOCH_MASK;
    uint32_t id = walk_recall(t, &t->walks[walk_home(pc, sp)], epoch, pc, sp, rbp);
    return id ? id : walk_stack(t, hook_frame, 1);
}

uint32_t dkh_current_stack(dkh_thread *t, const void *hook_frame) {
    // A thread whose last walk repeated its shape's last one (a loop allocating at one place)
    // tries this one as a repeat: a check that keeps no words and calls nothing, in a frame
    // with few registers to save (current_stack_full keeps the words for a lookup by sum).
    // A thread whose walks differ (a recursion) goes straight to the full recall.
    if (t->walk_repeats) {
        const uint64_t *frame = hook_frame;
        const uint64_t pc = frame[1], sp = (uint64_t)(frame + 2), rbp = frame[0];
        if (t->walk_vectors && walk_recallable(t, pc, sp)) {
            const uint64_t epoch = atomic_load_explicit(&rule_epoch, memory_order_relaxed) & RULE_EPOCH_MASK;
            uint32_t id = walk_repeat(t, &t->walks[walk_home(pc, sp)], epoch, pc, sp, rbp);
            if (id) return id;
        }
        t->walk_repeats = 0;
    }
    return current_stack_full(t, hook_frame);
}
