/* SPDX-License-Identifier: MIT */
/*
 * render.c - DxgkDdiRender with multipass, then residency, Patch and
 * SubmitCommand for every DMA buffer it fills (facts §5.2-§5.4).
 *
 * The user command buffer and the user patch list are copied into guarded
 * buffers: they are the untrusted inputs a fuzzer controls. Each Render call
 * gets a fresh DMA buffer and patch list; every answer is checked before the
 * kernel uses it (pointers within capacity, every patch entry's index,
 * offset, split offset and slot), the allocations it references are made
 * resident, the allocation list is updated with where they now are, and the
 * buffer is patched and submitted. INSUFFICIENT_DMA_BUFFER repeats Render on
 * the same command buffer with the MultipassOffset the driver left (R3).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* What an entry of pPatchLocationListOut holds before the driver writes it. */
#define UNWRITTEN_PATCH_BYTE 0xA5u

static int documented_status(NTSTATUS st)
{
    switch (st) {
    case STATUS_SUCCESS:
    case STATUS_NO_MEMORY:
    case STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER:
    case STATUS_PRIVILEGED_INSTRUCTION:
    case STATUS_ILLEGAL_INSTRUCTION:
    case STATUS_INVALID_PARAMETER:
    case STATUS_INVALID_USER_BUFFER:
    case STATUS_INVALID_HANDLE:
    case STATUS_GRAPHICS_DRIVER_MISMATCH:
    case STATUS_GRAPHICS_GPU_EXCEPTION_ON_DEVICE:
        return 1;
    default:
        return 0;
    }
}

struct render_job {
    struct context *c;
    const struct wk_vidmm_render *in;
    struct gbuf command, patch_in, list;
    DXGK_ALLOCATIONLIST *alloc_list;
    uint32_t multipass;
};

/* The allocation list as dxgkrnl converts it: the driver's handles for
 * the allocations on their device (DxgkDdiOpenAllocation's, facts §4.7),
 * write flags, and where each allocation was last paged in (R6, R10). */
static void fill_list(struct wk_vidmm *vm, struct render_job *j, int prepatch_info)
{
    for (uint32_t i = 0; i < j->in->list_length; i++) {
        DXGK_ALLOCATIONLIST *e = &j->alloc_list[i];
        memset(e, 0, sizeof(*e));
        struct allocation *a = allocation_get(vm, j->in->list[i].allocation);
        if (!a)
            continue; /* a NULL entry: unbinding (R8) */
        e->hDeviceSpecificAllocation = a->device_handle;
        e->WriteOperation = j->in->list[i].write ? 1 : 0;
        if (prepatch_info && a->resident) {
            e->SegmentId = a->segment;
            e->PhysicalAddress.QuadPart = (LONGLONG)(segment_get(vm, a->segment)->base + a->offset);
        }
    }
}

static wk_status prepare(struct wk_vidmm *vm, struct render_job *j)
{
    const struct wk_vidmm_render *in = j->in;
    /* pCommand is `const void *const` (facts §4.3): read-only to the
     * driver (guard_input.c). pPatchLocationListIn is "in" but not const:
     * a writable copy, canary-checked. */
    wk_status st = gbuf_alloc_input(vm, &j->command, in->command, in->command_length, "user command buffer");
    if (st == WK_OK)
        st = gbuf_alloc(vm, &j->patch_in, (uint64_t)in->patch_in_length * sizeof(D3DDDI_PATCHLOCATIONLIST),
                        "user patch-location list");
    if (st == WK_OK && in->patch_in_length)
        memcpy(j->patch_in.ptr, in->patch_in, in->patch_in_length * sizeof(D3DDDI_PATCHLOCATIONLIST));
    if (st == WK_OK)
        st = gbuf_alloc(vm, &j->list, (uint64_t)in->list_length * sizeof(DXGK_ALLOCATIONLIST),
                        "allocation list");
    if (st != WK_OK)
        return st;
    j->alloc_list = (DXGK_ALLOCATIONLIST *)(void *)j->list.ptr;
    return WK_OK;
}

