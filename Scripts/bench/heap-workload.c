// Benchmark workload for Scripts/bench/heap: 2,000,000 malloc/free pairs from four call
// sites over two threads (1,000,000 each), with a few blocks kept alive so every tool has
// something to report. Built by Scripts/bench/heap with cc -O2 -g.
#include <pthread.h>
#include <stdlib.h>

#include "heap-workloads/run-threads.h"

#define PAIRS_PER_THREAD 1000000

static void *volatile sink;
void *kept[64];

__attribute__((noinline)) static void site_small(int i) { void *p = malloc(16 + (i & 15)); sink = p; free(p); }
__attribute__((noinline)) static void site_medium(int i) { void *p = malloc(200 + (i & 63)); sink = p; free(p); }
__attribute__((noinline)) static void site_large(int i) { void *p = malloc(4000 + (i & 255)); sink = p; free(p); }
__attribute__((noinline)) static void site_calloc(int i) { void *p = calloc(1, 64 + (i & 7)); sink = p; free(p); }

static void *worker(void *arg) {
    long id = (long)arg;
    for (int i = 0; i < PAIRS_PER_THREAD; i++) {
        switch (i & 3) {
        case 0: site_small(i); break;
        case 1: site_medium(i); break;
        case 2: site_large(i); break;
        default: site_calloc(i); break;
        }
    }
    for (int i = 0; i < 32; i++) kept[id * 32 + i] = malloc(1000);
    return NULL;
}

int main(void) {
    run_threads(2, worker);
    return 0;
}
