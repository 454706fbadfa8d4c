/* SPDX-License-Identifier: MIT */
/*
 * spec_patch.c - the `patch` step: DxgkDdiPatch called directly with the
 * inputs the step spells out (docs/spec-format.md, "Patch"): the DMA
 * buffer's content, the allocation list with its SegmentId and
 * PhysicalAddress, the patch-location list and the submission ranges.
 *
 * Why its own step: the kit hands a driver's Patch only the lists its own
 * Render produced, with matching ranges, so a Patch that trusts PatchOffset
 * or AllocationIndex is never caught through `render`. The kernel promises
 * less (facts 5.3 T2, T3: the ranges are the kernel's, and Patch must keep
 * every write inside [DmaBufferSubmissionStartOffset, End)), and this step
 * is how a spec, or a fuzz_patch finding promoted to one, says so.
 *
 * Values are taken as they are, hostile ones included (a SegmentId the
 * adapter does not have, a PatchOffset past the buffer): they are the
 * point. What the loader checks is what makes the call well formed: lists
 * within the program limits, start <= end, the list range inside the list,
 * DMA chunks in order and inside 64 KiB. That the buffers fit the driver's
 * context (DmaBufferSize, PatchLocationListSize) is known only at run time:
 * the step then returns invalid_argument.
 */
#include <stdlib.h>
#include <string.h>

#include "spec_internal.h"

#define DMA_CHUNK_MAX 1024u      /* bytes per `dma` entry: its hex fits a scalar */

static void load_entry(struct wk_spec_ctx *c, const struct wk_ynode *e, struct wk_prog_patch_entry *x)
{
    static const char *const keys[] = { "allocation", "null", "write", "resident", "segment", "address", NULL };
    if (spec_map(c, e, NULL) < 0 || spec_check_keys(c, e, keys, NULL))
        return;
    const struct wk_ynode *null = wk_ymap_get(e, "null"), *alloc = wk_ymap_key(e, "allocation");
    int is_null = 0;
    if (null && spec_bool(c, null, "key 'null'", &is_null) == 1 && !is_null)
        spec_error(c, null, "key 'null': expected true (a NULL handle; leave the key out otherwise), saw 'false'");
    if (is_null && alloc)
        spec_error(c, alloc, "keys 'allocation' and 'null' exclude each other");
    else if (!is_null && !alloc && !null)
        spec_error(c, e, "missing key 'allocation' (or null: true)");
    uint32_t index = 0;
    if (alloc && !is_null && spec_use(c, e, e, "allocation", WK_OBJ_ALLOCATION, 0, &index) == 1)
        x->allocation = index + 1;
    spec_get_bool(c, e, "write", &x->write);
    if (spec_get_bool(c, e, "resident", &x->resident) == 1 && x->resident) {
        static const char *const other[] = { "null", "segment", "address", NULL };
        for (int k = 0; other[k]; k++)
            if (wk_ymap_key(e, other[k]))
                spec_error(c, wk_ymap_key(e, other[k]), "key '%s': not with resident: true", other[k]);
    }
    spec_get_u32(c, e, "segment", 0, 31, &x->segment_id); /* SegmentId is 5 bits */
    spec_get_u64(c, e, "address", 0, UINT64_MAX, &x->address);
}

static void load_list(struct wk_spec_ctx *c, const struct wk_ynode *list, struct wk_prog_patch *g)
{
    if (spec_seq(c, list, "key 'list'", WK_PROG_MAX_PATCH_LIST, 1) < 0)
        return;
    uint32_t i = 0;
    for (const struct wk_ynode *e = list->child; e; e = e->next, i++) {
        uint32_t mark = spec_scope_push(c, "list[%u]", i);
        load_entry(c, e, &g->list[i]);
        spec_scope_pop(c, mark);
    }
    g->list_length = list->count;
}

static void get_u32_size(struct wk_spec_ctx *c, const struct wk_ynode *a, const char *key, uint32_t *out)
{
    uint64_t v = *out;
    if (spec_get_size(c, a, key, 0, UINT32_MAX, &v) == 1)
        *out = (uint32_t)v;
}

/* One D3DDDI_PATCHLOCATIONLIST entry, `reserved` (the 8 bits above SlotId)
 * included: user mode writes them in render's `patches`, and the list a
 * driver's Patch is handed holds whatever the entries hold there, so both
 * kinds of step can set them. */
void spec_load_location(struct wk_spec_ctx *c, const struct wk_ynode *e, struct wk_prog_patch_location *l)
{
    static const char *const keys[] = { "allocation_index", "patch_offset", "allocation_offset", "slot_id",
                                        "split_offset", "driver_id", "reserved", NULL };
    static const char *const required[] = { "allocation_index", "patch_offset", NULL };
    if (spec_map(c, e, NULL) < 0 || spec_check_keys(c, e, keys, required))
        return;
    spec_get_u32(c, e, "allocation_index", 0, UINT32_MAX, &l->allocation_index);
    get_u32_size(c, e, "patch_offset", &l->patch_offset);
    get_u32_size(c, e, "allocation_offset", &l->allocation_offset);
    spec_get_u32(c, e, "slot_id", 0, 0xFFFFFF, &l->slot_id); /* SlotId is 24 bits */
    get_u32_size(c, e, "split_offset", &l->split_offset);
    spec_get_u32(c, e, "driver_id", 0, UINT32_MAX, &l->driver_id);
    spec_get_u32(c, e, "reserved", 0, 0xFF, &l->reserved); /* Reserved is 8 bits */
}