/* Every emitted patch entry (facts §3.5, §5.4, §8). */
static wk_status check_entries(struct wk_vidmm *vm, const struct render_job *j, uint32_t count,
                               uint64_t written)
{
    const D3DDDI_PATCHLOCATIONLIST *p = (const D3DDDI_PATCHLOCATIONLIST *)(const void *)j->c->patch_list.ptr;
    enum wk_ddi d = WK_DDI_RENDER;
    uint32_t prev_split = 0;
    for (uint32_t i = 0; i < count; i++) {
        if (p[i].AllocationIndex >= j->in->list_length)
            return violate(vm, R_RENDER_PATCH_INDEX, d, "patch entry %u: AllocationIndex %u, list has %u entries",
                           i, p[i].AllocationIndex, j->in->list_length);
        if ((uint64_t)p[i].PatchOffset + patch_slot_width(vm) > written)
            return violate(vm, R_RENDER_PATCH_OFFSET, d,
                           "patch entry %u: PatchOffset %u (+%u, the hardware's address field) beyond the %llu bytes "
                           "written", i, p[i].PatchOffset, patch_slot_width(vm), (unsigned long long)written);
        if (p[i].SplitOffset < prev_split || p[i].SplitOffset > written)
            return violate(vm, R_RENDER_SPLIT, d, "patch entry %u: SplitOffset %u after %u (written %llu)",
                           i, p[i].SplitOffset, prev_split, (unsigned long long)written);
        prev_split = p[i].SplitOffset;
        UINT max_slot = vm->caps.MaxAllocationListSlotId;
        if (p[i].Reserved || (max_slot && p[i].SlotId >= max_slot))
            return violate(vm, R_RENDER_SLOT, d, "patch entry %u: SlotId %u, reserved bits 0x%x (MaxAllocationListSlotId %u)",
                           i, p[i].SlotId, p[i].Reserved, max_slot);
    }
    return WK_OK;
}

/* With SegmentId != 0 the driver must have written final addresses (R6). */
static wk_status check_prepatch(struct wk_vidmm *vm, const struct render_job *j, uint32_t count)
{
    /* The final addresses are in the driver's own encoding (facts §5.3
     * T3): read as its hardware reads them, or not at all. */
    if (!address_check(vm))
        return WK_OK;
    const D3DDDI_PATCHLOCATIONLIST *p = (const D3DDDI_PATCHLOCATIONLIST *)(const void *)j->c->patch_list.ptr;
    for (uint32_t i = 0; i < count; i++) {
        const DXGK_ALLOCATIONLIST *e = &j->alloc_list[p[i].AllocationIndex];
        if (e->SegmentId == 0)
            continue;
        uint64_t want = (uint64_t)e->PhysicalAddress.QuadPart + p[i].AllocationOffset, seen = 0;
        uint32_t bytes = 0;
        int decoded = patch_slot_address(vm, j->c->dma.ptr, j->c->dma.size, p[i].PatchOffset, &seen, &bytes);
        if (decoded < 0 || vm->dead)
            return vm->dead ? WK_E_BINDING : WK_OK;
        if (!decoded)
            return violate(vm, R_RENDER_PREPATCH, WK_DDI_RENDER,
                           "patch entry %u at +%u holds no address the hardware decodes, but the allocation list gave "
                           "SegmentId %u: expected 0x%llx",
                           i, p[i].PatchOffset, e->SegmentId, (unsigned long long)want);
        if (seen != want)
            return violate(vm, R_RENDER_PREPATCH, WK_DDI_RENDER,
                           "patch entry %u at +%u holds 0x%llx, but the allocation list gave SegmentId %u: expected 0x%llx",
                           i, p[i].PatchOffset, (unsigned long long)seen, e->SegmentId,
                           (unsigned long long)want);
    }
    return WK_OK;
}

