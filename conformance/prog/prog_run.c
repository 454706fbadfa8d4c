/* SPDX-License-Identifier: MIT */
/*
 * prog_run.c - the step-program interpreter: one program, one adapter, one
 * verdict.
 *
 * Objects are resolved by creation index at run time, so a program that
 * names an object that does not exist gets WK_E_NOT_FOUND for that step (a
 * valid, checkable result) instead of undefined behaviour: the same code
 * runs hand-written specs and fuzzer-made programs.
 *
 * A positive case passes when every step returns the status it expects,
 * every check holds and no contract rule was violated. A negative case
 * passes when its `trips` rule fired; its later steps are not judged.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conform.h"
#include "reference.h"
#include "wddmkit/binding.h"

/* The interpreter state is struct wk_prog_exec (conform.h). */
#define interp wk_prog_exec

#define NOT_FOUND UINT32_MAX

static uint32_t pick(const uint32_t *table, uint32_t n, uint32_t index)
{
    return index < n ? table[index] : NOT_FOUND;
}

/* ------------------------------------------------------------------ */
/* Segment roles                                                        */
/* ------------------------------------------------------------------ */

/* Whether a driver's segment has a description segment's banks: the same
 * count and the same ends of all but the last (which ends at each one's
 * own size). */
static int same_banks(const struct wk_gpu_segment_desc *r, const struct wk_vidmm_segment_info *d)
{
    uint32_t count = r->bank_count > 1 ? r->bank_count : 0;
    if (count != d->banks)
        return 0;
    for (uint32_t b = 0; b + 1 < count; b++)
        if (!d->bank_ends || d->bank_ends[b] != r->bank_ends[b])
            return 0;
    return 1;
}

/*
 * A spec names segments by their id in its adapter description ("segment
 * 3"). A driver of the GPU model reports those segments; a driver for other
 * hardware reports its own layout, as it must (facts §4.8, §5.5). Rather
 * than fail it for not having the description's segment 3, the kit casts
 * each segment the case names onto one of the driver's that can play it
 * (roles.c), and gives the case's allocations the description's size of
 * it (wk_vidmm_set_segment_budget), so a case runs on the driver's layout
 * as it was written. A case that names a segment nothing of the driver's
 * can play is a skip with the reason.
 */
static void map_segments(struct interp *x)
{
    const struct wk_prog *p = x->p;
    struct wk_vidmm_segment_info d[WK_PROG_MAX_SEGMENTS];
    uint32_t nd = wk_vidmm_segments(x->vm, d, WK_PROG_MAX_SEGMENTS), nr = p->gpu.segment_count;
    int same = nd == nr;
    for (uint32_t i = 0; same && i < nr && i < WK_PROG_MAX_SEGMENTS; i++) {
        const struct wk_gpu_segment_desc *r = &p->segments[i];
        same = d[i].aperture == (r->kind == WK_GPU_SEGMENT_APERTURE) && d[i].base == r->base &&
               d[i].size == r->size && d[i].banks == (r->bank_count > 1 ? r->bank_count : 0);
    }
    x->seg_mapped = !same;
    x->seg_unplayed = 0;
    /* A segment placed in whole 64 KiB pages holds fewer of the case's
     * allocations than the case was calibrated with (room_differs). */
    for (uint32_t i = 0; i < nd && i < WK_PROG_MAX_SEGMENTS && !x->rounded_why[0]; i++)
        if (d[i].pages_64k) {
            snprintf(x->rounded_why, sizeof(x->rounded_why), "segment %u is managed in 64 KiB pages, "
                     "Use64KBPages", d[i].id);
            x->sizes_grew = 1;
        }
    x->seg_why[0] = 0;
    memset(x->seg_map, 0, sizeof(x->seg_map));
    if (x->seg_mapped)
        x->seg_unplayed = wk_roles_cast(p, d, nd, wk_roles_named(p), x->seg_map, x->seg_why, sizeof(x->seg_why));
    /* The case's world is its description: a segment of the driver's that
     * plays none of it gives the case's allocations no room, and placement
     * falls back in the description's order. */
    uint32_t order[WK_PROG_MAX_SEGMENTS], norder = 0;
    memset(x->seg_banks_same, 0, sizeof(x->seg_banks_same));
    for (uint32_t i = 0; i < nd && i < WK_PROG_MAX_SEGMENTS; i++) {
        uint64_t budget = x->seg_mapped ? 0 : WK_VIDMM_NO_BUDGET;
        for (uint32_t n = 1; x->seg_mapped && n <= nr && n <= WK_PROG_MAX_SEGMENTS; n++)
            if (x->seg_map[n] == d[i].id) {
                budget = p->segments[n - 1].size;
                x->seg_banks_same[n] = same_banks(&p->segments[n - 1], &d[i]);
            }
        wk_vidmm_set_segment_budget(x->vm, d[i].id, budget);
    }
    for (uint32_t n = 1; x->seg_mapped && n <= nr && n <= WK_PROG_MAX_SEGMENTS; n++)
        if (x->seg_map[n])
            order[norder++] = x->seg_map[n];
    wk_vidmm_set_segment_order(x->vm, order, norder);
}

/* The driver's segment for description segment n (0 stays 0). */
static uint32_t seg_role(const struct interp *x, uint32_t n)
{
    return x->seg_mapped && n && n <= WK_PROG_MAX_SEGMENTS ? x->seg_map[n] : n;
}

static uint32_t map_set(const struct interp *x, uint32_t set)
{
    uint32_t out = 0;
    for (uint32_t n = 1; n <= 32; n++)
        if (set & (1u << (n - 1))) {
            uint32_t m = seg_role(x, n);
            if (m)
                out |= 1u << (m - 1);
        }
    return out;
}

static uint32_t map_preference(const struct interp *x, uint32_t pref)
{
    uint32_t out = pref & 0xC0000000u;
    for (int f = 0; f < 5; f++) {
        uint32_t field = (pref >> (6 * f)) & 0x3Fu, id = field & 0x1Fu;
        out |= ((field & 0x20u) | seg_role(x, id)) << (6 * f);
    }
    return out;
}

/* An absolute address in description segment n: the same offset in the
 * driver's segment that plays it (other addresses, such as system memory,
 * stay). */
static uint64_t map_address(const struct interp *x, uint64_t addr)
{
    if (!x->seg_mapped)
        return addr;
    for (uint32_t n = 1; n <= x->p->gpu.segment_count && n <= WK_PROG_MAX_SEGMENTS; n++) {
        const struct wk_gpu_segment_desc *r = &x->p->segments[n - 1];
        struct wk_vidmm_segment_info d[WK_PROG_MAX_SEGMENTS];
        if (addr >= r->base && addr - r->base < r->size && x->seg_map[n]) {
            uint32_t nd = wk_vidmm_segments(x->vm, d, WK_PROG_MAX_SEGMENTS);
            for (uint32_t i = 0; i < nd; i++)
                if (d[i].id == x->seg_map[n])
                    return d[i].base + (addr - r->base);
        }
    }
    return addr;
}

/* The first description segment a step names that no segment of the
 * driver's plays, 0 when every one has a player. */
