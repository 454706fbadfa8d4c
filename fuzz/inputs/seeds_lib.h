/* SPDX-License-Identifier: MIT */
/*
 * seeds_lib.h - the input formats of the driver harnesses, and the seed
 * corpora generated from the YAML specs in those formats.
 *
 * Why together: a seed generator that writes an input format and a harness
 * that reads it must never disagree, and the structure-aware mutator edits
 * the same bytes. So each format is defined once, here: its layout, its
 * limits and a parser (static inline, so a harness or the AFL++ mutator
 * library needs nothing else); the writers live in seeds_lib.c with the
 * generation logic, which `wddmkit corpus seed` and `wk_gen_seeds` call.
 *
 * Every format accepts every byte string: fields are read with fixed widths
 * from a cursor that yields zeroes past the end, counts are folded into
 * their ranges, and the harness folds anything that depends on the adapter
 * (buffer sizes) when it runs. fuzz_prog's format is the step-program codec
 * (conform.h, wk_prog_decode).
 */
#ifndef WK_FUZZ_SEEDS_LIB_H
#define WK_FUZZ_SEEDS_LIB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "conformance.h"

/* ------------------------------------------------------------------ */
/* Reading little-endian fields                                         */
/* ------------------------------------------------------------------ */

struct wk_cursor {
    const uint8_t *data;
    size_t size, at;
};

static inline uint64_t wk_cursor_le(struct wk_cursor *c, unsigned bytes)
{
    uint64_t v = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (c->at < c->size && c->size - c->at >= 8) { /* one load, masked: parsing is per input (fuzz speed) */
        memcpy(&v, c->data + c->at, 8);
        c->at += bytes;
        return bytes >= 8 ? v : v & ((1ull << (8 * bytes)) - 1);
    }
#endif
    for (unsigned i = 0; i < bytes; i++, c->at++)
        if (c->at < c->size)
            v |= (uint64_t)c->data[c->at] << (8 * i);
    return v;
}

/* The bytes left from the cursor (none when it is past the end). */
static inline size_t wk_cursor_left(const struct wk_cursor *c)
{
    return c->at < c->size ? c->size - c->at : 0;
}

/* Where the cursor points (NULL past the end or for an empty input). */
static inline const uint8_t *wk_cursor_here(const struct wk_cursor *c)
{
    return c->at < c->size ? c->data + c->at : NULL;
}

/* ------------------------------------------------------------------ */
/* fuzz_render                                                          */
/* ------------------------------------------------------------------ */

/*
 *   u8  flags          bit0 no_prepatch_info, bit1 render on the GDI context
 *   u8  list_length    folded to 0..WK_RENDER_MAX_LIST (and by the harness
 *                      to the context's AllocationListSize)
 *   u8  patch_length   user patch-location list entries, 0..WK_RENDER_MAX_PATCH
 *   u8  reserved
 *   list_length  x u8  bits 0-2 the allocation slot (0: a NULL entry, 1..7
 *                      the pre-created allocations of wk_render_slots), bit 7
 *                      WriteOperation
 *   patch_length x 24  a raw D3DDDI_PATCHLOCATIONLIST entry
 *   the rest           the user command buffer, raw (the wddmkit/umd.h
 *                      format when well formed), at most WK_RENDER_MAX_COMMAND
 */
#define WK_RENDER_HEADER 4u
#define WK_RENDER_MAX_LIST 32u
#define WK_RENDER_MAX_PATCH 32u
#define WK_RENDER_PATCH_ENTRY 24u
#define WK_RENDER_MAX_COMMAND 16384u
#define WK_RENDER_SLOTS 7u
#define WK_RENDER_NO_PREPATCH 0x1u
#define WK_RENDER_GDI 0x2u
#define WK_RENDER_WRITE 0x80u

/* The allocations fuzz_render creates once, by slot (1-based): size, the
 * segment preferred (0: none) and the supported set (0: every segment). */
struct wk_render_slot {
    uint32_t size;
    uint32_t segment;
    uint32_t supported;
};

static const struct wk_render_slot wk_render_slots[WK_RENDER_SLOTS + 1] = {
    { 0, 0, 0 },
    { 4096, 1, 0 },        /* small, memory segment 1 */
    { 65536, 2, 0 },       /* banked segment 2 */
    { 16384, 3, 0x4 },     /* aperture only */
    { 8192, 1, 0 },
    { 131072, 0, 0 },      /* large, anywhere */
    { 4096, 2, 0x2 },      /* segment 2 only */
    { 32768, 0, 0x3 },     /* either memory segment */
};