static wk_status check_answer(struct wk_vidmm *vm, struct render_job *j, const DXGKARG_RENDER *r,
                              NTSTATUS st, uint64_t *written, uint32_t *count)
{
    struct context *c = j->c;
    enum wk_ddi d = WK_DDI_RENDER;
    if (!documented_status(st))
        return violate(vm, R_RENDER_STATUS, d, "returned 0x%08x, not a documented Render status", (unsigned)st);
    uint8_t *dma = r->pDmaBuffer;
    if (dma < c->dma.ptr || dma > c->dma.ptr + c->dma.size)
        return violate(vm, R_RENDER_ADVANCE, d, "moved pDmaBuffer by %lld bytes, expected 0..%llu",
                       (long long)(dma - c->dma.ptr), (unsigned long long)c->dma.size);
    const D3DDDI_PATCHLOCATIONLIST *base = (const D3DDDI_PATCHLOCATIONLIST *)(const void *)c->patch_list.ptr;
    const D3DDDI_PATCHLOCATIONLIST *out = r->pPatchLocationListOut;
    if (out < base || out > base + c->patch_entries)
        return violate(vm, R_RENDER_PATCH_ADVANCE, d, "moved pPatchLocationListOut by %lld entries, expected 0..%u",
                       (long long)(out - base), c->patch_entries);
    *written = (uint64_t)(dma - c->dma.ptr);
    *count = (uint32_t)(out - base);
    if (st != STATUS_SUCCESS && st != STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER && (*written || *count)) {
        wk_status v = violate(vm, R_RENDER_FAIL_OUTPUTS, d,
                              "returned 0x%08x after moving pDmaBuffer by %llu bytes and pPatchLocationListOut by "
                              "%u entries",
                              (unsigned)st, (unsigned long long)*written, *count);
        if (v != WK_OK) /* WK_OK: a choice the contract profile does not hold the driver to */
            return v;
    }
    wk_status g = gbuf_check(vm, &c->dma, d);
    if (g == WK_OK)
        g = gbuf_check(vm, &c->patch_list, d);
    if (g == WK_OK)
        g = gbuf_check(vm, &c->dma_private, d);
    if (g == WK_OK && (st == STATUS_SUCCESS || st == STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER))
        g = check_entries(vm, j, *count, *written);
    if (g == WK_OK && (st == STATUS_SUCCESS || st == STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER))
        g = check_prepatch(vm, j, *count);
    return g;
}

/*
 * The entries past the `count` Render wrote belong to no submission of this
 * pass; Patch reads only [PatchLocationListSubmissionStart, +Length) (facts
 * §5.3). A kernel that recycles its lists would hold an earlier Render's
 * entries there, so the kit leaves plausible ones (allocation 0, offset 0,
 * patched at byte 0) rather than the 0xA5 fill, which names no allocation
 * and so hides a Patch that reads past its range: with these, such a Patch
 * writes where it should not (PATCH-CONFINE-001).
 */
static void leave_stale_tail(struct context *c, uint32_t count)
{
    size_t used = (size_t)count * sizeof(D3DDDI_PATCHLOCATIONLIST);
    if (used < c->patch_list.size)
        memset((char *)c->patch_list.ptr + used, 0, c->patch_list.size - used);
}

static wk_status call_render(struct wk_vidmm *vm, struct render_job *j, NTSTATUS *status,
                             uint64_t *written, uint32_t *count)
{
    struct context *c = j->c;
    memset(c->dma.ptr, 0, c->dma.size);          /* a fresh buffer each pass */
    /* pPatchLocationListOut is the driver's output (facts §4.3: "driver
     * output"; §5.2 R2), and nothing documents that the kernel hands it
     * cleared: an entry holds what the driver wrote into it. So it is
     * handed filled with 0xA5, and a field left unwritten (a SplitOffset,
     * the SlotId's reserved byte, facts §3.5) reads as that, not as the
     * zero a fresh list would happen to give. */
    memset(c->patch_list.ptr, UNWRITTEN_PATCH_BYTE, c->patch_list.size);
    DXGKARG_RENDER r = {
        j->command.ptr, j->in->command_length, c->dma.ptr, (UINT)c->dma.size,
        c->dma_private.ptr, (UINT)c->dma_private.size, j->alloc_list, j->in->list_length,
        (D3DDDI_PATCHLOCATIONLIST *)(void *)j->patch_in.ptr, j->in->patch_in_length,
        (D3DDDI_PATCHLOCATIONLIST *)(void *)c->patch_list.ptr, c->patch_entries,
        j->multipass, c->dma_segment, { { 0, 0 } },
    };
    r.DmaBufferPhysicalAddress.QuadPart = (LONGLONG)c->dma_gpu_address;
    wk_status crashed;
    *status = STATUS_UNSUCCESSFUL;
    struct garg g; /* the driver gets a guarded copy (guard_args.c) */
    DXGKARG_RENDER *pr = garg_in(vm, &g, &r, sizeof(r), "DXGKARG_RENDER argument (*pRender)");
    DDI_CALL(vm, WK_DDI_RENDER, crashed, *status = vm->ddi.DxgkDdiRender(c->driver_handle, pr);
             ddi_rewrite(vm, WK_DDI_RENDER, pr, status));
    wk_status guard = garg_out(vm, &g, WK_DDI_RENDER, crashed);
    if (crashed != WK_OK)
        return crashed;
    if (guard != WK_OK)
        return guard;
    wk_status st = check_answer(vm, j, &r, *status, written, count);
    j->multipass = r.MultipassOffset;
    return st;
}

