/* SPDX-License-Identifier: MIT */
/*
 * prog_codec.c - the binary form of a step program: what fuzz inputs decode
 * into and what crash files and seed corpora are stored as.
 *
 * Decoding accepts EVERY byte string: fields are read with fixed widths from
 * a cursor that yields zeroes past the end, and every value is then folded
 * into its documented range (kinds modulo their count, counts and sizes
 * clamped to the program limits; object indices are kept as they come: a
 * reference to an object that does not exist is a valid step whose result is
 * NOT_FOUND). A fuzzer never wastes an input on a parse error, and any prefix
 * of an input is the prefix of the program.
 *
 * One walker serves both directions (each field is visited by the same code
 * when reading and when writing), so encoding is the exact inverse of
 * decoding for every program within the limits: decode(encode(p)) == p.
 * `wddmkit promote` and the structure-aware mutator rely on that.
 *
 * Layout (little-endian), docs/fuzzing.md "Program format":
 *   u8 version (5; 4, 3 and 2 read as those, whose steps knew kinds up
 *      to end_process (4) or move_root_table (3 and 2), a version-2 one
 *      with no process; any other byte reads as 1, the layout of every
 *      file written before version 2: walk_adapter)
 *   u8 knobs (bit0 split_submissions, bit1 QUERYSEGMENT4,
 *             bit2 an adapter block follows: walk_adapter,
 *             bit3 grown_patch_list,
 *             bit4 (version 2) a u32 first fence id follows: walk_first_fence,
 *             bit5 (version 2) move_before_patch)
 *   u16 paging_buffer_size (0: the driver's)  u16 transfer_chunk in pages
 *   u8 mutation (catalogue index + 1, 0: none)  u8 call  u32 param
 *   u8 trips (rule index + 1)  [adapter block]  [u32 first fence]  u8 step_count
 *   per step: u8 kind, u8 status code, then the kind's fields (version
 *   3: create_device, va_map, va_unmap, expect_va and move_root_table end
 *   with a u8 process: walk_process; version 4: end_process is a u8
 *   process; version 5: queue is a u8, its count in bits 0-6 and
 *   interrupts: each in bit 7; submit_virtual's u8 op holds its
 *   enum wk_prog_va_fault in bits 4-7, clear in every file written before
 *   the key existed).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "conform.h"

/* The cursor: reads (r != NULL) or writes; reads past the end give zero,
 * writes past the capacity are counted but dropped. */
struct io {
    const uint8_t *in;
    uint8_t *out;
    size_t size, at;
    int reading;
    uint32_t version;            /* the format being read (written: always the current one) */
};

#define FORMAT_VERSION 5u        /* what the encoder writes */
#define STEP_KINDS_V1 27u        /* the step kinds a version-1 program knew */
#define STEP_KINDS_V2 33u        /* ... and a version-2 one (up to move_root_table) */
#define STEP_KINDS_V3 33u        /* ... and a version-3 one (the same) */
#define STEP_KINDS_V4 34u        /* ... and a version-4 one (up to end_process) */
#define PAGING_OPS 18u           /* DXGK_BUILDPAGINGBUFFER_OPERATION values (wk_paging_op_words) */

static uint64_t io_le(struct io *io, uint64_t v, unsigned bytes)
{
    uint64_t got = 0;
    for (unsigned i = 0; i < bytes; i++, io->at++) {
        if (io->reading && io->at < io->size)
            got |= (uint64_t)io->in[io->at] << (8 * i);
        else if (!io->reading && io->at < io->size)
            io->out[io->at] = (uint8_t)(v >> (8 * i));
    }
    return io->reading ? got : v;
}

static void f8(struct io *io, uint32_t *v) { *v = (uint32_t)io_le(io, *v, 1); }
static void f16(struct io *io, uint32_t *v) { *v = (uint32_t)io_le(io, *v, 2); }
static void f32(struct io *io, uint32_t *v) { *v = (uint32_t)io_le(io, *v, 4); }
static void f64(struct io *io, uint64_t *v) { *v = io_le(io, *v, 8); }

static void fint(struct io *io, int *v)
{
    uint32_t x = *v ? 1 : 0;
    f8(io, &x);
    *v = (int)(x & 1);
}

static void fbytes(struct io *io, uint8_t *b, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        b[i] = (uint8_t)io_le(io, b[i], 1);
}

