// The exit scan (--scan-at-exit): which live blocks can the program still reach, and how?
//
// Conservative, like a mark phase of a non-moving GC, and classifying as valgrind memcheck
// does (mc_leakcheck.c's two passes, re-derived here):
//   1. From the roots, every aligned 8-byte word that holds an address inside a live block
//      reaches it: through its start, from a root or a block itself reached that way, the block
//      is REACHABLE ("still reachable"); otherwise (an interior pointer somewhere on the way)
//      POSSIBLE ("possibly lost"). Reached blocks are scanned the same way through a worklist; a
//      block is scanned again when it goes from possible to reachable, so the result does not
//      depend on the order.
//   2. The blocks left UNREACHED, in address order: each still unreached one leads a clique,
//      and every unreached block its memory reaches (start or interior pointer, transitively)
//      becomes INDIRECT ("indirectly lost") — including the leaders of earlier cliques. The
//      leaders left are "definitely lost". A leaked cycle is one leader and the rest indirect.
// Roots:
//   - the writable PT_LOAD segments (data, bss) of every loaded module (dl_iterate_phdr);
//   - the exiting thread's general registers and its stack, both as they were where it entered
//     the recorder's exit path (hooks.c's recorder_stop: getcontext, frame address), to the end
//     of its mapping (/proc/self/maps). The recorder's frames below (the final flush encoded
//     every buffered address) are left out: their unwritten slots would hold stale pointers;
//     memcheck knows such words are undefined, a conservative scan does not;
//   - the static TLS and thread descriptor around the exiting thread's thread pointer
//     (the main thread's lives outside its stack), and around every stopped thread's;
//   - every other thread of /proc/self/task, stopped by a signal (stopthreads.c): its general
//     registers and its stack from the stack pointer (less the 128-byte red zone) to the end of
//     its mapping. A thread that does not stop: from the stack pointer /proc gives for a
//     thread blocked in a system call, else, if it allocated, its whole stack mapping;
//   - of threads that allocated and ended, the descriptor at their thread pointer while glibc
//     keeps their stack cached (its DTV is a malloc'd block glibc reuses, not a leak);
//   - memory the program mapped itself (mappings.c), where readable and writable.
// Only memory known mapped is read, and it is read with process_vm_readv on our own pid,
// which fails with EFAULT instead of faulting if another thread unmapped it meanwhile (a
// large block freed, a thread exiting): the scan never crashes the target. Where the kernel
// refuses process_vm_readv (seccomp), blocks, module segments and the own stack, which
// cannot vanish under us at exit, are read directly and other memory is skipped.
// All working memory (block snapshot, states, worklist, buffers) comes from mmap. The other
// threads are stopped before the exit changes anything (dkh_scan_prepare, from hooks.c's
// finish) and resumed after the scan; a thread stops only outside the recorder, and what takes
// a lock the program itself may hold (the loader's, the mapping table's) runs before.
#include "leaks_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#define READ_BUFFER_SIZE (256 * 1024)
#define BATCH_BLOCKS 256
#define MAX_MAPS 65536
#define MAX_SCAN_THREADS 1024
/// Addresses per UNREACHABLE record (64 KiB of payload).
#define ADDRESSES_PER_RECORD 8192

#define SCAN_TABLE_INCOMPLETE DKH_SCAN_TABLE_INCOMPLETE
#define SCAN_NO_VM_READV DKH_SCAN_NO_VM_READV
#define SCAN_NO_MAPS DKH_SCAN_NO_MAPS
#define MAX_SEGMENTS 8192
#define MAX_PROGRAM_MAPPINGS 4096
#define RED_ZONE DKH_RED_ZONE

/// Block states (memcheck's Unreached, Possible, Reachable, IndirectLeak); PENDING marks a
/// block on the worklist, so it is there at most once.
enum { UNREACHED = 0, POSSIBLE = 1, REACHABLE = 2, INDIRECT = 3, STATE_MASK = 3, PENDING = 0x80 };

typedef struct map_range {
    uint64_t start, end;
    uint8_t readable, writable, is_heap;
} map_range;