struct wk_render_input {
    uint32_t flags;
    uint32_t list_length;
    uint8_t list[WK_RENDER_MAX_LIST];         /* slot | WK_RENDER_WRITE */
    uint32_t patch_length;
    const uint8_t *patch;                     /* patch_length x 24 bytes, */
    size_t patch_bytes;                       /* of which these are present */
    const uint8_t *command;
    size_t command_length;
};

static inline void wk_render_parse(const uint8_t *data, size_t size, struct wk_render_input *in)
{
    struct wk_cursor c = { data, size, 0 };
    memset(in, 0, sizeof(*in));
    in->flags = (uint32_t)wk_cursor_le(&c, 1);
    in->list_length = (uint32_t)wk_cursor_le(&c, 1) % (WK_RENDER_MAX_LIST + 1);
    in->patch_length = (uint32_t)wk_cursor_le(&c, 1) % (WK_RENDER_MAX_PATCH + 1);
    wk_cursor_le(&c, 1);
    for (uint32_t i = 0; i < in->list_length; i++)
        in->list[i] = (uint8_t)wk_cursor_le(&c, 1);
    in->patch = wk_cursor_here(&c);
    size_t want = (size_t)in->patch_length * WK_RENDER_PATCH_ENTRY;
    in->patch_bytes = wk_cursor_left(&c) < want ? wk_cursor_left(&c) : want;
    c.at += want;
    in->command = wk_cursor_here(&c);
    in->command_length = wk_cursor_left(&c);
    if (in->command_length > WK_RENDER_MAX_COMMAND)
        in->command_length = WK_RENDER_MAX_COMMAND;
}

/*
 * What the harness does with a parsed input on a context with these list
 * sizes (DXGK_CONTEXTINFO AllocationListSize, PatchLocationListSize): the
 * lists are cut to what the context takes, as the kernel sizes them for
 * Render (facts 4.7). The step-program conversion (conform.h,
 * wk_render_input_to_prog) folds with this too, so a program replays
 * exactly what the harness ran.
 */
static inline void wk_render_fold(struct wk_render_input *in, uint32_t list_size, uint32_t patch_size)
{
    in->list_length = in->list_length < list_size ? in->list_length : list_size;
    in->patch_length = in->patch_length < patch_size ? in->patch_length : patch_size;
    size_t patch_bytes = (size_t)in->patch_length * WK_RENDER_PATCH_ENTRY;
    in->patch_bytes = in->patch_bytes < patch_bytes ? in->patch_bytes : patch_bytes;
}

/* The i-th user patch-location entry as user mode wrote it (little-endian,
 * D3DDDI_PATCHLOCATIONLIST's order; bytes past the input are zero). */
static inline void wk_render_patch_entry(const struct wk_render_input *in, uint32_t i, uint32_t field[6])
{
    struct wk_cursor c = { in->patch, in->patch_bytes, (size_t)i * WK_RENDER_PATCH_ENTRY };
    for (int k = 0; k < 6; k++)
        field[k] = (uint32_t)wk_cursor_le(&c, 4);
}

/* ------------------------------------------------------------------ */
/* fuzz_patch                                                           */
/* ------------------------------------------------------------------ */

/*
 *   u8  list_length    folded to 0..WK_PATCH_MAX_LIST
 *   u8  patch_length   folded to 0..WK_PATCH_MAX_PATCH
 *   u16 end            DmaBufferSubmissionEndOffset, folded by the harness
 *                      into [0, DMA buffer size]
 *   u16 start          DmaBufferSubmissionStartOffset, folded into [0, end]
 *   u8  patch_start    PatchLocationListSubmissionStart, folded into [0, patch_length]
 *   u8  patch_count    PatchLocationListSubmissionLength, folded into what is left
 *   list_length x 10:  u8 handle (0: NULL, 1..7 a pre-created allocation's
 *                      driver handle), u8 bits 0-4 SegmentId, bit 5
 *                      WriteOperation, u64 PhysicalAddress
 *   patch_length x 12: u8 AllocationIndex, u8 bit 0 "PatchOffset counts down
 *                      from 0xFFFFFFFF" (wrap-around), bits 1-7 SlotId,
 *                      u16 PatchOffset, u32 AllocationOffset, u16 SplitOffset,
 *                      u16 DriverId
 *   the rest           the DMA buffer's first bytes (at most its size)
 */
