// The allocator entry points the recorder interposes (LD_PRELOAD), its start-up, marks,
// fork, exit and crash handling.
#include "recorder_internal.h"
#include "devkit_heap.h"
#include "leaks_internal.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <ucontext.h>
#include <unistd.h>

dkh_state dkh = {.fd = -1, .stack_lock = PTHREAD_MUTEX_INITIALIZER, .module_lock = PTHREAD_MUTEX_INITIALIZER};

/// Set while the recorder itself runs on this thread: allocations made by libunwind or by
/// the loader on our behalf pass straight through instead of recursing.
static __thread int in_recorder __attribute__((tls_model("initial-exec")));

int dkh_recorder_busy(void) { return in_recorder; }

/// Leaves the recorder (`saved`: what in_recorder was before entering): a stop the exit scan
/// asked for meanwhile (stopthreads.c) is taken now, outside, holding none of its locks.
static inline void leave_recorder(int saved) {
    in_recorder = saved;
    if (__builtin_expect(dkh_stop_deferred, 0) && !saved) dkh_stop_now();
}
/// The Swift type metadata of the object swift_allocObject is allocating on this thread.
static __thread uint64_t pending_type __attribute__((tls_model("initial-exec")));

// ---- the real allocator, resolved with dlsym -------------------------------------------

static void *(*real_malloc)(size_t);
static void (*real_free)(void *);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void *(*real_reallocarray)(void *, size_t, size_t);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void *(*real_aligned_alloc)(size_t, size_t);
static void *(*real_memalign)(size_t, size_t);
static void *(*real_valloc)(size_t);
static void *(*real_pvalloc)(size_t);
static void *(*real_dlopen)(const char *, int);
static int (*real_dlclose)(void *);
static void (*real_exit_)(int) __attribute__((noreturn));
static void (*real_Exit)(int) __attribute__((noreturn));
static int (*real_execve)(const char *, char *const[], char *const[]);
static int (*real_execv)(const char *, char *const[]);
static int (*real_execvp)(const char *, char *const[]);
static int (*real_execvpe)(const char *, char *const[], char *const[]);
static int (*real_fexecve)(int, char *const[], char *const[]);

/// dlsym itself allocates (calloc for its error state) before `real_calloc` is known: those
/// early requests are served from this static arena and never freed.
static uint8_t bootstrap_arena[64 * 1024] __attribute__((aligned(64)));
static size_t bootstrap_used;
static atomic_int resolving;

static int in_bootstrap_arena(const void *p) {
    return (const uint8_t *)p >= bootstrap_arena && (const uint8_t *)p < bootstrap_arena + sizeof bootstrap_arena;
}

static void *bootstrap_alloc(size_t size, size_t alignment) {
    if (alignment < 16) alignment = 16;
    size_t start = (bootstrap_used + 16 + alignment - 1) & ~(alignment - 1);
    if (start + size > sizeof bootstrap_arena) return NULL;
    // The size sits just before the block, for realloc.
    memcpy(bootstrap_arena + start - 8, &size, sizeof size);
    bootstrap_used = start + size;
    return bootstrap_arena + start;
}

/// `handle`: RTLD_NEXT when preloaded (the next definition after ours); RTLD_DEFAULT when
/// injected into a running process (attach.c): the agent is then loaded RTLD_LOCAL, outside
/// the global scope, so the global scope's definition is the one the program's modules bound.
static void *resolve_handle = RTLD_NEXT;

static void resolve_real(void) {
    atomic_store(&resolving, 1);
    void *h = resolve_handle;
    real_malloc = dlsym(h, "malloc");
    real_free = dlsym(h, "free");
    real_calloc = dlsym(h, "calloc");
    real_realloc = dlsym(h, "realloc");
    real_reallocarray = dlsym(h, "reallocarray");
    real_posix_memalign = dlsym(h, "posix_memalign");
    real_aligned_alloc = dlsym(h, "aligned_alloc");
    real_memalign = dlsym(h, "memalign");
    real_valloc = dlsym(h, "valloc");
    real_pvalloc = dlsym(h, "pvalloc");
    real_dlopen = dlsym(h, "dlopen");
    real_dlclose = dlsym(h, "dlclose");
    real_exit_ = dlsym(h, "_exit");
    real_Exit = dlsym(h, "_Exit");
    real_execve = dlsym(h, "execve");
    real_execv = dlsym(h, "execv");
    real_execvp = dlsym(h, "execvp");
    real_execvpe = dlsym(h, "execvpe");
    real_fexecve = dlsym(h, "fexecve");
    atomic_store(&resolving, 0);
}