/* Statuses a step may expect, by code (the status enum has gaps). */
static const wk_status status_codes[] = {
    WK_OK, WK_E_CONTRACT, WK_E_DRIVER_FAILED, WK_E_NOT_FOUND, WK_E_NO_SPACE, WK_E_NOT_SUPPORTED,
    WK_E_DEAD, WK_E_INVALID_ARGUMENT, WK_E_LIMIT, WK_E_OUT_OF_RANGE, WK_E_STATE, WK_E_DRIVER_CRASH,
    WK_E_DRIVER_HANG,
};
#define STATUS_CODES ((uint32_t)(sizeof(status_codes) / sizeof(status_codes[0])))

static void fstatus(struct io *io, wk_status *st)
{
    uint32_t code = 0;
    for (uint32_t i = 0; !io->reading && i < STATUS_CODES; i++)
        if (status_codes[i] == *st)
            code = i;
    f8(io, &code);
    *st = status_codes[code % STATUS_CODES];
}

static uint32_t clamp32(uint32_t v, uint32_t hi)
{
    return v > hi ? hi : v;
}

/* ------------------------------------------------------------------ */
/* Render payloads                                                      */
/* ------------------------------------------------------------------ */

static void walk_record(struct io *io, struct wk_prog_record *c)
{
    f8(io, &c->op);
    c->op %= WK_USER_OP_COUNT;
    f8(io, &c->src.list_index);
    f32(io, &c->src.offset);
    f8(io, &c->dst.list_index);
    f32(io, &c->dst.offset);
    f32(io, &c->size);
    f32(io, &c->value);
    f16(io, &c->width);
    f16(io, &c->height);
    f32(io, &c->src_pitch);
    f32(io, &c->dst_pitch);
}

/* Limits of render steps written before the wide form existed: a file
 * without the wide bit decodes as it always did (committed corpora). */
#define NARROW_LIST 16u
#define NARROW_RAW 512u
#define RENDER_WIDE 4u           /* flags bit 2: the wide form */

static void walk_location(struct io *io, struct wk_prog_patch_location *l);

/* The wide form is written only when a render needs it: a longer list or
 * command buffer, or a user patch-location list (fuzz_render's inputs). */
static int needs_wide(const struct wk_prog_render *g)
{
    return g->list_length > NARROW_LIST || (g->raw && g->raw_length > NARROW_RAW) || g->patch_length > 0;
}

/* pPatchLocationListIn: u8 count, then per entry the six fields and the
 * 8 reserved bits above SlotId, as user mode may set them. */
static void walk_user_patches(struct io *io, struct wk_prog_render *g)
{
    f8(io, &g->patch_length);
    g->patch_length = clamp32(g->patch_length, WK_PROG_MAX_USER_PATCHES);
    for (uint32_t i = 0; i < g->patch_length; i++) {
        walk_location(io, &g->patch[i]);
        f8(io, &g->patch[i].reserved);
    }
}

static void walk_render(struct io *io, struct wk_prog_render *g)
{
    uint32_t flags = (g->no_prepatch_info ? 1u : 0u) | (g->raw ? 2u : 0u) | (needs_wide(g) ? RENDER_WIDE : 0u);
    f8(io, &g->context);
    f8(io, &flags);
    g->no_prepatch_info = flags & 1;
    g->raw = (flags >> 1) & 1;
    int wide = (flags & RENDER_WIDE) != 0;
    f8(io, &g->list_length);
    g->list_length = clamp32(g->list_length, wide ? WK_PROG_MAX_LIST : NARROW_LIST);
    for (uint32_t i = 0; i < g->list_length; i++) {
        uint32_t wr = g->list_write[i];
        f8(io, &g->list_alloc[i]);
        f8(io, &wr);
        g->list_write[i] = (uint8_t)(wr & 1);
    }
    if (wide)
        walk_user_patches(io, g);
    if (g->raw) {
        f16(io, &g->raw_length);
        g->raw_length = clamp32(g->raw_length, wide ? WK_PROG_MAX_COMMAND : NARROW_RAW);
        fbytes(io, g->raw_bytes, g->raw_length);
        return;
    }
    f8(io, &g->record_count);
    g->record_count = clamp32(g->record_count, WK_PROG_MAX_RECORDS);
    for (uint32_t i = 0; i < g->record_count; i++)
        walk_record(io, &g->records[i]);
}

/* ------------------------------------------------------------------ */
/* Patch payloads                                                       */
/* ------------------------------------------------------------------ */