static uint32_t unplayed_role(const struct interp *x, const struct wk_step *s)
{
    if (!x->seg_mapped)
        return 0;
    uint32_t named = wk_roles_named_by(x->p, s);
    for (uint32_t n = 1; n <= WK_PROG_MAX_SEGMENTS; n++)
        if ((named & (1u << (n - 1))) && !x->seg_map[n])
            return n;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Actions                                                              */
/* ------------------------------------------------------------------ */

/* An allocation sized from the driver (prog.h, paging_buffers): its bytes. */
static uint64_t sized_bytes(const struct interp *x, const struct wk_prog_allocation *a)
{
    return wk_prog_sized_pages(a->paging_buffers, wk_vidmm_driver_paging_buffer_size(x->vm)) * WK_GPU_PAGE_SIZE;
}

/* Why an allocation sized from the driver cannot be made (NULL: it can):
 * larger than the kit gives one, or than every segment of the case's
 * adapter it may live in. Either way a limit of the kit's or of the case's,
 * never the driver's: its PagingBufferSize is its own to choose. */
static const char *sized_too_large(struct interp *x, const struct wk_step *s)
{
    uint64_t bytes = sized_bytes(x, &s->alloc), room = 0;
    uint32_t named = wk_roles_named_by(x->p, s), size = wk_vidmm_driver_paging_buffer_size(x->vm);
    for (uint32_t n = 1; n <= x->p->gpu.segment_count && n <= WK_PROG_MAX_SEGMENTS; n++)
        if ((!named || (named & (1u << (n - 1)))) && x->p->segments[n - 1].size > room)
            room = x->p->segments[n - 1].size;
    if (bytes > WK_PROG_MAX_SIZED)
        snprintf(x->skip_text, sizeof(x->skip_text),
                 "a limit of the kit: an allocation sized from the driver's %u-byte PagingBufferSize would take %llu MiB, "
                 "more than the %llu MiB the kit gives one", size, (unsigned long long)(bytes >> 20),
                 (unsigned long long)(WK_PROG_MAX_SIZED >> 20));
    else if (bytes > room)
        snprintf(x->skip_text, sizeof(x->skip_text),
                 "the case's adapter is too small for an allocation sized from the driver's %u-byte PagingBufferSize "
                 "(%llu MiB; its segments for it have %llu MiB)", size, (unsigned long long)(bytes >> 20),
                 (unsigned long long)(room >> 20));
    else
        return NULL;
    return x->skip_text;
}

/* Whether description segment id is an aperture. */
static int desc_aperture(const struct wk_prog *p, uint32_t id)
{
    return id >= 1 && id <= p->gpu.segment_count && p->gpu.segments &&
           p->gpu.segments[id - 1].kind == WK_GPU_SEGMENT_APERTURE;
}

/* Whether a request asks for an aperture (conform.h, alloc_aperture_asked). */
static int aperture_asked(const struct wk_prog *p, const struct wk_prog_allocation *a)
{
    if (a->supported_set) {
        for (uint32_t id = 1; id <= 32; id++)
            if ((a->supported_set >> (id - 1) & 1u) && !desc_aperture(p, id))
                return 0;
        return 1;
    }
    return desc_aperture(p, a->preferred & 0x1Fu);
}

/* A case that bounds the calls of a paging operation (adapter
 * max_passes) counted them for the sizes it asked: when the driver's
 * answers round its allocations up, the operation has more to do, and
 * running out of calls (PAGING-PROGRESS-001, "not finished after N calls")
 * is the case's bound, not the driver's progress (outsider 26). Says so in
 * x->skip_text. */
static int passes_bound_differs(struct interp *x)
{
    struct wk_violation v;
    uint64_t total = 0;
    if (!x->p->vidmm.max_passes || !x->sizes_grew || x->p->has_rewrite ||
        wk_vidmm_violations(x->vm, &v, 1, &total) != 1 || total != 1 || strcmp(v.rule, "PAGING-PROGRESS-001") != 0 ||
        !strstr(v.message, " not finished after "))
        return 0;
    snprintf(x->skip_text, sizeof(x->skip_text), "the case allows %u calls a paging operation for the sizes it "
             "asked, and the driver's answers round its allocations up (%s)", x->p->vidmm.max_passes, x->rounded_why);
    return 1;
}

/* Whether a render step lists an allocation the driver answered larger
 * than the case asked (its Size): says which in x->skip_text. */
int wk_prog_exec_render_rounded(struct interp *x, const struct wk_step *s)
{
    if (s->kind != WK_STEP_RENDER || !s->render)
        return 0;
    for (uint32_t j = 0; j < s->render->list_length && j < WK_PROG_MAX_LIST; j++) {
        uint32_t i = s->render->list_alloc[j];
        struct wk_vidmm_allocation_state st;
        if (!i || i - 1 >= x->nallocs || wk_vidmm_allocation_state(x->vm, x->allocs[i - 1], &st) != WK_OK ||
            !x->alloc_asked[i - 1] || st.size <= x->alloc_asked[i - 1])
            continue;
        snprintf(x->skip_text, sizeof(x->skip_text), "the step succeeded where the case expects a refusal, and "
                 "allocation %u is %llu bytes where the case asked %llu: what the case meant to run past its end "
                 "fits the driver's", i - 1, (unsigned long long)st.size, (unsigned long long)x->alloc_asked[i - 1]);
        return 1;
    }
    return 0;
}

/* Whether the driver answered allocation i larger than the case asked
 * (conform.h, rounded_why): its Size past the request's, page rounded, or
 * its Alignment past the request's and the page. The first one is kept,
 * but for the first Size, which also sets sizes_grew. */
static void note_rounding(struct interp *x, uint32_t i, const WK_ALLOCATION_REQUEST *q,
                          const struct wk_vidmm_allocation_state *st)
{
    const uint64_t page = WK_GPU_PAGE_SIZE;
    uint64_t size = (q->Size + page - 1) & ~(page - 1);
    uint64_t asked = q->Alignment > page ? q->Alignment : page, got = st->alignment > page ? st->alignment : page;
    int grew_first = st->size > size && !x->sizes_grew; /* the reason an operation has more to do */
    x->sizes_grew |= st->size > size;
    if (x->rounded_why[0] && !grew_first)
        return;
    if (st->size > size)
        snprintf(x->rounded_why, sizeof(x->rounded_why), "allocation %u is %llu bytes where the case asked %llu", i,
                 (unsigned long long)st->size, (unsigned long long)size);
    else if (got > asked)
        snprintf(x->rounded_why, sizeof(x->rounded_why), "allocation %u is %llu-byte aligned where the case asked "
                 "%llu", i, (unsigned long long)got, (unsigned long long)asked);
}

static wk_status do_create_allocation(struct interp *x, const struct wk_step *s)
{
    uint32_t dev = pick(x->devices, x->ndevices, s->alloc.device);
    if (dev == NOT_FOUND || x->nallocs == WK_PROG_MAX_OBJECTS)
        return WK_E_NOT_FOUND;
    WK_ALLOCATION_REQUEST q;
    memset(&q, 0, sizeof(q));
    q.Magic = WK_ALLOCATION_REQUEST_MAGIC;
    q.Version = WK_ALLOCATION_REQUEST_VERSION;
    q.Size = s->alloc.paging_buffers ? sized_bytes(x, &s->alloc) : s->alloc.size;
    q.Alignment = s->alloc.alignment;
    q.PreferredSegment.Value = x->seg_mapped ? map_preference(x, s->alloc.preferred) : s->alloc.preferred;
    q.HintedBank.Value = s->alloc.hinted_bank;
    q.SupportedSegmentSet = x->seg_mapped ? map_set(x, s->alloc.supported_set) : s->alloc.supported_set;
    q.EvictionSegmentSet = x->seg_mapped ? map_set(x, s->alloc.eviction_set) : s->alloc.eviction_set;
    q.Flags.Value = s->alloc.flags;
    q.Priority = s->alloc.priority;
    uint32_t h = 0;
    struct wk_vidmm_allocation_state state;
    x->last_preferred = q.PreferredSegment.Value;
    x->last_hinted_bank = q.HintedBank.Value;
    x->last_eviction = q.EvictionSegmentSet;
    x->last_flags = q.Flags.Value;
    wk_status st = wk_vidmm_create_allocation(x->vm, dev, &q, &h);
    /* The handle as the kit kept it, not read back from the answer: a
     * hostile driver may have pointed the answer's pAllocationInfo
     * anywhere (found by fuzz_hostile). */
    if (st == WK_OK && wk_vidmm_allocation_state(x->vm, h, &state) == WK_OK) {
        note_rounding(x, x->nallocs, &q, &state);
        x->alloc_asked[x->nallocs] = (q.Size + WK_GPU_PAGE_SIZE - 1) & ~(uint64_t)(WK_GPU_PAGE_SIZE - 1);
        x->driver_allocs[x->nallocs] = state.device_handle; /* what its lists name it by */
        x->alloc_named[x->nallocs] = wk_roles_named_by(x->p, s) != 0;
        x->alloc_aperture_asked[x->nallocs] = aperture_asked(x->p, &s->alloc);
        x->allocs[x->nallocs++] = h;
    }
    return st;
}

uint32_t wk_prog_render_command(const struct wk_prog_render *r, uint8_t *buf, uint32_t cap)
{
    if (r->raw) {
        uint32_t n = r->raw_length < cap ? r->raw_length : cap;
        memcpy(buf, r->raw_bytes, n);
        return n;
    }
    WK_USER_COMMAND_HEADER h = { WK_USER_COMMAND_MAGIC, WK_USER_COMMAND_VERSION, r->record_count, 0 };
    if (cap < sizeof(h))
        return 0;
    uint32_t used = sizeof(h);
    memcpy(buf, &h, sizeof(h));
    for (uint32_t i = 0; i < r->record_count; i++) {
        const struct wk_prog_record *c = &r->records[i];
        union {
            WK_USER_RECORD rec;
            WK_USER_COPY copy;
            WK_USER_FILL fill;
            WK_USER_WRITE32 write;
            WK_USER_BLIT blit;
        } u;
        memset(&u, 0, sizeof(u));
        uint32_t len = sizeof(WK_USER_RECORD);
        WK_USER_REF src = { c->src.list_index, c->src.offset }, dst = { c->dst.list_index, c->dst.offset };
        switch (c->op) {
        case WK_USER_OP_COPY: len = sizeof(u.copy); u.copy.Source = src; u.copy.Destination = dst; u.copy.Size = c->size; break;
        case WK_USER_OP_FILL: len = sizeof(u.fill); u.fill.Destination = dst; u.fill.Size = c->size; u.fill.Pattern = c->value; break;
        case WK_USER_OP_WRITE32: len = sizeof(u.write); u.write.Destination = dst; u.write.Value = c->value; break;
        case WK_USER_OP_BLIT:
            len = sizeof(u.blit);
            u.blit.Source = src;
            u.blit.Destination = dst;
            u.blit.Width = c->width;
            u.blit.Height = c->height;
            u.blit.SourcePitch = c->src_pitch;
            u.blit.DestinationPitch = c->dst_pitch;
            break;
        default: break;
        }
        u.rec.Op = c->op;
        u.rec.Length = len;
        if (used + len > cap)
            break;
        memcpy(buf + used, &u, len);
        used += len;
    }
    return used;
}

/* One D3DDDI_PATCHLOCATIONLIST entry as the step spells it, the reserved
 * bits above SlotId included: neither list is the kit's to clean (user
 * mode writes render's, and Patch gets whatever its entries hold). */
static void patch_location(const struct wk_prog_patch_location *l, D3DDDI_PATCHLOCATIONLIST *out)
{
    memset(out, 0, sizeof(*out));
    out->AllocationIndex = l->allocation_index;
    out->Value = (l->slot_id & 0xFFFFFFu) | (l->reserved & 0xFFu) << 24;
    out->DriverId = l->driver_id;
    out->AllocationOffset = l->allocation_offset;
    out->PatchOffset = l->patch_offset;
    out->SplitOffset = l->split_offset;
}

/* pPatchLocationListIn as user mode wrote it: the kernel copies it for the
 * driver's Render without looking inside (the driver must validate every
 * entry, RENDER-PATCH-*). */
static void user_patches(const struct wk_prog_render *r, D3DDDI_PATCHLOCATIONLIST *out)
{
    for (uint32_t i = 0; i < r->patch_length && i < WK_PROG_MAX_USER_PATCHES; i++)
        patch_location(&r->patch[i], &out[i]);
}

/* The records of r (the kit's abstract render operations) by the binding's
 * encoder; e's opaque bytes as the caller set them. */
static wk_status encode_records(struct wk_vidmm *vm, const struct wk_prog_render *r,
                                const struct wk_vidmm_list_entry *list, uint32_t list_length,
                                struct wk_encode_render *e)
{
    struct wk_encode_op ops[WK_PROG_MAX_RECORDS];
    uint64_t sizes[WK_PROG_MAX_LIST];
    uint32_t count = r->record_count < WK_PROG_MAX_RECORDS ? r->record_count : WK_PROG_MAX_RECORDS;
    for (uint32_t i = 0; i < count; i++) {
        const struct wk_prog_record *c = &r->records[i];
        ops[i] = (struct wk_encode_op){ c->op, 0, { c->src.list_index, c->src.offset },
                                        { c->dst.list_index, c->dst.offset }, c->size, c->value, c->width, c->height,
                                        c->src_pitch, c->dst_pitch };
    }
    for (uint32_t i = 0; i < list_length && i < WK_PROG_MAX_LIST; i++) {
        struct wk_vidmm_allocation_state st;
        sizes[i] = list[i].allocation && wk_vidmm_allocation_state(vm, list[i].allocation, &st) == WK_OK ? st.size : 0;
    }
    e->ops = ops;
    e->op_count = count;
    e->list_length = list_length < WK_PROG_MAX_LIST ? list_length : WK_PROG_MAX_LIST;
    e->list_size = sizes;
    wk_status st = wk_vidmm_encode_render(vm, e);
    e->ops = NULL; /* they lived here */
    e->list_size = NULL;
    return st;
}

/* A fuzz_render input's Render as fuzz_render runs it under an encoder
 * (harnesses/fuzz_render.c): its command buffer's records, and its user
 * patch entries' bytes (D3DDDI_PATCHLOCATIONLIST's, as the input holds
 * them) as the opaque bytes. */
static wk_status encode_harness_input(struct wk_vidmm *vm, const struct wk_prog_render *r,
                                      const struct wk_vidmm_list_entry *list, uint32_t list_length,
                                      struct wk_encode_render *e)
{
    static uint8_t opaque[WK_PROG_MAX_USER_PATCHES * sizeof(D3DDDI_PATCHLOCATIONLIST)];
    struct wk_prog_render *g = malloc(sizeof(*g));
    if (!g)
        return WK_E_NO_MEMORY;
    wk_status st;
    if (!wk_render_command_records(r->raw_bytes, r->raw_length, g)) {
        st = wk_vidmm_skip(vm, "the input's command buffer is raw bytes of the kit's own UMD format, not its records");
    } else {
        uint32_t n = r->patch_length < WK_PROG_MAX_USER_PATCHES ? r->patch_length : WK_PROG_MAX_USER_PATCHES;
        for (uint32_t i = 0; i < n; i++) {
            D3DDDI_PATCHLOCATIONLIST l;
            patch_location(&r->patch[i], &l);
            memcpy(opaque + i * sizeof(l), &l, sizeof(l));
        }
        e->opaque = n ? opaque : NULL;
        e->opaque_length = n * (uint32_t)sizeof(D3DDDI_PATCHLOCATIONLIST);
        st = encode_records(vm, g, list, list_length, e);
        e->opaque = NULL; /* it lives here */
    }
    free(g);
    return st;
}

wk_status wk_prog_encode_render(struct wk_vidmm *vm, const struct wk_prog_render *r,
                                const struct wk_vidmm_list_entry *list, uint32_t list_length, struct wk_encode_render *e)
{
    if (r->harness_input && r->raw)
        return encode_harness_input(vm, r, list, list_length, e);
    if (r->raw || r->patch_length)
        return wk_vidmm_skip(vm, r->raw ? "the step's command buffer is raw bytes of the kit's own UMD format"
                                        : "the step writes its own patch-location list in the kit's UMD format");
    return encode_records(vm, r, list, list_length, e);
}

static wk_status do_render(struct interp *x, const struct wk_step *s)
{
    const struct wk_prog_render *r = s->render;
    uint32_t ctx = r ? pick(x->contexts, x->ncontexts, r->context) : NOT_FOUND;
    if (ctx == NOT_FOUND)
        return WK_E_NOT_FOUND;
    struct wk_vidmm_list_entry list[WK_PROG_MAX_LIST];
    uint32_t list_length = r->list_length < WK_PROG_MAX_LIST ? r->list_length : WK_PROG_MAX_LIST;
    for (uint32_t i = 0; i < list_length; i++) {
        uint32_t h = r->list_alloc[i] ? pick(x->allocs, x->nallocs, r->list_alloc[i] - 1) : 0;
        if (h == NOT_FOUND)
            return WK_E_NOT_FOUND;
        list[i].allocation = h;
        list[i].write = r->list_write[i];
    }
    uint8_t buf[WK_PROG_MAX_COMMAND + sizeof(WK_USER_COMMAND_HEADER) + WK_PROG_MAX_RECORDS * sizeof(WK_USER_BLIT)];
    D3DDDI_PATCHLOCATIONLIST patch[WK_PROG_MAX_USER_PATCHES];
    uint32_t len = 0, patch_length = 0;
    if (x->binding_encoder) {
        struct wk_encode_render e;
        memset(&e, 0, sizeof(e));
        e.command = buf;
        e.command_cap = sizeof(buf);
        e.patch = patch;
        e.patch_cap = WK_PROG_MAX_USER_PATCHES;
        e.node = wk_vidmm_context_node(x->vm, ctx);
        wk_status st = wk_prog_encode_render(x->vm, r, list, list_length, &e);
        if (st != WK_OK)
            return st;
        len = e.command_length;
        patch_length = e.patch_length;
    } else {
        len = wk_prog_render_command(r, buf, sizeof(buf));
        patch_length = r->patch_length < WK_PROG_MAX_USER_PATCHES ? r->patch_length : WK_PROG_MAX_USER_PATCHES;
        user_patches(r, patch);
    }
    struct wk_vidmm_render args = { ctx, buf, len, list, list_length, patch_length ? patch : NULL, patch_length,
                                    r->no_prepatch_info };
    return wk_vidmm_render(x->vm, &args, &x->last_render);
}

/* ------------------------------------------------------------------ */
/* Patch                                                                */
/* ------------------------------------------------------------------ */

/* The allocation list as dxgkrnl hands it to Patch: the driver's handles
 * for the allocations on their device (DxgkDdiOpenAllocation's), and
 * SegmentId/PhysicalAddress as the step says or from where the allocation
 * is (as the kernel fills them after paging the list in, facts 4.7). */
static wk_status patch_list(struct interp *x, const struct wk_prog_patch *g, DXGK_ALLOCATIONLIST *list)
{
    for (uint32_t i = 0; i < g->list_length && i < WK_PROG_MAX_PATCH_LIST; i++) {
        const struct wk_prog_patch_entry *e = &g->list[i];
        DXGK_ALLOCATIONLIST *d = &list[i];
        memset(d, 0, sizeof(*d));
        d->WriteOperation = (UINT)(e->write ? 1 : 0);
        d->SegmentId = e->segment_id & 0x1F;
        d->PhysicalAddress.QuadPart = (LONGLONG)e->address;
        if (!e->allocation)
            continue; /* a NULL handle, with whatever else the step says */
        struct wk_vidmm_allocation_state st; /* a destroyed one's handle is gone: never hand it out */
        if (e->allocation - 1 >= x->nallocs ||
            wk_vidmm_allocation_state(x->vm, x->allocs[e->allocation - 1], &st) != WK_OK)
            return WK_E_NOT_FOUND;
        d->hDeviceSpecificAllocation = x->driver_allocs[e->allocation - 1];
        if (!e->resident)
            continue;
        d->SegmentId = st.resident ? st.segment_id & 0x1F : 0;
        d->PhysicalAddress.QuadPart = st.resident ? (LONGLONG)st.gpu_address : 0;
    }
    return WK_OK;
}

/* Whether the kit's PATCH-VALUE-001 check judges location l: its index in
 * the list, its 8-byte slot in the range, its allocation with a SegmentId. */
static int judged(const struct wk_prog_patch_location *l, const DXGK_ALLOCATIONLIST *list, uint32_t list_length,
                  uint32_t start, uint32_t end)
{
    return l->allocation_index < list_length && l->patch_offset >= start && (uint64_t)l->patch_offset + 8 <= end &&
           list[l->allocation_index].SegmentId != 0;
}

/* Whether a correct driver writes location l: its index in the list, its
 * slot (`bytes` wide, the GPU's) in the range. */
static int written(const struct wk_prog_patch_location *l, uint32_t list_length, uint32_t start, uint32_t end,
                   uint32_t bytes)
{
    return l->allocation_index < list_length && l->patch_offset >= start && (uint64_t)l->patch_offset + bytes <= end;
}

/* Two locations a correct driver writes whose slots overlap ask for two
 * values in one place, which no Render makes (Windows patches only lists
 * the driver's Render wrote); so does a location the kit judges whose slot
 * runs past the range. The step is refused before the driver is called
 * (fuzz_patch makes such entries bad: wk_patch_unoverlap). The slots are
 * the GPU's (wk_vidmm_patch_slots): an outsider's 5-byte slots overlapped
 * where the kit's 8-byte ones were not both judged. */
static int slots_overlap(const struct wk_prog_patch *g, const DXGK_ALLOCATIONLIST *list, uint32_t bytes)
{
    for (uint32_t i = g->patch_start; i < g->patch_start + g->patch_count; i++) {
        const struct wk_prog_patch_location *l = &g->patch[i];
        if (!written(l, g->list_length, g->start, g->end, bytes)) {
            if (judged(l, list, g->list_length, g->start, g->end))
                return 1;
            continue;
        }
        for (uint32_t j = g->patch_start; j < i; j++) {
            uint32_t a = l->patch_offset, b = g->patch[j].patch_offset;
            if (written(&g->patch[j], g->list_length, g->start, g->end, bytes) && (a > b ? a - b : b - a) < bytes)
                return 1;
        }
    }
    return 0;
}

static wk_status do_patch(struct interp *x, const struct wk_step *s)
{
    const struct wk_prog_patch *g = s->patch;
    uint32_t ctx = g ? pick(x->contexts, x->ncontexts, g->context) : NOT_FOUND;
    if (ctx == NOT_FOUND)
        return WK_E_NOT_FOUND;
    DXGK_ALLOCATIONLIST list[WK_PROG_MAX_PATCH_LIST];
    D3DDDI_PATCHLOCATIONLIST patch[WK_PROG_MAX_PATCHES];
    if (g->list_length > WK_PROG_MAX_PATCH_LIST || g->patch_length > WK_PROG_MAX_PATCHES ||
        g->dma_length > WK_PROG_MAX_DMA)
        return WK_E_INVALID_ARGUMENT;
    wk_status st = patch_list(x, g, list);
    if (st != WK_OK)
        return st;
    struct wk_vidmm_patch_slots slots;
    wk_vidmm_patch_slots(x->vm, &slots);
    if (g->patch_start > g->patch_length || g->patch_count > g->patch_length - g->patch_start ||
        slots_overlap(g, list, slots.bytes))
        return WK_E_INVALID_ARGUMENT;
    for (uint32_t i = 0; i < g->patch_length && i < WK_PROG_MAX_PATCHES; i++)
        patch_location(&g->patch[i], &patch[i]);
    struct wk_vidmm_patch a = { ctx, g->dma, g->dma_length, list, g->list_length, patch, g->patch_length,
                                g->start, g->end, g->patch_start, g->patch_count };
    return wk_vidmm_patch(x->vm, &a);
}

/* Where the step's allocation is, for steps with an address relative to
 * it: NOT_FOUND for no such allocation, STATE when it is not resident. */
static wk_status resident_state(struct interp *x, const struct wk_step *s, struct wk_vidmm_allocation_state *st)
{
    uint32_t h = pick(x->allocs, x->nallocs, s->allocation);
    if (h == NOT_FOUND || wk_vidmm_allocation_state(x->vm, h, st) != WK_OK)
        return WK_E_NOT_FOUND;
    if (st->resident)
        return WK_OK;
    snprintf(x->step_why, sizeof(x->step_why), "allocation %u is not resident (the memory manager evicted it, or "
             "never placed it), and the step's address is relative to it", s->allocation);
    return WK_E_STATE;
}

/* An absolute address of a step inside the place the case expected an
 * allocation at, where a choice check the profile skipped found it
 * elsewhere (conform.h, assumed): the address names another place on this
 * driver. Says so in x->skip_text and returns 1. */
static int assumed_elsewhere(struct interp *x, uint32_t segment, uint64_t offset)
{
    for (uint32_t i = 0; i < x->nallocs; i++) {
        const __typeof__(x->assumed[0]) *a = &x->assumed[i];
        if (!a->valid || a->segment != segment || offset < a->offset || offset - a->offset >= a->size)
            continue;
        struct wk_vidmm_allocation_state st;
        uint64_t now = wk_vidmm_allocation_state(x->vm, x->allocs[i], &st) == WK_OK ? st.segment_offset : 0;
        snprintf(x->skip_text, sizeof(x->skip_text), "the case's absolute address (segment %u offset 0x%llx) aims "
                 "at allocation %u, expected at 0x%llx; the driver's answers put it at 0x%llx: a choice (--profile "
                 "reference judges it)", segment, (unsigned long long)offset, i,
                 (unsigned long long)a->offset, (unsigned long long)now);
        return 1;
    }
    return 0;
}

/* The description segment and offset of an absolute GPU address of the
 * case's adapter description: 0 when it is in none. */
static uint32_t description_segment_of(const struct interp *x, uint64_t addr, uint64_t *offset)
{
    for (uint32_t n = 1; n <= x->p->gpu.segment_count && n <= WK_PROG_MAX_SEGMENTS; n++) {
        const struct wk_gpu_segment_desc *d = &x->p->segments[n - 1];
        if (addr >= d->base && addr - d->base < d->size) {
            *offset = addr - d->base;
            return n;
        }
    }
    return 0;
}

/* Whether an absolute step (a fence at an address, a touch at a segment
 * offset) aims inside an allocation the driver's answers placed elsewhere
 * than the case expects (assumed_elsewhere): x->skip_text says why. */
static int absolute_step_elsewhere(struct interp *x, const struct wk_step *s)
{
    uint64_t offset = 0;
    if (s->relative)
        return 0;
    if (s->kind == WK_STEP_SIGNAL_FENCE) {
        uint32_t n = description_segment_of(x, s->address, &offset);
        return n && assumed_elsewhere(x, n, offset);
    }
    return s->kind == WK_STEP_TOUCH_PHYSICAL && assumed_elsewhere(x, s->segment, s->offset);
}

static wk_status do_signal(struct interp *x, const struct wk_step *s)
{
    uint64_t addr = map_address(x, s->address);
    if (s->relative) {
        struct wk_vidmm_allocation_state st;
        wk_status where = resident_state(x, s, &st);
        if (where != WK_OK)
            return where;
        addr = st.gpu_address + s->offset;
    }
    return wk_vidmm_signal_monitored_fence(x->vm, addr, s->value);
}

/* Steps that act on one allocation. */
static wk_status do_allocation_step(struct interp *x, const struct wk_step *s)
{
    uint32_t h = pick(x->allocs, x->nallocs, s->allocation);
    if (h == NOT_FOUND)
        return WK_E_NOT_FOUND;
    switch (s->kind) {
    case WK_STEP_DESTROY_ALLOCATION: return wk_vidmm_destroy_allocation(x->vm, h);
    case WK_STEP_PAGE_IN: return wk_vidmm_page_in(x->vm, h);
    case WK_STEP_EVICT: return wk_vidmm_evict(x->vm, h);
    case WK_STEP_DISCARD: return wk_vidmm_discard(x->vm, h);
    case WK_STEP_FILL: return wk_vidmm_fill(x->vm, h, (uint32_t)s->value);
    case WK_STEP_RELOCATE: return wk_vidmm_relocate(x->vm, h, seg_role(x, s->segment));
    case WK_STEP_WRITE: {
        /* The bytes the case asked for: a driver may round an allocation up
         * ("it may round Size and Alignment up", umd.h), and a write into
         * its padding was WK_OK on it and out of range on the reference
         * (fuzz_prog, outsider 26's 64 KiB sizes) */
        uint64_t asked = s->allocation < x->nallocs ? x->alloc_asked[s->allocation] : 0;
        if (asked && (s->offset > asked || s->length > asked - s->offset))
            return wk_vidmm_refuse(x->vm, WK_E_OUT_OF_RANGE, "bytes [%llu, +%u) are outside the %llu bytes the case asked "
                                   "of allocation %u", (unsigned long long)s->offset, s->length,
                                   (unsigned long long)asked, s->allocation);
        return wk_vidmm_write(x->vm, h, s->offset, s->data, s->length);
    }
    case WK_STEP_SPECIAL_LOCK_TRANSFER: return wk_vidmm_special_lock_transfer(x->vm, h);
    default: return WK_E_INVALID_ARGUMENT;
    }
}

static wk_status do_touch(struct interp *x, const struct wk_step *s)
{
    uint32_t seg = seg_role(x, s->segment);
    uint64_t off = s->offset;
    if (s->relative) {
        struct wk_vidmm_allocation_state st;
        wk_status where = resident_state(x, s, &st);
        if (where != WK_OK)
            return where;
        seg = st.segment_id;
        off += st.segment_offset;
    }
    return wk_vidmm_touch_physical(x->vm, seg, off, s->write);
}

/* The GPU virtual address space of the case's process `process`: made by
 * its first step (a driver that is not GpuMmu, or one the kit cannot
 * drive, refuses it with WK_E_NOT_SUPPORTED: the case is a skip with the
 * reason). */
static wk_status va_space(struct interp *x, uint32_t process, uint32_t *space)
{
    uint32_t *at = &x->va_space[process % WK_PROG_MAX_PROCESSES];
    if (!*at) {
        wk_status st = wk_vidmm_va_create_space(x->vm, at);
        if (st != WK_OK)
            return st;
        x->va_ended[process % WK_PROG_MAX_PROCESSES] = 0;
    }
    *space = *at;
    return WK_OK;
}

/* The address bits of the driver's modelled tree when [lo, hi) runs past
 * them (or wraps); 0 when it lies inside, or no tree is modelled. */
static uint32_t past_va_bits(struct wk_vidmm *vm, uint64_t lo, uint64_t hi)
{
    struct wk_vidmm_gpummu_info mmu;
    wk_vidmm_gpummu(vm, &mmu);
    const uint32_t bits = wk_mmu_va_bits(&mmu.geometry);
    return mmu.modelled && bits < 64 && (hi < lo || hi > (1ull << bits)) ? bits : 0;
}

static wk_status do_va(struct interp *x, const struct wk_step *s)
{
    uint32_t space;
    wk_status st = va_space(x, s->process, &space);
    if (st != WK_OK)
        return st;
    if (s->kind == WK_STEP_VA_UNMAP)
        return wk_vidmm_va_unmap(x->vm, space, s->address, s->size);
    uint32_t h = pick(x->allocs, x->nallocs, s->allocation);
    struct wk_vidmm_allocation_state a;
    if (h == NOT_FOUND || wk_vidmm_allocation_state(x->vm, h, &a) != WK_OK)
        return WK_E_NOT_FOUND;
    uint64_t size = s->size ? s->size : (a.size > s->offset ? a.size - s->offset : 0);
    /* A space smaller than the case's addresses is the driver's choice
     * (DXGK_GPUMMUCAPS.VirtualAddressBitCount sets no minimum: a two-level
     * tree of 32 bits, an outsider's): a mapping the case expects to work
     * past it cannot run here, which says nothing of the driver. */
    const uint32_t bits = size ? past_va_bits(x->vm, s->address, s->address + size) : 0;
    if (s->expect_status == WK_OK && bits)
        return wk_vidmm_refuse(x->vm, WK_E_NOT_SUPPORTED,
                               "the driver's address space has %u bits (DXGK_GPUMMUCAPS.VirtualAddressBitCount and its "
                               "levels), and the case maps 0x%llx + 0x%llx past them: a smaller space is the driver's "
                               "choice", bits, (unsigned long long)s->address, (unsigned long long)size);
    return wk_vidmm_va_map(x->vm, space, s->address, h, s->offset, size, s->read_only);
}

/* Whether the case runs anything in a GPU address space: then its devices
 * belong to the case's process, as every device of a GpuMmu driver's
 * process does (DXGKARG_CREATEDEVICE hKmdProcess, wddm-gpummu-facts.md
 * 3.6). A case that does not stays as it was: no process, no root table. */
int wk_prog_uses_va(const struct wk_prog *p)
{
    for (uint32_t i = 0; i < p->step_count; i++) {
        const struct wk_step *s = &p->steps[i];
        if (s->kind == WK_STEP_VA_MAP || s->kind == WK_STEP_VA_UNMAP || s->kind == WK_STEP_EXPECT_VA ||
            s->kind == WK_STEP_SUBMIT_VIRTUAL || s->kind == WK_STEP_MOVE_ROOT_TABLE || s->kind == WK_STEP_END_PROCESS ||
            (s->kind == WK_STEP_CREATE_CONTEXT && (s->flags & WK_PROG_CONTEXT_VIRTUAL)) ||
            (s->kind == WK_STEP_CREATE_DEVICE && s->process))
            return 1;
    }
    return 0;
}

static wk_status do_create_device(struct interp *x, const struct wk_step *s)
{
    if (x->ndevices == WK_PROG_MAX_OBJECTS)
        return WK_E_LIMIT;
    uint32_t space = 0, h = 0;
    /* A driver with no address space for the process (not GpuMmu, or one
     * the kit cannot drive) still gets its device: the program's steps
     * that need the space say why they cannot run when they come, and the
     * others run (a fuzzed program that gained a va step is not lost). */
    if (wk_prog_uses_va(x->p)) {
        wk_status st = va_space(x, s->process, &space);
        if (st != WK_OK && st != WK_E_NOT_SUPPORTED)
            return st;
    }
    wk_status st = wk_vidmm_create_device_in(x->vm, s->flags, space, &h);
    if (st == WK_OK)
        x->devices[x->ndevices++] = h;
    return st;
}

/* submit_virtual with a fault: the operand the case left unmapped (for
 * `unmapped`: exactly one of a COPY's two, so the GPU can meet no other
 * fault first) or mapped read-only (for `read_only`: the destination,
 * readable), whose range the GPU must fault in. Anything else is the
 * case's mistake. */
static wk_status fault_target(struct interp *x, const struct wk_step *s, uint32_t space, uint64_t *lo, uint64_t *hi)
{
    struct wk_vidmm *vm = x->vm;
    int copy = s->op == WK_VIRTUAL_COPY;
    const unsigned long long dst = s->offset, src = s->value, size = s->size;
    if (!s->size) /* whether a command of 0 bytes faults is its GPU's own (do_submit_virtual) */
        return wk_vidmm_refuse(vm, WK_E_INVALID_ARGUMENT, "a fault on an operand of 0 bytes: whether a GPU faults "
                               "there is its own");
    if (s->fault == WK_VA_FAULT_READ_ONLY) {
        if (copy && wk_vidmm_va_covered(vm, space, s->value, s->size, 0) != WK_OK)
            return wk_vidmm_refuse(vm, WK_E_INVALID_ARGUMENT,
                                   "fault: read_only, but the COPY's source 0x%llx + 0x%llx is not all mapped: the "
                                   "GPU could fault there first", src, size);
        if (wk_vidmm_va_covered(vm, space, s->offset, s->size, 0) != WK_OK)
            return wk_vidmm_refuse(vm, WK_E_INVALID_ARGUMENT,
                                   "fault: read_only, but the target 0x%llx + 0x%llx is not all mapped (fault: "
                                   "unmapped says that)", dst, size);
        if (wk_vidmm_va_covered(vm, space, s->offset, s->size, 1) == WK_OK)
            return wk_vidmm_refuse(vm, WK_E_INVALID_ARGUMENT,
                                   "fault: read_only, but the target 0x%llx + 0x%llx is mapped writable: a write "
                                   "there does not fault", dst, size);
        *lo = s->offset, *hi = s->offset + s->size;
        return WK_OK;
    }
    int dst_mapped = wk_vidmm_va_covered(vm, space, s->offset, s->size, 0) == WK_OK;
    int src_mapped = !copy || wk_vidmm_va_covered(vm, space, s->value, s->size, 0) == WK_OK;
    if (dst_mapped && src_mapped)
        return wk_vidmm_refuse(vm, WK_E_INVALID_ARGUMENT,
                               "fault: unmapped, but every address the command uses is mapped: nothing to fault on");
    if (!dst_mapped && !src_mapped)
        return wk_vidmm_refuse(vm, WK_E_INVALID_ARGUMENT,
                               "fault: unmapped, but both the COPY's source and its target have unmapped addresses: "
                               "the GPU may fault on either first; leave one of them unmapped");
    *lo = dst_mapped ? s->value : s->offset;
    *hi = *lo + s->size;
    /* An address past the bits the page tables index has no entry to
     * find unmapped: the GPU may refuse it otherwise (the kit's GPU says
     * BAD_ADDRESS), which is no page fault and no driver's doing
     * (libFuzzer: a COPY from 0x270040000000 blamed on the driver). */
    const uint32_t bits = past_va_bits(vm, *lo, *hi);
    if (bits)
        return wk_vidmm_refuse(vm, WK_E_INVALID_ARGUMENT,
                               "fault: unmapped at 0x%llx + 0x%llx, past the %u address bits the page tables index: "
                               "no entry there to be unmapped", (unsigned long long)*lo, size, bits);
    if (dst_mapped && wk_vidmm_va_covered(vm, space, s->offset, s->size, 1) != WK_OK)
        return wk_vidmm_refuse(vm, WK_E_INVALID_ARGUMENT,
                               "fault: unmapped on the COPY's source, but its target 0x%llx + 0x%llx is read-only: "
                               "the GPU may fault there first", dst, size);
    return WK_OK;
}

/* submit_virtual: the one command, in the command set of the GPU that runs
 * it (the kit's, or a binding's encoder), written at the buffer's address
 * through the GPU's MMU (as the user-mode driver writes its command
 * buffer), then DxgkDdiSubmitCommandVirtual of it. A buffer or an operand
 * the case did not map (or mapped read-only for a write) would fault on
 * the GPU for the case's mistake, not the driver's: WK_E_INVALID_ARGUMENT
 * before any of it is written (an outsider's unmapped FILL target drew
 * SUBMITV-GPU-001), unless the step says the command is to fault there. */
static wk_status do_submit_virtual(struct interp *x, const struct wk_step *s)
{
    uint32_t ctx = pick(x->contexts, x->ncontexts, s->context), space;
    if (ctx == NOT_FOUND)
        return WK_E_NOT_FOUND;
    wk_status st = wk_vidmm_context_space(x->vm, ctx, &space); /* its device's process's */
    if (st != WK_OK)
        return st;
    static uint8_t cmd[4096];
    struct wk_encode_commands c;
    memset(&c, 0, sizeof(c));
    c.op = s->op == WK_VIRTUAL_COPY ? WK_USER_OP_COPY : WK_USER_OP_FILL;
    c.value = (uint32_t)s->value;
    c.src = s->value;
    c.dst = s->offset;
    c.size = s->size;
    c.buf = cmd;
    c.cap = sizeof(cmd);
    uint64_t fault_lo = 0, fault_hi = 0;
    if (s->fault != WK_VA_FAULT_NONE) {
        if ((st = fault_target(x, s, space, &fault_lo, &fault_hi)) != WK_OK)
            return st;
    } else {
        /* An operand of 0 bytes still names an address a GPU may check
         * (fuzz_prog on outsider 29's Wren, whose command processor faults
         * a 0-byte FILL at an address past its space; the kit's GPU does
         * not): the kit asks for one only where a byte there is mapped. */
        uint64_t bytes = c.size ? c.size : 1;
        if (c.op == WK_USER_OP_COPY && (st = wk_vidmm_va_covered(x->vm, space, c.src, bytes, 0)) != WK_OK)
            return st;
        if ((st = wk_vidmm_va_covered(x->vm, space, c.dst, bytes, 1)) != WK_OK)
            return st;
    }
    st = wk_vidmm_virtual_commands(x->vm, &c);
    if (st != WK_OK)
        return st;
    if ((st = wk_vidmm_va_put(x->vm, space, s->address, cmd, c.length)) != WK_OK)
        return st;
    if (fault_lo < fault_hi)
        return wk_vidmm_submit_virtual_to_fault(x->vm, ctx, s->address, c.length, fault_lo, fault_hi,
                                                s->fault == WK_VA_FAULT_READ_ONLY);
    return wk_vidmm_submit_virtual(x->vm, ctx, s->address, c.length);
}

/* end_process: the case's process `process` ends, its devices first
 * (wk_vidmm_va_end_process); a later step of that process starts a new
 * one (DxgkDdiCreateProcess again, a new root). A process no step made
 * yet is made and ended: a driver with no address spaces refuses it as
 * it refuses every step that needs one (a skip). */
static wk_status do_end_process(struct interp *x, const struct wk_step *s)
{
    uint32_t space;
    wk_status st = va_space(x, s->process, &space);
    if (st != WK_OK)
        return st;
    x->va_space[s->process % WK_PROG_MAX_PROCESSES] = 0; /* ended, or as good as: never named again */
    x->va_ended[s->process % WK_PROG_MAX_PROCESSES] = 1;
    return wk_vidmm_va_end_process(x->vm, space);
}

static wk_status act(struct interp *x, const struct wk_step *s)
{
    uint32_t h;
    switch (s->kind) {
    case WK_STEP_CREATE_DEVICE: return do_create_device(x, s);
    case WK_STEP_SUBMIT_VIRTUAL: return do_submit_virtual(x, s);
    case WK_STEP_END_PROCESS: return do_end_process(x, s);
    case WK_STEP_MOVE_ROOT_TABLE: {
        uint32_t space;
        wk_status st = va_space(x, s->process, &space);
        if (st != WK_OK)
            return st;
        if (s->flags & WK_PROG_ROOT_SHRINK)
            return wk_vidmm_va_shrink_root(x->vm, space, (s->flags & WK_PROG_ROOT_BY_COPY) != 0);
        return s->flags & WK_PROG_ROOT_BY_COPY ? wk_vidmm_va_move_root_copying(x->vm, space)
                                               : wk_vidmm_va_move_root(x->vm, space);
    }
    case WK_STEP_DESTROY_DEVICE:
        h = pick(x->devices, x->ndevices, s->device);
        return h == NOT_FOUND ? WK_E_NOT_FOUND : wk_vidmm_destroy_device(x->vm, h);
    case WK_STEP_CREATE_CONTEXT: {
        uint32_t dev = pick(x->devices, x->ndevices, s->device);
        if (dev == NOT_FOUND || x->ncontexts == WK_PROG_MAX_OBJECTS)
            return WK_E_NOT_FOUND;
        h = 0;
        wk_status st = wk_vidmm_create_context_on(x->vm, dev, s->flags & WK_PROG_CONTEXT_FLAGS,
                                                  (s->flags >> WK_PROG_CONTEXT_NODE_SHIFT) & WK_PROG_CONTEXT_NODE_MAX,
                                                  &h);
        if (st == WK_OK) /* as the spec loader numbers them: only successful creations */
            x->contexts[x->ncontexts++] = h;
        return st;
    }
    case WK_STEP_DESTROY_CONTEXT:
        h = pick(x->contexts, x->ncontexts, s->context);
        return h == NOT_FOUND ? WK_E_NOT_FOUND : wk_vidmm_destroy_context(x->vm, h);
    case WK_STEP_CREATE_ALLOCATION: return do_create_allocation(x, s);
    case WK_STEP_TOUCH_PHYSICAL: return do_touch(x, s);
    case WK_STEP_SIGNAL_FENCE: return do_signal(x, s);
    case WK_STEP_RENDER: return do_render(x, s);
    case WK_STEP_PATCH: return do_patch(x, s);
    case WK_STEP_HOLD: wk_vidmm_hold_submissions(x->vm, (uint32_t)s->value); return WK_OK;
    case WK_STEP_QUEUE:
        wk_vidmm_queue_renders(x->vm, (uint32_t)s->value, (s->flags & WK_PROG_QUEUE_EACH) != 0);
        return WK_OK;
    case WK_STEP_CANCEL: return wk_vidmm_cancel_held(x->vm, &x->last_cancelled);
    case WK_STEP_WAIT_IDLE: return wk_vidmm_wait_idle(x->vm);
    case WK_STEP_VA_MAP:
    case WK_STEP_VA_UNMAP: return do_va(x, s);
    default: return do_allocation_step(x, s);
    }
}

/* ------------------------------------------------------------------ */
/* Kinds of check (prog.h, docs/verdicts.md "Kinds of check")           */
/* ------------------------------------------------------------------ */

/*
 * Why checks of kind `k` are left out for this run (NULL: they run): the
 * caller's skip_kinds (a mode in which the kit cannot judge them), or the
 * contract profile for the reference driver's own choices. A skip is never
 * a failure: the kit says what it did not judge, and why.
 */
static const char *kind_skipped(const struct interp *x, enum wk_check_kind k)
{
    if (x->skip_kinds & WK_CHECK_BIT(k)) {
        const char *why = x->skip_reason ? x->skip_reason[k] : NULL;
        return why ? why : "the kit cannot judge this kind of check for this driver";
    }
    if (k == WK_CHECK_CHOICE && x->contract)
        return WK_CHOICE_SKIP_REASON;
    return NULL;
}

/* Counts a skipped check; the first skip of a kind keeps its reason. The
 * choice checks skipped are also not_evaluated (the older count). */
static void count_skip(struct interp *x, enum wk_check_kind k, const char *why)
{
    struct wk_case_result *r = x->r;
    if (r->checks[k].skipped++ == 0)
        snprintf(r->skip_reason[k], sizeof(r->skip_reason[k]), "%.*s", (int)sizeof(r->skip_reason[k]) - 1, why);
    if (k == WK_CHECK_CHOICE)
        r->not_evaluated++;
}

/* A sub-check of kind k: 1 when it runs (counted run), 0 when skipped
 * (counted skipped). */
static int count_check(struct interp *x, enum wk_check_kind k)
{
    const char *why = kind_skipped(x, k);
    if (why) {
        count_skip(x, k, why);
        return 0;
    }
    x->r->checks[k].run++;
    return 1;
}

/* An action of a kind left out (a render step when encoder checks are):
 * nothing after it can be judged, since every later step would see a
 * state the refused action should have made. The case is a skip with the
 * kind's reason; steps[from..] are counted as skipped, each check by its
 * own kind (with its own reason when that kind is left out too). */
static void skip_rest(struct interp *x, uint32_t from, const char *why)
{
    const struct wk_prog *p = x->p;
    for (uint32_t i = from; i < p->step_count; i++) {
        enum wk_check_kind kinds[WK_STEP_MAX_CHECKS];
        uint32_t n = wk_step_checks(&p->steps[i], kinds);
        for (uint32_t j = 0; j < n; j++)
            count_skip(x, kinds[j], kind_skipped(x, kinds[j]) ? kind_skipped(x, kinds[j]) : why);
    }
    x->r->verdict = WK_VERDICT_SKIP;
    x->rest_skipped = why;
    wk_vidmm_text_cut(x->r->seen, sizeof(x->r->seen), why);
}

/* ------------------------------------------------------------------ */
/* Checks                                                               */
/* ------------------------------------------------------------------ */

static int failf(struct interp *x, const char *expected, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int failf(struct interp *x, const char *expected, const char *fmt, ...)
{
    snprintf(x->r->expected, sizeof(x->r->expected), "%s", expected);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->r->seen, sizeof(x->r->seen), fmt, ap);
    va_end(ap);
    return 0;
}

static int check_bytes(struct interp *x, uint32_t h, const struct wk_step *s)
{
    uint8_t seen[WK_PROG_MAX_BYTES];
    if (wk_vidmm_read(x->vm, h, s->offset, seen, s->length) != WK_OK)
        return failf(x, "readable bytes", "%s", wk_vidmm_last_error(x->vm));
    for (uint32_t i = 0; i < s->length; i++)
        if (seen[i] != s->data[i])
            return failf(x, "the listed bytes", "byte +0x%llx is 0x%02x, expected 0x%02x",
                         (unsigned long long)(s->offset + i), seen[i], s->data[i]);
    return 1;
}

/* The first byte of buf[0, n) that is not the pattern (n when none): one
 * memcmp against a page of the pattern, the byte loop only to name it. */
static uint64_t pattern_mismatch(const uint8_t *buf, const uint8_t *pat, uint64_t n)
{
    if (memcmp(buf, pat, n) == 0)
        return n;
    uint64_t i = 0;
    while (buf[i] == pat[i])
        i++;
    return i;
}

static int check_pattern(struct interp *x, uint32_t h, const struct wk_step *s,
                         const struct wk_vidmm_allocation_state *st)
{
    uint64_t asked = s->allocation < x->nallocs ? x->alloc_asked[s->allocation] : 0;
    uint64_t end = s->size ? s->offset + s->size : asked && asked < st->size ? asked : st->size;
    uint8_t buf[4096], pat[4096];
    for (uint32_t i = 0; i < sizeof(pat); i++) /* chunks start 4096 apart: the same phase */
        pat[i] = (uint8_t)(s->value >> (8 * (i % 4)));
    for (uint64_t at = s->offset; at < end; at += sizeof(buf)) {
        uint64_t n = end - at < sizeof(buf) ? end - at : sizeof(buf);
        if (wk_vidmm_read(x->vm, h, at, buf, n) != WK_OK)
            return failf(x, "readable bytes", "%s", wk_vidmm_last_error(x->vm));
        uint64_t i = pattern_mismatch(buf, pat, n);
        if (i < n)
            return failf(x, "the pattern in every byte", "byte +0x%llx is 0x%02x, expected 0x%02x (pattern 0x%08llx)",
                         (unsigned long long)(at + i), buf[i], pat[i], (unsigned long long)s->value);
    }
    return 1;
}

/* "segment 2 offset 0x2000 bank 1" of the fields the check names, from
 * the expected (want) or the seen state (st). */
static void placement_text(const struct wk_step *s, const struct wk_vidmm_allocation_state *st, char *buf,
                           size_t size)
{
    int n = 0;
    buf[0] = 0;
    if (s->segment)
        n += snprintf(buf + n, size - (size_t)n, "segment %u", st ? st->segment_id : s->segment);
    if (s->has_offset && n < (int)size)
        n += snprintf(buf + n, size - (size_t)n, "%soffset 0x%llx", n ? " " : "",
                      (unsigned long long)(st ? st->segment_offset : s->offset));
    if (s->has_bank && n < (int)size)
        snprintf(buf + n, size - (size_t)n, "%sbank %u", n ? " " : "", st ? st->bank : s->expect_bank);
}

/*
 * The room a case had is not always the room it was calibrated with, and a
 * placement, a residency or an eviction count that then differs is the
 * memory manager's answer to less room, nothing of the driver's:
 *  - a GpuMmu driver's case: the kit's page tables (the case's address
 *    spaces', and the paging process's, made once content moves:
 *    reference-impl/vidmm/paging_process.c) take segment memory that a
 *    physical driver's adapter keeps free, as the kernel's tables take it
 *    on Windows;
 *  - a driver that answers an allocation larger than the request (its
 *    Size, or an Alignment its hardware needs: "it may round Size and
 *    Alignment up", umd.h): fewer of the case's allocations fit the room
 *    the case gives a segment (outsider 24's 64 KiB-aligned driver failed
 *    seven residency checks and steps on it).
 * room_differs_text writes "<what>, and <why>" in x->skip_text and returns
 * 1 when the room differs; room_differs makes the check a skip saying so.
 */
static int room_differs_text(struct interp *x, const char *what)
{
    uint64_t bytes = wk_vidmm_page_table_bytes(x->vm);
    if (bytes)
        snprintf(x->skip_text, sizeof(x->skip_text), "%s, and the kit's page tables take %llu KiB of the adapter's "
                 "memory, which the case was calibrated without", what, (unsigned long long)(bytes >> 10));
    else if (x->rounded_why[0])
        snprintf(x->skip_text, sizeof(x->skip_text), "%s, and the driver's answers round the case's allocations up "
                 "(%s): fewer fit the room the case was calibrated with", what, x->rounded_why);
    return bytes || x->rounded_why[0];
}

static int room_differs(struct interp *x, const struct wk_step *s, const char *what)
{
    char head[64];
    snprintf(head, sizeof(head), "%s differs", what);
    if (!room_differs_text(x, head))
        return 0;
    enum wk_check_kind kinds[WK_STEP_MAX_CHECKS];
    (void)wk_step_checks(s, kinds);
    x->r->checks[kinds[0]].run--;
    count_skip(x, kinds[0], x->skip_text);
    return 1;
}

/* The contract profile leaves out the offset: where VidMm puts an
 * allocation depends on what the driver allocated before it (the
 * reference driver's context allocations come first), which the DDI
 * leaves to the driver. Segment and bank are what the allocation's
 * private data asked for (include/wddmkit/umd.h). */
static int check_placement(struct interp *x, const struct wk_step *s, const struct wk_vidmm_allocation_state *st)
{
    if (st->resident != s->expect_resident && room_differs(x, s, "residency"))
        return 1;
    if (st->resident != s->expect_resident)
        return failf(x, s->expect_resident ? "resident" : "not resident", "%s",
                     st->resident ? "resident" : "not resident");
    if (!st->resident)
        return 1;
    int offset = s->has_offset && count_check(x, WK_CHECK_CHOICE);
    /* Banks are optional (a segment may be divided into banks, facts §5.6
     * B1): where the driver reports none for the segment, the bank an
     * allocation landed in is no check of the driver. */
    int bank = s->has_bank;
    if (bank && st->bank == 0) {
        bank = 0;
        count_skip(x, WK_CHECK_CONTRACT, "the driver reports no banks for that segment (banks are optional)");
    } else if (bank && x->seg_mapped && s->segment <= WK_PROG_MAX_SEGMENTS && !x->seg_banks_same[s->segment]) {
        bank = 0; /* bank 3 of the driver's is not bank 3 of the case's */
        count_skip(x, WK_CHECK_CONTRACT, "the driver's banks of that segment are not the case's (bank numbers do not compare)");
    }
    /* An allocation whose request named no segment goes where the driver's
     * DXGK_ALLOCATIONINFO said, on a layout of its own or on the GPU
     * model's: the segment it landed in is the driver's choice, no
     * contract (examples/drivers/independent puts one in memory where the
     * reference driver uses the aperture). */
    uint32_t want_segment = seg_role(x, s->segment), index = s->allocation;
    if (want_segment && index < x->nallocs && !x->alloc_named[index] && !count_check(x, WK_CHECK_CHOICE))
        want_segment = 0;
    if (s->has_offset && !offset && index < x->nallocs && st->segment_id == seg_role(x, s->segment) &&
        st->segment_offset != s->offset) /* elsewhere, as the profile allows: later absolute steps miss it */
        x->assumed[index].valid = 1, x->assumed[index].segment = s->segment, x->assumed[index].offset = s->offset,
        x->assumed[index].size = st->size;
    int differs = (want_segment && st->segment_id != want_segment) || (offset && st->segment_offset != s->offset) ||
                  (bank && st->bank != s->expect_bank);
    if (differs && room_differs(x, s, "the placement"))
        return 1;
    if (differs) {
        struct wk_step asked = *s;
        asked.segment = want_segment;
        asked.has_offset = offset;
        asked.has_bank = bank;
        char want[160], seen[160];
        placement_text(&asked, NULL, want, sizeof(want));
        placement_text(&asked, st, seen, sizeof(seen));
        /* Segment and bank follow what the driver answered in its
         * DXGK_ALLOCATIONINFO; say where to look, and which of the
         * driver's segments played the case's. */
        char cast[96] = "";
        if (x->seg_mapped && want_segment)
            snprintf(cast, sizeof(cast), "; segment ids are the driver's: its segment %u plays the case's segment %u",
                     want_segment, s->segment);
        return failf(x, want, "%s%s%s", seen,
                     (want_segment && st->segment_id != want_segment) || (bank && st->bank != s->expect_bank)
                         ? " (placed as the driver's DXGK_ALLOCATIONINFO asked: PreferredSegment, HintedBank; "
                           "include/wddmkit/umd.h: a driver copies the request's valid placement fields)"
                         : "",
                     cast);
    }
    return 1;
}

/*
 * expect_gart: every page of an aperture allocation mapped to its own
 * system page and flushed (outsider 19: a page another operation had
 * re-pointed read as mapped, and a GPU write through it went elsewhere). An
 * allocation whose request did not ask for an aperture (alloc_aperture_asked)
 * goes where the driver's DXGK_ALLOCATIONINFO said (its PreferredSegment and
 * supported sets are its answer, facts §4.9) and where there was room: that
 * it is in an aperture at all is then the driver's choice, the reference
 * driver's in a case calibrated on it, so the check is a choice (skipped in
 * the contract profile) when it is not. examples/drivers/independent places
 * such an allocation in a memory segment where the reference uses the
 * aperture; a promoted case failed it.
 */
static int check_gart(struct interp *x, const struct wk_step *s, uint32_t h, const struct wk_vidmm_allocation_state *st)
{
    if (!st->resident && room_differs(x, s, "residency"))
        return 1;
    if (!st->resident)
        return failf(x, "resident in an aperture", "not resident");
    if (!wk_vidmm_segment_is_aperture(x->vm, st->segment_id) && s->allocation < x->nallocs && !x->alloc_aperture_asked[s->allocation] &&
        !count_check(x, WK_CHECK_CHOICE))
        return 1;
    for (uint64_t page = 0; page < st->size / WK_GPU_PAGE_SIZE; page++) {
        int valid = 0, stale = 0;
        uint64_t pfn = 0;
        uint64_t index = st->segment_offset / WK_GPU_PAGE_SIZE + page;
        if (wk_gpu_gart_get(wk_vidmm_gpu(x->vm), st->segment_id, index, &valid, &pfn, &stale) != WK_OK)
            return failf(x, "an aperture segment", "segment %u is not an aperture", st->segment_id);
        if (!valid || stale)
            return failf(x, "every page mapped and flushed", "page %llu is %s", (unsigned long long)index,
                         valid ? "mapped but not flushed" : "not mapped");
        uint64_t own = 0;
        if (wk_vidmm_allocation_frame(x->vm, h, page, &own) == WK_OK && pfn != own)
            return failf(x, "every page mapped to the allocation's own system page",
                         "page %llu maps PFN 0x%llx, the allocation's page %llu is PFN 0x%llx", (unsigned long long)index,
                         (unsigned long long)pfn, (unsigned long long)page, (unsigned long long)own);
    }
    return 1;
}

static uint64_t stat_value(struct interp *x, const struct wk_step *s)
{
    struct wk_vidmm_stats st;
    wk_vidmm_get_stats(x->vm, &st);
    uint64_t total = 0;
    switch (s->stat) {
    case WK_STAT_PAGING_PASSES: return st.paging_passes;
    case WK_STAT_PAGING_BUFFERS: return st.paging_buffers;
    case WK_STAT_EVICTIONS: return st.evictions;
    case WK_STAT_FENCES: return st.fences_completed;
    case WK_STAT_GPU_FAULTS: return st.gpu_faults;
    case WK_STAT_VIOLATIONS: wk_vidmm_violations(x->vm, NULL, 0, &total); return total;
    case WK_STAT_RENDER_PASSES: return x->last_render.passes;
    case WK_STAT_RENDER_SUBMISSIONS: return x->last_render.submissions;
    case WK_STAT_CANCELLED: return x->last_cancelled;
    case WK_STAT_DDI_CALLS: {
        uint64_t n = (unsigned)s->ddi < WK_DDI_COUNT ? st.ddi_calls[s->ddi] : 0;
        /* The GpuMmu questions (GPUMMUCAPS, one PAGETABLELEVELDESC per
         * level) are the kit's answer to a driver's caps, asked of no
         * physical-addressing driver: the counts the cases pin are the
         * reference driver's, without them. */
        struct wk_vidmm_gpummu_info mmu;
        wk_vidmm_gpummu(x->vm, &mmu);
        return s->ddi == WK_DDI_QUERY_ADAPTER_INFO && n >= mmu.queries ? n - mmu.queries : n;
    }
    case WK_STAT_PAGING_OP:
        /* MAP_APERTURE_SEGMENT2 is the same mapping, for a driver that
         * opted in (reference-impl/vidmm/map_aperture2.c) */
        if (s->op == DXGK_OPERATION_MAP_APERTURE_SEGMENT)
            return st.paging_ops[s->op] + st.paging_ops[DXGK_OPERATION_MAP_APERTURE_SEGMENT2];
        return s->op < 18 ? st.paging_ops[s->op] : 0;
    default: return 0;
    }
}

static const char *const context_info_fields[5] = { "dma_buffer_size", "allocation_list_size",
                                                    "patch_location_list_size", "dma_buffer_segment_set",
                                                    "dma_buffer_private_data_size" };

/*
 * expect_multipass: some operation of kind `op` asked for more room since
 * the case began. Multipass is the driver's answer to its own buffer size,
 * so a case sized from that size (paging_buffers) may still not reach it:
 * a driver may describe a whole transfer in one command. Then the case
 * cannot test what it is about, and is a skip with the reason, never a
 * failure (the checks before it were judged all the same).
 */
static int check_multipass(struct interp *x, const struct wk_step *s)
{
    struct wk_vidmm_stats st;
    wk_vidmm_get_stats(x->vm, &st);
    uint32_t op = s->op < 18 ? s->op : 0;
    /* A GpuMmu driver's transfers and fills are TRANSFER_VIRTUAL and
     * FILL_VIRTUAL (reference-impl/vidmm/paging_process.c); a driver that
     * opted into MAP_APERTURE_SEGMENT2 gets it for every aperture mapping
     * (reference-impl/vidmm/map_aperture2.c). */
    uint32_t other_op = op == DXGK_OPERATION_TRANSFER               ? DXGK_OPERATION_VIRTUAL_TRANSFER
                        : op == DXGK_OPERATION_FILL                 ? DXGK_OPERATION_VIRTUAL_FILL
                        : op == DXGK_OPERATION_MAP_APERTURE_SEGMENT ? DXGK_OPERATION_MAP_APERTURE_SEGMENT2
                                                                    : op;
    if (st.paging_multipass[op] || st.paging_multipass[other_op])
        return 1;
    x->r->checks[WK_CHECK_CONTRACT].run--; /* counted as skipped below, with the rest */
    uint32_t size = x->p->vidmm.paging_buffer_size ? x->p->vidmm.paging_buffer_size
                                                   : wk_vidmm_driver_paging_buffer_size(x->vm);
    snprintf(x->skip_text, sizeof(x->skip_text),
             "multipass not reached: the driver built every %s of the case in one %u-byte paging buffer",
             wk_paging_op_words[op], size);
    skip_rest(x, x->r->failed_step < 0 ? 0 : (uint32_t)x->r->failed_step, x->skip_text);
    return 0;
}

static int check_context_info(struct interp *x, const struct wk_step *s)
{
    uint32_t h = pick(x->contexts, x->ncontexts, s->context);
    DXGK_CONTEXTINFO info;
    if (h == NOT_FOUND || wk_vidmm_context_info(x->vm, h, &info) != WK_OK)
        return failf(x, "an existing context", "context %u does not exist", s->context);
    const UINT fields[5] = { info.DmaBufferSize, info.AllocationListSize, info.PatchLocationListSize,
                             info.DmaBufferSegmentSet, info.DmaBufferPrivateDataSize };
    if (s->field >= 5 || fields[s->field] != s->value) {
        char want[96];
        snprintf(want, sizeof(want), "%s = %llu", s->field < 5 ? context_info_fields[s->field] : "field",
                 (unsigned long long)s->value);
        return failf(x, want, "%u", s->field < 5 ? fields[s->field] : 0);
    }
    return 1;
}

/* "paging_op fill", "ddi_calls CreateDevice", "fences": the stat as the
 * spec names it. */
static void stat_text(const struct wk_step *s, char *buf, size_t size)
{
    const char *word = s->stat < WK_STAT_COUNT ? wk_stat_words[s->stat] : "stat";
    if (s->stat == WK_STAT_DDI_CALLS)
        snprintf(buf, size, "%s %s", word, wk_ddi_name(s->ddi));
    else if (s->stat == WK_STAT_PAGING_OP)
        snprintf(buf, size, "%s %s", word, s->op < 18 ? wk_paging_op_words[s->op] : "?");
    else
        snprintf(buf, size, "%s", word);
}

/*
 * Whether a monitored fence the kit wrote itself (a driver older than WDDM
 * 2.2 is not asked SIGNAL_MONITORED_FENCE, facts §1.1: stats
 * kit_fence_writes) changed this count: the case counted the driver's
 * fence, a paging buffer of its own, with its BuildPagingBuffer passes, its
 * submission, fence and interrupt. What the driver would have added is
 * unknown (its passes are its own), so such a count is not judged; the
 * others (evictions, other operations, renders, faults, violations) are.
 */
static int fence_count(const struct wk_step *s)
{
    switch (s->stat) {
    case WK_STAT_PAGING_PASSES:
    case WK_STAT_PAGING_BUFFERS:
    case WK_STAT_FENCES:
        return 1;
    case WK_STAT_PAGING_OP:
        return s->op == DXGK_OPERATION_SIGNAL_MONITORED_FENCE;
    case WK_STAT_DDI_CALLS:
        return s->ddi == WK_DDI_BUILD_PAGING_BUFFER || s->ddi == WK_DDI_PATCH || s->ddi == WK_DDI_SUBMIT_COMMAND ||
               s->ddi == WK_DDI_INTERRUPT_ROUTINE || s->ddi == WK_DDI_DPC_ROUTINE ||
               s->ddi == WK_DDI_CB_NOTIFY_INTERRUPT || s->ddi == WK_DDI_KDPC_ROUTINE;
    default:
        return 0;
    }
}

static uint64_t kit_fences(struct interp *x)
{
    struct wk_vidmm_stats st;
    wk_vidmm_get_stats(x->vm, &st);
    return st.kit_fence_writes;
}

static int paging_ddi(enum wk_ddi d);

/* Whether a stat counts paging work, which a GpuMmu driver's paging
 * process does otherwise (check_stats). */
static int paging_count(const struct wk_step *s)
{
    switch (s->stat) {
    case WK_STAT_PAGING_PASSES: case WK_STAT_PAGING_BUFFERS: case WK_STAT_PAGING_OP:
    case WK_STAT_FENCES: /* a paging buffer takes a fence too */
        return 1;
    case WK_STAT_DDI_CALLS: return paging_ddi(s->ddi);
    default: return 0;
    }
}

static int paging_process_ran(struct interp *x)
{
    struct wk_vidmm_stats st;
    wk_vidmm_get_stats(x->vm, &st);
    return st.paging_process_setups != 0;
}

static int check_stats(struct interp *x, const struct wk_step *s)
{
    if (fence_count(s) && kit_fences(x)) {
        x->r->checks[WK_CHECK_CHOICE].run--; /* counted as skipped instead */
        count_skip(x, WK_CHECK_CHOICE,
                   "the driver is older than WDDM 2.2, so the kit wrote the case's monitored fences itself "
                   "(SIGNAL_MONITORED_FENCE is WDDM 2.2's): the count left out what the driver's would have added");
        return 1;
    }
    uint64_t v = stat_value(x, s);
    int out = v < s->min || (s->has_max && v > s->max);
    if (out && paging_count(s) && paging_process_ran(x)) {
        enum wk_check_kind kinds[WK_STEP_MAX_CHECKS];
        (void)wk_step_checks(s, kinds);
        x->r->checks[kinds[0]].run--; /* counted as skipped instead */
        count_skip(x, kinds[0],
                   "a GpuMmu driver's transfers and fills ran in the paging process (TRANSFER_VIRTUAL, FILL_VIRTUAL, "
                   "scratch-area updates): the case counts paging work of other operations");
        return 1;
    }
    if (out && (paging_count(s) || s->stat == WK_STAT_EVICTIONS) && room_differs(x, s, "the count"))
        return 1;
    if (out) {
        char name[96], want[160];
        stat_text(s, name, sizeof(name));
        if (!s->has_max)
            snprintf(want, sizeof(want), "%s at least %llu", name, (unsigned long long)s->min);
        else if (s->min == s->max)
            snprintf(want, sizeof(want), "%s = %llu", name, (unsigned long long)s->min);
        else
            snprintf(want, sizeof(want), "%s in [%llu, %llu]", name, (unsigned long long)s->min,
                     (unsigned long long)s->max);
        if (s->stat == WK_STAT_VIOLATIONS && v > 0) { /* outsider 19: "seen: 1" named no rule */
            struct wk_violation first;
            uint64_t total = 0;
            if (wk_vidmm_violations(x->vm, &first, 1, &total) == 1) {
                /* the case broke that rule: its verdict names it (outsider
                 * 25's report said "none broken", its JSON rule null) */
                snprintf(x->r->rule, sizeof(x->r->rule), "%s", first.rule);
                return failf(x, want, "%llu violation%s, the first: %.200s", (unsigned long long)v, v == 1 ? "" : "s",
                             first.message);
            }
        }
        return failf(x, want, "%llu", (unsigned long long)v);
    }
    return 1;
}

/* After a data check failed (0 returned): when VidMm left render
 * submissions with patch locations unpatched, because their context
 * reported DXGK_CONTEXTINFO.Caps.NoPatchingRequired, the message says so.
 * It is the likeliest reason, and without it the author looks for a bug in
 * a Patch that was never called (reference-impl/vidmm/context_caps.c). */
static int data_failed(struct interp *x)
{
    uint32_t context = 0;
    uint32_t n = wk_vidmm_unpatched(x->vm, &context);
    size_t len = strlen(x->r->seen);
    if (n && len < sizeof(x->r->seen))
        snprintf(x->r->seen + len, sizeof(x->r->seen) - len,
                 "; DxgkDdiPatch was not called for %u render submission%s with patch locations: context %u "
                 "reported DXGK_CONTEXTINFO.Caps.NoPatchingRequired",
                 n, n == 1 ? "" : "s", context);
    return 0;
}

/* expect_va that faults: the GPU's access at the address must fault with
 * this reason (a read for unmapped; for read_only a read that works, then
 * a write of the same bytes). */
static int check_va_fault(struct interp *x, const struct wk_step *s, uint32_t space)
{
    uint8_t b[4];
    struct wk_mem_fault f;
    memset(&f, 0, sizeof(f));
    wk_status st = wk_vidmm_va_read(x->vm, space, s->address, b, sizeof(b), &f);
    uint32_t want = WK_GPU_FAULT_VA_UNMAPPED;
    struct wk_vidmm_gpummu_info mmu;
    wk_vidmm_gpummu(x->vm, &mmu);
    if (s->fault == WK_VA_FAULT_READ_ONLY && !mmu.caps.ReadOnlyMemorySupported) {
        /* DXGK_PTE.ReadOnly is given only to a driver that honours it
         * (wddm-gpummu-facts.md 1.3): a writable page is its right. */
        x->r->checks[WK_CHECK_SEMANTIC].run--;
        count_skip(x, WK_CHECK_SEMANTIC, "the driver does not set DXGK_GPUMMUCAPS.ReadOnlyMemorySupported: its "
                                         "pages are never read-only");
        return 1;
    }
    if (s->fault == WK_VA_FAULT_READ_ONLY) {
        if (st != WK_OK)
            return failf(x, "a readable read-only page", "a read at 0x%llx faults: %s",
                         (unsigned long long)s->address, wk_gpu_fault_message((enum wk_gpu_fault_reason)f.reason));
        st = wk_vidmm_va_write(x->vm, space, s->address, b, sizeof(b), &f);
        want = WK_GPU_FAULT_VA_READ_ONLY;
    }
    if (st == WK_E_GPU_FAULT && f.reason == want)
        return 1;
    char expected[96];
    snprintf(expected, sizeof(expected), "a fault: %s", wk_gpu_fault_message((enum wk_gpu_fault_reason)want));
    return failf(x, expected, "the GPU's %s at 0x%llx %s%s",
                 s->fault == WK_VA_FAULT_READ_ONLY ? "write" : "read", (unsigned long long)s->address,
                 st == WK_OK ? "went through" : "faulted: ",
                 st == WK_OK ? "" : wk_gpu_fault_message((enum wk_gpu_fault_reason)f.reason));
}

/* expect_va: what the GPU reads at the address through its MMU is the
 * allocation's bytes there (the kit's own read of the allocation). */
static int check_va(struct interp *x, const struct wk_step *s)
{
    uint32_t space = x->va_space[s->process % WK_PROG_MAX_PROCESSES];
    if (!space)
        return failf(x, "an address space",
                     x->va_ended[s->process % WK_PROG_MAX_PROCESSES]
                         ? "process %u ended (end_process) and no step started it again before this expect_va, "
                           "which starts none"
                         : "no step made process %u's before this expect_va",
                     s->process + 1);
    if (s->fault != WK_VA_FAULT_NONE)
        return check_va_fault(x, s, space);
    uint32_t h = pick(x->allocs, x->nallocs, s->allocation);
    if (h == NOT_FOUND)
        return failf(x, "an existing allocation", "allocation %u was never created", s->allocation);
    static uint8_t via_gpu[WK_PROG_MAX_VA_COMPARE], own[WK_PROG_MAX_VA_COMPARE];
    uint64_t n = s->size < sizeof(own) ? s->size : sizeof(own);
    struct wk_mem_fault f;
    memset(&f, 0, sizeof(f));
    if (wk_vidmm_read(x->vm, h, s->offset, own, n) != WK_OK)
        return failf(x, "readable bytes", "%s", wk_vidmm_last_error(x->vm));
    if (wk_vidmm_va_read(x->vm, space, s->address, via_gpu, n, &f) != WK_OK)
        return failf(x, "the allocation's bytes", "the GPU's read at 0x%llx faults at 0x%llx: %s",
                     (unsigned long long)s->address, (unsigned long long)f.addr,
                     wk_gpu_fault_message((enum wk_gpu_fault_reason)f.reason));
    for (uint64_t i = 0; i < n; i++)
        if (via_gpu[i] != own[i])
            return failf(x, "the allocation's bytes", "at 0x%llx the GPU reads 0x%02x, the allocation holds 0x%02x at +0x%llx",
                         (unsigned long long)(s->address + i), via_gpu[i], own[i],
                         (unsigned long long)(s->offset + i));
    return 1;
}

/* 1 when the check holds; 0 with expected/seen filled. A check of a kind
 * left out holds, counted as skipped (its sub-checks with it). */
static int check(struct interp *x, const struct wk_step *s)
{
    enum wk_check_kind kinds[WK_STEP_MAX_CHECKS];
    uint32_t n = wk_step_checks(s, kinds);
    const char *why = kind_skipped(x, kinds[0]);
    if (why) {
        for (uint32_t i = 0; i < n; i++)
            count_skip(x, kinds[i], kind_skipped(x, kinds[i]) ? kind_skipped(x, kinds[i]) : why);
        return 1;
    }
    x->r->checks[kinds[0]].run++;
    if (s->kind == WK_STEP_EXPECT_STATS)
        return check_stats(x, s);
    if (s->kind == WK_STEP_EXPECT_CONTEXT_INFO)
        return check_context_info(x, s);
    if (s->kind == WK_STEP_EXPECT_MULTIPASS)
        return check_multipass(x, s);
    if (s->kind == WK_STEP_EXPECT_VA)
        return check_va(x, s);
    uint32_t h = pick(x->allocs, x->nallocs, s->allocation);
    if (h == NOT_FOUND)
        return failf(x, "an existing allocation", "allocation %u was never created", s->allocation);
    switch (s->kind) {
    case WK_STEP_EXPECT_BYTES: return check_bytes(x, h, s) || data_failed(x);
    case WK_STEP_EXPECT_PATTERN:
    case WK_STEP_EXPECT_PLACEMENT:
    case WK_STEP_EXPECT_GART: {
        /* A destroyed allocation's handle is gone: the check fails on the
         * kit's error, never on a state struct the call did not fill (the
         * outcome then depended on the stack, and so on the runs before). */
        struct wk_vidmm_allocation_state st;
        if (wk_vidmm_allocation_state(x->vm, h, &st) != WK_OK)
            return failf(x, "an existing allocation", "%s", wk_vidmm_last_error(x->vm));
        if (s->kind == WK_STEP_EXPECT_PATTERN)
            return check_pattern(x, h, s, &st) || data_failed(x);
        return s->kind == WK_STEP_EXPECT_PLACEMENT ? check_placement(x, s, &st) : check_gart(x, s, h, &st);
    }
    case WK_STEP_EXPECT_DIGEST: {
        uint64_t d = 0;
        uint64_t asked = s->allocation < x->nallocs ? x->alloc_asked[s->allocation] : 0;
        if (wk_vidmm_digest_first(x->vm, h, asked, &d) != WK_OK || d != s->value) {
            char want[48];
            snprintf(want, sizeof(want), "digest 0x%016llx", (unsigned long long)s->value);
            return failf(x, want, "digest 0x%016llx", (unsigned long long)d) || data_failed(x);
        }
        return 1;
    }
    default: return 1;
    }
}

static int is_check(enum wk_step_kind k)
{
    return wk_step_is_check(k);
}

/* ------------------------------------------------------------------ */
/* Running and judging                                                  */
/* ------------------------------------------------------------------ */

/* " (and 2 more: SEG-FLAGS-001, SEG-CPU-001)": the rules of the violations
 * after the first, each once, "..." when more were recorded than kept, so
 * that "and more" says what more. */
static void more_rules(const struct wk_violation *v, uint32_t kept, uint64_t total, char *buf, size_t size)
{
    buf[0] = 0;
    if (total < 2)
        return;
    int n = snprintf(buf, size, " (and %llu more: ", (unsigned long long)(total - 1));
    for (uint32_t i = 1; i < kept && n > 0 && (size_t)n < size; i++) {
        uint32_t j = 1;
        while (j < i && strcmp(v[j].rule, v[i].rule) != 0)
            j++;
        if (j == i) /* first time in the list */
            n += snprintf(buf + n, size - (size_t)n, "%s%s", i > 1 ? ", " : "", v[i].rule);
    }
    if (n > 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, "%s)", total > kept ? ", ..." : "");
}

static void first_violation(struct interp *x, const char *expected)
{
    enum { KEEP = 4 };
    struct wk_violation v[KEEP];
    uint64_t total = 0;
    uint32_t kept = wk_vidmm_violations(x->vm, v, KEEP, &total);
    if (kept == 0)
        return;
    char more[128];
    more_rules(v, kept, total, more, sizeof(more));
    snprintf(x->r->rule, sizeof(x->r->rule), "%s", v[0].rule);
    snprintf(x->r->expected, sizeof(x->r->expected), "%s", expected);
    size_t room = sizeof(x->r->seen) - strlen(more);
    wk_vidmm_text_cut(x->r->seen, room, v[0].message);
    snprintf(x->r->seen + strlen(x->r->seen), sizeof(x->r->seen) - strlen(x->r->seen), "%s", more);
    /* The next rule's message in full: a GPU fault is often first and the
     * wrong table update that caused it second (outsider 29 read "(and 1
     * more: PAGING-UPDATEPT-001)" and found that rule's text nowhere). */
    for (uint32_t i = 1; i < kept; i++)
        if (strcmp(v[i].rule, v[0].rule) != 0) {
            wk_vidmm_text_cut(x->r->also, sizeof(x->r->also), v[i].message);
            break;
        }
}

/* By rule number: by name it was 86 searches of the catalogue, a few
 * thousand strcmp calls a run, 15% of fuzz_hostile's time under libFuzzer
 * (whose strcmp hook also filled its table of compared values with rule
 * IDs). */
static void record_tripped(struct interp *x)
{
    uint32_t n = 0;
    wk_rules(&n);
    for (uint32_t i = 0; i < n && i < WK_RULE_CAPACITY; i++)
        if (wk_vidmm_rule_violated(x->vm, i))
            x->r->rules_tripped[i / 64] |= 1ull << (i % 64);
    wk_vidmm_get_stats(x->vm, &x->r->stats);
}

/* Why the contract profile leaves a whole case out (NULL: it runs). Decided
 * before the adapter is built: a negative case's corruption must never be
 * armed in a case that does not run (it would fire during the teardown). */
static const char *contract_skip(const struct wk_prog *p, int contract)
{
    if (!contract)
        return NULL;
    if (p->requires & WK_REQ_REFERENCE)
        return "the case pins choices the DDI leaves to the driver, made as the reference driver makes them "
               "(requires: reference-driver; --profile reference runs it)";
    if (p->has_rewrite)
        return "a negative case: it checks that the kit flags a corrupted answer, aimed at the reference "
               "driver's calls (--profile reference runs it)";
    return NULL;
}

/* Why a case cannot run on the driver's one load of the process (NULL:
 * it can): DriverEntry read the registry the first case gave it, and a
 * real driver reads it again only when it is loaded again. */
static const char *needs_own_entry(const struct wk_prog *p, const struct wk_run_options *o)
{
    return o && o->once ? wk_vidmm_driver_mismatch(o->once, p->registry.count ? &p->registry : NULL) : NULL;
}

/* A capability the case needs and the driver lacks makes the case a skip. */
static const char *missing_requirement(struct interp *x)
{
    uint32_t req = x->p->requires;
    DXGK_DRIVERCAPS caps;
    wk_vidmm_driver_caps(x->vm, &caps);
    if ((req & WK_REQ_CANCEL) && (!caps.SchedulingCaps.CancelCommandAware || !wk_vidmm_has_ddi(x->vm, WK_DDI_CANCEL_COMMAND)))
        return "the driver is not CancelCommandAware";
    if ((req & WK_REQ_RENDER) && (!wk_vidmm_has_ddi(x->vm, WK_DDI_RENDER) || !wk_vidmm_has_ddi(x->vm, WK_DDI_SUBMIT_COMMAND)))
        return "the driver has no Render or SubmitCommand";
    /* umd.h: "The format sets no limit on sizes; hardware may ..., and a
     * driver refuses what its own cannot do": a command at the GPU model's
     * limit judges only a driver of that GPU. */
    if ((req & WK_REQ_MODEL_LIMITS) && !x->gpu_model)
        return "the case works at the kit's GPU's own limits (its largest command, the top of its address bits: "
               "docs/gpu-model.md); this driver's hardware has its own (include/wddmkit/umd.h)";
    /* An adapter whose system memory the driver's GPU does not reach (the
     * high-memory cases put theirs at 6 GiB) asks what no VidMm asks. */
    return wk_vidmm_system_unreachable(x->vm, x->skip_text, sizeof(x->skip_text));
}

/* A DDI the driver failed after the kit refused one of its callbacks for
 * a limit of the kit's (a context allocation it could not place or update:
 * wk_vidmm_take_kit_refusal) failed for the kit's reason: the case is a skip
 * that says so, unless the driver broke a rule on the way. */
static int kit_refused_first(struct interp *x, const struct wk_prog *p, uint32_t i)
{
    char why[sizeof(x->skip_text) - 48];
    if (!wk_vidmm_take_kit_refusal(x->vm, why, sizeof(why)))
        return 0;
    uint64_t broke = 0;
    if (!p->has_rewrite)
        wk_vidmm_violations(x->vm, NULL, 0, &broke);
    if (broke)
        return 0;
    snprintf(x->skip_text, sizeof(x->skip_text), "%s; the driver failed the call after it", why);
    skip_rest(x, i + 1, x->skip_text);
    return 1;
}

static wk_status bring_up(struct interp *x, const struct wk_run_options *o, struct wk_mutation_state *ms)
{
    struct wk_vidmm_config cfg = x->p->vidmm;
    cfg.gpu = &x->p->gpu;
    cfg.registry = x->p->registry.count ? &x->p->registry : NULL;
    cfg.pci_config = x->p->has_pci_config ? x->p->pci_config : NULL;
    cfg.seed += o ? o->seed : 0;
    if (o && o->binding && o->gpu != WK_GPU_NONE) {
        /* The hardware binding: its memory is the adapter's, its processor
         * runs the driver's buffers (binding.h). The runner checked it once;
         * a module that changed since is refused here, by name. */
        const struct wk_binding *b = NULL;
        if (wk_vidmm_binding_open(o->binding, &b, x->skip_text, sizeof(x->skip_text)) != WK_OK)
            return WK_E_IO;
        cfg.binding = b;
    }
    wk_status st = wk_vidmm_create(&cfg, &x->vm);
    if (st != WK_OK)
        return st;
    if (x->p->has_rewrite) {
        const struct wk_mutation *m = wk_mutation_find(x->p->rewrite.mutation);
        if (!m)
            return WK_E_NOT_FOUND;
        wk_mutation_arm(x->vm, ms, m, x->p->rewrite.call, x->p->rewrite.param);
        /* its call count is the driver's: no fence written by the kit in
         * place of a driver's (wk_vidmm_signal_monitored_fence) */
        wk_vidmm_allow_kit_fences(x->vm, 0);
    }
    DRIVER_INITIALIZE *entry = o && o->entry ? o->entry : wk_refdriver_DriverEntry;
    if (o && o->once)
        st = wk_vidmm_load_once(x->vm, o->once, o->driver, entry);
    else if (o && o->driver)
        st = wk_vidmm_load(x->vm, o->driver);
    else
        st = wk_vidmm_attach(x->vm, entry);
    if (st != WK_OK)
        return st;
    /* A driver for other hardware: nothing executes its buffers, and the
     * checks of what they did, and the cases that hand it the kit's own UMD
     * format, are skipped with the reason, never failed. */
    static const char *const none_reasons[WK_CHECK_KIND_COUNT] = {
        [WK_CHECK_SEMANTIC] = WK_GPU_NONE_SEMANTIC_REASON,
        [WK_CHECK_ENCODER] = WK_GPU_NONE_ENCODER_REASON,
    };
    /* The contract profile holds the driver to no rule of the reference
     * driver's own choices (wk_rule_is_choice). */
    wk_vidmm_skip_choice_rules(x->vm, x->contract);
    enum wk_gpu_target gpu = o ? o->gpu : WK_GPU_AUTO;
    const struct wk_binding *b = wk_vidmm_binding(x->vm);
    if (b && b->processor)
        gpu = WK_GPU_BINDING; /* the binding's processor executes the buffers */
    if (gpu == WK_GPU_BINDING && !(b && b->processor))
        gpu = WK_GPU_NONE; /* asked for, but nothing to execute them with */
    if (gpu == WK_GPU_BINDING) {
        /* The cases in the kit's UMD format judge a driver that reads it;
         * the others need the binding's encoder. */
        static const char *const binding_reasons[WK_CHECK_KIND_COUNT] = {
            [WK_CHECK_ENCODER] = WK_BINDING_NO_ENCODER_REASON,
        };
        enum wk_umd_format umd = o ? o->umd : WK_UMD_AUTO;
        int kit_umd = umd == WK_UMD_KIT || (umd == WK_UMD_AUTO && wk_vidmm_driver_declares_kit_umd(x->vm) == 1);
        x->binding_encoder = !kit_umd && wk_vidmm_binding_encodes(x->vm);
        /* Two encoders, two formats: a binding may encode Render's bytes
         * and leave CreateAllocation the kit's request (an outsider's
         * driver that reads it lost every allocation-format check). */
        x->binding_allocations = wk_vidmm_binding_encodes_allocations(x->vm);
        x->no_interrupts = b->registers == NULL;
        if (!kit_umd && !x->binding_encoder) {
            if (!x->skip_reason)
                x->skip_reason = binding_reasons;
            x->skip_kinds |= WK_CHECK_BIT(WK_CHECK_ENCODER);
        }
    } else if (gpu == WK_GPU_NONE || (gpu == WK_GPU_AUTO && wk_vidmm_driver_declares_model(x->vm) == 0)) {
        wk_vidmm_set_no_model(x->vm, 1);
        if (!x->skip_reason)
            x->skip_reason = none_reasons;
        x->skip_kinds |= WK_CHECK_BIT(WK_CHECK_SEMANTIC);
        /* The cases in the kit's UMD format still judge a driver that reads it. */
        enum wk_umd_format umd = o ? o->umd : WK_UMD_AUTO;
        if (umd == WK_UMD_NONE || (umd == WK_UMD_AUTO && wk_vidmm_driver_declares_kit_umd(x->vm) != 1))
            x->skip_kinds |= WK_CHECK_BIT(WK_CHECK_ENCODER);
    } else {
        x->gpu_model = 1;
    }
    return wk_vidmm_start(x->vm);
}

/*
 * A negative case that corrupts the Nth call of the paging work (a paging
 * buffer's build, submission, patch or interrupt) counts the physical
 * reference driver's calls. A GpuMmu driver's transfers and fills run in
 * the paging process, with the kit's updates of its scratch area between
 * them (reference-impl/vidmm/paging_process.c): its Nth call is another
 * one, and neither a corruption missed nor one accepted says anything of
 * the driver. A skip with the reason.
 */
static int paging_ddi(enum wk_ddi d)
{
    return d == WK_DDI_BUILD_PAGING_BUFFER || d == WK_DDI_SUBMIT_COMMAND || d == WK_DDI_PATCH ||
           d == WK_DDI_INTERRUPT_ROUTINE || d == WK_DDI_DPC_ROUTINE || d == WK_DDI_CB_NOTIFY_INTERRUPT;
}

static int aimed_at_physical_paging(struct interp *x, const struct wk_mutation_state *ms)
{
    if (!ms->mutation || !paging_ddi(ms->mutation->ddi) || !paging_process_ran(x))
        return 0;
    struct wk_case_result *r = x->r;
    snprintf(r->seen, sizeof(r->seen), "the corruption %s aims at call %u of the physical reference driver's %s "
             "calls, and this GpuMmu driver's transfers and fills ran in the paging process (TRANSFER_VIRTUAL, "
             "FILL_VIRTUAL), with other calls", ms->mutation->name, ms->call, wk_ddi_name(ms->mutation->ddi));
    r->verdict = WK_VERDICT_SKIP;
    r->expected[0] = '\0';
    return 1;
}

/*
 * A negative case corrupts the driver's answer to the Nth matching call;
 * when the driver never makes that call there was nothing to detect, and
 * "the corrupted answer was accepted" would be untrue: the spec aims at a
 * call that is not there. (The contract profile skips negative cases.)
 */
static int mutation_missed(struct interp *x, const struct wk_mutation_state *ms)
{
    if (ms->applied)
        return 0;
    struct wk_case_result *r = x->r;
    char calls[320];
    if (ms->unchanged) { /* a limit of the corruption, not the driver's doing: a skip */
        snprintf(r->seen, sizeof(r->seen), "the corruption %s never applied: the answer it aims at held nothing of "
                 "its own to change (it edits the commands of the kit's GPU; another GPU's buffer holds others)",
                 ms->mutation ? ms->mutation->name : "?");
        r->verdict = WK_VERDICT_SKIP;
        r->expected[0] = '\0';
        return 1;
    }
    snprintf(calls, sizeof(calls), "the corruption %s never applied: %u %s call%s, it corrupts call %u",
             ms->mutation ? ms->mutation->name : "?", ms->seen, ms->mutation ? wk_ddi_name(ms->mutation->ddi) : "?",
             ms->seen == 1 ? "" : "s", ms->call);
    r->verdict = WK_VERDICT_FAIL;
    r->rule[0] = '\0'; /* nothing was judged: the rule it aims at was not broken (outsider 24 read the
                          by-rule table of a reference-profile run as 9 MEM-GUARD-001 it never broke) */
    snprintf(r->expected, sizeof(r->expected), "a violation of %s", x->p->trips);
    snprintf(r->seen, sizeof(r->seen), "%s", calls);
    return 1;
}

/* A negative case the kit cannot judge when nothing executes the driver's
 * buffers (--gpu none): its rule is checked by executing them, or the call
 * it corrupts (an interrupt, a completion) comes only from an executing
 * GPU. A skip with the reason, never a failure. */
static int unjudgeable_without_model(struct interp *x, const struct wk_mutation_state *ms)
{
    if (x->no_interrupts && !ms->applied) {
        /* A binding's processor without a register model: the kit runs
         * the buffers and retires their fences, and no interrupt comes. */
        snprintf(x->r->seen, sizeof(x->r->seen),
                 "the call the corruption %s aims at never came: %u %s call%s; the binding has no register model, so "
                 "no interrupt reports a fence",
                 ms->mutation ? ms->mutation->name : "?", ms->seen, ms->mutation ? wk_ddi_name(ms->mutation->ddi) : "?",
                 ms->seen == 1 ? "" : "s");
        x->r->verdict = WK_VERDICT_SKIP;
        x->r->expected[0] = '\0';
        return 1;
    }
    if (!(x->skip_kinds & WK_CHECK_BIT(WK_CHECK_SEMANTIC)))
        return 0;
    struct wk_case_result *r = x->r;
    if (wk_rule_needs_model(x->p->trips))
        snprintf(r->seen, sizeof(r->seen), "%s is checked by executing the driver's buffers: %s", x->p->trips,
                 WK_GPU_NONE_SEMANTIC_REASON);
    else if (!ms->applied && x->rest_skipped) /* the step that would have made the call was not run */
        snprintf(r->seen, sizeof(r->seen), "the call the corruption %s aims at never came: %s",
                 ms->mutation ? ms->mutation->name : "?", x->rest_skipped);
    else if (!ms->applied) /* the driver made fewer such calls: its own choice, not the mode's */
        snprintf(r->seen, sizeof(r->seen),
                 "the call the corruption %s aims at never came: %u %s call%s, it corrupts call %u (a negative case "
                 "aims at the reference driver's calls)",
                 ms->mutation ? ms->mutation->name : "?", ms->seen, ms->mutation ? wk_ddi_name(ms->mutation->ddi) : "?",
                 ms->seen == 1 ? "" : "s", ms->call);
    else
        return 0;
    r->verdict = WK_VERDICT_SKIP;
    r->expected[0] = '\0';
    return 1;
}

static void judge_negative(struct interp *x, const struct wk_mutation_state *ms)
{
    struct wk_case_result *r = x->r;
    snprintf(r->rule, sizeof(r->rule), "%s", x->p->trips);
    if (wk_vidmm_violated(x->vm, x->p->trips)) {
        r->verdict = WK_VERDICT_PASS;
        return;
    }
    if (unjudgeable_without_model(x, ms))
        return;
    if (aimed_at_physical_paging(x, ms))
        return;
    if (mutation_missed(x, ms))
        return;
    r->verdict = WK_VERDICT_FAIL;
    snprintf(r->expected, sizeof(r->expected), "a violation of %s", x->p->trips);
    struct wk_violation v;
    uint64_t total = 0;
    if (wk_vidmm_violations(x->vm, &v, 1, &total))
        snprintf(r->seen, sizeof(r->seen), "%llu other violation(s), first: %.280s", (unsigned long long)total, v.message);
    else
        snprintf(r->seen, sizeof(r->seen), "no violation at all (the corrupted answer was accepted)");
}

/* What the driver reported of its segments: the bank count of segment id
 * (0: none), and its aperture segments, bit (id - 1) each. */
static void driver_segments(struct interp *x, uint32_t id, uint32_t *banks, uint32_t *apertures)
{
    struct wk_vidmm_segment_info seg[WK_PROG_MAX_SEGMENTS + 1];
    uint32_t n = wk_vidmm_segments(x->vm, seg, WK_PROG_MAX_SEGMENTS + 1);
    *banks = *apertures = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (seg[i].id == id)
            *banks = seg[i].banks;
        if (seg[i].aperture && seg[i].id >= 1 && seg[i].id <= 32)
            *apertures |= 1u << (seg[i].id - 1);
    }
}

