#ifndef DEVKIT_RUNTIME_DEMANGLER_H
#define DEVKIT_RUNTIME_DEMANGLER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The forms devkit asks the Swift runtime's demangler for.
typedef enum {
    /// Xcode's form: what `swift-demangle --simplified` prints (and `_swift_backtrace_demangle`).
    devkit_swift_names_simplified = 0,
    /// `swift-demangle`'s default form: everything, with `[A]`, `[K : V]` and `A?` sugar.
    devkit_swift_names_full = 1,
} devkit_swift_names;

/// True when the runtime's C++ demangler entry point is linked into this program: it is when
/// the Swift runtime is linked statically (a release devkit, --static-swift-stdlib); a shared
/// libswiftCore.so exports no C++ symbols, so a debug build has none.
int devkit_runtime_demangler_is_linked(void);

/// `name` (`length` bytes, a Swift mangled name) demangled in `form` by the runtime's C++
/// demangler; a string from malloc, or NULL when the entry point is not linked or the name
/// does not demangle.
char *devkit_runtime_demangle(const char *name, size_t length, devkit_swift_names form);

/// The file of the shared Swift runtime this process loaded (`…/usr/lib/swift/linux/libswiftCore.so`),
/// found with `dladdr` (a GNU extension the Swift Glibc module does not show); NULL when the
/// runtime is linked statically. The string belongs to the dynamic loader.
const char *devkit_shared_swift_runtime_path(void);

#ifdef __cplusplus
}
#endif

#endif