static void walk_patch_entry(struct io *io, struct wk_prog_patch_entry *e)
{
    uint32_t flags = (e->write ? 1u : 0u) | (e->resident ? 2u : 0u);
    f8(io, &e->allocation);
    f8(io, &flags);
    f8(io, &e->segment_id);
    f64(io, &e->address);
    e->write = flags & 1;
    e->resident = (flags >> 1) & 1;
    e->segment_id &= 0x1F; /* DXGK_ALLOCATIONLIST.SegmentId is 5 bits */
}

static void walk_location(struct io *io, struct wk_prog_patch_location *l)
{
    f32(io, &l->allocation_index);
    f32(io, &l->slot_id);
    l->slot_id &= 0xFFFFFF; /* D3DDDI_PATCHLOCATIONLIST.SlotId is 24 bits */
    f32(io, &l->driver_id);
    f32(io, &l->allocation_offset);
    f32(io, &l->patch_offset);
    f32(io, &l->split_offset);
}

/* Bit 7 of a patch step's location count: each location is followed by
 * the reserved byte above its SlotId. Patch steps stored before the bit
 * existed never set it in the files we keep (every committed corpus file
 * decodes as before), and the encoder sets it only when some location's
 * reserved bits are not 0, so those steps still encode to the same bytes. */
#define PATCH_RESERVED 0x80u

static int any_reserved(const struct wk_prog_patch *g)
{
    for (uint32_t i = 0; i < g->patch_length && i < WK_PROG_MAX_PATCHES; i++)
        if (g->patch[i].reserved & 0xFFu)
            return 1;
    return 0;
}

/* The patch-location list: u8 count (bit 7 PATCH_RESERVED), the entries. */
static void walk_patch_locations(struct io *io, struct wk_prog_patch *g)
{
    uint32_t count = clamp32(g->patch_length, WK_PROG_MAX_PATCHES) | (any_reserved(g) ? PATCH_RESERVED : 0u);
    f8(io, &count);
    int with_reserved = (count & PATCH_RESERVED) != 0;
    g->patch_length = clamp32(count & ~PATCH_RESERVED, WK_PROG_MAX_PATCHES);
    for (uint32_t i = 0; i < g->patch_length; i++) {
        walk_location(io, &g->patch[i]);
        if (with_reserved)
            f8(io, &g->patch[i].reserved);
        else
            g->patch[i].reserved = 0;
    }
}

/* Everything but the DMA bytes; ranges folded into the lists' lengths. */
static void walk_patch_head(struct io *io, struct wk_prog_patch *g)
{
    f8(io, &g->context);
    f8(io, &g->list_length);
    g->list_length = clamp32(g->list_length, WK_PROG_MAX_PATCH_LIST);
    for (uint32_t i = 0; i < g->list_length; i++)
        walk_patch_entry(io, &g->list[i]);
    walk_patch_locations(io, g);
    f32(io, &g->start);
    f32(io, &g->end);
    f8(io, &g->patch_start);
    f8(io, &g->patch_count);
    g->patch_start = clamp32(g->patch_start, g->patch_length);
    g->patch_count = clamp32(g->patch_count, g->patch_length - g->patch_start);
}

/* The payload is allocated once its DMA length is known: at most what the
 * input still holds, so a short input cannot ask for 64 KiB of zeroes. */