/* The encoder sub-check of a create_allocation that names preferences,
 * banks, an eviction set or flags (wk_step_checks): a driver that reads the
 * kit's allocation format keeps the request's placement fields where they
 * are valid for its segments, and its flags (include/wddmkit/umd.h). Bank numbers are compared only where
 * the driver's segment has the description's banks. */
static int check_request_kept(struct interp *x, const struct wk_step *s)
{
    if (!wk_step_names_kept_fields(s))
        return 1;
    if (x->binding_allocations) {
        count_skip(x, WK_CHECK_ENCODER, WK_BINDING_OWN_ALLOCATION_FORMAT_REASON);
        return 1;
    }
    struct wk_vidmm_allocation_state st;
    if (!count_check(x, WK_CHECK_ENCODER) || x->nallocs == 0 ||
        wk_vidmm_allocation_state(x->vm, x->allocs[x->nallocs - 1], &st) != WK_OK)
        return 1;
    char why[192];
    uint32_t first = st.preferred & 0x1Fu, described = s->alloc.preferred & 0x1Fu, banks, apertures;
    driver_segments(x, first, &banks, &apertures);
    /* Flags: every flag asked is kept; the driver may add what its
     * hardware needs (umd.h) */
    if ((st.flags & x->last_flags) != x->last_flags)
        return failf(x, "the request's Flags kept (umd.h)", "Flags 0x%x for the request's 0x%x: 0x%x dropped",
                     st.flags, x->last_flags, x->last_flags & ~st.flags);
    /* EvictionSegmentSet: the request's, less what is not an aperture the
     * driver reports (facts §4.9: eviction goes to aperture segments) */
    if (st.eviction != (x->last_eviction & apertures))
        return failf(x, "the request's EvictionSegmentSet, less what is not an aperture (umd.h)",
                     "EvictionSegmentSet 0x%x for the request's 0x%x (apertures 0x%x)", st.eviction,
                     x->last_eviction, apertures);
    if (!wk_preference_kept(x->last_preferred, st.preferred, st.supported_write, why, sizeof(why)))
        return failf(x, "the request's segment preferences, less those invalid for the driver (umd.h)",
                     "PreferredSegment 0x%08x for the request's 0x%08x: %s", st.preferred, x->last_preferred, why);
    int comparable = !x->seg_mapped || (described <= WK_PROG_MAX_SEGMENTS && x->seg_banks_same[described]);
    if (!x->last_hinted_bank || first == 0 || first != (x->last_preferred & 0x1Fu) || !comparable)
        return 1;
    if (banks && !wk_banks_kept(x->last_hinted_bank, st.hinted_bank, banks, why, sizeof(why)))
        return failf(x, "the request's bank hints, less those the segment lacks (umd.h)",
                     "HintedBank 0x%08x for the request's 0x%08x: %s", st.hinted_bank, x->last_hinted_bank, why);
    return 1;
}