static void pin_list(struct wk_vidmm *vm, const struct render_job *j, int pinned)
{
    for (uint32_t i = 0; i < j->in->list_length; i++) {
        struct allocation *a = allocation_get(vm, j->in->list[i].allocation);
        if (a)
            a->pinned = pinned;
    }
}

/*
 * Residency for everything the list names, then the final addresses. The
 * list is the working set of the DMA buffer: every member must be resident
 * at once when it runs (facts §5.2 R6, §5.3 T1), so while it is paged in
 * its members are pinned and never chosen as eviction victims. When the
 * set does not fit (the members alone outgrow a segment, or system memory
 * runs out), the submission fails here with the kit's status, as Windows'
 * VidMm fails to build the working set; nothing is submitted and nothing
 * is held against the driver.
 */
static wk_status make_resident(struct wk_vidmm *vm, struct render_job *j)
{
    wk_status st = WK_OK;
    uint32_t i = 0;
    pin_list(vm, j, 1);
    for (; i < j->in->list_length && st == WK_OK; i++) {
        struct allocation *a = allocation_get(vm, j->in->list[i].allocation);
        if (a)
            st = residency_place(vm, a);
    }
    pin_list(vm, j, 0);
    if (st == WK_E_NO_SPACE || st == WK_E_NO_MEMORY) {
        char why[sizeof(vm->last_error)];
        snprintf(why, sizeof(why), "%s", vm->last_error);
        return fail(vm, st, "the allocation list does not fit in memory at once: entry %u (allocation %u): %.200s",
                    i - 1, j->in->list[i - 1].allocation, why);
    }
    if (st != WK_OK)
        return st;
    fill_list(vm, j, 1);
    return WK_OK;
}

/* Patch + SubmitCommand of one piece [start, end) with patch entries
 * [first, first + count), then run it to its fence. */
static wk_status submit_piece(struct wk_vidmm *vm, struct render_job *j, uint32_t start, uint32_t end,
                              uint32_t first, uint32_t count, uint32_t *fence)
{
    struct submission s;
    memset(&s, 0, sizeof(s));
    s.context = j->in->context; /* the handle j->c was found by */
    s.dma = &j->c->dma;
    s.dma_segment = j->c->dma_segment;
    s.dma_gpu_address = j->c->dma_gpu_address;
    s.dma_private = &j->c->dma_private;
    s.private_end = (uint32_t)j->c->dma_private.size;
    s.start = start;
    s.end = end;
    s.alloc_list = j->alloc_list;
    s.alloc_list_size = j->in->list_length;
    s.patch_list = (D3DDDI_PATCHLOCATIONLIST *)(void *)j->c->patch_list.ptr;
    s.patch_list_size = j->c->patch_entries;
    s.patch_start = first;
    s.patch_length = count;
    s.lists_writable = 1; /* Render's output lists */
    struct wk_gpu_counters before;
    wk_gpu_get_counters(vm->gpu, &before);
    const int queued = queue_active(vm); /* left on the GPU's queue (queue.c): judged when it drains */
    wk_status st = submit_buffer(vm, &s, fence);
    if (st == WK_OK && queued)
        return queue_submitted(vm, &before);
    if (st == WK_OK)
        st = submit_wait(vm, *fence);
    /* The rule is SubmitCommand's (the submission faulted), but the bytes
     * are Render's and Patch's (or Render's alone, for a context that
     * reported NoPatchingRequired): say so, or a reader looks in the wrong
     * DDI. */
    char what[128];
    wk_status limit = gpu_fault_check(vm, &before, R_SUBMIT_GPU, WK_DDI_SUBMIT_COMMAND,
                                      context_dma_origin(vm, s.context, what, sizeof(what)));
    return st == WK_OK ? limit : st;
}