static void load_locations(struct wk_spec_ctx *c, const struct wk_ynode *list, struct wk_prog_patch *g)
{
    if (spec_seq(c, list, "key 'patches'", WK_PROG_MAX_PATCHES, 1) < 0)
        return;
    uint32_t i = 0;
    for (const struct wk_ynode *e = list->child; e; e = e->next, i++) {
        uint32_t mark = spec_scope_push(c, "patches[%u]", i);
        spec_load_location(c, e, &g->patch[i]);
        spec_scope_pop(c, mark);
    }
    g->patch_length = list->count;
}

/* The submission ranges, each checked against what it must lie in. */
static void load_ranges(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_prog_patch *g)
{
    uint64_t end = 0, start = 0;
    if (spec_get_size(c, a, "end", 0, UINT32_MAX, &end) == 1)
        g->end = (uint32_t)end;
    if (spec_get_size(c, a, "start", 0, g->end, &start) == 1)
        g->start = (uint32_t)start;
    spec_get_u32(c, a, "patch_start", 0, g->patch_length, &g->patch_start);
    g->patch_count = g->patch_length - g->patch_start;
    spec_get_u32(c, a, "patch_count", 0, g->patch_length - g->patch_start, &g->patch_count);
}

/* One `dma` entry into buf; *end is where the last one ended. */
static void load_chunk(struct wk_spec_ctx *c, const struct wk_ynode *e, uint8_t *buf, uint32_t *end)
{
    static const char *const keys[] = { "offset", "bytes", NULL };
    static const char *const required[] = { "bytes", NULL };
    if (spec_map(c, e, NULL) < 0 || spec_check_keys(c, e, keys, required))
        return;
    uint64_t offset = 0;
    uint8_t bytes[DMA_CHUNK_MAX];
    uint32_t n = 0;
    const struct wk_ynode *at = wk_ymap_get(e, "offset");
    if (spec_get_size(c, e, "offset", 0, WK_PROG_MAX_DMA - 1, &offset) < 0 ||
        spec_hex(c, wk_ymap_get(e, "bytes"), "key 'bytes'", bytes, DMA_CHUNK_MAX, &n) < 0)
        return;
    if (offset < *end) {
        char seen[160];
        spec_error(c, at ? at : e, "key 'offset': expected at least 0x%x (entries in order, not overlapping), saw %s",
                   *end, at ? spec_seen(at, seen, sizeof(seen)) : "nothing (0)");
        return;
    }
    if (offset + n > WK_PROG_MAX_DMA) {
        spec_error(c, e, "key 'bytes': %u bytes at 0x%llx end past the %u bytes a patch step sets", n,
                   (unsigned long long)offset, WK_PROG_MAX_DMA);
        return;
    }
    memcpy(buf + offset, bytes, n);
    *end = (uint32_t)offset + n;
}

/* The DMA content (NULL after an error); *length its bytes. */
static uint8_t *load_dma(struct wk_spec_ctx *c, const struct wk_ynode *list, uint32_t *length)
{
    *length = 0;
    if (!list)
        return calloc(1, 1);
    if (spec_seq(c, list, "key 'dma'", WK_PROG_MAX_DMA / DMA_CHUNK_MAX, 1) < 0)
        return NULL;
    uint8_t *buf = calloc(1, WK_PROG_MAX_DMA);
    if (!buf) {
        spec_error(c, list, "out of host memory");
        return NULL;
    }
    uint32_t i = 0;
    for (const struct wk_ynode *e = list->child; e; e = e->next, i++) {
        uint32_t mark = spec_scope_push(c, "dma[%u]", i);
        load_chunk(c, e, buf, length);
        spec_scope_pop(c, mark);
    }
    return buf;
}

void spec_load_patch(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    struct wk_prog_patch head;
    memset(&head, 0, sizeof(head));
    head.context = s->context;
    const struct wk_ynode *v;
    if ((v = wk_ymap_get(a, "list")))
        load_list(c, v, &head);
    if ((v = wk_ymap_get(a, "patches")))
        load_locations(c, v, &head);
    load_ranges(c, a, &head);
    uint32_t length = 0;
    uint8_t *dma = load_dma(c, wk_ymap_get(a, "dma"), &length);
    if (!dma)
        return;
    s->patch = wk_prog_patch_new(length);
    if (!s->patch) {
        spec_error(c, a, "out of host memory");
    } else {
        memcpy(s->patch, &head, sizeof(head));
        s->patch->dma_length = length;
        memcpy(s->patch->dma, dma, length);
        wk_prog_patch_trim(s->patch);
    }
    free(dma);
}
