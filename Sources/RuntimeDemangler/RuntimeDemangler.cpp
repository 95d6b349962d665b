// The Swift runtime's own demangler, called with display options. The runtime (libswiftCore)
// contains the whole demangler and printer, but its only C entry points print one fixed form
// each: `swift_demangle` (full names without sugar) and `_swift_backtrace_demangle` (the
// simplified form). Full names with sugar, as `swift-demangle` prints them, need the C++
// function below with an options structure, and that structure has no public header: its
// layout is restated here for the runtime of Swift 6.3 (read from the runtime's own callers:
// `swift_demangle` and `_swift_backtrace_demangle` build one on the stack), the only toolchain
// devkit is built with. Symbolication calls this file only when compiled by Swift 6.3 and
// after checking, once, that the simplified form made here equals the runtime's own
// `_swift_backtrace_demangle` (Demangler.swift); SymbolicationTests compare both forms with
// swift-demangle on every Swift symbol of the test programs.

#include "runtime_demangler.h"

#include <dlfcn.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>

namespace swift {
namespace Demangle {
namespace __runtime {

/// The runtime's `DemangleOptions` as Swift 6.3 lays it out: 22 one-byte switches, a string
/// (pointer and length) naming a module whose entities are printed unqualified, and the
/// function that names generic parameters (A, B, …). 72 bytes.
struct DemangleOptions {
    bool switches[22];
    const char *hiddenModule = nullptr;
    size_t hiddenModuleLength = 0;
    std::function<std::string(uint64_t, uint64_t)> parameterName;
};
static_assert(sizeof(DemangleOptions) == 72, "the Swift 6.3 runtime's DemangleOptions is 72 bytes");

// Weak: present only when the runtime is linked statically (see the header). The archive
// member defining them is linked anyway, for `swift_demangle`, which devkit calls.
std::string demangleSymbolAsString(const char *name, size_t length, const DemangleOptions &options) __attribute__((weak));
std::string genericParameterName(uint64_t depth, uint64_t index) __attribute__((weak));

} // namespace __runtime
} // namespace Demangle
} // namespace swift

namespace {

using swift::Demangle::__runtime::DemangleOptions;

// The switches in the runtime's order: sugar, qualified entities, extension contexts,
// unmangled suffixes, module names, generic specializations, protocol conformances, where
// clauses, entity types, local name contexts; shortened partial applies, thunks, value
// witnesses, archetypes; private discriminators, argument types, the debugger's module, the
// standard library's module, the Objective-C module; names for type lookup; async resume
// partials; closure signatures.
//
// Full: the runtime's defaults (as `swift_demangle` sets them, but with sugar and the
// debugger's module shown), which is what `swift-demangle` prints.
constexpr bool fullSwitches[22] = {
    true, true, true, true, true, true, true, true, true, true,
    false, false, false, false,
    true, true, true, true, true,
    false, true, true,
};
// Simplified: the values `_swift_backtrace_demangle` sets (the runtime's simplified UI
// options, which `swift-demangle --simplified` uses too).
constexpr bool simplifiedSwitches[22] = {
    true, true, false, false, false, false, false, false, false, true,
    true, true, true, true,
    false, false, true, true, true,
    false, false, true,
};

} // namespace

extern "C" int devkit_runtime_demangler_is_linked(void) {
    return swift::Demangle::__runtime::demangleSymbolAsString != nullptr
        && swift::Demangle::__runtime::genericParameterName != nullptr;
}

extern "C" char *devkit_runtime_demangle(const char *name, size_t length, devkit_swift_names form) {
    if (!devkit_runtime_demangler_is_linked()) return nullptr;
    DemangleOptions options;
    std::memcpy(options.switches, form == devkit_swift_names_full ? fullSwitches : simplifiedSwitches, sizeof options.switches);
    options.parameterName = swift::Demangle::__runtime::genericParameterName;
    std::string text = swift::Demangle::__runtime::demangleSymbolAsString(name, length, options);
    if (text.empty()) return nullptr;
    return strdup(text.c_str());
}

extern "C" const char *devkit_shared_swift_runtime_path(void) {
    // Exported only by a shared runtime: a static one is not in the dynamic symbol table.
    void *function = dlsym(RTLD_DEFAULT, "swift_demangle");
    Dl_info info;
    if (function == nullptr || dladdr(function, &info) == 0) return nullptr;
    return info.dli_fname;
}
