// Benchmark workload for Scripts/bench/heap (`threads`): 2,000 short-lived threads, four at a
// time, each making 500 malloc/free pairs from two call sites and leaving 4 blocks that the
// main thread frees after joining it (a thread pool that spawns a thread per request). About
// 2 million allocator calls. Built by Scripts/bench/heap with cc -O2 -g.
#include <pthread.h>
#include <stdlib.h>

#define THREADS 2000
#define AT_ONCE 4
#define PAIRS 500
#define KEPT 4

static void *volatile sink;

__attribute__((noinline)) static void handle_small(int i) { void *p = malloc(24 + (i & 31)); sink = p; free(p); }
__attribute__((noinline)) static void handle_large(int i) { void *p = malloc(1500 + (i & 127)); sink = p; free(p); }

static void *request(void *arg) {
    void **kept = arg;
    for (int i = 0; i < PAIRS; i++) {
        if (i & 1) handle_large(i);
        else handle_small(i);
    }
    for (int i = 0; i < KEPT; i++) kept[i] = malloc(64);
    return NULL;
}

int main(void) {
    static void *kept[AT_ONCE][KEPT];
    // 500 rounds of 4 threads, and 1,000 pairs per thread in total.
    for (int round = 0; round < THREADS / AT_ONCE; round++) {
        pthread_t threads[AT_ONCE];
        for (int i = 0; i < AT_ONCE; i++) pthread_create(&threads[i], NULL, request, kept[i]);
        for (int i = 0; i < AT_ONCE; i++) {
            pthread_join(threads[i], NULL);
            for (int k = 0; k < KEPT; k++) free(kept[i][k]);
        }
    }
    return 0;
}