#define ENSURE_REAL(fn) \
    do { if (!real_##fn) resolve_real(); } while (0)

// ---- recording --------------------------------------------------------------------------

/// An allocation, inside the recorder, by thread `t` (NULL: no slot left). `hook_frame`: the
/// interposed function's own frame (`__builtin_frame_address(0)` there, which gives it a frame
/// pointer): the stack walk starts at its caller, past the recorder's frames.
__attribute__((always_inline)) static inline void record_alloc_inside(dkh_thread *t, void *ptr, size_t size,
                                                                      const void *hook_frame, uint64_t type) {
    dkh_live_insert((uintptr_t)ptr, size);  // --scan-at-exit only
    if (t) {
        // The address's slot is read and raised after the walk: fetched meanwhile, the raise
        // does not wait for the line (a cache miss on most allocations otherwise).
        _Atomic uint64_t *slot = dkh_last_alloc_slot_if_any((uintptr_t)ptr);
        if (slot) __builtin_prefetch(slot, 1);
        uint32_t stack = dkh_current_stack(t, hook_frame);
        // Sequentially consistent, in this order (the marks count first): the free's test in
        // dkh_append_free relies on it (FORMAT.md, "Cancelled pairs").
        uint32_t marks = atomic_load(&dkh.marks_finished);
        dkh_event_seq seq = dkh_take_event_seq(t, slot);
        dkh_append_alloc(t, seq.seq, marks, (uintptr_t)ptr, size, stack, type);
        // Published before malloc returns, so a thread that later frees a block this thread
        // allocated at the same address sees that the address changed hands. Raised after the
        // buffering, which then overlaps the wait for the slot's cache line (a locked
        // instruction before it stalled every allocation on a cache miss).
        dkh_publish_event_seq(&seq);
    } else if (dkh.last_alloc) {
        // Unrecorded (no thread slot left), but the address still changed hands: no pending
        // allocation elsewhere may be cancelled by a free of this block. The next seq to be
        // reserved is no pending allocation's, and the slot's next event follows it.
        _Atomic uint64_t *slot = dkh_last_alloc_slot((uintptr_t)ptr);
        dkh_raise_slot_shared(slot, atomic_load_explicit(slot, memory_order_relaxed), atomic_load(&dkh.seq));
    }
}

/// An interposed function's allocation (`hook_frame`: see record_alloc_inside); inlined into
/// each of them, a call and its saved registers less per allocation.
__attribute__((always_inline)) static inline void record_alloc(void *ptr, size_t size, const void *hook_frame) {
    uint64_t type = pending_type;
    pending_type = 0;
    if (!ptr || in_recorder || !atomic_load_explicit(&dkh.active, memory_order_relaxed)) return;
    in_recorder = 1;
    record_alloc_inside(dkh_current_thread(), ptr, size, hook_frame, type);
    leave_recorder(0);
}

/// free's event: it may cancel the block's pending allocation (FORMAT.md, "Cancelled pairs").
static void record_free(void *ptr) {
    if (!ptr || in_recorder || !atomic_load_explicit(&dkh.active, memory_order_relaxed)) return;
    in_recorder = 1;
    dkh_live_remove((uintptr_t)ptr);  // --scan-at-exit only
    dkh_thread *t = dkh_current_thread();
    if (t) dkh_append_free(t, (uintptr_t)ptr, dkh.cancel_pairs, NULL);
    leave_recorder(0);
}

/// realloc's events, in one stay in the recorder: the free of the old block `old` when realloc
/// freed it (`freed`), then the allocation of `p` (NULL: none). The free may cancel the old
/// block's pending allocation as any free does: a realloc chain on one thread then leaves only
/// its last block's allocation, the steps before it counted as pairs. The live table entry of
/// the old block is not touched here (realloc removes it itself, before the real call).
static void record_resize(void *old, int freed, void *p, size_t size, const dkh_event_seq *early,
                          const void *hook_frame) {
    uint64_t type = 0;
    if (p) type = pending_type, pending_type = 0;
    if (!(freed || p) || in_recorder || !atomic_load_explicit(&dkh.active, memory_order_relaxed)) return;
    in_recorder = 1;
    dkh_thread *t = dkh_current_thread();
    if (freed && t) dkh_append_free(t, (uintptr_t)old, dkh.cancel_pairs, early);
    if (p) record_alloc_inside(t, p, size, hook_frame, type);
    leave_recorder(0);
}

/// realloc's free of `ptr`, before the real call: its seq taken and left in the address's
/// slot, so an allocation another thread makes there once realloc has freed the block
/// follows it (taken after the call, the free came after that allocation some tens of times
/// in a run of Programs/realloc_race.c, and the replay lost the other thread's block).
/// Returns 0 when there is nothing to take (not recording, no slot table or thread slot).
static int take_realloc_free_seq(void *ptr, dkh_event_seq *early) {
    if (!ptr || !dkh.last_alloc || in_recorder || !atomic_load_explicit(&dkh.active, memory_order_relaxed)) return 0;
    in_recorder = 1;
    dkh_thread *t = dkh_current_thread();
    if (t) {
        *early = dkh_take_event_seq(t, dkh_last_alloc_slot((uintptr_t)ptr));
        dkh_publish_event_seq(early);
    }
    leave_recorder(0);
    return t != NULL;
}

// ---- interposed functions ---------------------------------------------------------------

void *malloc(size_t size) {
    if (!real_malloc) {
        if (atomic_load(&resolving)) return bootstrap_alloc(size, 16);
        resolve_real();
    }
    void *p = real_malloc(size);
    record_alloc(p, size, __builtin_frame_address(0));
    return p;
}

void free(void *ptr) {
    if (!ptr || in_bootstrap_arena(ptr)) return;
    ENSURE_REAL(free);
    record_free(ptr);
    real_free(ptr);
}

void *calloc(size_t count, size_t size) {
    if (!real_calloc) {
        if (atomic_load(&resolving)) {
            size_t total;
            if (__builtin_mul_overflow(count, size, &total)) return NULL;
            return bootstrap_alloc(total, 16);  // static memory is already zero
        }
        resolve_real();
    }
    void *p = real_calloc(count, size);
    record_alloc(p, count * size, __builtin_frame_address(0));
    return p;
}

void *realloc(void *ptr, size_t size) {
    if (in_bootstrap_arena(ptr)) {
        size_t old;
        memcpy(&old, (uint8_t *)ptr - 8, sizeof old);
        void *p = malloc(size);
        if (p) memcpy(p, ptr, old < size ? old : size);
        return p;
    }
    ENSURE_REAL(realloc);
    // The live-table entry of the old block goes before the real call: once realloc has freed
    // it, another thread may malloc that address and insert its own entry, which a removal
    // made afterwards would take (livetable.c, "Ordering"). If realloc fails the old block
    // is untouched and still ours, so its entry goes back with its old size.
    // Inside the recorder while a table lock is held: the exit scan never stops a thread there.
    uint64_t old_size = 0;
    int removed = 0;
    if (ptr && __builtin_expect(dkh_live_enabled, 0) && !in_recorder && atomic_load_explicit(&dkh.active, memory_order_relaxed)) {
        in_recorder = 1;
        removed = dkh_live_remove_slow((uintptr_t)ptr, &old_size);
        leave_recorder(0);
    }
    // Recorded as the free of the old block and the allocation of the new one, so the block
    // belongs to the generation and call site of its last resize. The free cancels the old
    // block's allocation as any free does when it is still pending in this thread's buffer
    // with no mark since: the steps of a realloc chain become counted pairs, not events.
    // If realloc fails the seq taken for the free is a gap; the old block's allocation no
    // longer cancels (its slot moved on), which is only a pair written.
    dkh_event_seq early;
    int took = take_realloc_free_seq(ptr, &early);
    void *p = real_realloc(ptr, size);
    if (removed && !p && size != 0) {
        in_recorder = 1;
        dkh_live_insert_slow((uintptr_t)ptr, old_size);
        leave_recorder(0);
    }
    record_resize(ptr, ptr && (p || size == 0), p, size, took ? &early : NULL, __builtin_frame_address(0));
    return p;
}

void *reallocarray(void *ptr, size_t count, size_t size) {
    size_t total;
    if (__builtin_mul_overflow(count, size, &total)) {
        errno = ENOMEM;
        return NULL;
    }
    return realloc(ptr, total);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    ENSURE_REAL(posix_memalign);
    int result = real_posix_memalign(out, alignment, size);
    if (result == 0) record_alloc(*out, size, __builtin_frame_address(0));
    return result;
}

void *aligned_alloc(size_t alignment, size_t size) {
    ENSURE_REAL(aligned_alloc);
    void *p = real_aligned_alloc(alignment, size);
    record_alloc(p, size, __builtin_frame_address(0));
    return p;
}

void *memalign(size_t alignment, size_t size) {
    if (!real_memalign) {
        if (atomic_load(&resolving)) return bootstrap_alloc(size, alignment);
        resolve_real();
    }
    void *p = real_memalign(alignment, size);
    record_alloc(p, size, __builtin_frame_address(0));
    return p;
}

void *valloc(size_t size) {
    ENSURE_REAL(valloc);
    void *p = real_valloc(size);
    record_alloc(p, size, __builtin_frame_address(0));
    return p;
}

void *pvalloc(size_t size) {
    ENSURE_REAL(pvalloc);
    void *p = real_pvalloc(size);
    record_alloc(p, size, __builtin_frame_address(0));
    return p;
}

static void attach_patch_new_modules(void);

void *dlopen(const char *path, int flags) {
    ENSURE_REAL(dlopen);
    void *handle = real_dlopen(path, flags);
    if (handle && atomic_load(&dkh.active) && !in_recorder) {
        in_recorder = 1;
        if (dkh.attached) attach_patch_new_modules();
        dkh_modules_refresh();
        leave_recorder(0);
    }
    return handle;
}

int dlclose(void *handle) {
    ENSURE_REAL(dlclose);
    int result = real_dlclose(handle);
    if (atomic_load(&dkh.active) && !in_recorder) {
        in_recorder = 1;
        dkh_unwind_forget();
        dkh_modules_refresh();
        leave_recorder(0);
    }
    return result;
}

/// Swift class instances: remember the type metadata for the malloc that swift_slowAlloc
/// makes inside the real swift_allocObject, so the allocation is recorded with its type.
void *swift_allocObject(const void *metadata, size_t size, size_t alignment_mask) {
    static void *(*real_alloc_object)(const void *, size_t, size_t);
    if (!real_alloc_object) real_alloc_object = dlsym(RTLD_NEXT, "swift_allocObject");
    if (!real_alloc_object) abort();  // only a Swift program, which has the runtime, calls it
    pending_type = (uintptr_t)metadata;
    void *object = real_alloc_object(metadata, size, alignment_mask);
    pending_type = 0;
    return object;
}

// ---- marks, exit, crash, fork -----------------------------------------------------------

static void write_mark(uint32_t kind, const char *label, size_t length) {
    uint8_t payload[12 + 256];
    if (length > 256) length = 256;
    // Begun before the seq is taken, completed after: an allocation/free pair around this
    // mark then never cancels (FORMAT.md, "Cancelled pairs").
    // The epoch (raised with the seq) before marks_finished: an allocation that sees this mark
    // finished sees the epoch raised and takes a seq after the mark's (FORMAT.md, "Cancelled
    // pairs").
    atomic_fetch_add(&dkh.marks_started, 1);
    uint64_t seq = dkh_take_global_seq();
    dkh_put_u64(payload, seq);
    atomic_fetch_add(&dkh.marks_finished, 1);
    dkh_put_u32(payload + 8, kind);
    memcpy(payload + 12, label, length);
    dkh_write_record(DKH_RECORD_MARK, payload, (uint32_t)(12 + length));
    dkh_write_clock(seq);
    // The counters of the generation that just ended are complete: write them now rather
    // than when each thread next counts, which a SIGKILL may prevent.
    dkh_flush_all_pairs();
}

void devkit_heap_mark(const char *label) {
    if (!atomic_load(&dkh.active)) return;
    if (!label) label = "";
    write_mark(DKH_MARK_API, label, strlen(label));
    // Flushing this thread makes the generation's events visible on disk right away.
    int saved = in_recorder;
    in_recorder = 1;
    dkh_thread *t = dkh_current_thread();
    if (t) {
        dkh_owner_enter(t);
        dkh_thread_flush_locked(t);
        dkh_owner_leave(t);
    }
    leave_recorder(saved);
}

/// Reads the label `devkit heap mark` left in the private mark directory, if any; returns
/// its length. Async-signal-safe. The directory is 0700 and ours (checked at start-up), and
/// the file itself must be a regular file we own: nothing another user planted is read, and
/// O_NONBLOCK keeps a FIFO from blocking the handler.
static size_t read_mark_label(char *label, size_t capacity) {
    if (!dkh.mark_label_path[0]) return 0;
    int fd = open(dkh.mark_label_path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return 0;
    size_t length = 0;
    struct stat info;
    if (fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && info.st_uid == geteuid()) {
        ssize_t n = read(fd, label, capacity);
        if (n > 0) length = (size_t)n;
    }
    close(fd);
    unlink(dkh.mark_label_path);
    return length;
}

/// The mark signal. Only async-signal-safe calls: the label comes from the file that
/// `devkit heap mark PID LABEL` writes before signalling; the record is one write(2).
static void mark_signal_handler(int sig, siginfo_t *info, void *context) {
    (void)sig;
    (void)context;
    if (!atomic_load(&dkh.active)) return;
    int saved_errno = errno;
    // Inside the recorder: writing the mark takes buffer locks (the pair counters).
    int saved = in_recorder;
    in_recorder = 1;
    char label[256];
    uint32_t kind = DKH_MARK_SIGNAL;
    if (info && info->si_code == SI_QUEUE && info->si_value.sival_int == 1) kind = DKH_MARK_INTERVAL;
    size_t length = read_mark_label(label, sizeof label);
    write_mark(kind, label, length);
    leave_recorder(saved);
    errno = saved_errno;
}

/// Accepts DEVKIT_HEAP_MARK_DIR only when it is a real directory (not a link), owned by
/// this user and closed to everyone else; `heap record` makes it with mkdtemp.
static void set_mark_dir(const char *dir) {
    dkh.mark_dir[0] = 0;
    if (!dir || !*dir || strlen(dir) >= sizeof dkh.mark_dir) return;
    struct stat info;
    if (lstat(dir, &info) != 0 || !S_ISDIR(info.st_mode) || info.st_uid != geteuid() || (info.st_mode & 077) != 0) return;
    strcpy(dkh.mark_dir, dir);
}

/// MARK_DIR/label.PID for this process (again after a fork: the pid changed).
static void set_mark_label_path(void) {
    dkh.mark_label_path[0] = 0;
    if (dkh.mark_dir[0]) snprintf(dkh.mark_label_path, sizeof dkh.mark_label_path, "%s/label.%d", dkh.mark_dir, (int)getpid());
}

static void write_end(uint32_t reason, int32_t status) {
    // A last clock reading: threads' flushes write one at most once per coarse tick
    // (writer.c), so the final flush may have had none.
    dkh_write_clock(atomic_load(&dkh.seq));
    uint8_t payload[16];
    dkh_put_u64(payload, dkh_take_global_seq());
    dkh_put_u32(payload + 8, reason);
    dkh_put_u32(payload + 12, (uint32_t)status);
    dkh_write_record(DKH_RECORD_END, payload, sizeof payload);
}

static void finish(uint32_t reason, int32_t status, int from_signal) {
    // Inside the recorder from here: this thread is never one the exit scan stops.
    int saved = in_recorder;
    in_recorder = 1;
    // Only a normal exit is scanned: after _exit or a crash the program's state is not worth
    // trusting, and a crash handler must stay async-signal-safe. The other threads stop first,
    // while every event is still recorded (scan.c, dkh_scan_prepare).
    int scanning = reason == DKH_END_EXIT && atomic_load(&dkh.active) && dkh_scan_prepare();
    int expected = 1;
    if (!atomic_compare_exchange_strong(&dkh.active, &expected, 0)) {
        if (scanning) dkh_scan_abandon();  // another thread ended the recording first
        in_recorder = saved;
        return;
    }
    dkh_flush_all(scanning ? 2 : from_signal);
    if (scanning) dkh_scan_at_exit();
    write_end(reason, status);
    in_recorder = saved;
}

void _exit(int status) {
    ENSURE_REAL(exit_);
    finish(DKH_END_UNDERSCORE_EXIT, status, 0);
    real_exit_(status);
}

void _Exit(int status) {
    ENSURE_REAL(Exit);
    finish(DKH_END_UNDERSCORE_EXIT, status, 0);
    real_Exit(status);
}

// ---- exec ---------------------------------------------------------------------------------
// A successful exec replaces the image with its buffers unwritten: write them and an end
// record first. When exec fails the program goes on, and so does the recording (the reader
// takes the last end record). glibc's execl* and execvp reach execve internally, past any
// interposer, so each public entry point is wrapped; execl* are built on execv* here.

static void before_exec(void) {
    if (!atomic_load(&dkh.active)) return;
    dkh_flush_all(0);
    write_end(DKH_END_EXEC, 0);
}

int execve(const char *path, char *const argv[], char *const envp[]) {
    ENSURE_REAL(execve);
    before_exec();
    return real_execve(path, argv, envp);
}

int execv(const char *path, char *const argv[]) {
    ENSURE_REAL(execv);
    before_exec();
    return real_execv(path, argv);
}

int execvp(const char *file, char *const argv[]) {
    ENSURE_REAL(execvp);
    before_exec();
    return real_execvp(file, argv);
}

int execvpe(const char *file, char *const argv[], char *const envp[]) {
    ENSURE_REAL(execvpe);
    before_exec();
    return real_execvpe(file, argv, envp);
}

int fexecve(int fd, char *const argv[], char *const envp[]) {
    ENSURE_REAL(fexecve);
    before_exec();
    return real_fexecve(fd, argv, envp);
}

/// execl's arguments as an argv array (at most 4,096, as E2BIG would refuse more anyway),
/// then `envp` when `with_environment`.
#define DKH_EXECL_MAX_ARGS 4096
#define COLLECT_EXECL_ARGUMENTS(first, last_named, argv_out, envp_out, with_environment)  \
    do {                                                                                  \
        va_list args;                                                                     \
        va_start(args, last_named);                                                       \
        size_t n = 0;                                                                     \
        argv_out[n++] = (char *)(first);                                                  \
        while (argv_out[n - 1] != NULL && n < DKH_EXECL_MAX_ARGS)                         \
            argv_out[n++] = va_arg(args, char *);                                         \
        if (argv_out[n - 1] != NULL) { va_end(args); errno = E2BIG; return -1; }          \
        if (with_environment) envp_out = va_arg(args, char *const *);                     \
        va_end(args);                                                                     \
    } while (0)

int execl(const char *path, const char *arg, ...) {
    char *argv[DKH_EXECL_MAX_ARGS];
    char *const *envp = NULL;
    COLLECT_EXECL_ARGUMENTS(arg, arg, argv, envp, 0);
    (void)envp;
    return execv(path, argv);
}

int execlp(const char *file, const char *arg, ...) {
    char *argv[DKH_EXECL_MAX_ARGS];
    char *const *envp = NULL;
    COLLECT_EXECL_ARGUMENTS(arg, arg, argv, envp, 0);
    (void)envp;
    return execvp(file, argv);
}

int execle(const char *path, const char *arg, ...) {
    char *argv[DKH_EXECL_MAX_ARGS];
    char *const *envp = NULL;
    COLLECT_EXECL_ARGUMENTS(arg, arg, argv, envp, 1);
    return execve(path, argv, envp);
}

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS};

/// A fatal signal: write what is buffered (skipping buffers a crashed append still holds),
/// then let the default action run (the handler was installed with SA_RESETHAND).
static void crash_handler(int sig) {
    finish(DKH_END_SIGNAL, sig, 1);
    raise(sig);
}

/// The fatal signals whose handler the recorder installed (bit i: fatal_signals[i]), so that a
/// detach can give them their default action back.
static unsigned installed_fatal;

static void install_signal_handlers(void) {
    for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++) {
        struct sigaction old;
        // Only where the program keeps the default action: its own handlers come first.
        if (sigaction(fatal_signals[i], NULL, &old) != 0 || old.sa_handler != SIG_DFL) continue;
        installed_fatal |= 1u << i;
        struct sigaction action = {0};
        action.sa_handler = crash_handler;
        action.sa_flags = SA_RESETHAND | SA_NODEFER;
        sigemptyset(&action.sa_mask);
        sigaction(fatal_signals[i], &action, NULL);
    }
    if (dkh.mark_signal > 0) {
        struct sigaction action = {0};
        action.sa_sigaction = mark_signal_handler;
        action.sa_flags = SA_SIGINFO | SA_RESTART;
        sigemptyset(&action.sa_mask);
        sigaction(dkh.mark_signal, &action, NULL);
    }
}

/// After a detach: the default action again wherever the recorder installed a handler.
static void restore_signal_handlers(void) {
    struct sigaction action = {0};
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++)
        if (installed_fatal & (1u << i)) sigaction(fatal_signals[i], &action, NULL);
    installed_fatal = 0;
    if (dkh.mark_signal > 0) sigaction(dkh.mark_signal, &action, NULL);
}