#define WK_PATCH_HEADER 8u
#define WK_PATCH_MAX_LIST 16u
#define WK_PATCH_MAX_PATCH 32u
#define WK_PATCH_LIST_ENTRY 10u
#define WK_PATCH_PATCH_ENTRY 12u
#define WK_PATCH_WRAP 0x1u

struct wk_patch_list_entry {
    uint32_t handle;          /* 0..7 */
    uint32_t segment_id;      /* 0..31 */
    int write;
    uint64_t physical_address;
};

struct wk_patch_entry {
    uint32_t allocation_index;
    uint32_t slot_id;
    uint32_t patch_offset;
    uint32_t allocation_offset;
    uint32_t split_offset;
    uint32_t driver_id;
};

struct wk_patch_input {
    uint32_t list_length, patch_length;
    uint32_t start, end;                       /* raw; the harness folds them */
    uint32_t patch_start, patch_count;         /* folded */
    struct wk_patch_list_entry list[WK_PATCH_MAX_LIST];
    struct wk_patch_entry patch[WK_PATCH_MAX_PATCH];
    const uint8_t *dma;
    size_t dma_length;
};

static inline void wk_patch_parse(const uint8_t *data, size_t size, struct wk_patch_input *in)
{
    struct wk_cursor c = { data, size, 0 };
    /* No memset of the whole input (1.3 KiB, per fuzz input): every field
     * below is set, and nothing reads an entry past its list's length. */
    in->list_length = (uint32_t)wk_cursor_le(&c, 1) % (WK_PATCH_MAX_LIST + 1);
    in->patch_length = (uint32_t)wk_cursor_le(&c, 1) % (WK_PATCH_MAX_PATCH + 1);
    in->end = (uint32_t)wk_cursor_le(&c, 2);
    in->start = (uint32_t)wk_cursor_le(&c, 2);
    in->patch_start = (uint32_t)wk_cursor_le(&c, 1) % (in->patch_length + 1);
    in->patch_count = (uint32_t)wk_cursor_le(&c, 1) % (in->patch_length - in->patch_start + 1);
    for (uint32_t i = 0; i < in->list_length; i++) {
        struct wk_patch_list_entry *e = &in->list[i];
        e->handle = (uint32_t)wk_cursor_le(&c, 1) % 8;
        uint32_t seg = (uint32_t)wk_cursor_le(&c, 1);
        e->segment_id = seg & 0x1F;
        e->write = (seg >> 5) & 1;
        e->physical_address = wk_cursor_le(&c, 8);
    }
    for (uint32_t i = 0; i < in->patch_length; i++) {
        struct wk_patch_entry *p = &in->patch[i];
        p->allocation_index = (uint32_t)wk_cursor_le(&c, 1);
        uint32_t mode = (uint32_t)wk_cursor_le(&c, 1);
        p->slot_id = mode >> 1;
        p->patch_offset = (uint32_t)wk_cursor_le(&c, 2);
        if (mode & WK_PATCH_WRAP)
            p->patch_offset = 0xFFFFFFFFu - p->patch_offset;
        p->allocation_offset = (uint32_t)wk_cursor_le(&c, 4);
        p->split_offset = (uint32_t)wk_cursor_le(&c, 2);
        p->driver_id = (uint32_t)wk_cursor_le(&c, 2);
    }
    in->dma = wk_cursor_here(&c);
    in->dma_length = wk_cursor_left(&c);
}

/* Whether the kit's PATCH-VALUE-001 check judges entry i (its index in the
 * list, its 8-byte slot inside [start, end), its allocation with a SegmentId). */
static inline int wk_patch_judged(const struct wk_patch_input *in, uint32_t i)
{
    const struct wk_patch_entry *p = &in->patch[i];
    return p->allocation_index < in->list_length && p->patch_offset >= in->start &&
           (uint64_t)p->patch_offset + 8 <= in->end && in->list[p->allocation_index].segment_id != 0;
}

/* Where the GPU has patch slots (wk_vidmm_patch_slots): a slot starts at a
 * multiple of `align` and is `bytes` wide. The kit's GPU: { 1, 8 }. */
struct wk_patch_slots {
    uint32_t align, bytes;
};
#define WK_PATCH_SLOTS_KIT ((struct wk_patch_slots){ 1, 8 })

/* Whether a correct driver writes entry i: its index in the list and its
 * slot, `bytes` wide, inside [start, end) (the segment aside: a driver
 * may write an entry of SegmentId 0 too, the kit just does not judge it). */