/* A driver of the GPU model reports the GPU's segments as the GPU has
 * them (gpu_layout.c): checked once per case, before its first step. */
static int check_layout(struct interp *x)
{
    /* The hardware's memory: the kit's GPU as the case describes it, or a
     * binding's (its memory is the device's, drivers-for-other-hardware.md:
     * a driver may report part of it, never memory it does not have;
     * outsider 24 found the binding's layout unchecked). */
    const struct wk_binding *b = wk_vidmm_binding(x->vm);
    const struct wk_gpu_segment_desc *hw = x->p->segments;
    uint32_t nhw = x->p->gpu.segment_count;
    if (!x->gpu_model && b && b->processor && b->memory)
        hw = b->memory->segments, nhw = b->memory->segment_count;
    else if (!x->gpu_model)
        return 1;
    if (!count_check(x, WK_CHECK_SEMANTIC))
        return 1;
    struct wk_vidmm_segment_info d[WK_PROG_MAX_SEGMENTS];
    uint32_t nd = wk_vidmm_segments(x->vm, d, WK_PROG_MAX_SEGMENTS);
    char why[256];
    if (wk_layout_matches_gpu(hw, nhw, d, nd, why, sizeof(why)))
        return 1;
    x->r->failed_step = 0;
    return failf(x, x->gpu_model ? "the GPU's segments, each reported as the kind the GPU has at its addresses"
                                 : "the hardware's segments (the binding's memory), each reported as the kind it has "
                                   "at its addresses",
                 "%s", why);
}