static int walk_patch(struct io *io, struct wk_step *s)
{
    struct wk_prog_patch head;
    if (!io->reading) { /* a step without its payload is written as an empty one */
        struct wk_prog_patch *g = s->patch ? s->patch : memset(&head, 0, sizeof(head));
        walk_patch_head(io, g);
        f32(io, &g->dma_length);
        fbytes(io, g->dma, g->dma_length);
        return 0;
    }
    memset(&head, 0, sizeof(head));
    walk_patch_head(io, &head);
    uint32_t n = 0;
    f32(io, &n);
    size_t left = io->at < io->size ? io->size - io->at : 0;
    n = clamp32(n, WK_PROG_MAX_DMA);
    n = n > left ? (uint32_t)left : n;
    if (!(s->patch = wk_prog_patch_new(n)))
        return -1;
    memcpy(s->patch, &head, sizeof(head));
    s->patch->dma_length = n;
    fbytes(io, s->patch->dma, n);
    wk_prog_patch_trim(s->patch);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Steps                                                                */
/* ------------------------------------------------------------------ */

static void walk_allocation(struct io *io, struct wk_prog_allocation *a)
{
    uint32_t size = (uint32_t)a->size;
    f8(io, &a->device);
    f32(io, &size);
    a->size = size > WK_PROG_MAX_ALLOCATION ? WK_PROG_MAX_ALLOCATION : size;
    f32(io, &a->alignment);
    f32(io, &a->preferred);
    f32(io, &a->hinted_bank);
    f32(io, &a->supported_set);
    f32(io, &a->eviction_set);
    f32(io, &a->flags);
    f32(io, &a->priority);
    if (io->version >= 2)
        f8(io, &a->paging_buffers);
    a->paging_buffers = io->version >= 2 ? clamp32(a->paging_buffers, WK_PROG_MAX_PAGING_BUFFERS) : 0;
}

static void walk_data(struct io *io, struct wk_step *s)
{
    f8(io, &s->length);
    s->length = clamp32(s->length, WK_PROG_MAX_BYTES);
    fbytes(io, s->data, s->length);
}

/* Version 3: the step's process (a u8, reduced to the ones a case may
 * have); before it every step was the case's one process. */
static void walk_process(struct io *io, struct wk_step *s)
{
    if (io->version < 3) {
        s->process = 0;
        return;
    }
    f8(io, &s->process);
    s->process %= WK_PROG_MAX_PROCESSES;
}

static void walk_checks(struct io *io, struct wk_step *s)
{
    uint32_t off = (uint32_t)s->offset, size = (uint32_t)s->size, lo = (uint32_t)s->min, hi = (uint32_t)s->max;
    uint32_t stat = s->stat, ddi = s->ddi;
    switch (s->kind) {
    case WK_STEP_EXPECT_BYTES: f8(io, &s->allocation); f32(io, &off); walk_data(io, s); break;
    case WK_STEP_EXPECT_PATTERN: f8(io, &s->allocation); f64(io, &s->value); f32(io, &off); f32(io, &size); break;
    case WK_STEP_EXPECT_DIGEST: f8(io, &s->allocation); f64(io, &s->value); break;
    case WK_STEP_EXPECT_PLACEMENT:
        f8(io, &s->allocation); fint(io, &s->expect_resident); f8(io, &s->segment);
        fint(io, &s->has_offset); f32(io, &off); fint(io, &s->has_bank); f8(io, &s->expect_bank);
        break;
    case WK_STEP_EXPECT_STATS:
        f8(io, &stat); f8(io, &ddi); f8(io, &s->op); f32(io, &lo); fint(io, &s->has_max); f32(io, &hi);
        break;
    case WK_STEP_EXPECT_GART: f8(io, &s->allocation); break;
    case WK_STEP_EXPECT_CONTEXT_INFO: f8(io, &s->context); f8(io, &s->field); f64(io, &s->value); break;
    case WK_STEP_EXPECT_MULTIPASS: f8(io, &s->op); s->op %= PAGING_OPS; break;
    case WK_STEP_EXPECT_VA:
        f64(io, &s->address); f8(io, &s->fault); s->fault %= WK_VA_FAULT_COUNT;
        f8(io, &s->allocation); f32(io, &off); f32(io, &size);
        size = size > WK_PROG_MAX_VA_COMPARE ? WK_PROG_MAX_VA_COMPARE : size;
        walk_process(io, s);
        break;
    default: break;
    }
    s->offset = off;
    s->size = size;
    s->min = lo;
    s->max = hi;
    s->stat = (enum wk_prog_stat)(stat % WK_STAT_COUNT);
    s->ddi = (enum wk_ddi)(ddi % WK_DDI_COUNT);
}

/* Returns -1 when a render step could not get its payload (no memory). */
static int walk_step(struct io *io, struct wk_step *s)
{
    uint32_t kind = s->kind, off = (uint32_t)s->offset;
    f8(io, &kind);
    s->kind = (enum wk_step_kind)(kind % (io->version >= 5   ? WK_STEP_KIND_COUNT
                                          : io->version == 4 ? STEP_KINDS_V4
                                          : io->version == 3 ? STEP_KINDS_V3
                                          : io->version == 2 ? STEP_KINDS_V2
                                                             : STEP_KINDS_V1));
    fstatus(io, &s->expect_status);
    switch (s->kind) {
    case WK_STEP_CREATE_DEVICE: f8(io, &s->flags); walk_process(io, s); break;
    case WK_STEP_DESTROY_DEVICE: f8(io, &s->device); break;
    case WK_STEP_CREATE_CONTEXT: f8(io, &s->device); f8(io, &s->flags); break;
    case WK_STEP_DESTROY_CONTEXT: f8(io, &s->context); break;
    case WK_STEP_CREATE_ALLOCATION: walk_allocation(io, &s->alloc); break;
    case WK_STEP_FILL: f8(io, &s->allocation); f64(io, &s->value); s->value &= 0xFFFFFFFFu; break;
    case WK_STEP_RELOCATE: f8(io, &s->allocation); f8(io, &s->segment); break;
    case WK_STEP_WRITE: f8(io, &s->allocation); f32(io, &off); walk_data(io, s); s->offset = off; break;
    case WK_STEP_TOUCH_PHYSICAL:
        fint(io, &s->relative); f8(io, &s->allocation); f8(io, &s->segment); f32(io, &off); fint(io, &s->write);
        s->offset = off;
        break;
    case WK_STEP_SIGNAL_FENCE:
        fint(io, &s->relative); f8(io, &s->allocation); f64(io, &s->address); f32(io, &off); f64(io, &s->value);
        s->offset = off;
        break;
    case WK_STEP_RENDER:
        if (io->reading && !(s->render = calloc(1, sizeof(*s->render))))
            return -1;
        walk_render(io, s->render);
        break;
    case WK_STEP_PATCH: return walk_patch(io, s);
    case WK_STEP_HOLD: f64(io, &s->value); s->value %= 256; break;
    case WK_STEP_CANCEL: fint(io, &s->has_count); f8(io, &s->count); break;
    case WK_STEP_WAIT_IDLE: break;
    case WK_STEP_VA_MAP: {
        uint32_t size = (uint32_t)s->size;
        f8(io, &s->allocation); f64(io, &s->address); f32(io, &off); f32(io, &size); fint(io, &s->read_only);
        walk_process(io, s);
        s->offset = off;
        s->size = size;
        break;
    }
    case WK_STEP_VA_UNMAP: {
        uint32_t size = (uint32_t)s->size;
        f64(io, &s->address); f32(io, &size);
        walk_process(io, s);
        s->size = size;
        break;
    }
    case WK_STEP_SUBMIT_VIRTUAL: {
        uint32_t size = (uint32_t)s->size;
        uint32_t op = s->op | s->fault << 4; /* the fault in the high nibble: 0 in every file before it */
        f8(io, &s->context); f8(io, &op); f64(io, &s->address); f64(io, &s->offset); f64(io, &s->value);
        f32(io, &size);
        s->op = (op & 0xFu) % WK_VIRTUAL_OP_COUNT;
        s->fault = (op >> 4) % WK_VA_FAULT_COUNT;
        s->value &= s->op == WK_VIRTUAL_FILL ? 0xFFFFFFFFu : UINT64_MAX;
        s->size = size;
        break;
    }
    case WK_STEP_MOVE_ROOT_TABLE: { /* how the links move in the process byte's high nibble: 0 in every file before */
        uint32_t p = s->process | (s->flags & WK_PROG_ROOT_FLAGS) << 4;
        if (io->version >= 3)
            f8(io, &p);
        s->process = (p & 0xFu) % WK_PROG_MAX_PROCESSES;
        s->flags = (p >> 4) & WK_PROG_ROOT_FLAGS;
        break;
    }
    case WK_STEP_END_PROCESS: walk_process(io, s); break;
    case WK_STEP_QUEUE: { /* the count in bits 0-6, interrupts: each in bit 7 */
        uint32_t q = (uint32_t)(s->value & 0x7Fu) | (s->flags & WK_PROG_QUEUE_EACH) << 7;
        f8(io, &q);
        s->value = (q & 0x7Fu) % (WK_PROG_MAX_QUEUE + 1);
        s->flags = (q >> 7) & WK_PROG_QUEUE_EACH;
        break;
    }
    case WK_STEP_DESTROY_ALLOCATION: case WK_STEP_PAGE_IN: case WK_STEP_EVICT: case WK_STEP_DISCARD:
    case WK_STEP_SPECIAL_LOCK_TRANSFER:
        f8(io, &s->allocation);
        break;
    default: walk_checks(io, s); break;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Programs                                                             */
/* ------------------------------------------------------------------ */

static uint32_t rule_index(const char *id)
{
    uint32_t n = 0;
    const struct wk_rule *r = wk_rules(&n);
    for (uint32_t i = 0; id[0] && i < n; i++)
        if (strcmp(r[i].id, id) == 0)
            return i + 1;
    return 0;
}

static uint32_t mutation_index(const char *name)
{
    for (uint32_t i = 0; name[0] && wk_mutation_at(i); i++)
        if (strcmp(wk_mutation_at(i)->name, name) == 0)
            return i + 1;
    return 0;
}

/* The header's knob bits. */
#define KNOB_SPLIT 1u
#define KNOB_QUERYSEGMENT4 2u
#define KNOB_ADAPTER 4u          /* the adapter block follows the header */
#define KNOB_GROWN_PATCH_LIST 8u
#define KNOB_FIRST_FENCE 16u     /* version 2: the first fence id follows (walk_first_fence) */
#define KNOB_MOVE_BEFORE_PATCH 32u /* version 2: move_before_patch (clear in every file written before it) */

/* Limits of the spec loader (docs/spec-format.md, "Adapter"): what a
 * decoded adapter block is folded into. The GPU model judges the rest
 * (overlaps, bank ends) when the adapter is built. */
#define MAX_SEGMENTS WK_PROG_MAX_SEGMENTS
#define MAX_SEGMENTS_V1 8u       /* what a version-1 adapter block held */
#define MAX_BANKS WK_PROG_MAX_BANKS
#define MAX_SEGMENT_SIZE (256ull << 20)
#define MAX_SYSTEM_PAGES 65536u
#define MAX_PFN ((1ull << 40) - 1)
#define MAX_PAGING_BUFFER (64u << 20)
#define MAX_PASSES 65536u
#define MAX_DDI_TIMEOUT_MS 60000u

/* Whether p's segments are the reference adapter's, with no role (written
 * as count 0). */
static int reference_segments(const struct wk_prog *p)
{
    for (uint32_t i = 0; i < MAX_SEGMENTS; i++)
        if (p->segment_roles[i])
            return 0;
    return wk_gpu_segments_equal(&p->gpu, wk_gpu_reference_desc());
}

/* Whether the header alone says p's adapter and rewrite: then no adapter
 * block is written, and the program encodes to the bytes it always did. */
static int header_says_all(const struct wk_prog *p)
{
    const struct wk_gpu_desc *r = wk_gpu_reference_desc();
    const struct wk_vidmm_config *v = &p->vidmm;
    return reference_segments(p) && p->gpu.sysmem_first_pfn == r->sysmem_first_pfn &&
           p->gpu.sysmem_pages == r->sysmem_pages && v->seed == 0 && v->max_passes == 0 && v->ddi_timeout_ms == 0 &&
           v->paging_buffer_size <= 0xFFFFu && p->rewrite.param == (int64_t)(int32_t)p->rewrite.param;
}

/* Roles as the loader takes them (spec_load.c, load_role): known bits, of
 * a memory segment, `banked` of one with banks. */
static uint32_t fold_roles(uint32_t roles, const struct wk_gpu_segment_desc *s)
{
    roles &= (1u << WK_ROLE_COUNT) - 1u;
    if (s->kind == WK_GPU_SEGMENT_APERTURE)
        return 0;
    return s->bank_count >= 2 ? roles : roles & ~WK_ROLE_BANKED;
}

/* One segment: u8 kind, u64 base, u64 size, u8 bank count, then the end
 * offsets of banks 1..N-1 (u64 each), then (version 2) u8 roles
 * (WK_ROLE_* bits). Ends are stored in `ends` (the program's own array)
 * and the segment pointed at them. */
static void walk_segment(struct io *io, struct wk_gpu_segment_desc *s, uint64_t *ends, uint32_t *roles)
{
    uint32_t kind = s->kind == WK_GPU_SEGMENT_APERTURE ? 1u : 0u, banks = s->bank_count;
    f8(io, &kind);
    f64(io, &s->base);
    f64(io, &s->size);
    f8(io, &banks);
    s->kind = kind & 1u ? WK_GPU_SEGMENT_APERTURE : WK_GPU_SEGMENT_MEMORY;
    s->base &= ~(uint64_t)(WK_GPU_PAGE_SIZE - 1);
    s->size &= ~(uint64_t)(WK_GPU_PAGE_SIZE - 1);
    s->size = s->size < WK_GPU_PAGE_SIZE ? WK_GPU_PAGE_SIZE : s->size > MAX_SEGMENT_SIZE ? MAX_SEGMENT_SIZE : s->size;
    s->bank_count = clamp32(banks, MAX_BANKS);
    for (uint32_t b = 0; b + 1 < s->bank_count; b++) {
        uint64_t end = io->reading ? 0 : s->bank_ends[b];
        f64(io, &end);
        ends[b] = end;
    }
    s->bank_ends = ends;
    if (io->version >= 2)
        f8(io, roles);
    *roles = io->version >= 2 ? fold_roles(*roles, s) : 0;
}

/*
 * The adapter block (knob bit 2): what the header cannot say. Written only
 * when needed (header_says_all), so programs on the reference adapter keep
 * their bytes:
 *   u32 paging_buffer_size (the whole value; the header has its low 16 bits)
 *   u32 the rewrite parameter's high 32 bits (the header has the low ones)
 *   u32 max_passes  u32 ddi_timeout_ms  u64 seed
 *   u64 system first PFN  u32 system pages
 *   u8 segment count (0: the reference adapter's; at most 8 in version 1,
 *   31 in version 2), then each segment.
 */
static void walk_adapter(struct io *io, struct wk_prog *p, uint32_t *param_high)
{
    struct wk_vidmm_config *v = &p->vidmm;
    uint32_t pages = (uint32_t)p->gpu.sysmem_pages;
    uint32_t count = reference_segments(p) ? 0 : p->gpu.segment_count;
    f32(io, &v->paging_buffer_size);
    f32(io, param_high);
    f32(io, &v->max_passes);
    f32(io, &v->ddi_timeout_ms);
    f64(io, &v->seed);
    f64(io, &p->gpu.sysmem_first_pfn);
    f32(io, &pages);
    f8(io, &count);
    for (uint32_t i = 0; !io->reading && i < count && i < MAX_SEGMENTS; i++)
        p->segments[i] = p->gpu.segments[i]; /* the walker visits p->segments */
    v->paging_buffer_size = clamp32(v->paging_buffer_size, MAX_PAGING_BUFFER);
    v->max_passes = clamp32(v->max_passes, MAX_PASSES);
    v->ddi_timeout_ms = clamp32(v->ddi_timeout_ms, MAX_DDI_TIMEOUT_MS);
    p->gpu.sysmem_first_pfn &= MAX_PFN;
    p->gpu.sysmem_pages = pages == 0 ? 1 : clamp32(pages, MAX_SYSTEM_PAGES);
    count = clamp32(count, io->version >= 2 ? MAX_SEGMENTS : MAX_SEGMENTS_V1);
    for (uint32_t i = 0; i < count; i++)
        walk_segment(io, &p->segments[i], p->bank_ends[i], &p->segment_roles[i]);
    if (count) {
        p->gpu.segment_count = count;
        p->gpu.segments = p->segments;
    }
}

/*
 * The adapter's first SubmissionFenceId (cfg.first_fence; knob bit 4),
 * after the adapter block. Written only when set, so every program without
 * one keeps its bytes; read only from version 2, whose encoder never set
 * the bit before it meant this (every committed version-2 file has bits 4
 * to 7 clear), while in a version-1 file the bit stays the noise it was.
 */
static void walk_first_fence(struct io *io, struct wk_prog *p, uint32_t knobs)
{
    if (io->version >= 2 && (knobs & KNOB_FIRST_FENCE))
        f32(io, &p->vidmm.first_fence);
    else if (io->reading)
        p->vidmm.first_fence = 0;
}

static void walk_header(struct io *io, struct wk_prog *p)
{
    int adapter = !io->reading && !header_says_all(p);
    uint32_t version = FORMAT_VERSION, knobs = (p->vidmm.split_submissions ? KNOB_SPLIT : 0u) |
                                  (p->vidmm.query_segment_version == 4 ? KNOB_QUERYSEGMENT4 : 0u) |
                                  (adapter ? KNOB_ADAPTER : 0u) |
                                  (p->vidmm.grown_patch_list ? KNOB_GROWN_PATCH_LIST : 0u) |
                                  (p->vidmm.first_fence ? KNOB_FIRST_FENCE : 0u) |
                                  (p->vidmm.move_before_patch ? KNOB_MOVE_BEFORE_PATCH : 0u);
    uint32_t chunk = (uint32_t)(p->vidmm.transfer_chunk / WK_GPU_PAGE_SIZE);
    uint32_t mutation = p->has_rewrite ? mutation_index(p->rewrite.mutation) : 0;
    uint32_t param = (uint32_t)(uint64_t)p->rewrite.param, trips = rule_index(p->trips);
    uint32_t param_high = (uint32_t)((uint64_t)p->rewrite.param >> 32);
    uint32_t buffer = p->vidmm.paging_buffer_size & 0xFFFFu;
    f8(io, &version);
    io->version = !io->reading || version == FORMAT_VERSION ? FORMAT_VERSION
                  : version == 4                                ? 4u
                  : version == 3                                ? 3u
                  : version == 2                                ? 2u
                                                                : 1u;
    f8(io, &knobs);
    f16(io, &buffer);
    f16(io, &chunk);
    f8(io, &mutation);
    f8(io, &p->rewrite.call);
    f32(io, &param);
    f8(io, &trips);
    p->vidmm.split_submissions = knobs & KNOB_SPLIT;
    p->vidmm.grown_patch_list = (knobs & KNOB_GROWN_PATCH_LIST) != 0;
    p->vidmm.move_before_patch = io->version >= 2 && (knobs & KNOB_MOVE_BEFORE_PATCH) != 0;
    p->vidmm.query_segment_version = knobs & KNOB_QUERYSEGMENT4 ? 4 : 0;
    p->vidmm.transfer_chunk = (uint64_t)chunk * WK_GPU_PAGE_SIZE;
    if (io->reading) {
        p->vidmm.paging_buffer_size = buffer;
        param_high = (param & 0x80000000u) ? 0xFFFFFFFFu : 0; /* without the block: the int32 it always was */
    }
    if (knobs & KNOB_ADAPTER)
        walk_adapter(io, p, &param_high);
    walk_first_fence(io, p, knobs);
    p->rewrite.param = (int64_t)(((uint64_t)param_high << 32) | param);
    const struct wk_mutation *m = mutation ? wk_mutation_at((mutation - 1) % 128) : NULL;
    p->has_rewrite = m != NULL;
    if (m)
        snprintf(p->rewrite.mutation, sizeof(p->rewrite.mutation), "%s", m->name);
    uint32_t n = 0;
    const struct wk_rule *rules = wk_rules(&n);
    if (io->reading)
        snprintf(p->trips, sizeof(p->trips), "%s", trips && trips <= n ? rules[trips - 1].id : "");
}

size_t wk_prog_encode(const struct wk_prog *p, uint8_t *buf, size_t cap)
{
    /* The walker writes through the fields it visits, so it walks copies:
     * of the header, and of each step in turn (a copy of the whole program
     * was 70 KiB for a program of a few steps; the mutator encodes twice
     * per mutation). Payloads are shared, as they always were. */
    struct wk_prog *head = malloc(sizeof(*head));
    if (!head)
        return 0;
    memcpy(head, p, offsetof(struct wk_prog, steps));
    struct io io = { NULL, buf, cap, 0, 0, FORMAT_VERSION };
    walk_header(&io, head);
    free(head);
    uint32_t count = p->step_count;
    f8(&io, &count);
    for (uint32_t i = 0; i < p->step_count; i++) {
        struct wk_step s = p->steps[i];
        walk_step(&io, &s);
    }
    return io.at;
}

/* The header fields and the steps of an input; p's steps all zero. */
static void decode_into(const uint8_t *data, size_t size, struct wk_prog *p)
{
    snprintf(p->id, sizeof(p->id), "fuzz.input");
    snprintf(p->area, sizeof(p->area), "fuzz");
    struct io io = { data, NULL, size, 0, 1, 1 };
    walk_header(&io, p);
    uint32_t count = 0;
    f8(&io, &count);
    count = clamp32(count, WK_PROG_MAX_STEPS);
    for (uint32_t i = 0; i < count && io.at < size; i++) {
        if (walk_step(&io, &p->steps[i]) != 0) {
            memset(&p->steps[i], 0, sizeof(p->steps[i])); /* nothing of it allocated: walk_step failed first */
            break;
        }
        p->step_count = i + 1;
    }
}

void wk_prog_decode(const uint8_t *data, size_t size, struct wk_prog *p)
{
    wk_prog_init(p);
    decode_into(data, size, p);
}

void wk_prog_decode_again(const uint8_t *data, size_t size, struct wk_prog *p)
{
    static struct wk_prog blank; /* wk_prog_init's header, made once */
    static int ready;
    if (!ready) {
        wk_prog_init(&blank);
        ready = 1;
    }
    /* Steps past step_count are zero (decode_into keeps them so), so only
     * the last program's steps need clearing. */
    memset(p->steps, 0, p->step_count * sizeof(p->steps[0]));
    memcpy(p, &blank, offsetof(struct wk_prog, steps));
    memcpy(p->file, blank.file, sizeof(p->file));
    p->line = blank.line;
    p->gpu.segments = p->segments; /* the copy pointed into blank */
    for (uint32_t i = 0; i < WK_PROG_MAX_SEGMENTS; i++)
        if (blank.segments[i].bank_ends)
            p->segments[i].bank_ends = p->bank_ends[i];
    decode_into(data, size, p);
}
