// Internal: the loader the per-library forwarders share.
#ifndef DEVKIT_LAZY_LIBRARY_H
#define DEVKIT_LAZY_LIBRARY_H

#include <stdatomic.h>

/// One library opened on first use. `functions` holds `count` resolved addresses in the order
/// of `names`; `ready` becomes 1 once all of them are set.
struct lazy_library {
    const char *soname;
    const char *package;  // the Debian package to install when it cannot be opened
    const char *const *names;
    void **functions;
    unsigned count;
    atomic_int ready;
};

/// Opens the library and resolves every function, once, whatever the number of threads
/// calling; exits with status 2 and a one-line message when the library or a function is
/// missing (an installation error no command can work around).
void lazy_library_load(struct lazy_library *library);

// A library's functions are listed once, as `LIST(X, V)`: X(result, name, (parameters),
// (arguments)) for a function with a result, V(name, (parameters), (arguments)) for a void
// one. LAZY_LIBRARY declares its table; LAZY_FORWARD and LAZY_FORWARD_VOID define one
// forwarder per function with the header's signature, so a parameter or result that differs
// from the library's declaration is a compile error.
#define LAZY_SLOT(result, name, parameters, arguments) lazy_slot_##name,
#define LAZY_SLOT_VOID(name, parameters, arguments) lazy_slot_##name,
#define LAZY_NAME(result, name, parameters, arguments) #name,
#define LAZY_NAME_VOID(name, parameters, arguments) #name,
#define LAZY_ENSURE(library)                                                                  \
    if (__builtin_expect(!atomic_load_explicit(&library.ready, memory_order_acquire), 0))     \
        lazy_library_load(&library)
#define LAZY_FORWARD(library, result, name, parameters, arguments)                           \
    result name parameters {                                                                  \
        LAZY_ENSURE(library);                                                                 \
        return ((__typeof__(&name))library.functions[lazy_slot_##name]) arguments;            \
    }
#define LAZY_FORWARD_VOID(library, name, parameters, arguments)                               \
    void name parameters {                                                                    \
        LAZY_ENSURE(library);                                                                 \
        ((__typeof__(&name))library.functions[lazy_slot_##name]) arguments;                   \
    }

#define LAZY_LIBRARY(library, soname_, package_, LIST)                                        \
    enum { LIST(LAZY_SLOT, LAZY_SLOT_VOID) library##_count };                                 \
    static const char *const library##_names[] = {LIST(LAZY_NAME, LAZY_NAME_VOID)};           \
    static void *library##_functions[library##_count];                                        \
    static struct lazy_library library = {                                                    \
        .soname = soname_, .package = package_, .names = library##_names,                     \
        .functions = library##_functions, .count = library##_count}

#endif