typedef struct scan_state {
    dkh_live_block *blocks;  // sorted by address
    dkh_live_block *scratch; // for the sort
    size_t count, capacity;
    uint8_t *state;
    uint32_t *work;
    size_t work_top;
    /// Phase 2: the clique leader being followed, or -1 in phase 1.
    long clique;
    /// Phase 1: what the memory being scanned was reached as (a root, a reachable block: 1).
    int definite;
    dkh_mapping *segments;   // module segments, collected before the threads stop
    size_t segment_count;
    dkh_mapping *program_maps;
    size_t program_map_count;
    dkh_stopped_thread *stopped;  // the other threads, as dkh_stop_threads left them
    size_t stopped_count;
    uint64_t mapped_bytes;   // of program mappings read
    uint32_t mappings_scanned;
    uint32_t threads_stopped, threads_unanswered;
    uint8_t *buffer;         // READ_BUFFER_SIZE
    map_range *maps;
    size_t map_count;
    uint64_t lowest, highest_end;
    uint64_t root_bytes;
    uint32_t flags;
    uint32_t threads_scanned;
    pid_t pid;
    int vm_readv_ok;
} scan_state;

static void *map_pages(size_t size) {
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

// ---- the sorted block array ---------------------------------------------------------------

/// LSD radix sort by address, 11 bits a pass over bits 4..47 (blocks are 16-aligned; user
/// addresses fit in 47 bits): linear time, and no qsort (which may malloc). `scratch` holds n.
static void sort_blocks(dkh_live_block *a, dkh_live_block *scratch, size_t n) {
    dkh_live_block *from = a, *to = scratch;
    for (int shift = 4; shift < 48; shift += 11) {
        size_t counts[2048] = {0};
        for (size_t i = 0; i < n; i++) counts[(from[i].addr >> shift) & 2047]++;
        size_t total = 0;
        for (size_t d = 0; d < 2048; d++) {
            size_t c = counts[d];
            counts[d] = total;
            total += c;
        }
        for (size_t i = 0; i < n; i++) to[counts[(from[i].addr >> shift) & 2047]++] = from[i];
        dkh_live_block *swap = from;
        from = to;
        to = swap;
    }
    if (from != a) memcpy(a, from, n * sizeof *a);  // an odd number of passes
}

/// The block whose [start, start + size) holds `value` (a zero-size block: its start only).
static inline long find_block(const scan_state *s, uint64_t value) {
    if (value < s->lowest || value >= s->highest_end) return -1;
    size_t lo = 0, hi = s->count;  // the last block starting at or below value
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->blocks[mid].addr <= value) lo = mid; else hi = mid;
    }
    const dkh_live_block *b = &s->blocks[lo];
    if (value < b->addr) return -1;
    if (value - b->addr < b->size || value == b->addr) return (long)lo;
    return -1;
}

static inline void push(scan_state *s, long i) {
    if (s->state[i] & PENDING) return;
    s->state[i] |= PENDING;
    s->work[s->work_top++] = (uint32_t)i;  // at most once on the list: the list has room for all
}

/// Reaches every block an aligned word of `bytes` points into (see the top of the file).
static void scan_words(scan_state *s, const uint8_t *bytes, size_t length) {
    for (size_t off = 0; off + 8 <= length; off += 8) {
        uint64_t value;
        memcpy(&value, bytes + off, 8);  // the buffer copy may be unaligned
        long i = find_block(s, value);
        if (i < 0) continue;
        int state = s->state[i] & STATE_MASK;
        if (s->clique >= 0) {
            // Phase 2: start or interior pointer alike; the leader itself (a cycle) stays.
            if (state == UNREACHED && i != s->clique) {
                s->state[i] = (uint8_t)((s->state[i] & PENDING) | INDIRECT);
                push(s, i);
            }
        } else if (value == s->blocks[i].addr && s->definite) {
            if (state != REACHABLE) {
                s->state[i] = (uint8_t)((s->state[i] & PENDING) | REACHABLE);
                push(s, i);  // again if it was possible: what it reaches is reachable now
            }
        } else if (state == UNREACHED) {
            s->state[i] = (uint8_t)((s->state[i] & PENDING) | POSSIBLE);
            push(s, i);
        }
    }
}

// ---- reading memory safely ------------------------------------------------------------------

