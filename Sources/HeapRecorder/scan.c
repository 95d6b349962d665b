// The exit scan (--scan-at-exit): which live blocks can the program still reach?
//
// Conservative, like a mark phase of a non-moving GC: every aligned 8-byte word of the roots
// that holds an address inside a live block (its start or anywhere inside) marks that block,
// and marked blocks are scanned the same way through a worklist. Blocks never marked are
// unreachable: "leaked". Roots:
//   - the writable PT_LOAD segments (data, bss) of every loaded module (dl_iterate_phdr);
//   - the exiting thread's registers (getcontext into a local) and its stack from the
//     current stack pointer to the end of its mapping (/proc/self/maps);
//   - the static TLS and thread descriptor around the exiting thread's thread pointer
//     (the main thread's lives outside its stack);
//   - every other thread that allocated and has not ended: its whole stack mapping, stale
//     frames included (we cannot stop it to learn its stack pointer; more conservative, never
//     less). Their registers are not scanned, nor threads that never allocated;
//   - of threads that allocated and ended, the descriptor at their thread pointer while glibc
//     keeps their stack cached (its DTV is a malloc'd block glibc reuses, not a leak).
// Only memory known mapped is read, and it is read with process_vm_readv on our own pid,
// which fails with EFAULT instead of faulting if another thread unmapped it meanwhile (a
// large block freed, a thread exiting): the scan never crashes the target. Where the kernel
// refuses process_vm_readv (seccomp), blocks, module segments and the own stack, which
// cannot vanish under us at exit, are read directly and other threads' stacks are skipped.
// All working memory (block snapshot, marks, worklist, buffers) comes from mmap.
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

typedef struct map_range {
    uint64_t start, end;
    uint8_t readable, writable, is_heap;
} map_range;

