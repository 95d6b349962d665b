// Programs with designed peaks of live bytes, for PeakTests (devkit's peak against valgrind
// massif's). Nothing is printed: stdio's buffer would be one more block.
// Built by PeakTests with: clang -g -O1 -pthread peaks.c -o peaks
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../../../Sources/HeapRecorder/include/devkit_heap.h"

static void *kept[4096];
static int kept_count;

/// Not inlined: the compiler must not see a block only written and freed (and drop both).
__attribute__((noinline)) void *touch(void *p, size_t size) {
    if (p) memset(p, 1, size);
    return p;
}

/// ramp: 100 x 1000 B kept, then 50 x 20000 B made and freed, then 300 x 500 B kept:
/// the peak (1,100,000 B in 150 blocks) is in the middle, above the end (250,000 B).
__attribute__((noinline)) static void ramp(void) {
    for (int i = 0; i < 100; i++) kept[kept_count++] = touch(malloc(1000), 1000);
    void *spike[50];
    for (int i = 0; i < 50; i++) spike[i] = touch(malloc(20000), 20000);
    for (int i = 0; i < 50; i++) free(spike[i]);
    for (int i = 0; i < 300; i++) kept[kept_count++] = touch(malloc(500), 500);
}

/// generations: three marked generations, the second holds the peak across its mark (the
/// blocks outlive it), made by calloc, aligned_alloc and a realloc chain.
__attribute__((noinline)) static void generations(void) {
    devkit_heap_mark_generation("build");
    for (int i = 0; i < 64; i++) kept[kept_count++] = calloc(1, 3000);
    devkit_heap_mark_generation("spike");
    void *spike[200];
    for (int i = 0; i < 200; i++) spike[i] = touch(aligned_alloc(64, 4096), 4096);
    char *grown = NULL;
    for (size_t n = 1000; n <= 256000; n *= 2) grown = touch(realloc(grown, n), n);
    devkit_heap_mark_generation("teardown");
    for (int i = 0; i < 200; i++) free(spike[i]);
    free(grown);
    for (int i = 0; i < 32; i++) kept[kept_count++] = malloc(7000);
}

static void *worker(void *arg) {
    size_t size = (size_t)arg;
    void *blocks[100];
    for (int i = 0; i < 100; i++) blocks[i] = touch(malloc(size), size);
    for (int i = 0; i < 100; i++) free(blocks[i]);
    return NULL;
}

/// threads: two threads one after the other, each peaking and freeing all it made; the
/// second's peak (100 x 9000 B over main's 10 x 100 B) is the run's.
__attribute__((noinline)) static void threads(void) {
    for (int i = 0; i < 10; i++) kept[kept_count++] = malloc(100);
    pthread_t thread;
    pthread_create(&thread, NULL, worker, (void *)(size_t)3000);
    pthread_join(thread, NULL);
    pthread_create(&thread, NULL, worker, (void *)(size_t)9000);
    pthread_join(thread, NULL);
}

/// spike: one short-lived 5 MB block among small kept ones: made and freed by one thread
/// with nothing between, a pair the recorder cancels unless told to write every event.
__attribute__((noinline)) static void spike(void) {
    for (int i = 0; i < 20; i++) kept[kept_count++] = malloc(256);
    void *volatile big = malloc(5 << 20);  // volatile: kept even though only freed
    touch(big, 5 << 20);
    free(big);
    for (int i = 0; i < 20; i++) kept[kept_count++] = malloc(256);
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "ramp";
    if (!strcmp(mode, "ramp")) ramp();
    else if (!strcmp(mode, "generations")) generations();
    else if (!strcmp(mode, "threads")) threads();
    else if (!strcmp(mode, "spike")) spike();
    else return 2;
    return 0;
}