/// Scans [lo, hi) (aligned down/up to 8) in buffer-sized pieces read with process_vm_readv;
/// a piece that faults is skipped a page at a time. `trusted`: memory that cannot be unmapped
/// under us (module data, our own stack, live blocks), read directly when process_vm_readv is
/// unavailable; untrusted memory is then skipped.
__attribute__((noinline)) static void scan_memory(scan_state *s, uint64_t lo, uint64_t hi, int trusted) {
    // Whole words only: lo rounded up, hi down. (A tail shorter than a word would otherwise
    // be read forever: `lo += n & ~7` adds nothing for it.)
    lo = (lo + 7) & ~7ull;
    hi &= ~7ull;
    if (hi <= lo) return;
    while (lo < hi) {
        size_t length = hi - lo < READ_BUFFER_SIZE ? (size_t)(hi - lo) : READ_BUFFER_SIZE;
        if (s->vm_readv_ok) {
            struct iovec local = {s->buffer, length}, remote = {(void *)(uintptr_t)lo, length};
            ssize_t n = process_vm_readv(s->pid, &local, 1, &remote, 1, 0);
            if (n < 0 && (errno == ENOSYS || errno == EPERM)) {
                s->vm_readv_ok = 0;
                s->flags |= SCAN_NO_VM_READV;
                continue;  // this piece again, directly if trusted
            }
            if (n > 0) {
                scan_words(s, s->buffer, (size_t)n);
                s->root_bytes += (uint64_t)n;
                lo += (uint64_t)n & ~7ull;
                if ((size_t)n == length) continue;
            }
            // A fault: skip to the next page.
            lo = ((lo + 4096) & ~4095ull);
            continue;
        }
        if (!trusted) return;
        scan_words(s, (const uint8_t *)(uintptr_t)lo, length);
        s->root_bytes += length;
        lo += length;
    }
}

/// Scans the queued blocks until the worklist is empty. Small blocks are read in batches
/// (one process_vm_readv for up to BATCH_BLOCKS of them) to keep syscalls few. A block is
/// scanned as what it is when it leaves the list (phase 1: reachable ones definitely).
__attribute__((noinline)) static void drain(scan_state *s) {
    struct iovec remote[BATCH_BLOCKS];
    uint8_t definite[BATCH_BLOCKS];
    int root_definite = s->definite;
    while (s->work_top > 0) {
        size_t k = 0, total = 0;
        while (s->work_top > 0 && k < BATCH_BLOCKS) {
            uint32_t i = s->work[s->work_top - 1];
            const dkh_live_block *b = &s->blocks[i];
            size_t size = (size_t)(b->size & ~7ull);
            if (size > READ_BUFFER_SIZE) {
                if (k == 0) {
                    s->work_top--;
                    s->state[i] &= STATE_MASK;
                    s->definite = (s->state[i] & STATE_MASK) == REACHABLE;
                    scan_memory(s, b->addr, b->addr + size, 1);
                }
                break;
            }
            if (total + size > READ_BUFFER_SIZE) break;
            s->work_top--;
            s->state[i] &= STATE_MASK;
            definite[k] = (s->state[i] & STATE_MASK) == REACHABLE;
            remote[k].iov_base = (void *)(uintptr_t)b->addr;
            remote[k].iov_len = size;
            total += size;
            k++;
        }
        if (k == 0) continue;
        // The batch is copied out before scanning it: scanning pushes onto the worklist.
        size_t first = 0;
        while (first < k) {
            if (!s->vm_readv_ok) {
                for (size_t i = first; i < k; i++) {
                    s->definite = definite[i];
                    scan_words(s, remote[i].iov_base, remote[i].iov_len);
                }
                break;
            }
            struct iovec local = {s->buffer, READ_BUFFER_SIZE};
            ssize_t n = process_vm_readv(s->pid, &local, 1, remote + first, k - first, 0);
            if (n < 0) {
                if (errno == ENOSYS || errno == EPERM) {
                    s->vm_readv_ok = 0;
                    s->flags |= SCAN_NO_VM_READV;
                    continue;
                }
                first++;  // the first block faulted (freed and unmapped meanwhile): skip it
                continue;
            }
            // The kernel fills elements in order and stops at the first fault.
            size_t offset = 0, got = (size_t)n;
            while (first < k && got - offset >= remote[first].iov_len) {
                s->definite = definite[first];
                scan_words(s, s->buffer + offset, remote[first].iov_len);
                offset += remote[first].iov_len;
                first++;
            }
            if (first < k) {
                s->definite = definite[first];
                scan_words(s, s->buffer + offset, got - offset);  // what came of the faulting one
                first++;
            }
        }
    }
    s->definite = root_definite;
}

// ---- roots ------------------------------------------------------------------------------------

