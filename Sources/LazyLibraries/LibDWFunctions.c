// libdw (with libdwfl and libdwelf) and libelf, from Debian's libdw1 and libelf1: every
// function ElfUtils' DWCalls and CoreDump's DwflCalls call.
#include "LazyLibrary.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <libelf.h>

#define LIBDW_FUNCTIONS(X, V)                                                                              \
    X(Dwarf_Attribute *, dwarf_attr, (Dwarf_Die * die, unsigned int name, Dwarf_Attribute *result), (die, name, result)) \
    X(Dwarf_Attribute *, dwarf_attr_integrate, (Dwarf_Die * die, unsigned int name, Dwarf_Attribute *result), (die, name, result)) \
    X(Dwarf *, dwarf_begin_elf, (Elf * elf, Dwarf_Cmd cmd, Elf_Scn *group), (elf, cmd, group))            \
    X(int, dwarf_child, (Dwarf_Die * die, Dwarf_Die *result), (die, result))                              \
    X(const char *, dwarf_diename, (Dwarf_Die * die), (die))                                              \
    X(Dwarf_Off, dwarf_dieoffset, (Dwarf_Die * die), (die))                                               \
    X(int, dwarf_end, (Dwarf * dwarf), (dwarf))                                                           \
    X(const char *, dwarf_errmsg, (int error), (error))                                                   \
    X(int, dwarf_errno, (void), ())                                                                       \
    X(const char *, dwarf_filesrc, (Dwarf_Files * files, size_t index, Dwarf_Word *mtime, Dwarf_Word *length), (files, index, mtime, length)) \
    X(int, dwarf_formaddr, (Dwarf_Attribute * attribute, Dwarf_Addr *address), (attribute, address))       \
    X(Dwarf_Die *, dwarf_formref_die, (Dwarf_Attribute * attribute, Dwarf_Die *result), (attribute, result)) \
    X(const char *, dwarf_formstring, (Dwarf_Attribute * attribute), (attribute))                         \
    X(int, dwarf_formudata, (Dwarf_Attribute * attribute, Dwarf_Word *value), (attribute, value))          \
    X(ptrdiff_t, dwarf_getattrs, (Dwarf_Die * die, int (*callback)(Dwarf_Attribute *, void *), void *argument, ptrdiff_t offset), (die, callback, argument, offset)) \
    X(int, dwarf_getsrcdirs, (Dwarf_Files * files, const char *const **result, size_t *count), (files, result, count)) \
    X(int, dwarf_getsrcfiles, (Dwarf_Die * unit, Dwarf_Files **files, size_t *count), (unit, files, count)) \
    X(int, dwarf_getsrclines, (Dwarf_Die * unit, Dwarf_Lines **lines, size_t *count), (unit, lines, count)) \
    X(int, dwarf_line_file, (Dwarf_Line * line, Dwarf_Files **files, size_t *index), (line, files, index)) \
    X(int, dwarf_lineaddr, (Dwarf_Line * line, Dwarf_Addr *address), (line, address))                     \
    X(int, dwarf_linecol, (Dwarf_Line * line, int *column), (line, column))                               \
    X(int, dwarf_lineendsequence, (Dwarf_Line * line, bool *flag), (line, flag))                          \
    X(int, dwarf_lineno, (Dwarf_Line * line, int *number), (line, number))                                \
    X(int, dwarf_next_unit, (Dwarf * dwarf, Dwarf_Off offset, Dwarf_Off *next, size_t *header_size, Dwarf_Half *version, Dwarf_Off *abbrev_offset, uint8_t *address_size, uint8_t *offset_size, uint64_t *type_signature, Dwarf_Off *type_offset), (dwarf, offset, next, header_size, version, abbrev_offset, address_size, offset_size, type_signature, type_offset)) \
    X(Dwarf_Die *, dwarf_offdie, (Dwarf * dwarf, Dwarf_Off offset, Dwarf_Die *result), (dwarf, offset, result)) \
    X(Dwarf_Line *, dwarf_onesrcline, (Dwarf_Lines * lines, size_t index), (lines, index))                \
    X(ptrdiff_t, dwarf_ranges, (Dwarf_Die * die, ptrdiff_t offset, Dwarf_Addr *base, Dwarf_Addr *start, Dwarf_Addr *end), (die, offset, base, start, end)) \
    X(int, dwarf_siblingof, (Dwarf_Die * die, Dwarf_Die *result), (die, result))                          \
    X(int, dwarf_tag, (Dwarf_Die * die), (die))                                                           \
    X(ssize_t, dwelf_elf_gnu_build_id, (Elf * elf, const void **build_id), (elf, build_id))               \
    X(bool, dwfl_attach_state, (Dwfl * dwfl, Elf *elf, pid_t pid, const Dwfl_Thread_Callbacks *callbacks, void *argument), (dwfl, elf, pid, callbacks, argument)) \
    X(Dwfl *, dwfl_begin, (const Dwfl_Callbacks *callbacks), (callbacks))                                 \
    X(int, dwfl_core_file_attach, (Dwfl * dwfl, Elf *elf), (dwfl, elf))                                   \
    X(int, dwfl_core_file_report, (Dwfl * dwfl, Elf *elf, const char *executable), (dwfl, elf, executable)) \
    V(dwfl_end, (Dwfl * dwfl), (dwfl))                                                                    \
    X(const char *, dwfl_errmsg, (int error), (error))                                                    \
    X(int, dwfl_errno, (void), ())                                                                        \
    X(bool, dwfl_frame_pc, (Dwfl_Frame * state, Dwarf_Addr *pc, bool *activation), (state, pc, activation)) \
    X(int, dwfl_frame_reg, (Dwfl_Frame * state, unsigned regno, Dwarf_Word *value), (state, regno, value)) \
    X(ptrdiff_t, dwfl_getmodules, (Dwfl * dwfl, int (*callback)(Dwfl_Module *, void **, const char *, Dwarf_Addr, void *), void *argument, ptrdiff_t offset), (dwfl, callback, argument, offset)) \
    X(int, dwfl_getthreads, (Dwfl * dwfl, int (*callback)(Dwfl_Thread *, void *), void *argument), (dwfl, callback, argument)) \
    X(int, dwfl_module_build_id, (Dwfl_Module * module, const unsigned char **bits, GElf_Addr *address), (module, bits, address)) \
    X(Elf *, dwfl_module_getelf, (Dwfl_Module * module, GElf_Addr *bias), (module, bias))                \
    X(const char *, dwfl_module_info, (Dwfl_Module * module, void ***userdata, Dwarf_Addr *start, Dwarf_Addr *end, Dwarf_Addr *dwarf_bias, Dwarf_Addr *symbol_bias, const char **main_file, const char **debug_file), (module, userdata, start, end, dwarf_bias, symbol_bias, main_file, debug_file)) \
    V(dwfl_report_begin, (Dwfl * dwfl), (dwfl))                                                           \
    X(int, dwfl_report_end, (Dwfl * dwfl, int (*removed)(Dwfl_Module *, void *, const char *, Dwarf_Addr, void *), void *argument), (dwfl, removed, argument)) \
    X(bool, dwfl_thread_state_registers, (Dwfl_Thread * thread, int first, unsigned count, const Dwarf_Word *registers), (thread, first, count, registers)) \
    X(int, dwfl_thread_getframes, (Dwfl_Thread * thread, int (*callback)(Dwfl_Frame *, void *), void *argument), (thread, callback, argument)) \
    X(pid_t, dwfl_thread_tid, (Dwfl_Thread * thread), (thread))