static void write_command_line(void) {
    uint8_t command[4000];
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    ssize_t n = read(fd, command, sizeof command);
    close(fd);
    if (n > 0) dkh_write_record(DKH_RECORD_COMMAND, command, (uint32_t)n);
}

/// Opens `path` for a new recording; O_EXCL so a second process (an exec'd or forked
/// descendant) never truncates the first one's file.
static int open_output(const char *path) {
    return open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
}

static void start_file(void) {
    dkh_write_header();
    write_command_line();
    write_mark(DKH_MARK_START, "start", 5);
}

static void before_fork(void) {
    pthread_mutex_lock(&dkh.module_lock);
    pthread_mutex_lock(&dkh.stack_lock);
}

static void after_fork_child_inside(void);

static void after_fork_parent(void) {
    pthread_mutex_unlock(&dkh.stack_lock);
    pthread_mutex_unlock(&dkh.module_lock);
}

static void after_fork_child(void) {
    // Inside the recorder: claiming a slot for a thread that never allocated asks glibc for
    // its stack (pthread_getattr_np, which takes the thread's lock and, for the main thread,
    // reads /proc/self/maps with malloc). Recorded, that malloc claimed the slot again and
    // waited on that lock for ever (a forking `/usr/bin/time` under the recorder hung).
    int saved = in_recorder;
    in_recorder = 1;
    after_fork_child_inside();
    in_recorder = saved;
}

