// A random pointer graph for comparing devkit's leak kinds with valgrind memcheck's
// (HeapLeakKindTests): `leak_graph SEED` allocates 300 blocks of 64 bytes in graph_block,
// links them at random (0 to 3 pointers each, most to a block's start, some into its
// middle), keeps a few of them from globals (by start or interior pointer), and drops
// everything else. The same seed makes the same graph under both tools; every block has one
// size, so the kinds' counts do not depend on which block of a leaked cycle leads it (that
// follows addresses, which differ between the two allocators).
// Interior offsets are 16, 32 and 48: memcheck's heuristics look at 8 (length64, newarray) and
// 24 (std::string).
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define BLOCKS 300
#define BLOCK_SIZE 64
#define ROOTS 12

void *roots[ROOTS];

static uint64_t state;
/// xorshift64*: the same numbers everywhere, unlike rand().
static uint64_t next(void) {
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545F4914F6CDD1Dull;
}

/// A pointer to block `b`: its start three times in four, else 16, 32 or 48 bytes in.
static void *pointer_to(char *b) {
    uint64_t r = next() % 12;
    return r < 9 ? b : b + 16 * (r - 8);
}

__attribute__((noinline)) static void *graph_block(void) { return calloc(1, BLOCK_SIZE); }

__attribute__((noinline)) static void build(void) {
    // The index is mmap'd and unmapped afterwards: no root, and no freed heap memory either.
    char **blocks = mmap(NULL, BLOCKS * sizeof *blocks, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (blocks == MAP_FAILED) abort();
    for (int i = 0; i < BLOCKS; i++) blocks[i] = graph_block();
    for (int i = 0; i < BLOCKS; i++) {
        int edges = (int)(next() % 4);
        for (int e = 0; e < edges; e++) ((void **)blocks[i])[e] = pointer_to(blocks[next() % BLOCKS]);
    }
    for (int r = 0; r < ROOTS; r++) roots[r] = pointer_to(blocks[next() % BLOCKS]);
    munmap(blocks, BLOCKS * sizeof *blocks);
}

/// Overwrites the stack build() used, so no stale copy of a block's address remains below
/// main's frame for a conservative scan to find.
__attribute__((noinline)) static void scrub_stack(void) {
    volatile char area[16384];
    for (size_t i = 0; i < sizeof area; i++) area[i] = 0;
}

int main(int argc, char **argv) {
    state = argc > 1 ? strtoull(argv[1], NULL, 10) * 2654435761u + 1 : 1;
    build();
    scrub_stack();
    return 0;
}
