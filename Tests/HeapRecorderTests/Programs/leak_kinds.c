// Every leak kind valgrind memcheck names, for `devkit heap record --scan-at-exit` and
// `heapdiff --leaks`; HeapLeakKindTests runs it under both and compares per function.
// Every block is zeroed (calloc) so no stale word inside one looks like a pointer: glibc's
// malloc hands out recycled memory, memcheck ignores words never written, devkit cannot.
//   tree_root         4 x 48 B, pointers dropped, each points to 3 children   definitely lost
//   tree_child       12 x 32 B, reached only from the roots                   indirectly lost
//   cycle_node        3 x 40 B, a ring, all pointers to it dropped             1 definitely + 2 indirectly lost
//   interior_block    1 x 64 B, only base + 16 kept in a global                possibly lost
//   interior_child    1 x 24 B, only the interior block points to its start    possibly lost
//   lost_plain        5 x 100 B, pointers dropped                              definitely lost
//   kept_global       3 x 80 B, in a global array                              still reachable
//   held_in_mmap      1 x 72 B, only an anonymous mmap'd page points to it     still reachable
//   held_in_register  1 x 56 B, only in register r12 of a thread blocked in a system call
//                                                                              still reachable
//   handed_over       1 x 88 B, allocated by main, then only on the stack of a thread that
//                     never allocated                                          still reachable
// Interior offsets avoid memcheck's heuristics (stdstring at 24, length64 and newarray at 8).
// With the argument `blocked`, one more thread, with every signal blocked, so the exit scan
// cannot stop it:
//   blocked_holder    1 x 120 B, only on that thread's stack                 still reachable
//                     (devkit: its stack from the stack pointer /proc/self/task/TID/syscall
//                     gives; its registers are not read)
// With `thread-exit`, main ends blocked and another thread calls exit(), so main is one of
// the threads the exit scan stops (its static TLS lies outside its stack):
//   main              1 x 136 B, only in a stack slot of main                 still reachable
// With `churn`, 8 more threads that allocate and free 48 bytes in a loop until the end:
//   churner           at most 8 x 48 B, the blocks they hold when stopped     still reachable
//                     (stopped outside the recorder's hooks, so none freed meanwhile looks lost)
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct tree {
    void *child[3];
    long zero[3];
};

void *kept[3];
char *interior;
/// Hand-over slots, cleared by whoever takes the pointer: published through a volatile so the
/// store and the clear both happen.
void *volatile handoff;
void *volatile scratch;

static pthread_mutex_t ready_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready_cond = PTHREAD_COND_INITIALIZER;
static int ready;

static void signal_ready(void) {
    pthread_mutex_lock(&ready_lock);
    ready++;
    pthread_cond_signal(&ready_cond);
    pthread_mutex_unlock(&ready_lock);
}

static void wait_ready(int count) {
    pthread_mutex_lock(&ready_lock);
    while (ready < count) pthread_cond_wait(&ready_cond, &ready_lock);
    pthread_mutex_unlock(&ready_lock);
}

__attribute__((noinline)) static void *tree_child(void) { return calloc(1, 32); }

__attribute__((noinline)) static void tree_root(void) {
    for (int i = 0; i < 4; i++) {
        struct tree *root = calloc(1, sizeof *root);
        for (int c = 0; c < 3; c++) root->child[c] = tree_child();
        scratch = root;  // stored for real, then dropped
    }
    scratch = NULL;
}

__attribute__((noinline)) static void *cycle_node(void) { return calloc(1, 40); }

__attribute__((noinline)) static void cycle(void) {
    void **a = cycle_node(), **b = cycle_node(), **c = cycle_node();
    a[0] = b;
    b[0] = c;
    c[0] = a;
    scratch = a;
    scratch = NULL;
}

__attribute__((noinline)) static void *interior_child(void) { return calloc(1, 24); }

__attribute__((noinline)) static void interior_block(void) {
    char *block = calloc(1, 64);
    ((void **)block)[4] = interior_child();  // offset 32: the child's start
    interior = block + 16;
}

