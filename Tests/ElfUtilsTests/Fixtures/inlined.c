/* DWARF fixture for ElfUtilsTests, compiled at test time with clang -O2 -g -shared -nostdlib
   (DWARF 4 and 5): square is inlined into sum_of_squares (one inlined call, depth 1); no
   libc, so the shared object holds this unit alone. */
static inline int square(int x) {
    return x * x;
}

__attribute__((noinline)) int sum_of_squares(const int *values, int n) {
    int total = 0;
    for (int i = 0; i < n; i++)
        total += square(values[i]);
    return total;
}