static inline int wk_patch_written(const struct wk_patch_input *in, uint32_t i, uint32_t bytes)
{
    const struct wk_patch_entry *p = &in->patch[i];
    return p->allocation_index < in->list_length && p->patch_offset >= in->start &&
           (uint64_t)p->patch_offset + bytes <= in->end;
}

/* Each PatchOffset rounded down to where a slot can start. A command
 * processor may have no slot between two (Heron: dwords), and an offset
 * there asks for a slot no correct driver can fill (the correct Heron
 * miniport failed PATCH-VALUE-001, "holds no address the hardware
 * decodes"); but Finch F1's 5-byte slots sit at packet offsets 2 and 7,
 * and rounding to dwords made slots that do not exist (outsider 7). */
static inline void wk_patch_align(struct wk_patch_input *in, uint32_t align)
{
    if (align <= 1)
        return;
    for (uint32_t i = 0; i < in->patch_length; i++)
        in->patch[i].patch_offset -= in->patch[i].patch_offset % align;
}

/* The entries of the submission made overlap-free: Windows patches only
 * lists the driver's own Render wrote, whose slots never overlap (each
 * holds one operand), so no correct driver was ever asked for two values
 * in one place, or in either order. Of two entries a correct driver may
 * write whose `bytes`-wide slots overlap, the later one gets an
 * AllocationIndex past the list: a bad entry, which Patch must skip (the
 * input keeps its shape). Also an entry the kit would judge but whose slot
 * runs past `end` (a slot wider than the kit's 8 bytes): a correct driver
 * skips it. The overlap counted only the entries the kit judges, 8 bytes
 * wide: with Finch F1's 5-byte slots an entry at +4 the kit did not judge
 * (4 + 8 > end 11) was written over byte 4 of the one at +0, and the
 * correct driver failed PATCH-VALUE-001 (outsider 7). */
static inline void wk_patch_unoverlap(struct wk_patch_input *in, uint32_t bytes)
{
    uint8_t kept[WK_PATCH_MAX_PATCH]; /* of the entries before i, as adjusted (once each, not per pair) */
    for (uint32_t i = in->patch_start; i < in->patch_start + in->patch_count; i++) {
        kept[i] = (uint8_t)wk_patch_written(in, i, bytes);
        if (!kept[i]) {
            if (wk_patch_judged(in, i))
                in->patch[i].allocation_index = in->list_length + i;
            continue;
        }
        for (uint32_t j = in->patch_start; j < i; j++) {
            uint32_t a = in->patch[i].patch_offset, b = in->patch[j].patch_offset;
            if (kept[j] && (a > b ? a - b : b - a) < bytes) {
                in->patch[i].allocation_index = in->list_length + i;
                kept[i] = 0;
                break;
            }
        }
    }
}

/*
 * What fuzz_patch does to a parsed input before calling Patch, for a
 * context whose DMA buffer holds `dma_size` bytes and whose patch-location
 * list `patch_size` entries, on a GPU with `slots`: every PatchOffset
 * rounded down to a slot's start (wk_patch_align), every range folded into
 * the buffers (so no input is wasted on a kit-side rejection), and the
 * submission's entries made overlap-free (wk_patch_unoverlap).
 * Afterwards `patch_length`, `start`, `end`, `patch_start`, `patch_count`
 * and `dma_length` are what Patch is handed. The step-program conversion
 * (conform.h, wk_patch_input_to_prog) folds with this too, so a program
 * replays exactly what the harness ran.
 */
static inline void wk_patch_fold(struct wk_patch_input *in, uint32_t dma_size, uint32_t patch_size,
                                 struct wk_patch_slots slots)
{
    wk_patch_align(in, slots.align);
    in->dma_length = in->dma_length < dma_size ? in->dma_length : dma_size;
    in->patch_length = in->patch_length < patch_size ? in->patch_length : patch_size;
    in->end = (uint32_t)(in->end % ((uint64_t)dma_size + 1));
    in->start = (uint32_t)(in->start % ((uint64_t)in->end + 1));
    in->patch_start = in->patch_start < in->patch_length ? in->patch_start : in->patch_length;
    if (in->patch_count > in->patch_length - in->patch_start)
        in->patch_count = in->patch_length - in->patch_start;
    wk_patch_unoverlap(in, slots.bytes);
}

/* ------------------------------------------------------------------ */
/* fuzz_paging                                                          */
/* ------------------------------------------------------------------ */

