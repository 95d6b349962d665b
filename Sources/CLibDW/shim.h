// elfutils' libdw and libelf, imported only by ElfUtils/Internals/DWCalls.swift.
#include <elfutils/libdw.h>
#include <dwarf.h>
#include <libelf.h>
#include <gelf.h>