/// Collects the writable segments (dl_iterate_phdr holds the loader's lock: not while other
/// threads are stopped, one of them may hold it too).
static int module_callback(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    scan_state *s = data;
    for (int i = 0; i < info->dlpi_phnum && s->segment_count < MAX_SEGMENTS; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W) || !(ph->p_flags & PF_R)) continue;
        uint64_t start = info->dlpi_addr + ph->p_vaddr;
        s->segments[s->segment_count++] = (dkh_mapping){start, start + ph->p_memsz};
    }
    return 0;
}

static uint64_t parse_hex(const char **p, const char *end) {
    uint64_t v = 0;
    for (; *p < end; (*p)++) {
        char c = **p;
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (d < 0) break;
        v = v << 4 | (uint64_t)d;
    }
    return v;
}

static void parse_map_line(scan_state *s, const char *line, const char *end) {
    if (s->map_count >= MAX_MAPS) return;
    const char *p = line;
    map_range m = {0};
    m.start = parse_hex(&p, end);
    if (p >= end || *p != '-') return;
    p++;
    m.end = parse_hex(&p, end);
    if (p + 3 >= end || *p != ' ') return;
    m.readable = p[1] == 'r';
    m.writable = p[2] == 'w';
    // "[heap]" (brk) is never a root: scanning it would reach every block.
    m.is_heap = end - line >= 6 && memcmp(end - 6, "[heap]", 6) == 0;
    s->maps[s->map_count++] = m;
}

/// Reads /proc/self/maps (open/read: no stdio, which allocates).
static int read_maps(scan_state *s) {
    int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    char chunk[8192];
    size_t kept = 0;
    for (;;) {
        ssize_t n = read(fd, chunk + kept, sizeof chunk - kept);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        size_t have = kept + (size_t)n, start = 0;
        for (size_t i = 0; i < have; i++) {
            if (chunk[i] != '\n') continue;
            parse_map_line(s, chunk + start, chunk + i);
            start = i + 1;
        }
        kept = have - start;
        if (kept == sizeof chunk) kept = 0;  // a line longer than the chunk: drop it
        memmove(chunk, chunk + start, kept);
    }
    close(fd);
    return 1;
}

static const map_range *map_containing(const scan_state *s, uint64_t address) {
    for (size_t i = 0; i < s->map_count; i++)
        if (address >= s->maps[i].start && address < s->maps[i].end) return &s->maps[i];
    return NULL;
}

/// A window around a thread pointer: static TLS below it, the thread descriptor above; the
/// main thread's lies outside its stack. Never the brk heap.
static void scan_thread_pointer(scan_state *s, uint64_t tp, const map_range *stack, int trusted) {
    const map_range *tls = map_containing(s, tp);
    if (!tls || tls == stack || !tls->readable || !tls->writable || tls->is_heap) return;
    uint64_t lo = tp - 65536 > tls->start && tp > 65536 ? tp - 65536 : tls->start;
    uint64_t hi = tp + 4096 < tls->end ? tp + 4096 : tls->end;
    scan_memory(s, lo, hi, trusted);
}

/// The exiting thread: its registers and its stack above the frame where it entered the
/// recorder's exit path (dkh_exit_entry), else (no entry recorded) from here, to the top of
/// its mapping.
static __attribute__((noinline)) void scan_own_stack(scan_state *s, const ucontext_t *context) {
    uint64_t sp = (uintptr_t)__builtin_frame_address(0);
    if (dkh_exit_entry.context) {
        context = dkh_exit_entry.context;
        if (dkh_exit_entry.frame > sp) sp = dkh_exit_entry.frame;
    }
    scan_words(s, (const uint8_t *)DKH_GENERAL_REGISTERS(context), DKH_GENERAL_REGISTERS_SIZE);
    const map_range *stack = map_containing(s, sp);
    if (stack && stack->readable && stack->writable) scan_memory(s, sp, stack->end, 1);
    scan_thread_pointer(s, (uintptr_t)__builtin_thread_pointer(), stack, 1);
}

