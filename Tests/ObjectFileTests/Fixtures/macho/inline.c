/* Mach-O fixture source (freestanding: no libSystem to link against on Linux). hash_step is
   inlined into hash_string, inlined into compute. Built by Scripts/fixtures/make-macho. */
static inline unsigned hash_step(unsigned h, unsigned char c) {
    return (h ^ c) * 16777619u;
}

static inline unsigned hash_string(const char *s) {
    unsigned h = 2166136261u;
    while (*s)
        h = hash_step(h, (unsigned char)*s++);
    return h;
}

__attribute__((noinline)) unsigned compute(const char **words, int count) {
    unsigned total = 0;
    for (int i = 0; i < count; i++)
        total += hash_string(words[i]) % 1000;
    return total;
}

const char *words[] = {"alpha", "beta", "gamma"};
volatile unsigned sink;

void start(void) {
    sink = compute(words, 3);
    for (;;) {}
}
