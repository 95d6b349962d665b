// Attaching to a running process (`devkit heap record --pid`): the agent arrives by a dlopen
// that gdb makes the process call, so it interposes nothing: the loader bound every module's
// calls to libc long ago. Instead each module's GOT entries for the hooked functions
// (JUMP_SLOT: calls through the PLT; GLOB_DAT: -fno-plt calls and taken addresses) are
// rewritten to point at the hooks, and put back at detach.
#include "recorder_internal.h"

#include <elf.h>
#include <link.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__x86_64__)
#define DKH_R_JUMP_SLOT R_X86_64_JUMP_SLOT
#define DKH_R_GLOB_DAT R_X86_64_GLOB_DAT
#elif defined(__aarch64__)
#define DKH_R_JUMP_SLOT R_AARCH64_JUMP_SLOT
#define DKH_R_GLOB_DAT R_AARCH64_GLOB_DAT
#else
#error "attach: GOT relocation types unknown for this architecture"
#endif

/// One rewritten entry and what it held. Found again by slot address at detach, and only
/// restored when it still points at our hook (a module unloaded meanwhile is not touched:
/// it is no longer in dl_iterate_phdr's list).
typedef struct patched_slot {
    uintptr_t *slot;
    uintptr_t original;
} patched_slot;

#define MAX_PATCHED 8192
static patched_slot *patched;  // mmap'd: nothing here may call malloc
static int patched_count;
static pthread_mutex_t patch_lock = PTHREAD_MUTEX_INITIALIZER;

typedef struct patch_job {
    const dkh_hook *hooks;
    int count;
    int restore;
    int done;
} patch_job;

static patched_slot *find_patched(uintptr_t *slot) {
    for (int i = 0; i < patched_count; i++)
        if (patched[i].slot == slot) return &patched[i];
    return NULL;
}

/// A pointer from the dynamic section: glibc rewrites most of them to run-time addresses when
/// it loads a module, but not in every module (the vDSO); a value below the bias is relative.
static uintptr_t dyn_pointer(uintptr_t bias, uintptr_t value) { return value < bias ? bias + value : value; }

/// Writes `value` into `slot`, making a read-only (RELRO) page writable for the moment.
static void write_slot(uintptr_t *slot, uintptr_t value, uintptr_t relro_start, uintptr_t relro_end) {
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    // The loader made read-only only the whole pages of the RELRO range (its end rounded down):
    // a slot on the last, partial page is writable already, and that page must stay so.
    int in_relro = (uintptr_t)slot >= relro_start && (uintptr_t)slot < (relro_end & ~(page - 1));
    uintptr_t first = (uintptr_t)slot & ~(page - 1);
    if (in_relro && mprotect((void *)first, page, PROT_READ | PROT_WRITE) != 0) return;
    // One aligned 8-byte store: a thread calling through the entry sees the old or the new.
    __atomic_store_n(slot, value, __ATOMIC_RELEASE);
    if (in_relro) mprotect((void *)first, page, PROT_READ);
}

static void visit_relocations(patch_job *job, uintptr_t bias, const ElfW(Rela) *relocations, size_t size,
                              const ElfW(Sym) *symbols, const char *strings, uintptr_t relro_start, uintptr_t relro_end) {
    if (!relocations || !symbols || !strings) return;
    for (size_t i = 0; i < size / sizeof(ElfW(Rela)); i++) {
        const ElfW(Rela) *r = &relocations[i];
        uint32_t type = (uint32_t)ELF64_R_TYPE(r->r_info);
        if (type != DKH_R_JUMP_SLOT && type != DKH_R_GLOB_DAT) continue;
        uint32_t symbol = (uint32_t)ELF64_R_SYM(r->r_info);
        if (symbol == 0) continue;
        const char *name = strings + symbols[symbol].st_name;
        for (int h = 0; h < job->count; h++) {
            if (strcmp(name, job->hooks[h].name) != 0) continue;
            uintptr_t *slot = (uintptr_t *)(bias + r->r_offset);
            uintptr_t hook = (uintptr_t)job->hooks[h].hook;
            uintptr_t current = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
            patched_slot *known = find_patched(slot);
            if (job->restore) {
                if (known && current == hook) {
                    write_slot(slot, known->original, relro_start, relro_end);
                    job->done++;
                }
            } else if (current == hook) {
                job->done++;
            } else if (known || patched_count < MAX_PATCHED) {
                // A slot seen before holds something new only when its module was unloaded
                // and another loaded there: keep the new original.
                if (!known) known = &patched[patched_count++];
                known->slot = slot;
                known->original = current;
                write_slot(slot, hook, relro_start, relro_end);
                job->done++;
            }
            break;
        }
    }
}

