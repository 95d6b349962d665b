// The recording file and the per-thread event buffers.
#include "recorder_internal.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static __thread dkh_thread *current __attribute__((tls_model("initial-exec")));

size_t dkh_put_u32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
    return 4;
}

size_t dkh_put_u64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
    return 8;
}

static inline size_t put_uleb(uint8_t *p, uint64_t v) {
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

void dkh_disable_after_write_failure(void) {
    // A full disk or a closed descriptor: stop recording, never disturb the target.
    atomic_store(&dkh.active, 0);
}

/// Writes all bytes with write(2) (async-signal-safe; O_APPEND keeps each call's bytes
/// together). Returns 0 on success; on failure recording stops.
int dkh_write_all(const void *bytes, size_t count) {
    const uint8_t *p = bytes;
    while (count > 0) {
        ssize_t n = write(dkh.fd, p, count);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            dkh_disable_after_write_failure();
            return -1;
        }
        p += n;
        count -= (size_t)n;
    }
    return 0;
}

/// One record in one write(2) when it fits in a stack buffer.
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
        dkh_write_all(header, sizeof header);  // two writes: a cut between them leaves a truncated last record
        dkh_write_all(payload, length);
    }
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
    dkh_put_u32(h + 36, 0);
    dkh_write_all(h, sizeof h);
}

static void *map_pages(size_t size) {
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

/// This thread's slot, claimed on first use; NULL when the pool is exhausted.
dkh_thread *dkh_current_thread(void) {
    if (current) return current;
    if (!dkh.threads) return NULL;
    for (int i = 0; i < DKH_MAX_THREADS; i++) {
        dkh_thread *t = &dkh.threads[i];
        int expected = 0;
        if (atomic_load_explicit(&t->in_use, memory_order_relaxed) ||
            !atomic_compare_exchange_strong(&t->in_use, &expected, 1))
            continue;
        if (!t->buffer && !(t->buffer = map_pages(DKH_THREAD_BUFFER_SIZE))) {
            atomic_store(&t->in_use, 0);
            return NULL;
        }
        t->tid = (pid_t)syscall(SYS_gettid);
        t->used = DKH_EVENTS_HEADER_SIZE;
        current = t;
        // The key's destructor flushes the buffer when the thread ends.
        pthread_setspecific(dkh.thread_key, t);
        return t;
    }
    return NULL;
}

/// Writes the thread's buffered events as one DKH_RECORD_EVENTS record. Caller holds t->lock.
void dkh_thread_flush_locked(dkh_thread *t) {
    if (t->used <= DKH_EVENTS_HEADER_SIZE) return;
    uint8_t *b = t->buffer;
    uint32_t payload = (uint32_t)(t->used - DKH_RECORD_HEADER_SIZE);
    dkh_put_u32(b, DKH_RECORD_EVENTS);
    dkh_put_u32(b + 4, payload);
    dkh_put_u32(b + 8, (uint32_t)t->tid);
    dkh_put_u32(b + 12, 0);
    dkh_put_u64(b + 16, t->base_seq);
    if (dkh.fd >= 0) dkh_write_all(b, t->used);
    t->used = DKH_EVENTS_HEADER_SIZE;
}

static inline uint8_t *event_space(dkh_thread *t, uint64_t seq) {
    if (t->used + DKH_MAX_EVENT_SIZE > DKH_THREAD_BUFFER_SIZE) dkh_thread_flush_locked(t);
    if (t->used == DKH_EVENTS_HEADER_SIZE) {
        t->base_seq = seq;
        t->last_seq = seq;
        t->last_ptr = 0;
    }
    return t->buffer + t->used;
}

void dkh_append_alloc(dkh_thread *t, uint64_t seq, uint64_t ptr, uint64_t size, uint32_t stack, uint64_t type) {
    dkh_lock(&t->lock);
    uint8_t *p = event_space(t, seq);
    size_t n = 0;
    p[n++] = type ? DKH_EVENT_ALLOC_TYPED : DKH_EVENT_ALLOC;
    n += put_uleb(p + n, seq - t->last_seq);
    n += put_uleb(p + n, zigzag((int64_t)(ptr - t->last_ptr)));
    n += put_uleb(p + n, size);
    n += put_uleb(p + n, stack);
    if (type) n += put_uleb(p + n, type);
    t->used += n;
    t->last_seq = seq;
    t->last_ptr = ptr;
    dkh_unlock(&t->lock);
}

void dkh_append_free(dkh_thread *t, uint64_t seq, uint64_t ptr) {
    dkh_lock(&t->lock);
    uint8_t *p = event_space(t, seq);
    size_t n = 0;
    p[n++] = DKH_EVENT_FREE;
    n += put_uleb(p + n, seq - t->last_seq);
    n += put_uleb(p + n, zigzag((int64_t)(ptr - t->last_ptr)));
    t->used += n;
    t->last_seq = seq;
    t->last_ptr = ptr;
    dkh_unlock(&t->lock);
}

/// Flushes every thread's buffer. From a crash handler (`trylock_only`) a buffer whose lock
/// is held (the crash happened while appending) is skipped rather than waited for.
void dkh_flush_all(int trylock_only) {
    if (!dkh.threads) return;
    for (int i = 0; i < DKH_MAX_THREADS; i++) {
        dkh_thread *t = &dkh.threads[i];
        if (!atomic_load(&t->in_use)) continue;
        if (trylock_only) {
            if (!dkh_trylock(&t->lock)) continue;
        } else {
            dkh_lock(&t->lock);
        }
        dkh_thread_flush_locked(t);
        dkh_unlock(&t->lock);
    }
}

/// In a forked child only the forking thread exists; every buffer holds the parent's events,
/// which the parent writes itself. Drop them all and free the other threads' slots.
void dkh_threads_after_fork_child(dkh_thread *self) {
    if (!dkh.threads) return;
    for (int i = 0; i < DKH_MAX_THREADS; i++) {
        dkh_thread *t = &dkh.threads[i];
        atomic_store(&t->lock, 0);
        t->used = DKH_EVENTS_HEADER_SIZE;
        if (t != self) atomic_store(&t->in_use, 0);
    }
    if (self) self->tid = (pid_t)syscall(SYS_gettid);
}

DKH_INTERNAL void dkh_thread_destructor(void *value);
void dkh_thread_destructor(void *value) {
    dkh_thread *t = value;
    if (!t) return;
    dkh_lock(&t->lock);
    dkh_thread_flush_locked(t);
    dkh_unlock(&t->lock);
    current = NULL;
    memset(t->cache, 0, sizeof t->cache);
    atomic_store(&t->in_use, 0);
}