/*
 * The case's injected failure (adapter `fail:`, vidmm.h) happened during
 * this step and the driver failed the call: what Windows allows when
 * memory runs out (facts §5.7 X6 for CreateContext; a failed callback may
 * be passed on). The object was not made, so the steps after it cannot
 * run; the case ends here and is judged by what is left: no rule broken
 * (the teardown's leak rules included). A driver that succeeded anyway
 * runs on as usual.
 */
static int injected_failure_ends(const struct interp *x, const struct wk_step *s, wk_status st,
                                 uint32_t injected_before)
{
    return wk_vidmm_injected(x->vm) != injected_before && st == WK_E_DRIVER_FAILED && s->expect_status == WK_OK;
}

static int injected_end(struct interp *x)
{
    uint64_t total = 0;
    wk_vidmm_violations(x->vm, NULL, 0, &total);
    if (total) {
        first_violation(x, "no contract violation");
        return 0;
    }
    x->r->failed_step = -1;
    return 1;
}

/* A case with an injected failure whose call never came (the driver made
 * fewer such calls in that DDI): nothing was tested, so a skip. */
static int injection_missed(struct interp *x)
{
    const struct wk_vidmm_injection *in = &x->p->vidmm.inject;
    if (!in->what || wk_vidmm_injected(x->vm))
        return 0;
    snprintf(x->skip_text, sizeof(x->skip_text),
             "the injected failure never applied: the driver made fewer than %u %s inside %s", in->nth,
             in->what == WK_VIDMM_FAIL_POOL ? "pool allocations" : "DxgkCbCreateContextAllocation calls",
             wk_ddi_name(in->ddi));
    x->r->verdict = WK_VERDICT_SKIP;
    snprintf(x->r->seen, sizeof(x->r->seen), "%.300s", x->skip_text);
    return 1;
}