static int visit_module(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    patch_job *job = data;
    const char *name = info->dlpi_name ? info->dlpi_name : "";
    // Not the agent (its own calls must reach libc), not the loader (it allocates with its
    // own pointers, never through a GOT) nor the vDSO (read-only, nothing to hook).
    uintptr_t first = 0;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_LOAD) { first = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr; break; }
    if (first >= dkh.self_start && first < dkh.self_end) return 0;
    if (strstr(name, "/ld-linux") || strstr(name, "/ld64.so") || strstr(name, "linux-vdso") || strstr(name, "linux-gate")) return 0;

    const ElfW(Dyn) *dynamic = NULL;
    uintptr_t relro_start = 0, relro_end = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_DYNAMIC) dynamic = (const ElfW(Dyn) *)(info->dlpi_addr + ph->p_vaddr);
        if (ph->p_type == PT_GNU_RELRO) {
            relro_start = info->dlpi_addr + ph->p_vaddr;
            relro_end = relro_start + ph->p_memsz;
        }
    }
    if (!dynamic) return 0;
    uintptr_t bias = info->dlpi_addr;
    const ElfW(Sym) *symbols = NULL;
    const char *strings = NULL;
    const ElfW(Rela) *jmprel = NULL, *rela = NULL;
    size_t jmprel_size = 0, rela_size = 0;
    int plt_is_rela = 1;
    for (const ElfW(Dyn) *d = dynamic; d->d_tag != DT_NULL; d++) {
        switch (d->d_tag) {
        case DT_SYMTAB: symbols = (const ElfW(Sym) *)dyn_pointer(bias, d->d_un.d_ptr); break;
        case DT_STRTAB: strings = (const char *)dyn_pointer(bias, d->d_un.d_ptr); break;
        case DT_JMPREL: jmprel = (const ElfW(Rela) *)dyn_pointer(bias, d->d_un.d_ptr); break;
        case DT_PLTRELSZ: jmprel_size = d->d_un.d_val; break;
        case DT_PLTREL: plt_is_rela = d->d_un.d_val == DT_RELA; break;
        case DT_RELA: rela = (const ElfW(Rela) *)dyn_pointer(bias, d->d_un.d_ptr); break;
        case DT_RELASZ: rela_size = d->d_un.d_val; break;
        default: break;
        }
    }
    // x86-64 and AArch64 use RELA only; a DT_REL module (none on these) is left alone.
    if (plt_is_rela) visit_relocations(job, bias, jmprel, jmprel_size, symbols, strings, relro_start, relro_end);
    visit_relocations(job, bias, rela, rela_size, symbols, strings, relro_start, relro_end);
    return 0;
}

int dkh_got_patch(const dkh_hook *hooks, int count) {
    pthread_mutex_lock(&patch_lock);
    if (!patched) {
        void *table = mmap(NULL, sizeof(patched_slot) * MAX_PATCHED, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (table == MAP_FAILED) {
            pthread_mutex_unlock(&patch_lock);
            return 0;
        }
        patched = table;
    }
    patch_job job = {.hooks = hooks, .count = count};
    dl_iterate_phdr(visit_module, &job);
    pthread_mutex_unlock(&patch_lock);
    return job.done;
}

void dkh_got_restore(const dkh_hook *hooks, int count) {
    pthread_mutex_lock(&patch_lock);
    if (patched) {
        patch_job job = {.hooks = hooks, .count = count, .restore = 1};
        dl_iterate_phdr(visit_module, &job);
    }
    pthread_mutex_unlock(&patch_lock);
}