/* Entries sorted by PatchOffset, so that each split piece owns a run. */
static int sorted_by_offset(const D3DDDI_PATCHLOCATIONLIST *p, uint32_t count)
{
    for (uint32_t i = 1; i < count; i++)
        if (p[i].PatchOffset < p[i - 1].PatchOffset)
            return 0;
    return 1;
}

/*
 * VidMm may execute a DMA buffer in pieces, cutting it at the split offsets
 * the driver recorded (facts §5.4 S1, S3): each piece is patched and
 * submitted on its own, with its own range of the patch-location list
 * (start, middle and end of the list) and the buffer's start address (T4).
 */
static wk_status submit_split(struct wk_vidmm *vm, struct render_job *j, uint32_t written,
                              uint32_t count, uint32_t *fence)
{
    const D3DDDI_PATCHLOCATIONLIST *p = (const D3DDDI_PATCHLOCATIONLIST *)(const void *)j->c->patch_list.ptr;
    uint32_t start = 0, first = 0;
    wk_status st = WK_OK;
    for (uint32_t i = 0; i <= count && st == WK_OK; i++) {
        uint32_t cut = i < count ? p[i].SplitOffset : written;
        if (cut <= start && i < count)
            continue;
        uint32_t last = first;
        while (last < count && p[last].PatchOffset < cut)
            last++;
        st = submit_piece(vm, j, start, cut, first, last - first, fence);
        start = cut;
        first = last;
    }
    return st;
}

/*
 * cfg.move_before_patch: between Render and the submission the kernel may
 * move what the list names (facts §5.3: the reason Patch exists, and why
 * the prepatch information is only a guess), so the kit does: each listed
 * allocation resident in a memory segment goes out to system memory and
 * comes back elsewhere, its old range held while it is placed. Render's
 * prepatched addresses are then stale, and the buffer runs right only if
 * Patch rewrote every address through the patch locations the driver
 * listed: a location left out (a later pass's, say) writes the old place.
 * Where nothing else fits it comes back where it was (nothing is proved,
 * nothing is blamed).
 */
static wk_status move_listed(struct wk_vidmm *vm, struct render_job *j)
{
    wk_status st = WK_OK;
    for (uint32_t i = 0; i < j->in->list_length && st == WK_OK; i++) {
        struct allocation *a = allocation_get(vm, j->in->list[i].allocation);
        struct segment *s = a && a->resident ? segment_get(vm, a->segment) : NULL;
        if (!s || !s->memory || a->context_allocation)
            continue; /* not resident, or in an aperture (its pages do not move) */
        uint64_t old = a->offset, size = a->size;
        st = residency_evict(vm, a, 1);
        if (st != WK_OK)
            break;
        int held = wk_place_reserve(s->heap, old, size) == WK_OK;
        st = residency_place(vm, a);
        if (held)
            wk_place_free(s->heap, old);
        if (st == WK_E_NO_SPACE && !a->resident) /* nowhere else: back where it was */
            st = residency_place(vm, a);
    }
    return st;
}

static wk_status submit_pass(struct wk_vidmm *vm, struct render_job *j, uint64_t written, uint32_t count,
                             uint32_t *fence)
{
    wk_status st = vm->cfg.move_before_patch ? move_listed(vm, j) : WK_OK;
    if (st == WK_OK)
        st = make_resident(vm, j);
    if (st != WK_OK)
        return st;
    j->c->last_alloc_list_size = j->in->list_length;
    j->c->last_patch_count = count;
    const D3DDDI_PATCHLOCATIONLIST *p = (const D3DDDI_PATCHLOCATIONLIST *)(const void *)j->c->patch_list.ptr;
    if (vm->cfg.split_submissions && count > 1 && sorted_by_offset(p, count))
        return submit_split(vm, j, (uint32_t)written, count, fence);
    return submit_piece(vm, j, 0, (uint32_t)written, 0, count, fence);
}