typedef struct scan_state {
    dkh_live_block *blocks;  // sorted by address
    dkh_live_block *scratch; // for the sort
    size_t count, capacity;
    uint8_t *marked;
    uint32_t *work;
    size_t work_top;
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

/// Marks every block an aligned word of `bytes` points into and queues it for scanning.
static void scan_words(scan_state *s, const uint8_t *bytes, size_t length) {
    for (size_t off = 0; off + 8 <= length; off += 8) {
        uint64_t value;
        memcpy(&value, bytes + off, 8);  // the buffer copy may be unaligned
        long i = find_block(s, value);
        if (i >= 0 && !s->marked[i]) {
            s->marked[i] = 1;
            s->work[s->work_top++] = (uint32_t)i;  // each block is queued at most once
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
/// (one process_vm_readv for up to BATCH_BLOCKS of them) to keep syscalls few.
__attribute__((noinline)) static void drain(scan_state *s) {
    struct iovec remote[BATCH_BLOCKS];
    while (s->work_top > 0) {
        size_t k = 0, total = 0;
        while (s->work_top > 0 && k < BATCH_BLOCKS) {
            const dkh_live_block *b = &s->blocks[s->work[s->work_top - 1]];
            size_t size = (size_t)(b->size & ~7ull);
            if (size > READ_BUFFER_SIZE) {
                if (k == 0) {
                    s->work_top--;
                    scan_memory(s, b->addr, b->addr + size, 1);
                }
                break;
            }
            if (total + size > READ_BUFFER_SIZE) break;
            s->work_top--;
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
                for (size_t i = first; i < k; i++)
                    scan_words(s, remote[i].iov_base, remote[i].iov_len);
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
                scan_words(s, s->buffer + offset, remote[first].iov_len);
                offset += remote[first].iov_len;
                first++;
            }
            if (first < k) {
                scan_words(s, s->buffer + offset, got - offset);  // what came of the faulting one
                first++;
            }
        }
    }
}

// ---- roots ------------------------------------------------------------------------------------

static int module_callback(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    scan_state *s = data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W) || !(ph->p_flags & PF_R)) continue;
        uint64_t start = info->dlpi_addr + ph->p_vaddr;
        scan_memory(s, start, start + ph->p_memsz, 1);
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

/// The exiting thread: its registers (saved into `context` by the caller, whose frame is
/// above ours) and its stack from here to the top of its mapping.
static __attribute__((noinline)) void scan_own_stack(scan_state *s, const ucontext_t *context) {
    scan_memory(s, (uintptr_t)context, (uintptr_t)context + sizeof *context, 1);
    uint64_t sp = (uintptr_t)__builtin_frame_address(0);
    const map_range *stack = map_containing(s, sp);
    if (stack && stack->readable && stack->writable) scan_memory(s, sp, stack->end, 1);
    // Static TLS and the thread descriptor sit just below/above the thread pointer; for the
    // main thread that is outside its stack. A window around it, never the brk heap.
    uint64_t tp = (uintptr_t)__builtin_thread_pointer();
    const map_range *tls = map_containing(s, tp);
    if (tls && tls->readable && tls->writable && !tls->is_heap) {
        uint64_t lo = tp - 65536 > tls->start && tp > 65536 ? tp - 65536 : tls->start;
        uint64_t hi = tp + 4096 < tls->end ? tp + 4096 : tls->end;
        scan_memory(s, lo, hi, 1);
    }
}

static void scan_other_threads(scan_state *s, uint64_t own_sp) {
    static dkh_thread_info threads[MAX_SCAN_THREADS];
    size_t n = dkh_live_threads(threads, MAX_SCAN_THREADS);
    const map_range *own = map_containing(s, own_sp);
    // Another thread's memory can be unmapped while we read it: only with process_vm_readv.
    if (!s->vm_readv_ok) return;
    for (size_t i = 0; i < n; i++) {
        if (threads[i].alive) {
            const map_range *m = map_containing(s, threads[i].stack_sample);
            if (!m || m == own || !m->readable || !m->writable || m->is_heap) continue;
            scan_memory(s, m->start, m->end, 0);
            s->threads_scanned++;
        } else {
            // An ended thread: only its descriptor at the thread pointer (4 KiB holds glibc's
            // struct pthread and the DTV pointer), if its stack is still mapped (cached).
            uint64_t tp = threads[i].thread_pointer;
            const map_range *m = map_containing(s, tp);
            if (!m || m == own || !m->readable || !m->writable || m->is_heap) continue;
            scan_memory(s, tp, tp + 4096 < m->end ? tp + 4096 : m->end, 0);
        }
    }
}

// ---- the scan ---------------------------------------------------------------------------------

static void write_results(scan_state *s, uint64_t seq, uint64_t started_ns) {
    uint64_t unreachable = 0, unreachable_bytes = 0;
    uint8_t *payload = s->buffer;  // reused: 8 + 8 * ADDRESSES_PER_RECORD bytes
    size_t n = 0;
    for (size_t i = 0; i <= s->count; i++) {
        if (n == ADDRESSES_PER_RECORD || (i == s->count && n > 0)) {
            dkh_put_u64(payload, seq);
            dkh_write_record(DKH_RECORD_UNREACHABLE, payload, (uint32_t)(8 + 8 * n));
            n = 0;
        }
        if (i == s->count) break;
        if (s->marked[i]) continue;
        dkh_put_u64(payload + 8 + 8 * n, s->blocks[i].addr);
        n++;
        unreachable++;
        unreachable_bytes += s->blocks[i].size;
    }
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    uint8_t summary[56];
    dkh_put_u64(summary, seq);
    dkh_put_u32(summary + 8, s->flags);
    dkh_put_u32(summary + 12, s->threads_scanned);
    dkh_put_u64(summary + 16, s->count);
    dkh_put_u64(summary + 24, unreachable);
    dkh_put_u64(summary + 32, unreachable_bytes);
    dkh_put_u64(summary + 40, s->root_bytes);
    dkh_put_u64(summary + 48, (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec - started_ns);
    dkh_write_record(DKH_RECORD_SCAN, summary, sizeof summary);
}

/// noinline like the workers it calls: block addresses they hold (batches, the worklist's
/// top) stay in frames below the one scan_own_stack starts from.
__attribute__((noinline)) static void run_scan(scan_state *s, const ucontext_t *context, uint64_t seq, uint64_t started_ns) {
    s->pid = getpid();
    s->vm_readv_ok = 1;
    if (dkh_live_overflowed()) s->flags |= SCAN_TABLE_INCOMPLETE;
    s->count = dkh_live_snapshot(s->blocks, s->capacity);
    sort_blocks(s->blocks, s->scratch, s->count);
    if (s->count) {
        s->lowest = s->blocks[0].addr;
        for (size_t i = 0; i < s->count; i++) {
            uint64_t end = s->blocks[i].addr + (s->blocks[i].size ? s->blocks[i].size : 1);
            if (end > s->highest_end) s->highest_end = end;
        }
    }
    dl_iterate_phdr(module_callback, s);
    drain(s);
    if (read_maps(s)) {
        scan_own_stack(s, context);
        drain(s);
        scan_other_threads(s, (uintptr_t)__builtin_frame_address(0));
        drain(s);
    } else {
        s->flags |= SCAN_NO_MAPS;
    }
    write_results(s, seq, started_ns);
}

#define BUFFER_BYTES (READ_BUFFER_SIZE > 8 + 8 * ADDRESSES_PER_RECORD ? READ_BUFFER_SIZE : 8 + 8 * ADDRESSES_PER_RECORD)

/// noinline, with the saved registers in this frame: the worker frames below it are not
/// scanned, the registers are. The scan state lives in mmap'd memory, never on the stack or
/// in our data segment (both are roots): it holds block addresses that would mark blocks.
__attribute__((noinline)) void dkh_scan_at_exit(void) {
    if (!dkh_live_enabled) return;
    ucontext_t context;
    getcontext(&context);
    __builtin_unwind_init();  // spill callee-saved registers into this frame too

    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    uint64_t started_ns = (uint64_t)start.tv_sec * 1000000000u + (uint64_t)start.tv_nsec;
    uint64_t seq = atomic_fetch_add(&dkh.seq, 1);

    scan_state *s = map_pages(sizeof *s);
    if (!s) return;
    // Room for blocks another thread adds while we copy (the hooks stop at `active`, but one
    // may be inside an insert).
    s->capacity = dkh_live_count() + 1024;
    s->blocks = map_pages(s->capacity * sizeof(dkh_live_block));
    s->scratch = map_pages(s->capacity * sizeof(dkh_live_block));
    s->marked = map_pages(s->capacity);
    s->work = map_pages(s->capacity * sizeof(uint32_t));
    s->buffer = map_pages(BUFFER_BYTES);
    s->maps = map_pages(MAX_MAPS * sizeof(map_range));
    // Without memory there is no scan record: the reader then says "no scan".
    if (s->blocks && s->scratch && s->marked && s->work && s->buffer && s->maps) run_scan(s, &context, seq, started_ns);
    if (s->blocks) munmap(s->blocks, s->capacity * sizeof(dkh_live_block));
    if (s->scratch) munmap(s->scratch, s->capacity * sizeof(dkh_live_block));
    if (s->marked) munmap(s->marked, s->capacity);
    if (s->work) munmap(s->work, s->capacity * sizeof(uint32_t));
    if (s->buffer) munmap(s->buffer, BUFFER_BYTES);
    if (s->maps) munmap(s->maps, MAX_MAPS * sizeof(map_range));
    munmap(s, sizeof *s);
}
