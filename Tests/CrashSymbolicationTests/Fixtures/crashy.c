/* Crash-log fixture for the CrashSymbolication tests (Scripts/fixtures/make-crash-fixtures
   builds Mach-O binaries and dSYMs from it). Never run: the tests write crash reports whose
   frames and registers point into these functions and strings.
   - load_model reads p[6] through a null pointer: offset 0x18, inlined into controller's callee;
   - the selector and message strings sit in the sections the ObjC runtime and clang use. */
__attribute__((used, section("__TEXT,__objc_methname"))) const char selector_set_title[] = "setTitle:";
__attribute__((used, section("__TEXT,__objc_methname"))) const char selector_reload[] = "reloadData";
__attribute__((used, section("__TEXT,__cstring"))) const char missing_model[] = "Missing model %@";

static inline long field(long *p) {
    return p[3];
}

__attribute__((noinline)) long load_model(long *p) {
    long value = field(p);
    return value + 1;
}

__attribute__((noinline)) long controller(long *p) {
    long total = load_model(p);
    return total * 2;
}

int start(void) {
    return (int)controller((long *)0);
}
