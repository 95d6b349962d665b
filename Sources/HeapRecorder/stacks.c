// Interning of call stacks: each unique stack is written once, as a DKH_RECORD_STACK, and
// events name it by id. A per-thread direct-mapped cache answers repeats without the lock.
#include "recorder_internal.h"

#include <string.h>
#include <sys/mman.h>

/// Open-addressing table of interned stacks. Sizes are fixed and reserved (not committed) up
/// front with MAP_NORESERVE, so the table never moves and readers of interned frames need no
/// lock: frames are written once, before their entry is published.
#define TABLE_BITS 22
#define TABLE_SIZE (1u << TABLE_BITS)
#define MAX_STACKS (TABLE_SIZE / 4 * 3)
#define FRAME_ARENA_BYTES ((size_t)1 << 30)

typedef struct table_entry {
    uint64_t hash;
    uint64_t frame_offset;  // index into frames arena
    uint32_t id;            // 0 = empty
    uint32_t depth;
} table_entry;

static table_entry *table;
static uint64_t *frame_arena;
static size_t frames_used;
static uint32_t next_id = 1;

static void *reserve(size_t size) {
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void dkh_stacks_init(void) {
    table = reserve(sizeof(table_entry) * TABLE_SIZE);
    frame_arena = reserve(FRAME_ARENA_BYTES);
}

static uint64_t hash_frames(const uint64_t *frames, uint32_t depth) {
    uint64_t h = DKH_STACK_HASH_START;
    for (uint32_t i = 0; i < depth; i++) h = dkh_stack_hash_step(h, frames[i]);
    return dkh_stack_hash_end(h, depth);
}

/// A STACK record, deferred to the stream's next write (compress.c): the events that name it
/// are written after it is interned, so in that write or a later one.
static void write_stack_record(uint32_t id, const uint64_t *frames, uint32_t depth) {
    if (dkh.fd < 0) return;
    uint8_t record[DKH_RECORD_HEADER_SIZE + 8 + 8 * DKH_MAX_STACK_DEPTH];
    dkh_put_u32(record, DKH_RECORD_STACK);
    dkh_put_u32(record + 4, 8 + 8 * depth);
    uint8_t *payload = record + DKH_RECORD_HEADER_SIZE;
    dkh_put_u32(payload, id);
    dkh_put_u32(payload + 4, depth);
    for (uint32_t i = 0; i < depth; i++) dkh_put_u64(payload + 8 + 8 * i, frames[i]);
    dkh_write_deferred(record, DKH_RECORD_HEADER_SIZE + 8 + 8 * depth);
}

/// The id of `frames` (innermost first), interning it on first sight. 0 when the table is
/// full or unavailable: the reader shows such events under an unknown stack.
uint32_t dkh_intern_stack(dkh_thread *t, const uint64_t *frames, uint32_t depth) {
    return dkh_intern_stack_hashed(t, frames, depth, hash_frames(frames, depth));
}

uint32_t dkh_intern_stack_hashed(dkh_thread *t, const uint64_t *frames, uint32_t depth, uint64_t hash) {
    if (!table || !frame_arena) return 0;
    dkh_stack_cache_entry *c = &t->cache[hash & (DKH_STACK_CACHE_SIZE - 1)];
    if (c->hash == hash && c->depth == depth && memcmp(c->frames, frames, depth * 8) == 0) return c->id;

    pthread_mutex_lock(&dkh.stack_lock);
    uint32_t id = 0;
    const uint64_t *stored = NULL;
    for (uint32_t slot = (uint32_t)hash & (TABLE_SIZE - 1);; slot = (slot + 1) & (TABLE_SIZE - 1)) {
        table_entry *e = &table[slot];
        if (e->id == 0) {
            if (next_id >= MAX_STACKS || (frames_used + depth) * 8 > FRAME_ARENA_BYTES) break;
            uint64_t *dest = frame_arena + frames_used;
            memcpy(dest, frames, depth * 8);
            e->hash = hash;
            e->frame_offset = frames_used;
            e->depth = depth;
            e->id = next_id++;
            frames_used += depth;
            id = e->id;
            stored = dest;
            write_stack_record(id, frames, depth);
            break;
        }
        if (e->hash == hash && e->depth == depth &&
            memcmp(frame_arena + e->frame_offset, frames, depth * 8) == 0) {
            id = e->id;
            stored = frame_arena + e->frame_offset;
            break;
        }
    }
    pthread_mutex_unlock(&dkh.stack_lock);
    if (id) {
        c->hash = hash;
        c->depth = depth;
        c->frames = stored;
        c->id = id;
    }
    return id;
}

/// A forked child that records to its own file writes every known stack again.
void dkh_stacks_rewrite_all(void) {
    if (!table) return;
    for (uint32_t slot = 0; slot < TABLE_SIZE; slot++) {
        table_entry *e = &table[slot];
        if (e->id) write_stack_record(e->id, frame_arena + e->frame_offset, e->depth);
    }
}
