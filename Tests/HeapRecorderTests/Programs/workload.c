// Test workloads for devkit heap record: each mode allocates known counts and sizes at known
// functions. Sizes are distinct and odd so that no library allocation shares them.
// Built by HeapRecorderTests with: cc -g -O1 -pthread workload.c -o workload -ldl
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../../Sources/HeapRecorder/include/devkit_heap.h"

static void *kept[100000];
static int kept_count;
static void keep(void *p) { kept[kept_count++] = p; }

__attribute__((noinline)) void leak_small(void) { for (int i = 0; i < 1000; i++) keep(malloc(48)); }
__attribute__((noinline)) void leak_pages(void) { for (int i = 0; i < 250; i++) keep(calloc(1, 4096)); }
__attribute__((noinline)) void leak_grown(void) {
    // 10 buffers grown by realloc from 1 KiB to 1 MiB: only the final block survives.
    for (int i = 0; i < 10; i++) {
        char *p = NULL;
        for (size_t n = 1024; n <= 1 << 20; n *= 2) p = realloc(p, n);
        keep(p);
    }
}
__attribute__((noinline)) void churn(int n, size_t size) {
    // volatile: a compiler may otherwise drop a malloc whose block is only freed.
    for (int i = 0; i < n; i++) {
        void *volatile p = malloc(size);
        free(p);
    }
}
__attribute__((noinline)) void leak_n(int n, size_t size) { for (int i = 0; i < n; i++) keep(malloc(size)); }

/// A binary tree grown by recursion from two call sites, so that every node has a stack of
/// its own and the nodes of one depth are allocated from stacks of one shape (the recorder
/// remembers walks by shape and by the words they read, unwind.c).
struct tree_node {
    struct tree_node *left, *right;
};
__attribute__((noinline)) struct tree_node *grow_tree(int depth) {
    struct tree_node *node = malloc(sizeof(struct tree_node) + 2 * (size_t)depth + 1);
    node->left = depth ? grow_tree(depth - 1) : NULL;
    node->right = depth ? grow_tree(depth - 1) : NULL;
    return node;
}
__attribute__((noinline)) void fell_tree(struct tree_node *node) {
    if (!node) return;
    fell_tree(node->left);
    fell_tree(node->right);
    free(node);
}

/// Blocks of five sizes from one call site, made and freed largest first: pairs of one stack
/// whose sizes come in descending order.
__attribute__((noinline)) void pairs_largest_first(size_t base) {
    for (size_t size = base + 5; size > base; size--) {
        void *volatile p = malloc(size);  // volatile: see churn
        free(p);
    }
}

static void *thread_main(void *arg) {
    (void)arg;
    churn(200000, 24);
    leak_n(5, 4733);
    return NULL;
}

/// Frees the 5 blocks kept from index *arg on: frees from a thread that did not allocate.
static void *free_kept(void *arg) {
    int first = *(int *)arg;
    for (int i = first; i < first + 5; i++) free(kept[i]);
    return NULL;
}

/// Frees *arg, allocates the same size and returns the new block through *arg (remembering
/// the freed address in kept[] to compare).
static void *free_and_reallocate(void *arg) {
    void **block = arg;
    keep(*block);
    free(*block);
    *block = malloc(219);
    return NULL;
}

/// killed-churn: a thread that churns 77-byte pairs (bursts of 1000, 50 ms apart, or all at
/// once) and then waits; main SIGKILLs the process once it is done, after a mark or not.
static atomic_int churn_done;
static int churn_bursts;
static void *churn_then_wait(void *arg) {
    (void)arg;
    if (churn_bursts) {
        for (int i = 0; i < churn_bursts; i++) {
            churn(1000, 77);
            usleep(50000);
        }
    } else {
        churn(50000, 77);
    }
    atomic_store(&churn_done, 1);
    pause();
    return NULL;
}

static void *mark_from_thread(void *arg) {
    (void)arg;
    devkit_heap_mark_generation("from-thread");
    return NULL;
}

