// elfutils' libdw, libdwfl and libelf. libdw/libelf are imported only by
// ElfUtils/Internals/DWCalls.swift; libdwfl (and libdwelf) only by CoreDump/Internals/DwflCalls.swift.
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <elfutils/libdwelf.h>
#include <dwarf.h>
#include <libelf.h>
#include <gelf.h>
