// Every other thread's registers and stack pointer, for the exit scan: what memcheck scans
// of each thread (its general registers and its stack above the stack pointer) while the
// program is stopped.
//
// The threads are those of /proc/self/task, so threads that never allocated are found too.
// Each gets DKH_SCAN_SIGNAL (a real-time signal, sent with tgkill); the handler copies the
// interrupted context's general registers and stack pointer into its slot, says so, and
// waits (futex) until the scan is over: the threads stay put while their stacks and the
// blocks they could free are read. A thread the signal finds inside the recorder (a hook, its
// thread-exit flush, a mark: it may hold a live-table shard or its buffer's lock, which the
// exiting thread is about to take) does not stop there: it notes the request and stops when it
// leaves the recorder (hooks.c's leave_recorder, dkh_stop_now). A thread that does not answer
// within STOP_TIMEOUT_MS
// (the signal blocked, or a thread stuck in the kernel) is taken as it is: its stack pointer
// from /proc/self/task/TID/syscall when it sits in a system call, else nothing (the caller
// then scans the whole stack mapping of a thread the live table knows, as before).
//
// The slots live in memory mapped once and never unmapped, so a thread that answers late
// writes into memory that is still there; the scanner claims an unanswered slot (SENT -> 0)
// before giving up on it, so a late answer never races with its reading.
//
// The handler is installed only at exit and stays installed afterwards: a thread that had the
// signal blocked may still take it later, and a real-time signal's default action would kill
// the process. A program that uses DKH_SCAN_SIGNAL itself loses its handler at exit.
#include "leaks_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#define STOP_TIMEOUT_MS 250
#define MAX_STOPPED_THREADS 4096

enum { SLOT_SENT = 1, SLOT_COPYING = 2, SLOT_STOPPED = 3, SLOT_GONE = 4 };

static dkh_stopped_thread *slots;
static size_t slot_count;
static atomic_int released;

static long futex(atomic_int *word, int op, int value, const struct timespec *timeout) {
    return syscall(SYS_futex, word, op, value, timeout, NULL, 0);
}

__thread int dkh_stop_deferred __attribute__((tls_model("initial-exec")));

static void on_scan_signal(int signal, siginfo_t *info, void *context) {
    (void)signal;
    (void)info;
    int saved_errno = errno;
    if (atomic_load(&released)) return;
    // Inside the recorder this thread may hold one of its locks (a live-table shard, its
    // buffer), which the exiting thread needs: it stops when it leaves (dkh_stop_now).
    if (dkh_recorder_busy()) {
        dkh_stop_deferred = 1;
        return;
    }
    pid_t self = (pid_t)syscall(SYS_gettid);
    for (size_t i = 0; slots && i < slot_count; i++) {
        dkh_stopped_thread *t = &slots[i];
        int expected = SLOT_SENT;
        if (t->tid != self || !atomic_compare_exchange_strong(&t->state, &expected, SLOT_COPYING)) continue;
        const ucontext_t *uc = context;
        _Static_assert(DKH_GENERAL_REGISTERS_SIZE <= sizeof t->registers, "room for the general registers");
        memcpy(t->registers, DKH_GENERAL_REGISTERS(uc), DKH_GENERAL_REGISTERS_SIZE);
        t->register_bytes = DKH_GENERAL_REGISTERS_SIZE;
        t->stack_pointer = DKH_STACK_POINTER(uc);
        t->thread_pointer = (uintptr_t)__builtin_thread_pointer();  // fs base: not among gregs
        atomic_store(&t->state, SLOT_STOPPED);
        // Stay stopped until the scan is over.
        while (!atomic_load(&released)) futex(&released, FUTEX_WAIT_PRIVATE, 0, NULL);
        break;
    }
    errno = saved_errno;
}

/// The stack pointer of a thread blocked in a system call: /proc/self/task/TID/syscall reads
/// "NR ARG1 … ARG6 SP PC" (or "running", or "-1 SP PC" outside one). 0 when unknown.
static uint64_t blocked_stack_pointer(pid_t tid) {
    char path[64] = "/proc/self/task/";
    size_t n = strlen(path);
    char digits[16];
    size_t d = 0;
    for (unsigned v = (unsigned)tid; v || d == 0; v /= 10) digits[d++] = (char)('0' + v % 10);
    while (d) path[n++] = digits[--d];
    memcpy(path + n, "/syscall", 9);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    char text[256];
    ssize_t got = read(fd, text, sizeof text - 1);
    close(fd);
    if (got <= 0) return 0;
    text[got] = 0;
    // The second-to-last field, in hex.
    const char *fields[16];
    size_t count = 0;
    for (char *p = text; *p && count < 16;) {
        while (*p == ' ' || *p == '\n') p++;
        if (!*p) break;
        fields[count++] = p;
        while (*p && *p != ' ' && *p != '\n') p++;
    }
    if (count < 3 || fields[0][0] == 'r') return 0;
    const char *sp = fields[count - 2];
    if (sp[0] != '0' || sp[1] != 'x') return 0;
    uint64_t value = 0;
    for (sp += 2; (*sp >= '0' && *sp <= '9') || (*sp >= 'a' && *sp <= 'f'); sp++)
        value = value << 4 | (uint64_t)(*sp <= '9' ? *sp - '0' : *sp - 'a' + 10);
    return value;
}

