// The system calls Swift cannot make itself: ones its Glibc module does not declare, and a
// signal handler, which must not run Swift code (no allocation, no reference counting).
#define _GNU_SOURCE
#include "SystemCalls.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int system_start_writeback(int fd, int64_t offset, int64_t length) {
#ifdef __linux__
    return sync_file_range(fd, offset, length, SYNC_FILE_RANGE_WRITE);
#else
    (void)fd; (void)offset; (void)length;
    return 0;
#endif
}

/// The guarded range of this thread: a signal is delivered to the thread that faulted, so a
/// thread-local range needs no locking and lets threads guard their own mappings at once.
typedef struct {
    uintptr_t base;
    size_t length;
    int64_t first_missing;
} mapped_guard;

static _Thread_local mapped_guard guard;

// Process-wide by nature: there is one SIGBUS disposition per process. Installed once, on
// the first guard, and kept; `previous` is what a SIGBUS outside every guard is handed back to.
static struct sigaction previous;
static atomic_int installed;
static size_t page_size;

static void on_sigbus(int signal, siginfo_t *info, void *context) {
    (void)context;
    uintptr_t address = (uintptr_t)info->si_addr;
    if (guard.length > 0 && address >= guard.base && address - guard.base < guard.length) {
        uintptr_t page = address & ~(uintptr_t)(page_size - 1);
        uintptr_t end = (guard.base + guard.length + page_size - 1) & ~(uintptr_t)(page_size - 1);
        // Every page from here to the end of the range: the file ends before all of them,
        // so one replacement saves a fault per page.
        void *zeros = mmap((void *)page, end - page, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        if (zeros != MAP_FAILED) {
            int64_t offset = page > guard.base ? (int64_t)(page - guard.base) : 0;
            if (guard.first_missing < 0 || offset < guard.first_missing) guard.first_missing = offset;
            return;
        }
    }
    // Not ours (or no memory to replace the pages): restore the earlier disposition and let
    // the faulting instruction run again into it.
    sigaction(signal, &previous, NULL);
}

int mapped_guard_enter(const void *base, size_t length) {
    if (atomic_load(&installed) == 0) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&installed, &expected, 1)) {
            page_size = (size_t)sysconf(_SC_PAGESIZE);
            struct sigaction action;
            memset(&action, 0, sizeof action);
            action.sa_sigaction = on_sigbus;
            action.sa_flags = SA_SIGINFO;
            sigemptyset(&action.sa_mask);
            if (sigaction(SIGBUS, &action, &previous) != 0) {
                atomic_store(&installed, 0);
                return -1;
            }
            atomic_store(&installed, 2);
        }
        while (atomic_load(&installed) == 1) { /* another thread is installing it */ }
        if (atomic_load(&installed) == 0) {
            errno = EAGAIN;
            return -1;
        }
    }
    guard.base = (uintptr_t)base;
    guard.length = length;
    guard.first_missing = -1;
    return 0;
}

int64_t mapped_guard_leave(void) {
    int64_t missing = guard.first_missing;
    guard.base = 0;
    guard.length = 0;
    guard.first_missing = -1;
    return missing;
}
