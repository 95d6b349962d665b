// Known leaks for `devkit heap record --scan-at-exit` and `heapdiff --leaks`, checked against
// valgrind memcheck. `leaks`: every kind below; `none`: only reachable blocks; `thread`: as
// `none`, plus a thread still running at exit whose only pointer to a 333-byte block is on its
// own stack (abandoned: other threads' stacks are roots); `many`: scale (the live table grows,
// blocks reached only through other blocks, a pointer array larger than the scan's buffer,
// threads that leak and end) — see many_blocks().
//   leak_dropped    100 x 64 B, pointers dropped             definitely lost (leaked)
//   keep_global      50 x 96 B, kept in a global array        still reachable (abandoned)
//   leak_list        20 x 32 B list, head dropped             1 definitely + 19 indirectly lost (leaked)
//   keep_interior     1 x 200 B, only base+16 kept in a global possibly lost (reached, not leaked)
// devkit and memcheck agree on every kind (HeapLeakTests.knownLeaksByKind, leakedBytesMatchMemcheck).
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

struct node {
    struct node *next;
    char payload[24];
};

void *kept[50];
char *interior;
/// The list is published here and then dropped: the nodes' next pointers must really be
/// stored (a list the compiler can see is never read could lose them).
struct node *volatile list_head;

__attribute__((noinline)) static void leak_dropped(void) {
    for (int i = 0; i < 100; i++) {
        char *volatile p = malloc(64);
        p[0] = 1;
    }
}

__attribute__((noinline)) static void keep_global(void) {
    for (int i = 0; i < 50; i++) kept[i] = malloc(96);
}

__attribute__((noinline)) static void leak_list(void) {
    struct node *head = NULL;
    for (int i = 0; i < 20; i++) {
        struct node *n = malloc(sizeof *n);
        memset(n, 0, sizeof *n);
        n->next = head;
        head = n;
    }
    list_head = head;
    list_head = NULL;  // the head is dropped; node i still points to node i - 1
}

__attribute__((noinline)) static void keep_interior(void) {
    char *block = malloc(200);
    interior = block + 16;
}

__attribute__((noinline)) static void churn(void) {
    for (int i = 0; i < 100; i++) {
        void *volatile p = malloc(100);  // volatile: the pair is not optimized away
        free(p);
    }
}

/// Overwrites the stack the functions above used, so no stale copy of a dropped pointer
/// remains below main's frame for a conservative scan (ours or memcheck's) to find.
__attribute__((noinline)) static void scrub_stack(void) {
    volatile char area[16384];
    for (size_t i = 0; i < sizeof area; i++) area[i] = 0;  // volatile stores: not elided
}

static pthread_mutex_t ready_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready_cond = PTHREAD_COND_INITIALIZER;
static int ready;

/// Keeps its block in a stack slot and never returns (the process exits around it).
static void *holder(void *unused) {
    (void)unused;
    char *volatile mine = malloc(333);
    mine[0] = 1;
    pthread_mutex_lock(&ready_lock);
    ready = 1;
    pthread_cond_signal(&ready_cond);
    pthread_mutex_unlock(&ready_lock);
    for (;;) pause();
    return NULL;
}

void **table;  // 300000 pointers: a 2.3 MiB block, the only way to its entries

__attribute__((noinline)) static void *leak_per_thread(void *unused) {
    (void)unused;
    for (int i = 0; i < 5000; i++) {
        char *volatile p = malloc(40);
        p[0] = 1;
    }
    return NULL;
}

/// Leaked: 10000 table entries (i < 30000, i % 3 == 1; 16 + (i % 4) * 16 bytes), 4 threads x
/// 5000 x 40 B, 10 x 1 MiB and a 77-byte block only the last 1 MiB block points to (from its
/// last word). Freed: every third entry. Abandoned: the other 190000 entries and the table.
__attribute__((noinline)) static void many_blocks(void) {
    table = malloc(300000 * sizeof *table);
    for (int i = 0; i < 300000; i++) table[i] = malloc(16 + (size_t)(i % 4) * 16);
    for (int i = 0; i < 300000; i += 3) {
        free(table[i]);
        table[i] = NULL;
    }
    for (int i = 1; i < 30000; i += 3) table[i] = NULL;
    pthread_t threads[4];
    for (int i = 0; i < 4; i++) pthread_create(&threads[i], NULL, leak_per_thread, NULL);
    for (int i = 0; i < 4; i++) pthread_join(threads[i], NULL);
    for (int i = 0; i < 10; i++) {
        // Stores through volatile: a block nothing reads is otherwise not even allocated. No
        // memset: its end pointers, left in registers, look like references to memcheck (the
        // block comes fresh from mmap, zeroed, in both allocators).
        void *volatile *big = malloc(1 << 20);
        big[0] = NULL;
        if (i == 9) big[(1 << 20) / sizeof(void *) - 1] = malloc(77);
    }
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "leaks";
    int none = strcmp(mode, "leaks") != 0;  // `many` adds its own to `none`'s
    if (strcmp(mode, "thread") == 0) {
        pthread_t thread;
        pthread_create(&thread, NULL, holder, NULL);
        pthread_mutex_lock(&ready_lock);
        while (!ready) pthread_cond_wait(&ready_cond, &ready_lock);
        pthread_mutex_unlock(&ready_lock);
    }
    if (strcmp(mode, "many") == 0) many_blocks();
    if (!none) leak_dropped();
    keep_global();
    if (!none) leak_list();
    keep_interior();
    churn();
    scrub_stack();
    return 0;
}