/*
 * An allocation of another device in a context's list. The list carries the
 * driver's handle for each allocation *on the context's device*, which only
 * DxgkDdiOpenAllocation on that device makes (facts §4.7, §5.13): the kernel
 * converts the UMD's allocation handles for the rendering device and fails
 * the call for one that device never opened, so no driver is handed another
 * device's allocation. The kit opens an allocation on its creating device
 * only, so such a render is refused here, before Render, alike for every
 * driver (a fuzz input that asked for it once made an outsider's driver,
 * which checks the object's device, differ from the reference: a false
 * finding).
 */
static wk_status foreign_entry_refused(struct wk_vidmm *vm, uint32_t i, const struct allocation *a,
                                      const struct context *c)
{
    return fail(vm, WK_E_INVALID_ARGUMENT,
                "allocation-list entry %u names an allocation of device %u, not of the context's device %u: the "
                "kernel hands a driver only allocations opened on the rendering device",
                i, a->device, c->device);
}

static wk_status check_inputs(struct wk_vidmm *vm, const struct wk_vidmm_render *in, struct context **c)
{
    if (vm->dead)
        return fail(vm, WK_E_DEAD, "the adapter is dead after a driver crash");
    *c = context_get(vm, in->context);
    if (!*c)
        return fail(vm, WK_E_NOT_FOUND, "no context %u", in->context);
    if (!vm->ddi.DxgkDdiRender)
        return fail(vm, WK_E_NOT_SUPPORTED, "the driver has no DxgkDdiRender");
    wk_status judgeable = context_render_judgeable(vm, *c, in->context);
    if (judgeable != WK_OK)
        return judgeable;
    if (in->list_length > 65536 || in->patch_in_length > 1048576 || in->command_length > (64u << 20))
        return fail(vm, WK_E_LIMIT, "render inputs beyond the kit's limits");
    for (uint32_t i = 0; i < in->list_length; i++) {
        const struct allocation *a = in->list[i].allocation ? allocation_get(vm, in->list[i].allocation) : NULL;
        if (in->list[i].allocation && !a)
            return fail(vm, WK_E_NOT_FOUND, "allocation-list entry %u names no allocation (%u)", i,
                        in->list[i].allocation);
        if (a && a->device != (*c)->device)
            return foreign_entry_refused(vm, i, a, *c);
    }
    return WK_OK;
}

wk_status wk_vidmm_render(struct wk_vidmm *vm, const struct wk_vidmm_render *in,
                          struct wk_vidmm_render_result *result)
{
    struct render_job j;
    memset(&j, 0, sizeof(j));
    memset(result, 0, sizeof(*result));
    wk_status st = check_inputs(vm, in, &j.c);
    if (st != WK_OK)
        return st;
    j.in = in;
    st = prepare(vm, &j);
    uint32_t max = vm->cfg.max_passes ? vm->cfg.max_passes : 4096;
    fill_list(vm, &j, !in->no_prepatch_info);
    while (st == WK_OK) {
        uint64_t written = 0;
        uint32_t count = 0, before = j.multipass;
        if (queue_has_context(vm, in->context)) /* its one DMA buffer is still queued: the GPU runs it first */
            st = queue_drain(vm);
        if (st != WK_OK)
            break;
        st = call_render(vm, &j, &result->status, &written, &count);
        result->passes++;
        if (st != WK_OK)
            break;
        NTSTATUS rs = result->status;
        if (rs != STATUS_SUCCESS && rs != STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER) {
            st = fail(vm, WK_E_DRIVER_FAILED, "DxgkDdiRender rejected the command buffer with 0x%08x", (unsigned)rs);
            break;
        }
        if (written || count) {
            leave_stale_tail(j.c, count);
            st = submit_pass(vm, &j, written, count, &result->last_fence);
            result->submissions++;
        }
        if (st != WK_OK || rs == STATUS_SUCCESS)
            break;
        if ((written == 0 && count == 0 && j.multipass == before) || result->passes >= max)
            st = violate(vm, R_RENDER_PROGRESS, WK_DDI_RENDER,
                         "INSUFFICIENT_DMA_BUFFER with %s after %u calls (MultipassOffset %u)",
                         written || count ? "no end" : "no progress", result->passes, j.multipass);
        fill_list(vm, &j, !in->no_prepatch_info);
    }
    gbuf_free(vm, &j.command);
    gbuf_free(vm, &j.patch_in);
    gbuf_free(vm, &j.list);
    RETURN_CHECKED(vm, st);
}
