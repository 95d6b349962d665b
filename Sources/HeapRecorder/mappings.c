// Memory the program maps itself, a root of the exit scan (--scan-at-exit): the recorder
// interposes mmap, mmap64, munmap and mremap and, only in that mode, keeps the ranges the
// program (any code but the recorder) mapped. glibc's malloc maps its arenas and large blocks
// through its internal __mmap, which no interposer sees: those ranges hold heap blocks (and
// freed ones, stale pointers included) and must never be roots. The recorder's own mappings
// (the live table, thread buffers, the scan's state: all full of block addresses) are told
// apart by the caller's address, which lies inside the recorder.
//
// The real calls are raw system calls, so nothing is resolved with dlsym (which allocates)
// and every call costs what glibc's wrapper costs; without --scan-at-exit the wrappers test
// one flag. Ranges are page-rounded; munmap trims or splits them; a table full of ranges
// drops new ones and says so (the scan then reports blocks held only there as lost).
#include "leaks_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_MAPPINGS 4096
#define PAGE_ROUND(x) (((x) + 4095u) & ~(uint64_t)4095u)

static dkh_spinlock lock;
static dkh_mapping mappings[MAX_MAPPINGS];
static size_t mapping_count;
static atomic_int overflowed;

/// Called by the recorder itself, or by libunwind while it takes a stack for the recorder:
/// those mappings are not the program's.
static inline int from_recorder(const void *caller) {
    uintptr_t pc = (uintptr_t)caller;
    return (pc >= dkh.self_start && pc < dkh.self_end) || dkh_recorder_busy();
}

/// Removes [start, end) from the table. Caller holds the lock.
static void remove_range_locked(uint64_t start, uint64_t end) {
    for (size_t i = 0; i < mapping_count;) {
        dkh_mapping *m = &mappings[i];
        if (m->end <= start || m->start >= end) {
            i++;
            continue;
        }
        if (m->start < start && m->end > end) {  // the hole splits it
            if (mapping_count == MAX_MAPPINGS) {
                atomic_store(&overflowed, 1);
                m->end = start;  // the upper part is lost: it is no longer a root
                i++;
                continue;
            }
            mappings[mapping_count++] = (dkh_mapping){end, m->end};
            m->end = start;
            i++;
        } else if (m->start < start) {
            m->end = start;
            i++;
        } else if (m->end > end) {
            m->start = end;
            i++;
        } else {
            *m = mappings[--mapping_count];  // wholly inside: removed; look at the moved one
        }
    }
}

static void add_range(uint64_t start, uint64_t length) {
    uint64_t end = start + PAGE_ROUND(length);
    dkh_lock(&lock);
    remove_range_locked(start, end);  // MAP_FIXED may replace part of a known range
    if (mapping_count < MAX_MAPPINGS) mappings[mapping_count++] = (dkh_mapping){start, end};
    else atomic_store(&overflowed, 1);
    dkh_unlock(&lock);
}

static void remove_range(uint64_t start, uint64_t length) {
    dkh_lock(&lock);
    remove_range_locked(start, start + PAGE_ROUND(length));
    dkh_unlock(&lock);
}

/// Whether any known range overlaps [start, end): mremap moves only those.
static int overlaps(uint64_t start, uint64_t end) {
    int found = 0;
    dkh_lock(&lock);
    for (size_t i = 0; i < mapping_count && !found; i++) found = mappings[i].start < end && mappings[i].end > start;
    dkh_unlock(&lock);
    return found;
}

static void *track_mmap(void *caller, void *address, size_t length, int prot, int flags, int fd, off_t offset) {
    void *p = (void *)syscall(SYS_mmap, address, length, prot, flags, fd, offset);
    if (p != MAP_FAILED && __builtin_expect(dkh_live_enabled, 0) && !from_recorder(caller))
        add_range((uintptr_t)p, length);
    return p;
}

void *mmap(void *address, size_t length, int prot, int flags, int fd, off_t offset) {
    return track_mmap(__builtin_return_address(0), address, length, prot, flags, fd, offset);
}

void *mmap64(void *address, size_t length, int prot, int flags, int fd, off_t offset) {
    return track_mmap(__builtin_return_address(0), address, length, prot, flags, fd, offset);
}

int munmap(void *address, size_t length) {
    int result = (int)syscall(SYS_munmap, address, length);
    if (result == 0 && __builtin_expect(dkh_live_enabled, 0)) remove_range((uintptr_t)address, length);
    return result;
}

void *mremap(void *old_address, size_t old_size, size_t new_size, int flags, ...) {
    void *new_address = NULL;
    if (flags & MREMAP_FIXED) {
        va_list args;
        va_start(args, flags);
        new_address = va_arg(args, void *);
        va_end(args);
    }
    void *p = (void *)syscall(SYS_mremap, old_address, old_size, new_size, flags, new_address);
    if (p != MAP_FAILED && __builtin_expect(dkh_live_enabled, 0) &&
        overlaps((uintptr_t)old_address, (uintptr_t)old_address + PAGE_ROUND(old_size))) {
        // MREMAP_DONTUNMAP leaves the old range mapped (empty): still the program's.
        if (!(flags & 4 /* MREMAP_DONTUNMAP */)) remove_range((uintptr_t)old_address, old_size);
        add_range((uintptr_t)p, new_size);
    }
    return p;
}

size_t dkh_program_mappings(dkh_mapping *out, size_t capacity) {
    dkh_lock(&lock);
    size_t n = mapping_count < capacity ? mapping_count : capacity;
    for (size_t i = 0; i < n; i++) out[i] = mappings[i];
    dkh_unlock(&lock);
    return n;
}

int dkh_program_mappings_overflowed(void) { return atomic_load(&overflowed); }
