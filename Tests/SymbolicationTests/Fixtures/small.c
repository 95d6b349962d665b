/* A tiny freestanding program (no libc) for the truncation and byte-flip tests: a few
   functions, one inlined call, a build-id. Built at test time with
   clang -O2 -g -nostdlib -Wl,--build-id=sha1. */
static inline int square(int x) { return x * x; }

int sum_of_squares(int n) {
    int total = 0;
    for (int i = 0; i < n; i++) total += square(i);
    return total;
}

volatile int sink;

void _start(void) {
    sink = sum_of_squares(sink);
    for (;;) {}
}