static void after_fork_child_inside(void) {
    pthread_mutex_init(&dkh.stack_lock, NULL);
    pthread_mutex_init(&dkh.module_lock, NULL);
    dkh_threads_after_fork_child(dkh_current_thread());
    // A new process: its own membarrier registration (only this thread runs, so the buffers'
    // protocol may change here).
    if (dkh.asymmetric_buffers) dkh_buffers_init();
    set_mark_label_path();
    if (!atomic_load(&dkh.active)) return;
    int old_fd = dkh.fd;
    dkh.fd = -1;
    atomic_store(&dkh.active, 0);
    close(old_fd);
    if (!dkh.follow_forks) return;
    // The child records to OUTPUT.PID: header, module map and known stacks again.
    char path[4200];
    snprintf(path, sizeof path, "%s.%d", dkh.output_path, (int)getpid());
    dkh.fd = open_output(path);
    if (dkh.fd < 0) return;
    atomic_store(&dkh.active, 1);
    start_file();
    dkh_modules_rewrite_all();
    dkh_stacks_rewrite_all();
}

DKH_INTERNAL void dkh_thread_destructor(void *value);

/// A thread's final flush, inside the recorder: it holds the thread's buffer lock.
static void thread_destructor(void *value) {
    int saved = in_recorder;
    in_recorder = 1;
    dkh_thread_destructor(value);
    leave_recorder(saved);
}