/*
 *   u8  paging buffer  index into wk_paging_buffer_sizes (modulo)
 *   u8  chunk          transfer chunk in pages, modulo WK_PAGING_MAX_CHUNK + 1 (0: whole)
 *   u8  allocations    folded to 1..WK_PAGING_MAX_ALLOCS
 *   u8  reserved
 *   allocations x 4:   u8 template (modulo WK_PAGING_TEMPLATES), u8 pages
 *                      (1 + value % WK_PAGING_MAX_PAGES), u8 hinted bank
 *                      (0: none, else 1 + value % 4), u8 flags (bit 0
 *                      CpuVisible)
 *   then operations x 4, up to WK_PAGING_MAX_OPS: u8 kind (modulo
 *                      WK_PAGING_OP_COUNT), u8 allocation (modulo the count),
 *                      u16 argument
 */
#define WK_PAGING_HEADER 4u
#define WK_PAGING_MAX_ALLOCS 4u
#define WK_PAGING_MAX_PAGES 16u
#define WK_PAGING_MAX_CHUNK 4u
#define WK_PAGING_MAX_OPS 48u
#define WK_PAGING_TEMPLATES 6u

/* From the smallest buffer that holds the largest paging command (COPY, 28
 * bytes) upward; 0 is the driver's own PagingBufferSize. */
static const uint32_t wk_paging_buffer_sizes[] = { 0, 28, 32, 40, 48, 64, 96, 128, 256, 1024, 4096 };
#define WK_PAGING_BUFFER_SIZES ((uint32_t)(sizeof(wk_paging_buffer_sizes) / sizeof(wk_paging_buffer_sizes[0])))

/* Allocation templates: preferred segment(s) and segment sets. */
struct wk_paging_template {
    uint32_t preferred;       /* D3DDDI_SEGMENTPREFERENCE value */
    uint32_t supported;       /* 0: every segment */
    uint32_t eviction;
};

static const struct wk_paging_template wk_paging_templates[WK_PAGING_TEMPLATES] = {
    { 1u, 0, 0 },                          /* segment 1 */
    { 2u, 0, 0 },                          /* banked segment 2 */
    { 3u, 0x4, 0x4 },                      /* aperture only */
    { 0, 0, 0 },                           /* no preference */
    { 1u | (1u << 5) | (2u << 6), 0x3, 0 }, /* segment 1 top-down, then 2 */
    { 2u | (1u << 5), 0x2, 0 },            /* segment 2 only, top-down */
};

/* The operations, in kind order. */
#define WK_PAGING_OP_MAP(X)                   \
    X(WK_PAGING_OP_PAGE_IN, "page_in")        \
    X(WK_PAGING_OP_EVICT, "evict")            \
    X(WK_PAGING_OP_FILL, "fill")              \
    X(WK_PAGING_OP_RELOCATE, "relocate")      \
    X(WK_PAGING_OP_DISCARD, "discard")        \
    X(WK_PAGING_OP_LOCK, "special_lock_transfer") \
    X(WK_PAGING_OP_TOUCH, "touch_physical")   \
    X(WK_PAGING_OP_FENCE, "signal_fence")     \
    X(WK_PAGING_OP_WRITE, "write")

enum wk_paging_op {
#define WK_PAGING_OP_ENUM_(name, kw) name,
    WK_PAGING_OP_MAP(WK_PAGING_OP_ENUM_)
#undef WK_PAGING_OP_ENUM_
    WK_PAGING_OP_COUNT
};

struct wk_paging_alloc {
    uint32_t template_index, pages, bank, flags;
};

struct wk_paging_op_in {
    uint32_t kind, allocation, arg;
};

struct wk_paging_input {
    uint32_t paging_buffer_size;
    uint64_t transfer_chunk;
    uint32_t alloc_count;
    struct wk_paging_alloc allocs[WK_PAGING_MAX_ALLOCS];
    uint32_t op_count;
    struct wk_paging_op_in ops[WK_PAGING_MAX_OPS];
};

