// Compiled by CoreDumpTests at test time (cc -g -O0 -pthread) and run under gdb, which
// writes the core when the main thread faults. Three extra threads are parked in known
// functions; the main thread writes through NULL three noinline calls deep.
#include <pthread.h>
#include <unistd.h>

static pthread_barrier_t parked;
static int never[2];

__attribute__((noinline)) static void *parked_in_pause(void *arg) {
    pthread_barrier_wait(&parked);
    for (;;) pause();
    return arg;
}

__attribute__((noinline)) static void *parked_in_read(void *arg) {
    pthread_barrier_wait(&parked);
    char byte;
    read(never[0], &byte, 1);   /* nobody writes: blocks until the process dies */
    return arg;
}

__attribute__((noinline)) static void *parked_in_sleep(void *arg) {
    pthread_barrier_wait(&parked);
    for (;;) sleep(1000);
    return arg;
}

__attribute__((noinline)) void crash_innermost(volatile int *pointer) { *pointer = 42; }
__attribute__((noinline)) void crash_middle(volatile int *pointer) { crash_innermost(pointer); __asm__ volatile(""); }
__attribute__((noinline)) void crash_outer(volatile int *pointer) { crash_middle(pointer); __asm__ volatile(""); }

int main(void) {
    pthread_t threads[3];
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setstacksize(&attributes, 256 * 1024);   /* keeps the core small */
    pipe(never);
    pthread_barrier_init(&parked, 0, 4);
    pthread_create(&threads[0], &attributes, parked_in_pause, 0);
    pthread_create(&threads[1], &attributes, parked_in_read, 0);
    pthread_create(&threads[2], &attributes, parked_in_sleep, 0);
    pthread_barrier_wait(&parked);
    usleep(200 * 1000);   /* lets the threads reach pause/read/sleep */
    crash_outer((volatile int *)0);
    return 0;
}