/// serial-threads: one thread after another, so each takes the buffer slot the one before left.
/// Each churns pairs, frees half of the blocks the one before kept (allocated there, freed here)
/// and keeps 9 blocks of its own, which are still pending in its buffer when it ends.
static void *serial_thread(void *arg) {
    int index = *(int *)arg;
    churn(300, 91);
    for (int i = 0; i < 9; i += 2) {
        if (index > 0) {
            free(kept[(index - 1) * 9 + i]);
            kept[(index - 1) * 9 + i] = NULL;
        }
    }
    for (int i = 0; i < 9; i++) kept[index * 9 + i] = malloc(317 + 2 * (size_t)i);
    churn(300, 93);
    return NULL;
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "leaks";
    if (!strcmp(mode, "leaks")) {
        leak_small();
        leak_pages();
        leak_grown();
        churn(100, 100);
    } else if (!strcmp(mode, "threads")) {
        pthread_t threads[8];
        for (int i = 0; i < 8; i++) pthread_create(&threads[i], NULL, thread_main, NULL);
        for (int i = 0; i < 8; i++) pthread_join(threads[i], NULL);
    } else if (!strcmp(mode, "serial-threads")) {
        for (int i = 0; i < 40; i++) {
            pthread_t thread;
            pthread_create(&thread, NULL, serial_thread, &i);
            pthread_join(thread, NULL);
        }
    } else if (!strcmp(mode, "marks")) {
        leak_n(10, 101);
        devkit_heap_mark_generation("open");
        int first = kept_count;
        leak_n(20, 203);
        devkit_heap_mark_generation("close");
        leak_n(30, 305);
        for (int i = first; i < first + 20; i++) free(kept[i]);
    } else if (!strcmp(mode, "signal")) {
        // argv[2] is devkit: `devkit heap mark PID LABEL` signals this process.
        leak_n(7, 111);
        char command[4200];
        snprintf(command, sizeof command, "%s heap mark %d after-signal", argv[2], (int)getpid());
        if (system(command) != 0) return 3;
        usleep(100000);
        leak_n(9, 223);
    } else if (!strcmp(mode, "planted")) {
        // argv[2] is a shell command run with this pid appended (it plants files at the old,
        // predictable /tmp/devkit-heap-mark.PID as another user); argv[3] is devkit. Then an
        // unlabelled mark signal (as --interval or kill -USR2 sends) and a labelled one.
        char command[4200];
        snprintf(command, sizeof command, "%s %d", argv[2], (int)getpid());
        if (system(command) != 0) return 3;
        leak_n(7, 117);
        raise(SIGUSR2);
        leak_n(8, 119);
        snprintf(command, sizeof command, "%s heap mark %d labelled", argv[3], (int)getpid());
        if (system(command) != 0) return 4;
        usleep(100000);
        leak_n(9, 121);
    } else if (!strcmp(mode, "fork")) {
        leak_n(3, 333);
        pid_t child = fork();
        if (child == 0) {
            leak_n(5, 555);
            exit(0);
        }
        waitpid(child, NULL, 0);
        leak_n(4, 445);
    } else if (!strcmp(mode, "fork-exec")) {
        // The child's 555-byte blocks are still in its buffers when it calls exec.
        leak_n(3, 333);
        pid_t child = fork();
        if (child == 0) {
            leak_n(5, 555);
            execl(argv[0], argv[0], "exec-image", (char *)NULL);
            _exit(9);
        }
        waitpid(child, NULL, 0);
        leak_n(4, 445);
    } else if (!strcmp(mode, "exec-image")) {
        leak_n(6, 666);
    } else if (!strcmp(mode, "dlopen")) {
        // argv[2] is the plugin library; it leaks 6 x 667 bytes and is closed again.
        void *plugin = dlopen(argv[2], RTLD_NOW);
        if (!plugin) return 4;
        void (*leak)(void) = (void (*)(void))dlsym(plugin, "plugin_leak");
        leak();
        dlclose(plugin);
        leak_n(2, 229);
    } else if (!strcmp(mode, "aligned")) {
        for (int i = 0; i < 12; i++) {
            void *p = NULL;
            if (posix_memalign(&p, 64, 1201) == 0) keep(p);
        }
        for (int i = 0; i < 3; i++) keep(aligned_alloc(4096, 8192));
        free(aligned_alloc(256, 512));
    } else if (!strcmp(mode, "crash")) {
        leak_small();
        devkit_heap_mark_generation("before-crash");
        leak_n(50, 51);
        *(volatile int *)(argc - 2 + (char *)0) = 1;  // SIGSEGV
    } else if (!strcmp(mode, "exit")) {
        leak_n(11, 117);
        fflush(stdout);
        _exit(3);
    } else if (!strcmp(mode, "interval")) {
        // Under --interval 0.05: at least one interval mark falls into the sleep.
        leak_n(1, 131);
        usleep(400000);
        leak_n(1, 137);
    } else if (!strcmp(mode, "pairs")) {
        // Short-lived pairs the recorder cancels, in three generations, and blocks freed by
        // another thread (never cancelled).
        churn(1000, 171);
        leak_n(4, 173);
        devkit_heap_mark_generation("second");
        churn(3000, 175);
        churn(7, 171);
        int first = kept_count;
        leak_n(5, 177);
        pthread_t freer;
        pthread_create(&freer, NULL, free_kept, &first);
        pthread_join(freer, NULL);
        devkit_heap_mark_generation("third");
        churn(50, 179);
    } else if (!strcmp(mode, "realloc-chains")) {
        // Realloc chains on one thread: 200 grown step by step from 101 to 2,101 bytes (moved
        // or grown in place, as glibc decides) and freed, 10 kept; 5 shrunk to 0 (realloc
        // frees them), then in a second generation 20 more chains that outlive it and a block
        // that a failed realloc leaves alive.
        for (int i = 0; i < 200; i++) {
            char *p = NULL;
            for (size_t n = 101; n <= 2101; n += 250) p = realloc(p, n);
            if (i % 20 == 0) keep(p);
            else free(p);
        }
        for (int i = 0; i < 5; i++) {
            void *volatile gone = realloc(malloc(187), 0);
            (void)gone;
        }
        devkit_heap_mark_generation("second");
        for (int i = 0; i < 20; i++) keep(realloc(realloc(malloc(189), 1189), 3189));
        // A realloc that fails (half the address space) leaves its block as it was: alive.
        volatile size_t too_much = SIZE_MAX / 2;
        char *unmoved = malloc(193);
        if (realloc(unmoved, too_much) == NULL) keep(unmoved);
        churn(30, 191);
    } else if (!strcmp(mode, "ring")) {
        // A cache of 1,500 blocks replaced oldest first, 20,000 times, each replacement beside
        // a temporary: the frees reach 1,500 allocations back into the thread's buffer, so
        // cancelled events pile up between pending ones and the buffer is squeezed again and
        // again. The last 1,500 stay alive.
        enum { RING = 1500, REPLACEMENTS = 20000 };
        static void *ring[RING];
        for (int i = 0; i < RING; i++) ring[i] = malloc(231);
        for (int i = 0; i < REPLACEMENTS; i++) {
            churn(1, 233);
            free(ring[i % RING]);
            ring[i % RING] = malloc(231);
        }
    } else if (!strcmp(mode, "straddle")) {
        // Blocks allocated before a mark and freed after it by the same thread, without a
        // flush in between: the mark signal raised here (its handler writes the mark and
        // flushes nothing), then a mark made by another thread. Alive at each mark.
        void *blocks[20];
        for (int i = 0; i < 20; i++) blocks[i] = malloc(211);
        raise(SIGUSR2);
        for (int i = 0; i < 20; i++) free(blocks[i]);
        for (int i = 0; i < 15; i++) blocks[i] = malloc(213);
        pthread_t marker;
        pthread_create(&marker, NULL, mark_from_thread, NULL);
        pthread_join(marker, NULL);
        for (int i = 0; i < 15; i++) free(blocks[i]);
        churn(9, 215);
    } else if (!strcmp(mode, "handoff")) {
        // A block allocated here (pending in this thread's buffer) is freed by another thread,
        // which allocates again (glibc's per-thread cache hands back the same address) and
        // hands that block back to be freed here: this free is not of the pending block.
        int same = 0;
        for (int i = 0; i < 10; i++) {
            void *block = malloc(219);
            pthread_t other;
            pthread_create(&other, NULL, free_and_reallocate, &block);
            pthread_join(other, NULL);
            same += block == kept[kept_count - 1];
            free(block);
        }
        printf("same address %d of 10\n", same);
    } else if (!strcmp(mode, "killed-churn")) {
        // killed-churn mark | bursts
        int mark = argc > 2 && !strcmp(argv[2], "mark");
        churn_bursts = mark ? 0 : 10;
        pthread_t thread;
        pthread_create(&thread, NULL, churn_then_wait, NULL);
        while (!atomic_load(&churn_done)) usleep(1000);
        if (mark) devkit_heap_mark_generation("before-kill");
        kill(getpid(), SIGKILL);
    } else if (!strcmp(mode, "tree")) {
        // 20 trees of 127 nodes, each freed before the next: 2,540 blocks from 127 stacks.
        for (int i = 0; i < 20; i++) fell_tree(grow_tree(6));
    } else if (!strcmp(mode, "pair-order")) {
        // Cancelled pairs whose keys come far from (stack, size, type) order: 10 trees of 511
        // nodes (a stack each, ids past 256) freed leaves first, not in the order their stacks
        // were first seen; then two call sites' sizes largest first.
        for (int i = 0; i < 10; i++) fell_tree(grow_tree(8));
        for (int i = 0; i < 30; i++) {
            pairs_largest_first(300);
            pairs_largest_first(400);
        }
    } else if (!strcmp(mode, "small")) {
        leak_n(3, 31);
        devkit_heap_mark_generation("second");
        leak_n(2, 62);
        churn(2, 93);
    }
    return 0;
}