static int env_int(const char *name, int fallback) {
    const char *s = getenv(name);
    if (!s || !*s) return fallback;
    return atoi(s);
}

/// Everything a recording needs once its file `fd` is open; recording starts at the end.
/// Returns 0, or -1 when the recorder's memory could not be mapped.
static int begin_recording(int fd) {
    dkh.fd = fd;
    dkh.threads = mmap(NULL, sizeof(dkh_thread) * DKH_MAX_THREADS, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (dkh.threads == MAP_FAILED) {
        dkh.threads = NULL;
        return -1;
    }
    void *last_alloc = mmap(NULL, sizeof(uint64_t) << DKH_LAST_ALLOC_BITS, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    // Without it no pair can be proven safe to cancel: every event is written.
    if (last_alloc == MAP_FAILED) dkh.cancel_pairs = 0;
    else dkh.last_alloc = last_alloc;
    dkh_stacks_init();
    dkh_buffers_init();
    dkh_stream_init();
    // DEVKIT_HEAP_UNWIND=libunwind: every stack from unw_backtrace, as before the frame-rule table.
    const char *unwind = getenv("DEVKIT_HEAP_UNWIND");
    dkh.fast_unwind = !(unwind && strcmp(unwind, "libunwind") == 0);
    dkh_unwind_init();
    dkh_find_self();
    pthread_key_create(&dkh.thread_key, thread_destructor);
    pthread_atfork(before_fork, after_fork_parent, after_fork_child);
    start_file();
    dkh_modules_refresh();
    install_signal_handlers();
    dkh_leaks_init();
    atomic_store(&dkh.active, 1);
    return 0;
}

__attribute__((constructor)) static void recorder_start(void) {
    ENSURE_REAL(malloc);
    const char *output = getenv("DEVKIT_HEAP_OUTPUT");
    if (!output || !*output || strlen(output) >= sizeof dkh.output_path - 32) return;
    strcpy(dkh.output_path, output);
    dkh.stack_depth = env_int("DEVKIT_HEAP_STACK_DEPTH", DKH_DEFAULT_STACK_DEPTH);
    if (dkh.stack_depth < 1) dkh.stack_depth = 1;
    if (dkh.stack_depth > DKH_MAX_STACK_DEPTH) dkh.stack_depth = DKH_MAX_STACK_DEPTH;
    dkh.mark_signal = env_int("DEVKIT_HEAP_MARK_SIGNAL", SIGUSR2);
    const char *fork_policy = getenv("DEVKIT_HEAP_FORK");
    dkh.follow_forks = fork_policy && strcmp(fork_policy, "follow") == 0;
    set_mark_dir(getenv("DEVKIT_HEAP_MARK_DIR"));
    set_mark_label_path();

    int fd = open_output(output);
    if (fd < 0 && errno == EEXIST && dkh.follow_forks) {
        // An exec'd image of a followed process: its own file, OUTPUT.PID, or OUTPUT.PID.N
        // when an earlier image of the same process (a forked child that then called exec)
        // already holds that name.
        char path[4200];
        snprintf(path, sizeof path, "%s.%d", output, (int)getpid());
        fd = open_output(path);
        for (int image = 2; fd < 0 && errno == EEXIST && image <= 64; image++) {
            snprintf(path, sizeof path, "%s.%d.%d", output, (int)getpid(), image);
            fd = open_output(path);
        }
    }
    if (fd < 0) return;
    // DEVKIT_HEAP_PAIRS=keep writes every allocation and free (no cancelled pairs).
    const char *pairs = getenv("DEVKIT_HEAP_PAIRS");
    dkh.cancel_pairs = !(pairs && strcmp(pairs, "keep") == 0);
    begin_recording(fd);
}

// ---- attach (devkit heap record --pid) ----------------------------------------------------
// gdb makes the running process dlopen this library (RTLD_NOW, local: the constructor above
// finds no DEVKIT_HEAP_OUTPUT and does nothing), then call devkit_heap_attach; at the end,
// devkit_heap_detach. The hooks are reached through GOT entries attach.c rewrites.

/// The hooks' own addresses: inside a dlopen'd library `&malloc` binds the global scope's
/// malloc (libc's), so hidden aliases name ours.
#define DKH_HOOK_ALIAS(fn) extern __typeof(fn) dkh_hook_##fn __attribute__((alias(#fn), visibility("hidden")))
DKH_HOOK_ALIAS(malloc);
DKH_HOOK_ALIAS(free);
DKH_HOOK_ALIAS(calloc);
DKH_HOOK_ALIAS(realloc);
DKH_HOOK_ALIAS(reallocarray);
DKH_HOOK_ALIAS(posix_memalign);
DKH_HOOK_ALIAS(aligned_alloc);
DKH_HOOK_ALIAS(memalign);
DKH_HOOK_ALIAS(valloc);
DKH_HOOK_ALIAS(pvalloc);
DKH_HOOK_ALIAS(dlopen);
DKH_HOOK_ALIAS(dlclose);
DKH_HOOK_ALIAS(_exit);
DKH_HOOK_ALIAS(_Exit);

/// What an attached recorder redirects: the malloc family, dlopen/dlclose (new modules are
/// patched and mapped) and _exit/_Exit (the end record). Not exec (a new image would not have
/// the agent) nor swift_allocObject (Swift instances are still recorded, untyped, through
/// malloc).
static const dkh_hook attach_hooks[] = {
    {"malloc", (void *)dkh_hook_malloc},
    {"free", (void *)dkh_hook_free},
    {"calloc", (void *)dkh_hook_calloc},
    {"realloc", (void *)dkh_hook_realloc},
    {"reallocarray", (void *)dkh_hook_reallocarray},
    {"posix_memalign", (void *)dkh_hook_posix_memalign},
    {"aligned_alloc", (void *)dkh_hook_aligned_alloc},
    {"memalign", (void *)dkh_hook_memalign},
    {"valloc", (void *)dkh_hook_valloc},
    {"pvalloc", (void *)dkh_hook_pvalloc},
    {"dlopen", (void *)dkh_hook_dlopen},
    {"dlclose", (void *)dkh_hook_dlclose},
    {"_exit", (void *)dkh_hook__exit},
    {"_Exit", (void *)dkh_hook__Exit},
};
#define ATTACH_HOOK_COUNT ((int)(sizeof attach_hooks / sizeof attach_hooks[0]))

/// Starts recording this (running) process into `output`. Returns 0, or a positive errno
/// (EEXIST: already recording; others from open(2) or mmap), or -1 when no GOT entry could be
/// redirected. Called by gdb, so plain C arguments only.
__attribute__((visibility("default"))) int devkit_heap_attach(const char *output, int stack_depth, int mark_signal, int every_event) {
    if (atomic_load(&dkh.active) || dkh.fd >= 0) return EEXIST;
    if (!output || !*output || strlen(output) >= sizeof dkh.output_path - 32) return EINVAL;
    // The real functions are the ones the program's modules were bound to (see resolve_handle).
    resolve_handle = RTLD_DEFAULT;
    resolve_real();
    if (!real_malloc || !real_free) return ENOSYS;
    strcpy(dkh.output_path, output);
    dkh.stack_depth = stack_depth < 1 ? 1 : stack_depth > DKH_MAX_STACK_DEPTH ? DKH_MAX_STACK_DEPTH : stack_depth;
    // The mark signal only where the program leaves it at its default action.
    struct sigaction old;
    dkh.mark_signal = mark_signal > 0 && sigaction(mark_signal, NULL, &old) == 0 && old.sa_handler == SIG_DFL ? mark_signal : 0;
    dkh.attached = 1;
    dkh.cancel_pairs = !every_event;
    int fd = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0) return errno;
    if (begin_recording(fd) != 0) {
        close(fd);
        dkh.fd = -1;
        return ENOMEM;
    }
    if (dkh_got_patch(attach_hooks, ATTACH_HOOK_COUNT) == 0) {
        atomic_store(&dkh.active, 0);
        return -1;
    }
    return 0;
}

/// The mark signal an attached recorder handles (0: none, the program had its own handler).
__attribute__((visibility("default"))) int devkit_heap_attached_mark_signal(void) { return dkh.mark_signal; }

/// Stops recording: the program's GOT entries get their original values back, every buffer
/// is written, then the end record, and the file is closed. The library stays loaded (a
/// thread may still be inside a hook; nothing points at the hooks any more). Returns 0, or
/// ESRCH when no attached recording runs.
__attribute__((visibility("default"))) int devkit_heap_detach(void) {
    if (!dkh.attached || !atomic_load(&dkh.active)) return ESRCH;
    dkh_got_restore(attach_hooks, ATTACH_HOOK_COUNT);
    int saved = in_recorder;
    in_recorder = 1;
    int expected = 1;
    if (atomic_compare_exchange_strong(&dkh.active, &expected, 0)) {
        dkh_flush_all(0);
        write_end(DKH_END_DETACHED, 0);
    }
    restore_signal_handlers();
    // -1 first: a hook still running sees no descriptor rather than one the program reuses.
    int fd = dkh.fd;
    dkh.fd = -1;
    close(fd);
    in_recorder = saved;
    return 0;
}

static void attach_patch_new_modules(void) { dkh_got_patch(attach_hooks, ATTACH_HOOK_COUNT); }

/// The exiting thread as the recorder's exit path found it: its registers and the frame above
/// which the stack is the program's (and libc's exit machinery). The recorder's own frames
/// below (the final flush, the scan) are not scanned: their unwritten slots keep stale copies
/// of block addresses the flush encoded, which would make leaked blocks look reachable.
/// Static, so no stale word survives in it either (zeroed bss; getcontext fills the general
/// registers, which the scan reads).
static ucontext_t exit_context;

__attribute__((destructor, noinline)) static void recorder_stop(void) {
    if (dkh_live_enabled) {
        getcontext(&exit_context);
        dkh_exit_entry.context = &exit_context;
        dkh_exit_entry.frame = (uintptr_t)__builtin_frame_address(0);
    }
    finish(DKH_END_EXIT, -1, 0);
}

/// swiftc links every library product against the Swift runtime (and, through it, libstdc++).
/// The recorder must not load them into C programs. swift-autolink-extract copies this entry
/// into the link command ahead of those libraries, so the linker drops them: nothing here
/// references them.
__attribute__((section(".swift1_autolink_entries"), used)) static const char link_as_needed[] = "-Wl,--as-needed";
