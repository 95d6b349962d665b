// elfutils' debuginfod client (Debian's libdebuginfod-dev); imported only by
// ElfUtils/Internals/DebuginfodCalls.swift and LazyLibraries' forwarders.
#include <elfutils/debuginfod.h>