#define LIBELF_FUNCTIONS(X, V)                                                                             \
    X(Elf *, elf_begin, (int fd, Elf_Cmd cmd, Elf *reference), (fd, cmd, reference))                      \
    X(int, elf_end, (Elf * elf), (elf))                                                                   \
    X(const char *, elf_errmsg, (int error), (error))                                                     \
    X(int, elf_errno, (void), ())                                                                         \
    X(char *, elf_getident, (Elf * elf, size_t *size), (elf, size))                                      \
    X(Elf_Data *, elf_getdata_rawchunk, (Elf * elf, int64_t offset, size_t size, Elf_Type type), (elf, offset, size, type)) \
    X(int, elf_getphdrnum, (Elf * elf, size_t *count), (elf, count))                                      \
    X(int, elf_getshdrstrndx, (Elf * elf, size_t *index), (elf, index))                                   \
    X(Elf_Kind, elf_kind, (Elf * elf), (elf))                                                             \
    X(Elf *, elf_memory, (char *image, size_t size), (image, size))                                       \
    X(size_t, elf_ndxscn, (Elf_Scn * section), (section))                                                 \
    X(Elf_Scn *, elf_nextscn, (Elf * elf, Elf_Scn *section), (elf, section))                              \
    X(char *, elf_rawfile, (Elf * elf, size_t *size), (elf, size))                                       \
    X(char *, elf_strptr, (Elf * elf, size_t index, size_t offset), (elf, index, offset))                 \
    X(unsigned int, elf_version, (unsigned int version), (version))                                       \
    X(GElf_Ehdr *, gelf_getehdr, (Elf * elf, GElf_Ehdr *result), (elf, result))                           \
    X(size_t, gelf_getnote, (Elf_Data * data, size_t offset, GElf_Nhdr *result, size_t *name_offset, size_t *descriptor_offset), (data, offset, result, name_offset, descriptor_offset)) \
    X(GElf_Phdr *, gelf_getphdr, (Elf * elf, int index, GElf_Phdr *result), (elf, index, result))         \
    X(GElf_Shdr *, gelf_getshdr, (Elf_Scn * section, GElf_Shdr *result), (section, result))

LAZY_LIBRARY(libdw, "libdw.so.1", "libdw1", LIBDW_FUNCTIONS);
LAZY_LIBRARY(libelf, "libelf.so.1", "libelf1", LIBELF_FUNCTIONS);

#define LIBDW_FORWARD(result, name, parameters, arguments) LAZY_FORWARD(libdw, result, name, parameters, arguments)
#define LIBDW_FORWARD_VOID(name, parameters, arguments) LAZY_FORWARD_VOID(libdw, name, parameters, arguments)
LIBDW_FUNCTIONS(LIBDW_FORWARD, LIBDW_FORWARD_VOID)

#define LIBELF_FORWARD(result, name, parameters, arguments) LAZY_FORWARD(libelf, result, name, parameters, arguments)
#define LIBELF_FORWARD_VOID(name, parameters, arguments) LAZY_FORWARD_VOID(libelf, name, parameters, arguments)
LIBELF_FUNCTIONS(LIBELF_FORWARD, LIBELF_FORWARD_VOID)
