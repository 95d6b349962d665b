// The shared libraries devkit opens with dlopen at their first call instead of naming them in
// the executable: libdw and libelf (symbolication, cores), expat (XML property lists) and
// libyaml (.devkit.yml). Each was linked before, and loading them cost every process at
// start-up, `devkit --version` included, about 0.7 ms (Scripts/bench/startup).
//
// Callers call the libraries' own functions, declared by their own headers (CLibDW,
// CLibExpat, CLibYAML): this target defines each function devkit uses with the header's exact
// signature, and each definition forwards to the library's function, resolved on first use.
#ifndef DEVKIT_LAZY_LIBRARIES_H
#define DEVKIT_LAZY_LIBRARIES_H

#include <stdbool.h>

/// Whether the library whose soname is `soname` has been opened by this process (by these
/// forwarders or otherwise), without opening it. For tests and `--stats`.
bool lazy_library_is_loaded(const char *soname);

#endif