/// The thread ids of /proc/self/task (getdents64: opendir allocates).
static size_t list_threads(dkh_stopped_thread *out, size_t capacity, pid_t self) {
    int fd = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return 0;
    size_t n = 0;
    char buffer[4096] __attribute__((aligned(8)));
    for (;;) {
        long got = syscall(SYS_getdents64, fd, buffer, sizeof buffer);
        if (got <= 0) break;
        for (long offset = 0; offset < got;) {
            // struct linux_dirent64: u64 ino, s64 off, u16 reclen, u8 type, name.
            uint16_t length;
            memcpy(&length, buffer + offset + 16, 2);
            const char *name = buffer + offset + 19;
            offset += length;
            if (name[0] < '0' || name[0] > '9') continue;
            pid_t tid = 0;
            for (const char *c = name; *c >= '0' && *c <= '9'; c++) tid = tid * 10 + (*c - '0');
            if (tid == self || n == capacity) continue;
            memset(&out[n], 0, sizeof out[n]);
            out[n].tid = tid;
            n++;
        }
    }
    close(fd);
    return n;
}

size_t dkh_stop_threads(dkh_stopped_thread **stopped) {
    static dkh_stopped_thread *memory;
    if (!memory) {
        void *p = mmap(NULL, MAX_STOPPED_THREADS * sizeof *memory, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) return 0;
        memory = p;
    }
    dkh_stopped_thread *out = memory;
    *stopped = out;
    pid_t pid = getpid(), self = (pid_t)syscall(SYS_gettid);
    size_t n = list_threads(out, MAX_STOPPED_THREADS, self);
    if (n == 0) return 0;
    slots = out;
    slot_count = n;
    atomic_store(&released, 0);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_scan_signal;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigfillset(&action.sa_mask);  // nothing else runs on a stopped thread
    if (sigaction(DKH_SCAN_SIGNAL, &action, NULL) != 0) return n;  // every slot unanswered
    for (size_t i = 0; i < n; i++) {
        atomic_store(&out[i].state, SLOT_SENT);
        // ESRCH: it ended since the listing; nothing of it to scan.
        if (syscall(SYS_tgkill, pid, out[i].tid, DKH_SCAN_SIGNAL) != 0) atomic_store(&out[i].state, SLOT_GONE);
    }
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        size_t waiting = 0;
        for (size_t i = 0; i < n; i++) waiting += atomic_load(&out[i].state) == SLOT_SENT;
        if (!waiting) break;
        clock_gettime(CLOCK_MONOTONIC, &now);
        int64_t elapsed_ms = (now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000;
        if (elapsed_ms >= STOP_TIMEOUT_MS) break;
        struct timespec pause = {0, 100000};
        nanosleep(&pause, NULL);
    }
    for (size_t i = 0; i < n; i++) {
        dkh_stopped_thread *t = &out[i];
        int expected = SLOT_SENT;
        atomic_compare_exchange_strong(&t->state, &expected, 0);  // too late now: the handler leaves it alone
        while (atomic_load(&t->state) == SLOT_COPYING) __builtin_ia32_pause();  // answering right now
        t->stopped = atomic_load(&t->state) == SLOT_STOPPED;
        t->gone = atomic_load(&t->state) == SLOT_GONE;
        if (!t->stopped && !t->gone) t->stack_pointer = blocked_stack_pointer(t->tid);
    }
    return n;
}

void dkh_stop_now(void) {
    dkh_stop_deferred = 0;
    if (!atomic_load(&released)) syscall(SYS_tgkill, getpid(), (pid_t)syscall(SYS_gettid), DKH_SCAN_SIGNAL);
}

void dkh_resume_threads(void) {
    // A late answer after this finds the flag set and returns at once.
    atomic_store(&released, 1);
    futex(&released, FUTEX_WAKE_PRIVATE, 0x7fffffff, NULL);
}