static inline void wk_paging_parse(const uint8_t *data, size_t size, struct wk_paging_input *in)
{
    struct wk_cursor c = { data, size, 0 };
    memset(in, 0, sizeof(*in));
    in->paging_buffer_size = wk_paging_buffer_sizes[wk_cursor_le(&c, 1) % WK_PAGING_BUFFER_SIZES];
    in->transfer_chunk = (wk_cursor_le(&c, 1) % (WK_PAGING_MAX_CHUNK + 1)) * 4096u;
    in->alloc_count = 1 + (uint32_t)wk_cursor_le(&c, 1) % WK_PAGING_MAX_ALLOCS;
    wk_cursor_le(&c, 1);
    for (uint32_t i = 0; i < in->alloc_count; i++) {
        struct wk_paging_alloc *a = &in->allocs[i];
        a->template_index = (uint32_t)wk_cursor_le(&c, 1) % WK_PAGING_TEMPLATES;
        a->pages = 1 + (uint32_t)wk_cursor_le(&c, 1) % WK_PAGING_MAX_PAGES;
        uint32_t bank = (uint32_t)wk_cursor_le(&c, 1);
        a->bank = bank ? 1 + bank % 4 : 0;
        a->flags = (uint32_t)wk_cursor_le(&c, 1) & 1;
    }
    while (in->op_count < WK_PAGING_MAX_OPS && wk_cursor_left(&c) > 0) {
        struct wk_paging_op_in *o = &in->ops[in->op_count++];
        o->kind = (uint32_t)wk_cursor_le(&c, 1) % WK_PAGING_OP_COUNT;
        o->allocation = (uint32_t)wk_cursor_le(&c, 1) % in->alloc_count;
        o->arg = (uint32_t)wk_cursor_le(&c, 2);
    }
}

/* ------------------------------------------------------------------ */
/* Writers and seed generation (seeds_lib.c)                            */
/* ------------------------------------------------------------------ */

/* A growable byte buffer the writers append to. */
struct wk_bytes {
    uint8_t *data;
    size_t size, cap;
    int failed;               /* out of memory: the content is incomplete */
};

void wk_bytes_put(struct wk_bytes *b, uint64_t v, unsigned bytes);
void wk_bytes_append(struct wk_bytes *b, const void *p, size_t n);
void wk_bytes_free(struct wk_bytes *b);


/* The harnesses wk_seeds_generate writes seeds for, NULL-terminated. */
extern const char *const wk_seeded_harnesses[];

/*
 * Writes the seed corpora of the driver harnesses from every case of
 * the specs in `specs_dir` into `out_dir`/<harness>/seeds/ (folders created
 * as needed; existing files of the same name are replaced):
 *   fuzz_prog    every case, rewrite stripped, encoded with wk_prog_encode,
 *                named <case id>.bin;
 *   fuzz_hostile every negative case, its rewrite (answer corruption) and
 *                the rule it trips kept, <case id>.bin;
 *   fuzz_render  every render step, as seen by the reference driver (its
 *                command buffer, list and the case's allocations mapped to
 *                the harness's slots), <case id>.<step>.bin;
 *   fuzz_patch   every DxgkDdiPatch the reference driver receives while
 *                the case runs (DMA buffer, lists and ranges), <case id>.<n>.bin;
 *   fuzz_paging  the paging steps of every case that has some, with its
 *                allocations mapped to templates, <case id>.bin.
 * Progress and problems go to `log` (may be NULL). Returns the number of
 * files written, or -1 when the specs do not load or a file cannot be
 * written.
 */
long wk_seeds_generate(const char *specs_dir, const char *out_dir, FILE *log);

/*
 * Whether the seed corpora under `corpus_dir` are what the specs give now:
 * generates them into `scratch_dir` (its seed folders are emptied first)
 * and compares the *.bin files of each seed folder. Each difference is one
 * line on `log`: "PATH: missing (a spec gives it)", "PATH: no spec gives
 * it" or "PATH: differs from what the specs give", PATH in corpus_dir.
 * Returns the number of differences (0: current), or -1 as
 * wk_seeds_generate.
 */
long wk_seeds_check(const char *specs_dir, const char *corpus_dir, const char *scratch_dir, FILE *log);

/* wk_seeds_check in a scratch folder of its own under $TMPDIR (else /tmp),
 * removed afterwards; -1 also when it cannot be made (said on `log`). */
long wk_seeds_check_fresh(const char *specs_dir, const char *corpus_dir, FILE *log);

/*
 * `wddmkit corpus upgrade` (upgrade.c): every *.bin of
 * corpus_dir/<harness>/{seeds,regressions}/ for the harnesses whose inputs
 * are step programs (fuzz_prog, fuzz_hostile), rewritten in the current
 * binary format as the encoding of its decoding (the same program). With
 * check_only nothing is written and each older file is named on `log`.
 * Returns how many files were (or would be) rewritten, -1 when a file or
 * folder could not be read or written (said on `log`; the others are
 * still done).
 */
long wk_corpus_upgrade(const char *corpus_dir, int check_only, FILE *log);

#endif
