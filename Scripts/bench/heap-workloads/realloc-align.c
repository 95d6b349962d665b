// Benchmark workload for Scripts/bench/heap (`realloc`): two threads each grow 100,000
// buffers by realloc chains (a string builder: 16 bytes, then about 1.5x per step, 8 steps)
// and make 150,000 posix_memalign and 150,000 aligned_alloc blocks. A ring of the last 1,024
// finished buffers and 512 aligned blocks per thread stays alive, so blocks outlive the
// recorder's thread buffers and are written rather than cancelled, as in a program with a
// cache. About 2.5 million allocator calls. Built by Scripts/bench/heap with cc -O2 -g.
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "run-threads.h"

#define CHAINS_PER_THREAD 100000
#define STEPS 8
#define ALIGNED_PER_THREAD 150000
#define RING 1024
#define ALIGNED_RING 512

static void *volatile sink;

__attribute__((noinline)) static char *grow(char *buffer, size_t size) {
    char *p = realloc(buffer, size);
    p[size - 1] = 1;
    return p;
}

__attribute__((noinline)) static char *build_string(int i) {
    size_t size = 16 + (i & 7);
    char *p = malloc(size);
    p[0] = 0;
    for (int step = 0; step < STEPS; step++) {
        size += size / 2 + (i & 3);
        p = grow(p, size);
    }
    return p;
}

__attribute__((noinline)) static void *aligned_block(int i) {
    void *p = NULL;
    if (i & 1) {
        if (posix_memalign(&p, 64, 96 + (i & 31)) != 0) return NULL;
    } else {
        p = aligned_alloc(256, 512);
    }
    return p;
}

static void *worker(void *arg) {
    (void)arg;
    char **ring = calloc(RING, sizeof *ring);
    void **aligned = calloc(ALIGNED_RING, sizeof *aligned);
    for (int i = 0; i < CHAINS_PER_THREAD; i++) {
        char *s = build_string(i);
        free(ring[i % RING]);
        ring[i % RING] = s;
    }
    for (int i = 0; i < ALIGNED_PER_THREAD; i++) {
        void *p = aligned_block(i);
        sink = p;
        if (i % 8 == 0) {
            free(aligned[(i / 8) % ALIGNED_RING]);
            aligned[(i / 8) % ALIGNED_RING] = p;
        } else {
            free(p);
        }
    }
    for (int i = 0; i < RING; i++) free(ring[i]);
    for (int i = 0; i < ALIGNED_RING; i++) free(aligned[i]);
    free(ring);
    free(aligned);
    return NULL;
}

int main(void) {
    run_threads(2, worker);
    return 0;
}