/// The other threads (stopped by the caller): registers, stacks, thread pointers.
static void scan_other_threads(scan_state *s, uint64_t own_sp, const dkh_stopped_thread *stopped, size_t stopped_count) {
    static dkh_thread_info known[MAX_SCAN_THREADS];
    size_t known_count = dkh_live_threads(known, MAX_SCAN_THREADS);
    const map_range *own = map_containing(s, own_sp);
    for (size_t i = 0; i < stopped_count; i++) {
        const dkh_stopped_thread *t = &stopped[i];
        if (t->gone) continue;
        if (t->stopped) {
            s->threads_stopped++;
            // The copy of its registers is ours (mmap'd), read directly.
            scan_words(s, (const uint8_t *)t->registers, t->register_bytes);
        } else {
            s->threads_unanswered++;
        }
        // A running thread's memory can be unmapped while we read it: only with
        // process_vm_readv. A stopped thread's stack stays put (read directly if need be).
        if (!s->vm_readv_ok && !t->stopped) continue;
        uint64_t sp = t->stack_pointer;
        const map_range *m = sp ? map_containing(s, sp) : NULL;
        if (m && m != own && m->readable && m->writable && !m->is_heap) {
            uint64_t lo = sp - RED_ZONE > m->start ? sp - RED_ZONE : m->start;
            scan_memory(s, lo, m->end, t->stopped);
            s->threads_scanned++;
        } else if (!sp) {
            // No stack pointer: the whole stack mapping of a thread the live table knows, stale
            // frames included (more conservative, never less).
            for (size_t k = 0; k < known_count; k++) {
                if (known[k].tid != t->tid || !known[k].alive) continue;
                m = map_containing(s, known[k].stack_sample);
                if (!m || m == own || !m->readable || !m->writable || m->is_heap) break;
                scan_memory(s, m->start, m->end, 0);
                s->threads_scanned++;
                break;
            }
        }
        if (t->stopped) scan_thread_pointer(s, t->thread_pointer, m, 0);
    }
    // Ended threads' descriptors: memory glibc may unmap meanwhile.
    if (!s->vm_readv_ok) return;
    for (size_t i = 0; i < known_count; i++) {
        if (known[i].alive) continue;
        // An ended thread: only its descriptor at the thread pointer (4 KiB holds glibc's
        // struct pthread and the DTV pointer), if its stack is still mapped (cached).
        uint64_t tp = known[i].thread_pointer;
        const map_range *m = map_containing(s, tp);
        if (!m || m == own || !m->readable || !m->writable || m->is_heap) continue;
        scan_memory(s, tp, tp + 4096 < m->end ? tp + 4096 : m->end, 0);
    }
}

/// Memory the program mapped itself: the parts /proc/self/maps shows readable and writable.
static void scan_program_mappings(scan_state *s) {
    for (size_t i = 0; i < s->program_map_count; i++) {
        const dkh_mapping *p = &s->program_maps[i];
        int any = 0;
        for (size_t k = 0; k < s->map_count; k++) {
            const map_range *m = &s->maps[k];
            if (m->end <= p->start || m->start >= p->end || !m->readable || !m->writable || m->is_heap) continue;
            uint64_t lo = m->start > p->start ? m->start : p->start, hi = m->end < p->end ? m->end : p->end;
            uint64_t before = s->root_bytes;
            scan_memory(s, lo, hi, 0);
            s->mapped_bytes += s->root_bytes - before;
            any = 1;
        }
        s->mappings_scanned += (uint32_t)any;
    }
}

/// Phase 2: in address order, each block still unreached leads a clique that takes every
/// unreached block it reaches (see the top of the file).
__attribute__((noinline)) static void find_cliques(scan_state *s) {
    for (size_t i = 0; i < s->count; i++) {
        if ((s->state[i] & STATE_MASK) != UNREACHED) continue;
        s->clique = (long)i;
        push(s, (long)i);
        drain(s);
    }
    s->clique = -1;
}

// ---- the scan ---------------------------------------------------------------------------------

dkh_exit_entry_point dkh_exit_entry;

/// Writes the addresses of the blocks in `wanted` states, DKH_ADDRESSES_PER_RECORD a record,
/// as records of `type` with `header` (the scan seq, and for LEAK_KINDS the kind).
static void write_addresses(scan_state *s, uint32_t type, const uint8_t *header, size_t header_size,
                            uint8_t wanted_a, uint8_t wanted_b, uint64_t *count, uint64_t *bytes) {
    uint8_t *payload = s->buffer;  // reused: header + 8 * ADDRESSES_PER_RECORD bytes
    size_t n = 0;
    *count = 0;
    *bytes = 0;
    for (size_t i = 0; i <= s->count; i++) {
        if (n == ADDRESSES_PER_RECORD || (i == s->count && n > 0)) {
            memcpy(payload, header, header_size);
            dkh_write_record(type, payload, (uint32_t)(header_size + 8 * n));
            n = 0;
        }
        if (i == s->count) break;
        uint8_t state = s->state[i] & STATE_MASK;
        if (state != wanted_a && state != wanted_b) continue;
        dkh_put_u64(payload + header_size + 8 * n, s->blocks[i].addr);
        n++;
        (*count)++;
        *bytes += s->blocks[i].size;
    }
}

