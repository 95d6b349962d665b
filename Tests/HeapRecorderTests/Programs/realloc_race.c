// Concurrent realloc for `devkit heap record --scan-at-exit`: the live table must follow every
// block however threads interleave. THREADS threads take blocks out of one shared array of
// SLOTS pointers and put them back malloc'd, realloc'd (growing and shrinking, so realloc
// moves blocks and frees the old address) or freed. One malloc arena and sizes above the
// tcache limit make an address that one thread's realloc gives up the next thing another
// thread's malloc gets: the interleaving that would cost a live block its table entry if
// realloc removed the old entry after the real call. That window is a few instructions: on
// a 2-core machine removing it after the call lost no entry in ~25 runs of this program (4 to
// 32 threads), so this is a stress check that the table stays exact, not a reproducer.
// Some reallocs come in chains, whose later steps free a block this thread has just made: the
// other threads' mallocs at those addresses must still follow those frees.
// After the threads end every empty slot is filled: exactly SLOTS blocks stay reachable
// (abandoned, allocated in churn or fill_empty) and none leaks.
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 4
#define SLOTS 256
#define ROUNDS 60000

void *_Atomic slots[SLOTS];

static size_t size_for(uint32_t r) { return 1100 + (r % 12) * 256; }

__attribute__((noinline)) static void *churn(void *arg) {
    uint32_t r = (uint32_t)(uintptr_t)arg * 2654435761u + 1;
    for (int n = 0; n < ROUNDS; n++) {
        r = r * 1664525u + 1013904223u;  // an LCG: each thread its own sequence, no libc state
        unsigned i = (r >> 8) % SLOTS;
        void *p = atomic_exchange(&slots[i], NULL);
        void *q;
        switch (p ? (r >> 20) % 4 : 3) {
        case 0:
            free(p);
            continue;
        case 3:
            if (p) free(p);
            q = malloc(size_for(r >> 12));
            break;
        default:
            // A chain of one to three resizes: from the second on, the old block is this
            // thread's own, just allocated (its allocation still in the thread's buffer).
            q = p;
            for (unsigned step = 0; step <= (r >> 24) % 3; step++) {
                void *grown = realloc(q, size_for(r >> (12 + 4 * step)));
                if (grown) q = grown;
            }
            break;
        }
        memset(q, 0, 16);  // touched, as a real program would
        void *old = atomic_exchange(&slots[i], q);
        if (old) free(old);
    }
    return NULL;
}

__attribute__((noinline)) static void fill_empty(void) {
    for (int i = 0; i < SLOTS; i++)
        if (!atomic_load(&slots[i])) {
            void *p = malloc(size_for((uint32_t)i));
            memset(p, 0, 16);
            atomic_store(&slots[i], p);
        }
}

int main(void) {
    mallopt(M_ARENA_MAX, 1);
    pthread_t threads[THREADS];
    for (int t = 0; t < THREADS; t++) pthread_create(&threads[t], NULL, churn, (void *)(uintptr_t)(t + 1));
    for (int t = 0; t < THREADS; t++) pthread_join(threads[t], NULL);
    fill_empty();
    return 0;
}