__attribute__((noinline)) static void lost_plain(void) {
    for (int i = 0; i < 5; i++) scratch = calloc(1, 100);
    scratch = NULL;
}

__attribute__((noinline)) static void kept_global(void) {
    for (int i = 0; i < 3; i++) kept[i] = calloc(1, 80);
}

__attribute__((noinline)) static void held_in_mmap(void) {
    void **page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED) abort();
    page[7] = calloc(1, 72);
}

/// Allocates, then keeps the block's address only in r12 while blocked in pause(2), made as a
/// raw system call so no libc frame holds it. The calls before it (signal_ready's) saved r12 in
/// frames now below the stack pointer, within the red zone a scan reads (memcheck too): the 4
/// KiB below the stack pointer are zeroed first, so the register is the only copy.
__attribute__((noinline)) static void *held_in_register(void *unused) {
    (void)unused;
    scratch = calloc(1, 56);
    register void *held __asm__("r12") = scratch;
    scratch = NULL;
    signal_ready();
    __asm__ volatile("lea -4096(%%rsp), %%rdi\n\tmov $512, %%ecx\n\txor %%eax, %%eax\n\trep stosq"
                     : : "r"(held) : "rax", "rcx", "rdi", "memory");
    for (;;) __asm__ volatile("mov $34, %%eax\n\tsyscall" : : "r"(held) : "rax", "rcx", "r11", "memory");
    return NULL;
}

/// Never allocates: takes main's block from `handoff` into a stack slot and blocks.
__attribute__((noinline)) static void *holder(void *unused) {
    (void)unused;
    void *volatile mine = handoff;
    handoff = NULL;
    signal_ready();
    for (;;) pause();
    (void)mine;
    return NULL;
}

/// Allocates and frees until the process ends: busy (often inside the recorder) at exit.
__attribute__((noinline)) static void *churner(void *unused) {
    (void)unused;
    signal_ready();
    for (;;) {
        char *volatile p = malloc(48);
        p[0] = 1;
        free(p);
    }
    return NULL;
}

/// Ends the process from a thread other than main.
static void *exiter(void *unused) {
    (void)unused;
    exit(0);
}

__attribute__((noinline)) static void handed_over(void) { handoff = calloc(1, 88); }

/// Blocks every signal, keeps its block in a stack slot and waits for ever.
__attribute__((noinline)) static void *blocked_holder(void *unused) {
    (void)unused;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    void *volatile mine = calloc(1, 120);
    signal_ready();
    for (;;) pause();
    (void)mine;
    return NULL;
}

/// Overwrites the stack the functions above used, so no stale copy of a dropped pointer
/// remains below main's frame for a conservative scan (ours or memcheck's) to find.
__attribute__((noinline)) static void scrub_stack(void) {
    volatile char area[16384];
    for (size_t i = 0; i < sizeof area; i++) area[i] = 0;
}

int main(int argc, char **argv) {
    pthread_t thread;
    if (argc > 1 && strcmp(argv[1], "blocked") == 0) {
        pthread_create(&thread, NULL, blocked_holder, NULL);
        wait_ready(1);
        ready = 0;  // the others count from 0 again
    }
    if (argc > 1 && strcmp(argv[1], "churn") == 0) {
        for (int i = 0; i < 8; i++) pthread_create(&thread, NULL, churner, NULL);
        wait_ready(8);
        ready = 0;
    }
    pthread_create(&thread, NULL, held_in_register, NULL);
    wait_ready(1);
    handed_over();
    pthread_create(&thread, NULL, holder, NULL);
    wait_ready(2);
    tree_root();
    cycle();
    interior_block();
    lost_plain();
    kept_global();
    held_in_mmap();
    scrub_stack();
    if (argc > 1 && strcmp(argv[1], "thread-exit") == 0) {
        char *volatile mine = calloc(1, 136);
        pthread_create(&thread, NULL, exiter, NULL);
        for (;;) pause();
        (void)mine;
    }
    return 0;
}
