// Benchmark workload for Scripts/bench/heap (`cross-thread`): two producer/consumer pairs;
// each producer allocates 600,000 messages (48 to 560 bytes) and hands them to its consumer
// in batches of 1,000 (a mutex and a condition variable, at most 8 batches queued), and the
// consumer frees them: every free is on another thread than its allocation, which the
// recorder can never cancel. 2.4 million allocator calls. Built by Scripts/bench/heap with
// cc -O2 -g.
#include <pthread.h>
#include <stdlib.h>

#define MESSAGES 600000
#define BATCH 1000
#define QUEUED 8

typedef struct queue {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    void **batches[QUEUED];
    int head, count;
} queue;

static queue queues[2] = {
    {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, {0}, 0, 0},
    {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, {0}, 0, 0},
};

__attribute__((noinline)) static void *make_message(int i) {
    char *p = malloc(48 + (i & 511));
    p[0] = (char)i;
    return p;
}

__attribute__((noinline)) static void consume_message(void *p) { free(p); }

static void *producer(void *arg) {
    queue *q = arg;
    for (int i = 0; i < MESSAGES; i += BATCH) {
        void **batch = malloc(BATCH * sizeof *batch);
        for (int j = 0; j < BATCH; j++) batch[j] = make_message(i + j);
        pthread_mutex_lock(&q->lock);
        while (q->count == QUEUED) pthread_cond_wait(&q->changed, &q->lock);
        q->batches[(q->head + q->count++) % QUEUED] = batch;
        pthread_cond_broadcast(&q->changed);
        pthread_mutex_unlock(&q->lock);
    }
    return NULL;
}

static void *consumer(void *arg) {
    queue *q = arg;
    for (int i = 0; i < MESSAGES; i += BATCH) {
        pthread_mutex_lock(&q->lock);
        while (q->count == 0) pthread_cond_wait(&q->changed, &q->lock);
        void **batch = q->batches[q->head];
        q->head = (q->head + 1) % QUEUED;
        q->count--;
        pthread_cond_broadcast(&q->changed);
        pthread_mutex_unlock(&q->lock);
        for (int j = 0; j < BATCH; j++) consume_message(batch[j]);
        free(batch);
    }
    return NULL;
}

int main(void) {
    pthread_t threads[4];
    for (int i = 0; i < 2; i++) {
        pthread_create(&threads[2 * i], NULL, producer, &queues[i]);
        pthread_create(&threads[2 * i + 1], NULL, consumer, &queues[i]);
    }
    for (int i = 0; i < 4; i++) pthread_join(threads[i], NULL);
    return 0;
}
