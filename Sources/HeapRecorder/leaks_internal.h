// The leak scan (`devkit heap record --scan-at-exit`): a table of live blocks kept by the
// hooks (livetable.c) and a conservative reachability scan at exit (scan.c). Kept apart from
// recorder_internal.h so the event buffering can change without touching it. Nothing here
// calls malloc: memory comes from mmap.
#ifndef DEVKIT_HEAP_LEAKS_INTERNAL_H
#define DEVKIT_HEAP_LEAKS_INTERNAL_H

#include "recorder_internal.h"

#include <ucontext.h>

/// Set once at start when DEVKIT_HEAP_SCAN_AT_EXIT=1: the hooks keep the live table only then,
/// so a recording without --scan-at-exit pays one predictable branch per call.
extern int dkh_live_enabled DKH_INTERNAL;

/// One live block (a snapshot entry; the table stores the same pair).
typedef struct dkh_live_block {
    uint64_t addr;
    uint64_t size;
} dkh_live_block;

// livetable.c
DKH_INTERNAL void dkh_leaks_init(void);
DKH_INTERNAL void dkh_live_insert_slow(uintptr_t addr, uint64_t size);
/// Removes `addr`; returns 1 and its size in `*size` (when not NULL) if it was there.
DKH_INTERNAL int dkh_live_remove_slow(uintptr_t addr, uint64_t *size);
/// Copies every live block into `out` (at most `capacity`); returns how many were copied.
DKH_INTERNAL size_t dkh_live_snapshot(dkh_live_block *out, size_t capacity);
/// Blocks in the table now (approximate while other threads allocate).
DKH_INTERNAL size_t dkh_live_count(void);
/// Nonzero when an insert was dropped (the table could not grow): the scan is incomplete.
DKH_INTERNAL int dkh_live_overflowed(void);
/// A thread that allocated, for the scan: a stack address of it and its thread pointer.
typedef struct dkh_thread_info {
    uintptr_t stack_sample;
    uintptr_t thread_pointer;
    pid_t tid;
    int alive;  // 0: it ended (its stack may be in glibc's cache, or unmapped)
} dkh_thread_info;
DKH_INTERNAL size_t dkh_live_threads(dkh_thread_info *out, size_t capacity);

// mappings.c
/// A range of memory the program mapped itself (mmap, mremap), page-rounded.
typedef struct dkh_mapping {
    uint64_t start, end;
} dkh_mapping;
/// Copies the program's own mappings into `out` (at most `capacity`); returns how many.
DKH_INTERNAL size_t dkh_program_mappings(dkh_mapping *out, size_t capacity);
/// Nonzero when a mapping could not be kept (the table was full): it is not scanned.
DKH_INTERNAL int dkh_program_mappings_overflowed(void);
/// Nonzero while the recorder runs on this thread (hooks.c): mappings libunwind makes then
/// are the recorder's.
DKH_INTERNAL int dkh_recorder_busy(void);

// stopthreads.c
/// The general registers of a ucontext_t (what memcheck scans of a thread) and its stack
/// pointer; the red zone below the stack pointer that leaf functions may use.
#if defined(__x86_64__)
#define DKH_GENERAL_REGISTERS(uc) ((const void *)(uc)->uc_mcontext.gregs)
#define DKH_GENERAL_REGISTERS_SIZE sizeof(gregset_t)
#define DKH_STACK_POINTER(uc) ((uint64_t)(uc)->uc_mcontext.gregs[REG_RSP])
#define DKH_RED_ZONE 128
#elif defined(__aarch64__)
#define DKH_GENERAL_REGISTERS(uc) ((const void *)(uc)->uc_mcontext.regs)
#define DKH_GENERAL_REGISTERS_SIZE (31 * sizeof(uint64_t))
#define DKH_STACK_POINTER(uc) ((uint64_t)(uc)->uc_mcontext.sp)
#define DKH_RED_ZONE 0
#else
#error "the exit scan knows the registers of x86-64 and AArch64 only"
#endif
/// The signal that stops the other threads at exit: a real-time signal programs rarely use.
#define DKH_SCAN_SIGNAL (SIGRTMAX - 3)
/// Another thread at exit: its general registers and stack pointer when it stopped.
typedef struct dkh_stopped_thread {
    atomic_int state;
    pid_t tid;
    /// 1: it stopped in the handler (registers and stack pointer known, and it waits for
    /// dkh_resume_threads); 0: it did not answer (stack_pointer from /proc when it was
    /// blocked in a system call, else 0).
    int stopped;
    /// 1: it ended between the listing and the signal (not scanned, not counted).
    int gone;
    uint32_t register_bytes;
    uint64_t stack_pointer;
    uint64_t thread_pointer;  // stopped threads only
    uint64_t registers[32];
} dkh_stopped_thread;
/// Stops every other thread of /proc/self/task; `*stopped` receives the array (memory that
/// stays mapped). Returns how many threads it holds.
DKH_INTERNAL size_t dkh_stop_threads(dkh_stopped_thread **stopped);
/// Lets the stopped threads go on.
DKH_INTERNAL void dkh_resume_threads(void);
/// Set (in the signal handler) when the stop signal found this thread inside the recorder:
/// it stops when it leaves (dkh_stop_now), so no stopped thread holds a recorder lock.
extern __thread int dkh_stop_deferred DKH_INTERNAL __attribute__((tls_model("initial-exec")));
/// Takes a deferred stop now (the thread has just left the recorder).
DKH_INTERNAL void dkh_stop_now(void);

// scan.c
/// Where the exiting thread entered the recorder's exit path (hooks.c sets it): its registers
/// then, and the frame address above which its stack is scanned.
typedef struct dkh_exit_entry_point {
    const struct ucontext_t *context;
    uintptr_t frame;
} dkh_exit_entry_point;
extern dkh_exit_entry_point dkh_exit_entry DKH_INTERNAL;
/// At exit, before the recorder stops recording: claims the scan, collects what needs the
/// loader's and the mapping table's locks, and stops the other threads. Returns 1 when this
/// thread will scan (dkh_scan_at_exit or dkh_scan_abandon must follow), 0 otherwise.
DKH_INTERNAL int dkh_scan_prepare(void);
/// Lets the stopped threads go without scanning (another exit path won).
DKH_INTERNAL void dkh_scan_abandon(void);
/// At exit (not _exit or a crash), after dkh_scan_prepare and the final flush: scans the
/// roots, resumes the threads, writes UNREACHABLE, LEAK_KIND and SCAN records.
DKH_INTERNAL void dkh_scan_at_exit(void);

static inline void dkh_live_insert(uintptr_t addr, uint64_t size) {
    if (__builtin_expect(dkh_live_enabled, 0)) dkh_live_insert_slow(addr, size);
}
static inline void dkh_live_remove(uintptr_t addr) {
    if (__builtin_expect(dkh_live_enabled, 0)) dkh_live_remove_slow(addr, NULL);
}

#endif
