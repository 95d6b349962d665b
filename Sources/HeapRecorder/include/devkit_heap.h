// Public API of the devkit heap recorder (libdevkit-heap.so, loaded by `devkit heap record`).
#ifndef DEVKIT_HEAP_H
#define DEVKIT_HEAP_H

#ifdef __cplusplus
extern "C" {
#endif

/// Starts a new generation (heapshot) named `label` (may be NULL). Allocations made from now
/// on belong to it until the next mark. Declared weak: a program calls it through
/// `devkit_heap_mark_generation`, which does nothing when the recorder is not loaded.
void devkit_heap_mark(const char *label) __attribute__((weak));

/// Marks a generation when running under `devkit heap record`; a no-op otherwise.
static inline void devkit_heap_mark_generation(const char *label) {
    if (devkit_heap_mark) devkit_heap_mark(label);
}

#ifdef __cplusplus
}
#endif
#endif