/* A case about a device error (adapter device_error_at) that never
 * happened tested nothing of the kind (outsider 13's case passed
 * silently): a skip saying why, before the checks that follow its last
 * action (which would judge the run as if it had). 1 when so. */
static int device_error_missed(struct interp *x, uint32_t at)
{
    if (!x->p->vidmm.device_error_at || wk_vidmm_device_error_armed(x->vm))
        return 0;
    snprintf(x->skip_text, sizeof(x->skip_text), "the case's device error (device_error_at %u) never happened: %s",
             x->p->vidmm.device_error_at, wk_vidmm_device_error_why_not(x->vm));
    x->r->failed_step = (int32_t)at;
    skip_rest(x, at, x->skip_text);
    return 1;
}

/* Whether step s runs on an idle GPU: every step but a render (which may
 * be left queued) and queue itself (wk_vidmm_queue_renders). */
static int needs_idle_gpu(const struct wk_step *s)
{
    return s->kind != WK_STEP_RENDER && s->kind != WK_STEP_QUEUE;
}

/* What the renders before step `at` left queued on the GPU runs before it
 * (queue.c), judged as theirs: 1 when the case goes on. A fault or a fence
 * report of theirs is a violation of the render's; the kit's budget a skip. */
static int drain_queue(struct interp *x, uint32_t at)
{
    wk_status st = wk_vidmm_drain(x->vm);
    if (st == WK_OK)
        return 1;
    x->r->failed_step = (int32_t)(at ? at - 1 : 0);
    uint64_t total = 0;
    if (!x->p->has_rewrite)
        wk_vidmm_violations(x->vm, NULL, 0, &total);
    if (total) {
        first_violation(x, "the queued renders run and are reported");
        return 0;
    }
    if (st == WK_E_NOT_SUPPORTED) {
        snprintf(x->skip_text, sizeof(x->skip_text), "%s", wk_vidmm_last_error(x->vm));
        skip_rest(x, at, x->skip_text);
        return 0;
    }
    if (x->p->has_rewrite)
        return 1; /* a negative case runs on to the rule it must trip */
    return failf(x, "the queued renders run and are reported", "%s: %s", wk_status_name(st),
                 wk_vidmm_last_error(x->vm));
}

