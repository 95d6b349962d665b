// The module map: every loaded ELF object with its path, build-id and segments, written at
// start and after every dlopen/dlclose, so stacks can be symbolicated after the process ends.
#include "recorder_internal.h"

#include <elf.h>
#include <link.h>
#include <string.h>
#include <unistd.h>

#define MAX_MODULES 4096
#define MAX_SEGMENTS 16

typedef struct module {
    uintptr_t bias;
    uintptr_t first_start;
    uint32_t id;
    int alive;
    int seen;
} module;

static module modules[MAX_MODULES];
static uint32_t module_count;


static uintptr_t first_load_start(struct dl_phdr_info *info) {
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_LOAD) return info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
    return info->dlpi_addr;
}

/// The NT_GNU_BUILD_ID note's bytes, or length 0.
static size_t build_id(struct dl_phdr_info *info, const uint8_t **bytes) {
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_NOTE) continue;
        const uint8_t *p = (const uint8_t *)(info->dlpi_addr + ph->p_vaddr);
        const uint8_t *end = p + ph->p_memsz;
        while (p + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *note = (const ElfW(Nhdr) *)p;
            size_t name_size = (note->n_namesz + 3) & ~3u, desc_size = (note->n_descsz + 3) & ~3u;
            const uint8_t *name = p + sizeof(ElfW(Nhdr));
            const uint8_t *desc = name + name_size;
            if (desc + note->n_descsz > end) break;
            if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 && memcmp(name, "GNU", 4) == 0) {
                *bytes = desc;
                return note->n_descsz;
            }
            p = desc + desc_size;
        }
    }
    return 0;
}

static void write_module_record(struct dl_phdr_info *info, uint32_t id) {
    uint8_t payload[8192];
    size_t n = 0;
    uint32_t segments = 0;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_LOAD && segments < MAX_SEGMENTS) segments++;
    n += dkh_put_u64(payload + n, dkh_take_global_seq());
    n += dkh_put_u32(payload + n, id);
    n += dkh_put_u32(payload + n, segments);
    n += dkh_put_u64(payload + n, info->dlpi_addr);
    const uint8_t *id_bytes = NULL;
    size_t id_length = build_id(info, &id_bytes);
    if (id_length > 64) id_length = 0;
    payload[n++] = (uint8_t)id_length;
    payload[n++] = (uint8_t)(id_length >> 8);
    memcpy(payload + n, id_bytes, id_length);
    n += id_length;
    char exe[4096];
    const char *path = info->dlpi_name;
    if (!path || !*path) {
        // The main program has no name in the link map.
        ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
        exe[len > 0 ? len : 0] = 0;
        path = exe;
    }
    size_t path_length = strnlen(path, 4000);
    payload[n++] = (uint8_t)path_length;
    payload[n++] = (uint8_t)(path_length >> 8);
    memcpy(payload + n, path, path_length);
    n += path_length;
    uint32_t written = 0;
    for (int i = 0; i < info->dlpi_phnum && written < segments; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD) continue;
        n += dkh_put_u64(payload + n, info->dlpi_addr + ph->p_vaddr);
        n += dkh_put_u64(payload + n, info->dlpi_addr + ph->p_vaddr + ph->p_memsz);
        written++;
    }
    // Gathered: the map's records go out together (dkh_stream_drain after each scan), one
    // compressed record instead of one per module.
    dkh_write_record_deferred(DKH_RECORD_MODULE, payload, (uint32_t)n);
}

static int scan_callback(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    (void)data;
    uintptr_t start = first_load_start(info);
    for (uint32_t i = 0; i < module_count; i++) {
        module *m = &modules[i];
        if (m->alive && m->bias == info->dlpi_addr && m->first_start == start) {
            m->seen = 1;
            return 0;
        }
    }
    if (module_count >= MAX_MODULES) return 0;
    module *m = &modules[module_count];
    m->bias = info->dlpi_addr;
    m->first_start = start;
    m->id = module_count;
    m->alive = 1;
    m->seen = 1;
    module_count++;
    write_module_record(info, m->id);
    return 0;
}

/// Writes a record for every module loaded since the last call and an unload record for
/// every one that is gone.
void dkh_modules_refresh(void) {
    pthread_mutex_lock(&dkh.module_lock);
    for (uint32_t i = 0; i < module_count; i++) modules[i].seen = 0;
    dl_iterate_phdr(scan_callback, NULL);
    for (uint32_t i = 0; i < module_count; i++) {
        module *m = &modules[i];
        if (m->alive && !m->seen) {
            m->alive = 0;
            uint8_t payload[12];
            dkh_put_u64(payload, dkh_take_global_seq());
            dkh_put_u32(payload + 8, m->id);
            dkh_write_record_deferred(DKH_RECORD_MODULE_UNLOAD, payload, sizeof payload);
        }
    }
    dkh_stream_drain();
    pthread_mutex_unlock(&dkh.module_lock);
}

static int rewrite_callback(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    (void)data;
    uintptr_t start = first_load_start(info);
    for (uint32_t i = 0; i < module_count; i++)
        if (modules[i].alive && modules[i].bias == info->dlpi_addr && modules[i].first_start == start)
            write_module_record(info, modules[i].id);
    return 0;
}

/// A forked child recording to its own file writes the current module map again.
void dkh_modules_rewrite_all(void) {
    pthread_mutex_lock(&dkh.module_lock);
    dl_iterate_phdr(rewrite_callback, NULL);
    dkh_stream_drain();
    pthread_mutex_unlock(&dkh.module_lock);
}

static int self_callback(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    uintptr_t probe = (uintptr_t)data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD) continue;
        uintptr_t start = info->dlpi_addr + ph->p_vaddr, end = start + ph->p_memsz;
        if (probe >= start && probe < end) {
            dkh.self_start = start;
            dkh.self_end = end;
            return 1;
        }
    }
    return 0;
}

/// Finds the executable segment holding the recorder's code: frames there are dropped.
void dkh_find_self(void) { dl_iterate_phdr(self_callback, (void *)(uintptr_t)&dkh_find_self); }
