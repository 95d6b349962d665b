// Shared by the Scripts/bench/heap workloads: runs `worker` on `count` threads (argument: the
// thread's index) and waits for them all.
#ifndef DEVKIT_BENCH_RUN_THREADS_H
#define DEVKIT_BENCH_RUN_THREADS_H
#include <pthread.h>

static void run_threads(long count, void *(*worker)(void *)) {
    pthread_t threads[16];
    for (long i = 0; i < count && i < 16; i++) pthread_create(&threads[i], NULL, worker, (void *)i);
    for (long i = 0; i < count && i < 16; i++) pthread_join(threads[i], NULL);
}
#endif