/* The index after a case's last action step: its trailing checks start there. */
static uint32_t after_last_action(const struct wk_prog *p)
{
    uint32_t n = p->step_count;
    while (n > 0 && is_check(p->steps[n - 1].kind))
        n--;
    return n;
}

/* Runs the steps of a positive case; 1 when all returned and held as expected. */
static int run_steps(struct interp *x)
{
    const struct wk_prog *p = x->p;
    map_segments(x);
    if (!check_layout(x))
        return 0;
    if (x->seg_unplayed) { /* at the first step that names it */
        uint32_t bit = 1u << (x->seg_unplayed - 1), i = 0;
        while (i + 1 < p->step_count && !(wk_roles_named_by(p, &p->steps[i]) & bit))
            i++;
        snprintf(x->skip_text, sizeof(x->skip_text), "%s", x->seg_why);
        x->r->failed_step = (int32_t)i;
        skip_rest(x, 0, x->skip_text);
        return 0;
    }
    const uint32_t checks_from = after_last_action(p);
    for (uint32_t i = 0; i < p->step_count; i++) {
        const struct wk_step *s = &p->steps[i];
        x->r->failed_step = (int32_t)i;
        if (needs_idle_gpu(s) && !drain_queue(x, i))
            return 0;
        if (i == checks_from && device_error_missed(x, i))
            return 0;
        if (is_check(s->kind)) {
            if (!check(x, s))
                return 0;
            continue;
        }
        const char *why = kind_skipped(x, wk_step_check_kind(s));
        if (!why && s->kind == WK_STEP_PATCH && x->contract && !x->stress)
            why = WK_STRESS_SKIP_REASON;
        if (!why && s->kind == WK_STEP_CREATE_ALLOCATION && s->alloc.paging_buffers)
            why = sized_too_large(x, s);
        if (!why && absolute_step_elsewhere(x, s))
            why = x->skip_text;
        if (!why && s->kind == WK_STEP_CREATE_ALLOCATION && x->binding_allocations &&
            wk_step_check_kind(s) == WK_CHECK_ENCODER)
            why = WK_BINDING_OWN_ALLOCATION_FORMAT_REASON; /* a request the kit's format calls invalid */
        if (why) {
            skip_rest(x, i, why);
            return 0;
        }
        x->r->checks[wk_step_check_kind(s)].run++;
        uint32_t injected_before = wk_vidmm_injected(x->vm);
        (void)wk_vidmm_take_kit_refusal(x->vm, NULL, 0);
        x->step_why[0] = '\0';
        wk_status st = act(x, s);
        if (injected_failure_ends(x, s, st, injected_before))
            return injected_end(x);
        if (st == WK_E_DRIVER_FAILED && s->expect_status == WK_OK && kit_refused_first(x, p, i))
            return 0;
        if (st != WK_OK && passes_bound_differs(x)) {
            skip_rest(x, i + 1, x->skip_text);
            return 0;
        }
        if (st == WK_E_NOT_SUPPORTED && s->expect_status != WK_E_NOT_SUPPORTED) {
            /* A rule the driver broke on the way stands: a step that then
             * met what the kit cannot judge is no excuse for it (an
             * outsider's paging buffer faulted on the GPU, PAGING-GPU-001,
             * and its case became a skip for the content that did not
             * move). */
            uint64_t broke = 0;
            if (!p->has_rewrite)
                wk_vidmm_violations(x->vm, NULL, 0, &broke);
            if (broke) {
                first_violation(x, "no contract violation");
                return 0;
            }
            /* what the driver or the kit cannot do here (a DDI it leaves
             * out, a buffer below the driver's own size): a skip */
            snprintf(x->skip_text, sizeof(x->skip_text), "%s", wk_vidmm_last_error(x->vm));
            skip_rest(x, i + 1, x->skip_text);
            return 0;
        }
        if ((st == WK_E_NO_SPACE || (st == WK_E_STATE && x->step_why[0])) && s->expect_status == WK_OK &&
            room_differs_text(x, st == WK_E_NO_SPACE ? wk_vidmm_last_error(x->vm) : x->step_why)) {
            /* Room the case was calibrated with and this run did not have
             * (room_differs): in either profile, not the driver's. */
            skip_rest(x, i + 1, x->skip_text);
            return 0;
        }
        if (st == WK_E_NO_SPACE && s->expect_status == WK_OK && x->contract) {
            /* The kit's memory (its system pages, its segments' sizes)
             * cannot hold what this driver asked for here: its own buffer
             * sizes, its DMA buffers in a small aperture. No rule says a
             * driver must fit the kit's adapter, so a skip; the reference
             * profile keeps it a failure (a kit bug on its own driver). */
            snprintf(x->skip_text, sizeof(x->skip_text), "a limit of the kit's memory: %s",
                     wk_vidmm_last_error(x->vm));
            skip_rest(x, i + 1, x->skip_text);
            return 0;
        }
        if (s->kind == WK_STEP_CANCEL && st == WK_OK && s->has_count && x->last_cancelled != s->count) {
            char want[48];
            snprintf(want, sizeof(want), "%u submissions cancelled", s->count);
            return failf(x, want, "%u", x->last_cancelled);
        }
        if (st == WK_OK && s->expect_status != WK_OK && wk_prog_exec_render_rounded(x, s)) {
            /* a command the case meant to run past an allocation's end
             * fits the larger allocation the driver answered (outsider 26) */
            skip_rest(x, i + 1, x->skip_text);
            return 0;
        }
        if (st != s->expect_status) {
            char want[64];
            snprintf(want, sizeof(want), "status %s", wk_status_name(s->expect_status));
            /* the kit's last error says why, when the call failed; a call
             * that succeeded where the case expected a refusal has none */
            const char *error = x->step_why[0] ? x->step_why : wk_vidmm_last_error(x->vm);
            if (error[0] && st != WK_OK) /* an OK step's error is an older one's (outsider 13) */
                failf(x, want, "%s: %s", wk_status_name(st), error);
            else
                failf(x, want, "%s (%s)", wk_status_name(st),
                      st == WK_OK ? "the step succeeded where the case expects it to fail: the driver may have "
                                    "accepted what it should refuse, or the step found room the case expected "
                                    "not to be there (a driver's own buffer sizes and placements make that differ)"
                                  : "no reason given");
            first_violation(x, want);
            return 0;
        }
        /* A positive case fails on any violation; say so at the step that
         * made it. Judged only at the end, a later data check that failed
         * because of it (a Patch that wrote outside its slots, then wrong
         * bytes) was reported instead, without the rule. */
        uint64_t total = 0;
        if (!p->has_rewrite) /* a negative case runs on to the rule it must trip */
            wk_vidmm_violations(x->vm, NULL, 0, &total);
        if (total) {
            first_violation(x, "no contract violation");
            return 0;
        }
        if (s->kind == WK_STEP_CREATE_ALLOCATION && st == WK_OK && !check_request_kept(x, s))
            return 0;
    }
    if (!drain_queue(x, p->step_count) || device_error_missed(x, p->step_count))
        return 0;
    x->r->failed_step = -1;
    return 1;
}

