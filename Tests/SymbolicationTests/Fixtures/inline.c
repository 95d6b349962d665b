/* Inlining fixture for the symbolication tests: hash_step is inlined into hash_string,
   which is inlined into compute (a three-frame chain at -O2); compiled at test time by
   gcc and clang with DWARF 4 and 5. */
#include <stdio.h>
#include <stdlib.h>

static inline unsigned hash_step(unsigned h, unsigned char c) {
    return (h ^ c) * 16777619u;
}

static inline unsigned hash_string(const char *s) {
    unsigned h = 2166136261u;
    while (*s)
        h = hash_step(h, (unsigned char)*s++);
    return h;
}

__attribute__((noinline)) unsigned compute(int argc, char **argv) {
    unsigned total = 0;
    for (int i = 0; i < argc; i++)
        total += hash_string(argv[i]) % 1000;
    return total;
}

int main(int argc, char **argv) {
    printf("%u\n", compute(argc, argv));
    return 0;
}