static void write_results(scan_state *s, uint64_t seq, uint64_t started_ns) {
    uint8_t header[16];
    dkh_put_u64(header, seq);
    uint64_t unreachable, unreachable_bytes, indirect, indirect_bytes, possible, possible_bytes;
    // Not reached at all (definitely and indirectly lost): the UNREACHABLE records of older
    // recorders, unchanged, so an older reader still reads "leaked" right.
    write_addresses(s, DKH_RECORD_UNREACHABLE, header, 8, UNREACHED, INDIRECT, &unreachable, &unreachable_bytes);
    dkh_put_u32(header + 8, DKH_LEAK_INDIRECTLY_LOST);
    dkh_put_u32(header + 12, 0);
    write_addresses(s, DKH_RECORD_LEAK_KIND, header, 16, INDIRECT, INDIRECT, &indirect, &indirect_bytes);
    dkh_put_u32(header + 8, DKH_LEAK_POSSIBLY_LOST);
    write_addresses(s, DKH_RECORD_LEAK_KIND, header, 16, POSSIBLE, POSSIBLE, &possible, &possible_bytes);
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    uint8_t summary[DKH_SCAN_PAYLOAD_SIZE];
    dkh_put_u64(summary, seq);
    dkh_put_u32(summary + 8, s->flags);
    dkh_put_u32(summary + 12, s->threads_scanned);
    dkh_put_u64(summary + 16, s->count);
    dkh_put_u64(summary + 24, unreachable);
    dkh_put_u64(summary + 32, unreachable_bytes);
    dkh_put_u64(summary + 40, s->root_bytes);
    dkh_put_u64(summary + 48, (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec - started_ns);
    dkh_put_u64(summary + 56, indirect);
    dkh_put_u64(summary + 64, indirect_bytes);
    dkh_put_u64(summary + 72, possible);
    dkh_put_u64(summary + 80, possible_bytes);
    dkh_put_u32(summary + 88, s->threads_stopped);
    dkh_put_u32(summary + 92, s->threads_unanswered);
    dkh_put_u32(summary + 96, s->mappings_scanned);
    dkh_put_u32(summary + 100, 0);
    dkh_put_u64(summary + 104, s->mapped_bytes);
    dkh_write_record(DKH_RECORD_SCAN, summary, sizeof summary);
}

/// noinline like the workers it calls: block addresses they hold (batches, the worklist's
/// top) stay in frames below the one scan_own_stack starts from.
__attribute__((noinline)) static void run_scan(scan_state *s, const ucontext_t *context, uint64_t seq, uint64_t started_ns) {
    s->pid = getpid();
    s->vm_readv_ok = 1;
    s->clique = -1;
    s->definite = 1;  // roots
    if (dkh_program_mappings_overflowed()) s->flags |= DKH_SCAN_MAPPINGS_INCOMPLETE;
    // The other threads are stopped outside the recorder (or did not answer and still run):
    // none holds a lock of the live table for good.
    s->count = dkh_live_snapshot(s->blocks, s->capacity);
    if (dkh_live_overflowed()) s->flags |= SCAN_TABLE_INCOMPLETE;  // after: the snapshot may set it
    sort_blocks(s->blocks, s->scratch, s->count);
    if (s->count) {
        s->lowest = s->blocks[0].addr;
        for (size_t i = 0; i < s->count; i++) {
            uint64_t end = s->blocks[i].addr + (s->blocks[i].size ? s->blocks[i].size : 1);
            if (end > s->highest_end) s->highest_end = end;
        }
    }
    for (size_t i = 0; i < s->segment_count; i++) scan_memory(s, s->segments[i].start, s->segments[i].end, 1);
    drain(s);
    if (read_maps(s)) {
        scan_own_stack(s, context);
        drain(s);
        scan_other_threads(s, (uintptr_t)__builtin_frame_address(0), s->stopped, s->stopped_count);
        drain(s);
        scan_program_mappings(s);
        drain(s);
    } else {
        s->flags |= SCAN_NO_MAPS;
    }
    find_cliques(s);
    dkh_resume_threads();
    write_results(s, seq, started_ns);
}

#define BUFFER_BYTES (READ_BUFFER_SIZE > 16 + 8 * ADDRESSES_PER_RECORD ? READ_BUFFER_SIZE : 16 + 8 * ADDRESSES_PER_RECORD)

/// The scan dkh_scan_prepare set up, until dkh_scan_at_exit or dkh_scan_abandon.
static scan_state *prepared;
static atomic_int claimed;

static void release_state(scan_state *s) {
    if (s->blocks) munmap(s->blocks, s->capacity * sizeof(dkh_live_block));
    if (s->scratch) munmap(s->scratch, s->capacity * sizeof(dkh_live_block));
    if (s->state) munmap(s->state, s->capacity);
    if (s->work) munmap(s->work, s->capacity * sizeof(uint32_t));
    if (s->buffer) munmap(s->buffer, BUFFER_BYTES);
    if (s->maps) munmap(s->maps, MAX_MAPS * sizeof(map_range));
    if (s->segments) munmap(s->segments, MAX_SEGMENTS * sizeof(dkh_mapping));
    if (s->program_maps) munmap(s->program_maps, MAX_PROGRAM_MAPPINGS * sizeof(dkh_mapping));
    munmap(s, sizeof *s);
}

/// Before anything of the exit changes: takes the scan's memory, the module segments and the
/// program's mappings (each behind a lock a stopped thread could hold: the loader's, the
/// mapping table's), then stops the other threads. They stop outside the recorder (a thread
/// inside it stops when it leaves), so the final flush and the snapshot of the live table meet
/// no lock held for good, and the snapshot, the events and the memory agree: nothing is
/// allocated or freed between the snapshot and the scan, as under memcheck.
int dkh_scan_prepare(void) {
    int expected = 0;
    if (!dkh_live_enabled || !atomic_compare_exchange_strong(&claimed, &expected, 1)) return 0;
    scan_state *s = map_pages(sizeof *s);
    if (!s) return 0;
    // Room for blocks a thread adds before it stops.
    s->capacity = dkh_live_count() + 1024;
    s->blocks = map_pages(s->capacity * sizeof(dkh_live_block));
    s->scratch = map_pages(s->capacity * sizeof(dkh_live_block));
    s->state = map_pages(s->capacity);
    s->work = map_pages(s->capacity * sizeof(uint32_t));
    s->buffer = map_pages(BUFFER_BYTES);
    s->maps = map_pages(MAX_MAPS * sizeof(map_range));
    s->segments = map_pages(MAX_SEGMENTS * sizeof(dkh_mapping));
    s->program_maps = map_pages(MAX_PROGRAM_MAPPINGS * sizeof(dkh_mapping));
    // Without memory there is no scan record: the reader then says "no scan".
    if (!(s->blocks && s->scratch && s->state && s->work && s->buffer && s->maps && s->segments && s->program_maps)) {
        release_state(s);
        return 0;
    }
    dl_iterate_phdr(module_callback, s);
    s->program_map_count = dkh_program_mappings(s->program_maps, MAX_PROGRAM_MAPPINGS);
    s->stopped_count = dkh_stop_threads(&s->stopped);
    prepared = s;
    return 1;
}

void dkh_scan_abandon(void) {
    if (!prepared) return;
    dkh_resume_threads();
    release_state(prepared);
    prepared = NULL;
}

/// noinline: the worker frames below it are not scanned (scan_own_stack starts above the
/// recorder's exit path). The scan state lives in mmap'd memory, never on the stack or in our
/// data segment (both are roots): it holds block addresses that would mark blocks.
__attribute__((noinline)) void dkh_scan_at_exit(void) {
    scan_state *s = prepared;
    if (!s) return;
    prepared = NULL;
    // Only if the exit path's entry was not recorded. Zeroed first: getcontext fills the
    // general registers but not the vector-register area (no fxsave), and memcheck scans
    // general registers only, and so do we.
    ucontext_t context;
    memset(&context, 0, sizeof context);
    getcontext(&context);

    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    uint64_t started_ns = (uint64_t)start.tv_sec * 1000000000u + (uint64_t)start.tv_nsec;
    uint64_t seq = dkh_take_global_seq();
    run_scan(s, &context, seq, started_ns);
    release_state(s);
}