/* When the hardware binding failed before the driver broke any rule, the
 * case judged nothing of the driver: an `error` naming the binding's rule
 * (BIND-*), never the driver's failure (binding.h). */
static void binding_failure(struct interp *x)
{
    struct wk_violation v[1];
    uint64_t total = 0;
    if (wk_vidmm_violations(x->vm, v, 1, &total) == 0 || !wk_rule_is_binding(v[0].rule))
        return;
    struct wk_case_result *r = x->r;
    r->verdict = WK_VERDICT_ERROR;
    snprintf(r->rule, sizeof(r->rule), "%s", v[0].rule);
    snprintf(r->expected, sizeof(r->expected), "the hardware binding runs (it is the kit's, not the driver's)");
    snprintf(r->seen, sizeof(r->seen), "%.300s", v[0].message);
}

static void judge_positive(struct interp *x)
{
    struct wk_case_result *r = x->r;
    uint64_t total = 0;
    if (!run_steps(x)) {
        if (r->verdict != WK_VERDICT_SKIP)
            r->verdict = WK_VERDICT_FAIL;
        return;
    }
    wk_vidmm_violations(x->vm, NULL, 0, &total);
    if (total) {
        r->verdict = WK_VERDICT_FAIL;
        first_violation(x, "no contract violation");
        return;
    }
    if (injection_missed(x))
        return;
    r->verdict = WK_VERDICT_PASS;
}

void wk_prog_run(const struct wk_prog *p, const struct wk_run_options *o, struct wk_case_result *r)
{
    struct interp x;
    struct wk_mutation_state ms;
    memset(&x, 0, sizeof(x));
    memset(r, 0, sizeof(*r));
    r->failed_step = -1;
    x.p = p;
    x.r = r;
    x.contract = o && o->contract;
    x.stress = o && o->stress;
    x.skip_kinds = o ? o->skip_kinds : 0;
    x.skip_reason = o ? o->skip_reason : NULL;
    memset(&ms, 0, sizeof(ms));
    const char *left_out = contract_skip(p, x.contract);
    if (left_out) {
        r->verdict = WK_VERDICT_SKIP;
        snprintf(r->seen, sizeof(r->seen), "%s", left_out);
        return;
    }
    const char *own_entry = needs_own_entry(p, o);
    if (own_entry) {
        r->verdict = WK_VERDICT_SKIP;
        snprintf(r->seen, sizeof(r->seen),
                 "needs its own DriverEntry (%s from the case whose DriverEntry this process ran); run without "
                 "--no-fork",
                 own_entry);
        return;
    }
    wk_status st = bring_up(&x, o, &ms);
    const char *missing = st == WK_OK ? missing_requirement(&x) : NULL;
    if (missing) {
        r->verdict = WK_VERDICT_SKIP;
        snprintf(r->seen, sizeof(r->seen), "%.300s", missing);
    } else if (p->has_rewrite && x.vm && st == WK_E_NOT_SUPPORTED && !ms.applied) {
        /* The start asked nothing the corruption aims at: the kit left out
         * what the driver's version does not define (a QUERYSEGMENT4 of a
         * WDDM 1.x driver). "Never applied" blamed the driver for the
         * kit's choice (a WDDM 1.3 driver in the reference profile). */
        r->verdict = WK_VERDICT_SKIP;
        snprintf(r->seen, sizeof(r->seen), "%s", wk_vidmm_last_error(x.vm));
    } else if (p->has_rewrite && x.vm) {
        if (st == WK_OK)
            run_steps(&x);
        judge_negative(&x, &ms);
        if (x.rest_skipped && r->verdict != WK_VERDICT_PASS) { /* the rule may lie past the refused step */
            r->verdict = WK_VERDICT_SKIP;
            r->rule[0] = r->expected[0] = 0;
            snprintf(r->seen, sizeof(r->seen), "%s", x.rest_skipped);
        }
    } else if (st == WK_E_NOT_SUPPORTED && x.vm) {
        /* The case asks what the driver's version does not define (a
         * QUERYSEGMENT4 of a WDDM 1.x driver): nothing to judge. */
        r->verdict = WK_VERDICT_SKIP;
        snprintf(r->seen, sizeof(r->seen), "%s", wk_vidmm_last_error(x.vm));
    } else if (st != WK_OK) {
        r->verdict = st == WK_E_IO || st == WK_E_NOT_FOUND || !x.vm ? WK_VERDICT_ERROR : WK_VERDICT_FAIL;
        snprintf(r->expected, sizeof(r->expected), "the adapter starts");
        snprintf(r->seen, sizeof(r->seen), "%s: %.280s", wk_status_name(st),
                 x.vm ? wk_vidmm_last_error(x.vm) : x.skip_text);
        if (x.vm)
            first_violation(&x, "the adapter starts");
    } else {
        judge_positive(&x);
    }
    if (x.vm) {
        /* Tear down first: leaks and StopDevice/RemoveDevice are part of the run. */
        uint64_t before = 0, after = 0;
        wk_vidmm_violations(x.vm, NULL, 0, &before);
        wk_vidmm_stop(x.vm);
        wk_vidmm_violations(x.vm, NULL, 0, &after);
        if (after > before && r->verdict == WK_VERDICT_PASS && !p->has_rewrite) {
            r->verdict = WK_VERDICT_FAIL;
            first_violation(&x, "a clean teardown");
        }
        record_tripped(&x);
        binding_failure(&x);
        /* The breaches of the reference driver's own rules the contract
         * profile did not hold against the driver (RENDER-FAIL-001...). */
        for (uint64_t n = wk_vidmm_choice_skipped(x.vm); n; n--)
            count_skip(&x, WK_CHECK_CHOICE, WK_CHOICE_SKIP_REASON);
        /* What the binding cannot let the kit check, each check counted. */
        uint64_t fences = 0, addresses = 0;
        wk_vidmm_binding_skipped(x.vm, &fences, &addresses);
        for (; fences; fences--)
            count_skip(&x, WK_CHECK_SEMANTIC, WK_BINDING_NO_REGISTERS_REASON);
        for (; addresses; addresses--)
            count_skip(&x, WK_CHECK_SEMANTIC, WK_BINDING_NO_ADDRESSES_REASON);
        wk_vidmm_destroy(x.vm);
    }
}

/* ------------------------------------------------------------------ */
/* Step by step (fuzz harnesses, differential runs)                     */
/* ------------------------------------------------------------------ */

void wk_prog_exec_init(struct wk_prog_exec *x, const struct wk_prog *p, struct wk_vidmm *vm,
                       struct wk_case_result *r)
{
    memset(x, 0, sizeof(*x));
    memset(r, 0, sizeof(*r));
    r->failed_step = -1;
    x->p = p;
    x->vm = vm;
    x->r = r;
    if (vm)
        map_segments(x); /* a driver with a layout of its own: ids as roles */
}

int wk_prog_exec_judgeable(const struct wk_prog_exec *x, const struct wk_step *s)
{
    return unplayed_role(x, s) == 0;
}

wk_status wk_prog_exec_step(struct wk_prog_exec *x, const struct wk_step *s, int *check_failed)
{
    *check_failed = 0;
    if (needs_idle_gpu(s)) { /* what renders left queued runs first (queue.c) */
        wk_status drained = wk_vidmm_drain(x->vm);
        if (drained != WK_OK)
            return drained;
    }
    if (is_check(s->kind)) {
        *check_failed = !check(x, s);
        return WK_OK;
    }
    x->r->checks[wk_step_check_kind(s)].run++;
    return act(x, s);
}
