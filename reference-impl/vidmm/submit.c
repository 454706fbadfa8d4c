/* SPDX-License-Identifier: MIT */
/*
 * submit.c - Patch, SubmitCommand, the GPU's progress, interrupts and fence
 * completion, and CancelCommand (facts §5.3, §5.9, seed
 * DXGKARG_CANCELCOMMAND).
 *
 * Time advances only here: submit_wait runs the GPU model's queue, then
 * plays the interrupt line into DxgkDdiInterruptRoutine until the driver has
 * quieted it, then runs the DPC it asked for, until the fences wanted are
 * reported complete. Every step is bounded; a driver that never reports a
 * fence, or never acknowledges its interrupt, is reported, not waited on.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define MAX_IRQ_ROUNDS 8u

/*
 * A buffer that spends the kit's budget (a GPU description's max_commands
 * and max_bytes_moved: what keeps every run bounded) is stopped by the
 * kit, not by the hardware: a real GPU runs it to its end, and only a
 * timeout would stop it (TDR), which no DDI contract makes the driver's
 * fault. So it is a limit of the kit, a skip, never SUBMIT-GPU-001 or
 * PAGING-GPU-001 (outsider 8: a render of 26 large BLITs in the kit's UMD
 * format, which sets no size limit, drew SUBMIT-GPU-001 on a binding's
 * GPU).
 */
static wk_status budget_is_the_kits(struct wk_vidmm *vm, const char *what)
{
    const struct wk_gpu_desc *d = wk_gpu_description(vm->gpu);
    return fail(vm, WK_E_NOT_SUPPORTED,
                "a limit of the kit: the %s ran past the kit's budget for one buffer (%llu commands, %llu bytes "
                "moved); a GPU would run it to its end",
                what, (unsigned long long)d->max_commands, (unsigned long long)d->max_bytes_moved);
}

wk_status gpu_fault_check(struct wk_vidmm *vm, const struct wk_gpu_counters *before, enum wk_rule_id rule,
                          enum wk_ddi ddi, const char *what)
{
    struct wk_gpu_counters now;
    wk_gpu_get_counters(vm->gpu, &now);
    if (now.faults == before->faults)
        return WK_OK;
    struct wk_gpu_fault log[WK_GPU_FAULT_LOG_SIZE];
    uint64_t total = 0;
    uint32_t n = wk_gpu_faults(vm->gpu, log, WK_GPU_FAULT_LOG_SIZE, &total);
    vm->stats.gpu_faults++;
    if (before->faults < n && log[before->faults].reason == WK_GPU_FAULT_BUDGET)
        return budget_is_the_kits(vm, what);
    char text[sizeof(vm->bind_fault_text)] = "fault log full";
    if (binding_executes(vm))
        snprintf(text, sizeof(text), "%s", vm->bind_fault_text); /* in the binding's words */
    else if (before->faults < n)
        wk_gpu_fault_format(&log[before->faults], text, sizeof(text));
    /* A physical buffer (paging, SubmitCommand) whose fault is a virtual
     * one ran in an address space: a root left active on the GPU from a
     * virtual submission (an outsider's driver never wrote RING_ROOT back
     * to 0, and the message left them to guess). */
    const char *hint = "";
    if (rule != R_SUBMITV_GPU && before->faults < n && !binding_executes(vm) &&
        (wk_gpu_fault_is_translation(log[before->faults].reason) ||
         log[before->faults].reason == WK_GPU_FAULT_NO_ADDRESS_SPACE))
        hint = " (a physical buffer run through an address space: a root, RING_ROOT, was still active)";
    /* ... and a virtual one the GPU ran with no root at all. */
    if (rule == R_SUBMITV_GPU && !binding_executes(vm) && wk_gpu_last_root(vm->gpu) == 0)
        hint = " (it ran under no root, RING_ROOT 0: physically)";
    /* ... and one whose GPU stopped short of a sized root's end. */
    char root_hint[200];
    if (rule == R_SUBMITV_GPU && !binding_executes(vm) && before->faults < n &&
        log[before->faults].reason == WK_GPU_FAULT_VA_UNMAPPED &&
        gpuva_root_end_hint(vm, wk_gpu_last_root(vm->gpu), log[before->faults].fault_addr, root_hint,
                            sizeof(root_hint)))
        hint = root_hint;
    /* ... and one the GPU ran under another root than its own (outsider
     * 29's root not switched per context: the fault named the address,
     * not the root it was looked up under). */
    char other_root[160];
    uint64_t ran = binding_executes(vm) ? vm->bind_last_root : wk_gpu_last_root(vm->gpu);
    if (rule == R_SUBMITV_GPU && vm->submitv_root && ran && ran != vm->submitv_root &&
        (!binding_executes(vm) || binding_has_registers(vm))) {
        snprintf(other_root, sizeof(other_root), " (it ran under root 0x%llx, %s, not its own)",
                 (unsigned long long)ran, gpuva_space_by_root(vm, ran) ? "another address space's" : "no address space's");
        hint = other_root;
    }
    /* ... and a paging buffer of TRANSFER_VIRTUAL or FILL_VIRTUAL, whose
     * addresses are the paging process's (paging_process.c). */
    char pp_hint[200];
    uint32_t reason = before->faults < n ? (uint32_t)log[before->faults].reason : 0;
    uint64_t addr = before->faults < n && !binding_executes(vm) ? log[before->faults].fault_addr : UINT64_MAX;
    if (rule == R_PAGING_GPU && paging_process_fault_hint(vm, reason, addr, pp_hint, sizeof(pp_hint)))
        hint = pp_hint;
    char exempt[320];
    if (rule == R_PAGING_GPU && paging_process_physical_exempt(vm, reason, addr, exempt, sizeof(exempt)))
        return fail(vm, WK_E_NOT_SUPPORTED, "%s: %s", exempt, text);
    /* The hint first: a binding's own words can be long, and the room of
     * a message is 320 bytes (outsider 18 saw the hint cut away). */
    violate(vm, rule, ddi, "the %s faulted on the GPU%s: %s", what, hint, text);
    return WK_OK;
}

/* ------------------------------------------------------------------ */
/* Patch                                                                */
/* ------------------------------------------------------------------ */

/*
 * The confinement check (PATCH-CONFINE-001, facts §5.3 T2): Patch may change
 * only the 8-byte slots at the listed PatchOffsets, clipped to the submission
 * range [start, end); every other byte of the whole DMA buffer must be as it
 * was. The allowed slots are sorted and merged into intervals, and the bytes
 * between them are compared with memcmp against what the buffer held before
 * the call (a snapshot, or the image wk_vidmm_patch wrote); only a range that
 * differs is scanned byte by byte, for the first changed offset of the
 * report. Cost: O(n log n) in the patch entries plus one pass over the
 * buffer, where comparing every byte and searching the list for each
 * changed one cost O(size + changes * n).
 */
struct slot {
    uint32_t lo, hi;                        /* [lo, hi): may change */
};

static int slot_order(const void *a, const void *b)
{
    const struct slot *x = a, *y = b;
    return (x->lo > y->lo) - (x->lo < y->lo);
}

/*
 * The bytes Patch may write at a listed PatchOffset: the address field of
 * the hardware. The kit's GPU's is an 8-byte ADDR operand; a binding's is
 * what its processor decodes (wk_vidmm_patch_slots, probed once per
 * adapter: the widest slot it reads, up to 16 bytes). A fixed 8 blamed a
 * correct driver of a GPU with wider address fields for the bytes past the
 * eighth (PATCH-CONFINE-001), one with narrower fields for a slot that ends
 * the buffer (RENDER-PATCH-OFFSET, render.c), and let one with 5-byte fields
 * write 3 bytes of the next field unseen (outsider 7's GPU; the helper who fixed
 * fuzz_patch's slots named it).
 */
uint32_t patch_slot_width(struct wk_vidmm *vm)
{
    struct wk_vidmm_patch_slots ps;
    wk_vidmm_patch_slots(vm, &ps); /* probed once per adapter (binding.c) */
    return ps.bytes; /* 1 to 16: patch_slot_address refuses wider */
}

/* The slot of `width` bytes at `offset` clipped to the submission
 * [start, end): what Patch may write there; empty (lo >= hi) when outside. */
static struct slot slot_clip(uint32_t offset, uint32_t width, uint32_t start, uint32_t end)
{
    uint64_t hi = (uint64_t)offset + width < end ? (uint64_t)offset + width : end;
    return (struct slot){ offset > start ? offset : start, (uint32_t)hi };
}

/* The listed slots of the submission, clipped to [start, end), sorted and
 * merged; returns how many intervals are in out. */
static uint32_t allowed_slots(const struct submission *s, uint32_t width, struct slot *out)
{
    uint32_t n = 0;
    int sorted = 1;
    for (uint32_t i = 0; i < s->patch_length; i++) {
        struct slot x = slot_clip(s->patch_list[s->patch_start + i].PatchOffset, width, s->start, s->end);
        if (x.lo >= x.hi)
            continue;
        out[n] = x;
        sorted &= n == 0 || out[n - 1].lo <= out[n].lo;
        n++;
    }
    if (!sorted && n <= 32) { /* a fuzz input's few: insertion, no call per comparison */
        for (uint32_t i = 1; i < n; i++) {
            struct slot x = out[i];
            uint32_t j = i;
            for (; j > 0 && out[j - 1].lo > x.lo; j--)
                out[j] = out[j - 1];
            out[j] = x;
        }
    } else if (!sorted) {
        qsort(out, n, sizeof(*out), slot_order);
    }
    uint32_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (m && out[i].lo <= out[m - 1].hi) {
            if (out[i].hi > out[m - 1].hi)
                out[m - 1].hi = out[i].hi;
        } else {
            out[m++] = out[i];
        }
    }
    return m;
}

/* What the DMA buffer held before Patch: bytes[0, len), then zeroes. A
 * snapshot has len = the buffer size; wk_vidmm_patch knows the image
 * without one (the input, then the zeroes it wrote). */
struct dma_image {
    const uint8_t *bytes;
    uint64_t len;
};

/* The first offset in [lo, hi) where p differs from q, hi if none. */
static uint64_t first_diff(const uint8_t *p, const uint8_t *q, uint64_t lo, uint64_t hi)
{
    if (lo >= hi || memcmp(p + lo, q + lo, hi - lo) == 0)
        return hi;
    while (p[lo] == q[lo])
        lo++;
    return lo;
}

/* The first offset in [lo, hi) where p is not zero, hi if none (one read
 * of the range, gbuf_first_not). */
static uint64_t first_nonzero(const uint8_t *p, uint64_t lo, uint64_t hi)
{
    return lo >= hi ? hi : lo + gbuf_first_not(p + lo, hi - lo, 0);
}

/* The first offset in [lo, hi) where the buffer differs from the image. */
static uint64_t first_change(const uint8_t *now, const struct dma_image *before, uint64_t lo, uint64_t hi)
{
    uint64_t mid = hi < before->len ? hi : before->len;
    uint64_t off = first_diff(now, before->bytes, lo, mid);
    if (off < mid)
        return off;
    return first_nonzero(now, lo > mid ? lo : mid, hi);
}

/* PATCH-CONFINE-001: the first changed byte outside the allowed slots;
 * *count the allowed intervals, sorted, in slots. */
static int check_confined(struct wk_vidmm *vm, const struct submission *s, const struct dma_image *before,
                          struct slot *slots, uint32_t *count)
{
    const uint8_t *now = s->dma->ptr;
    uint32_t n = allowed_slots(s, patch_slot_width(vm), slots);
    *count = n;
    uint64_t from = 0, end = s->check_end ? s->check_end : s->dma->size; /* past end: read-only to it */
    for (uint32_t i = 0; i <= n; i++) {
        uint64_t to = i < n ? slots[i].lo : end;
        uint64_t off = first_change(now, before, from, to);
        if (off < to) {
            violate(vm, R_PATCH_CONFINE, WK_DDI_PATCH,
                    "changed byte +%llu of the DMA buffer, outside the listed patch locations of [%u, %u)",
                    (unsigned long long)off, s->start, s->end);
            return 0;
        }
        from = i < n ? slots[i].hi : to;
    }
    return 1;
}

/*
 * Whether PATCH-VALUE-001 holds the driver to the address `want` of list
 * entry al. The kernel hands Patch only entries whose SegmentId names one
 * of the adapter's segments and whose PhysicalAddress is the allocation's
 * address in it (facts §5.3 T2, T3), so Patch is asked for addresses inside
 * a segment. A bare Patch (fuzz_patch, a `patch` step) may list any
 * SegmentId and address. The kit's own format holds any 64-bit value, and
 * such an entry is judged as before. A binding's hardware encoding need
 * not: an outsider's GPU reserves all-ones for "not patched yet", and a
 * bus may be 40 bits wide. Its correct miniport was blamed for an entry of
 * SegmentId 18 on a 3-segment adapter at 0xffffffffffffffff, a value that
 * no VidMm hands over and its hardware cannot hold. With a binding, only
 * an address inside the named segment (its end included: a reference to 0
 * bytes at an allocation's end) is judged.
 *
 * Nor does the kernel hand a placement with a NULL hDeviceSpecificAllocation:
 * NULL "expresses an unbind" (facts §4.7), an entry with no allocation, so
 * no segment it was "last paged into" (SegmentId 0). A bare Patch may list
 * NULL with a segment and an address; a driver that skips unbind entries,
 * as an outsider's does, was blamed for leaving that slot unpatched. Such an
 * entry is not judged, with or without a binding.
 */
static int value_judged(struct wk_vidmm *vm, const DXGK_ALLOCATIONLIST *al, uint64_t want)
{
    if (!al->hDeviceSpecificAllocation)
        return 0;
    if (!vm->binding)
        return 1;
    const struct segment *g = segment_get(vm, al->SegmentId);
    return g && want >= g->base && want - g->base <= g->size;
}

/* PATCH-CONFINE-001, then PATCH-VALUE-001. Returns the end of the last
 * slot Patch was allowed to change (0: none): when no violation was
 * recorded, every byte from max(that, the image's length) on is zero. */
static uint64_t check_patch_effect(struct wk_vidmm *vm, const struct submission *s,
                                   const struct dma_image *before, struct slot *slots)
{
    const uint8_t *now = s->dma->ptr;
    uint32_t n = 0;
    if (!check_confined(vm, s, before, slots, &n))
        return 0;
    uint64_t allowed_end = n ? slots[n - 1].hi : 0;
    if (!address_check(vm)) /* the patched values are in the driver's own encoding (T3) */
        return allowed_end;
    for (uint32_t i = 0; i < s->patch_length; i++) {
        const D3DDDI_PATCHLOCATIONLIST *p = &s->patch_list[s->patch_start + i];
        if (p->AllocationIndex >= s->alloc_list_size || (uint64_t)p->PatchOffset + patch_slot_width(vm) > s->end ||
            p->PatchOffset < s->start)
            continue; /* a bad entry is Render's violation, and Patch must skip it */
        const DXGK_ALLOCATIONLIST *al = &s->alloc_list[p->AllocationIndex];
        if (al->SegmentId == 0)
            continue;
        uint64_t want = (uint64_t)al->PhysicalAddress.QuadPart + p->AllocationOffset, seen = 0;
        if (!value_judged(vm, al, want))
            continue;
        uint32_t bytes = 0;
        int decoded = patch_slot_address(vm, now, s->dma->size, p->PatchOffset, &seen, &bytes);
        if (decoded < 0 || vm->dead)
            return allowed_end;
        if (!decoded) {
            violate(vm, R_PATCH_VALUE, WK_DDI_PATCH,
                    "patch location %u (+%u) holds no address the hardware decodes, expected PhysicalAddress + "
                    "AllocationOffset = 0x%llx",
                    s->patch_start + i, p->PatchOffset, (unsigned long long)want);
            return allowed_end;
        }
        if (seen != want) {
            violate(vm, R_PATCH_VALUE, WK_DDI_PATCH,
                    "patch location %u (+%u) holds 0x%llx, expected PhysicalAddress + AllocationOffset = 0x%llx",
                    s->patch_start + i, p->PatchOffset, (unsigned long long)seen, (unsigned long long)want);
            return allowed_end;
        }
    }
    return allowed_end;
}

/* How much of the DMA buffer the snapshot needs: [0, end) when every byte
 * from the submission's end on is zero (a paging buffer nearly always: its
 * flush clears what it filled, and most of it is never filled), the whole
 * buffer otherwise. The image then says "zeroes from here", and
 * first_change compares the rest with zeroes after the call: a Patch that
 * writes any of it is still PATCH-CONFINE-001 (tests/test_paging_patch.c).
 * The tail is read before and after the call instead of copied and
 * compared: about 5% more fuzz_paging executions (docs/performance.md). */
static uint64_t snapshot_len(const struct submission *s)
{
    uint64_t end = s->end < s->dma->size ? s->end : s->dma->size;
    return first_nonzero(s->dma->ptr, end, s->dma->size) == s->dma->size ? end : s->dma->size;
}

/* A copy of the lists a Patch gets as const when they are not read-only
 * views (Render's output lists), in the call's scratch buffer: what the
 * driver changed of them is found by a compare after the call. */
struct lists_copy {
    uint8_t *bytes;             /* NULL: read-only views, nothing to compare */
    size_t alloc_bytes, patch_bytes;
};

static size_t lists_copy_size(const struct submission *s, struct lists_copy *c)
{
    memset(c, 0, sizeof(*c));
    if (!s->lists_writable)
        return 0;
    c->alloc_bytes = s->alloc_list ? (size_t)s->alloc_list_size * sizeof(DXGK_ALLOCATIONLIST) : 0;
    c->patch_bytes = s->patch_list ? (size_t)s->patch_list_size * sizeof(D3DDDI_PATCHLOCATIONLIST) : 0;
    return c->alloc_bytes + c->patch_bytes;
}

static void lists_copy_take(const struct submission *s, struct lists_copy *c, uint8_t *room)
{
    if (!c->alloc_bytes && !c->patch_bytes)
        return;
    c->bytes = room;
    memcpy(c->bytes, s->alloc_list, c->alloc_bytes);
    memcpy(c->bytes + c->alloc_bytes, s->patch_list, c->patch_bytes);
}

/* The first byte at which n bytes of a and b differ, n when none. */
static size_t first_difference(const uint8_t *a, const uint8_t *b, size_t n)
{
    if (!memcmp(a, b, n))
        return n;
    size_t i = 0;
    while (i < n && a[i] == b[i])
        i++;
    return i;
}

/* Whether the driver's copy of DXGKARG_PATCH is the kit's: whole words,
 * no early exit (a memcmp call was 3% of fuzz_patch's time). */
static int same_args(const DXGKARG_PATCH *driver, const DXGKARG_PATCH *kit)
{
    _Static_assert(sizeof(DXGKARG_PATCH) % 8 == 0, "DXGKARG_PATCH is whole words");
    uint64_t a[sizeof(DXGKARG_PATCH) / 8], b[sizeof(DXGKARG_PATCH) / 8], diff = 0;
    memcpy(a, driver, sizeof(a));
    memcpy(b, kit, sizeof(b));
    for (size_t i = 0; i < sizeof(a) / 8; i++)
        diff |= a[i] ^ b[i];
    return diff == 0;
}

/* The DXGKARG_PATCH field at byte `at` (a message names it). */
static const char *patch_field(size_t at)
{
#define F_(name) { offsetof(DXGKARG_PATCH, name), sizeof(((DXGKARG_PATCH *)0)->name), #name }
    static const struct { size_t at, size; const char *name; } fields[] = {
        F_(hContext), F_(DmaBufferSegmentId), F_(DmaBufferPhysicalAddress), F_(pDmaBuffer), F_(DmaBufferSize),
        F_(DmaBufferSubmissionStartOffset), F_(DmaBufferSubmissionEndOffset), F_(pDmaBufferPrivateData),
        F_(DmaBufferPrivateDataSize), F_(DmaBufferPrivateDataSubmissionStartOffset),
        F_(DmaBufferPrivateDataSubmissionEndOffset), F_(pAllocationList), F_(AllocationListSize),
        F_(pPatchLocationList), F_(PatchLocationListSize), F_(PatchLocationListSubmissionStart),
        F_(PatchLocationListSubmissionLength), F_(SubmissionFenceId), F_(Flags), F_(EngineOrdinal),
    };
#undef F_
    for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
        if (at >= fields[i].at && at < fields[i].at + fields[i].size)
            return fields[i].name;
    return "padding";
}

/* DxgkDdiPatch's inputs are const ("const DXGKARG_PATCH *pPatch"; its
 * pAllocationList and pPatchLocationList point to const, facts §4.4): a
 * driver that wrote to the argument struct (the guarded copy it got,
 * `driver`, against the kit's `kit`) or to the lists broke MEM-GUARD-001
 * ("nor into one its DDI gets as const"). Outsider 25's driver wrote both
 * and passed. */
static void patch_inputs_check(struct wk_vidmm *vm, const struct submission *s, const DXGKARG_PATCH *driver,
                               const DXGKARG_PATCH *kit, const struct lists_copy *c)
{
    size_t at;
    if (driver && !same_args(driver, kit) &&
        (at = first_difference((const uint8_t *)driver, (const uint8_t *)kit, sizeof(*kit))) < sizeof(*kit))
        violate(vm, R_MEM_GUARD, WK_DDI_PATCH, "wrote to the DXGKARG_PATCH argument (*pPatch), which the DDI gets as "
                "const, at offset +%zu (%s)", at, patch_field(at));
    if (!c->bytes)
        return;
    if ((at = first_difference(c->bytes, (const uint8_t *)s->alloc_list, c->alloc_bytes)) < c->alloc_bytes)
        violate(vm, R_MEM_GUARD, WK_DDI_PATCH, "wrote to the allocation list (pAllocationList, %u entries), which the "
                "DDI gets as const, at entry %zu byte %zu", s->alloc_list_size, at / sizeof(DXGK_ALLOCATIONLIST),
                at % sizeof(DXGK_ALLOCATIONLIST));
    if ((at = first_difference(c->bytes + c->alloc_bytes, (const uint8_t *)s->patch_list, c->patch_bytes)) <
        c->patch_bytes)
        violate(vm, R_MEM_GUARD, WK_DDI_PATCH, "wrote to the patch-location list (pPatchLocationList, %u entries), "
                "which the DDI gets as const, at entry %zu byte %zu", s->patch_list_size,
                at / sizeof(D3DDDI_PATCHLOCATIONLIST), at % sizeof(D3DDDI_PATCHLOCATIONLIST));
}

/* Patch of submission s, checked against `known`, what the DMA buffer holds
 * (NULL: a snapshot is taken). With `known`, *nonzero_end is where the
 * buffer is zero from, when the call recorded no violation. */
static wk_status call_patch(struct wk_vidmm *vm, const struct submission *s, uint32_t fence,
                            const struct dma_image *known, uint64_t *nonzero_end)
{
    DXGKARG_PATCH args;
    memset(&args, 0, sizeof(args));
    args.hContext = s->context ? context_get(vm, s->context)->driver_handle : NULL;
    args.DmaBufferSegmentId = s->dma_segment;
    args.DmaBufferPhysicalAddress.QuadPart = (LONGLONG)s->dma_gpu_address;
    args.pDmaBuffer = s->driver_dma ? s->driver_dma : s->dma->ptr;
    args.DmaBufferSize = (UINT)s->dma->size;
    args.DmaBufferSubmissionStartOffset = s->start;
    args.DmaBufferSubmissionEndOffset = s->end;
    args.pDmaBufferPrivateData = s->dma_private->ptr;
    args.DmaBufferPrivateDataSize = (UINT)s->dma_private->size;
    args.DmaBufferPrivateDataSubmissionStartOffset = s->private_start;
    args.DmaBufferPrivateDataSubmissionEndOffset = s->private_end;
    args.pAllocationList = s->alloc_list;
    args.AllocationListSize = s->alloc_list_size;
    args.pPatchLocationList = s->patch_list;
    args.PatchLocationListSize = s->patch_list_size;
    args.PatchLocationListSubmissionStart = s->patch_start;
    args.PatchLocationListSubmissionLength = s->patch_length;
    args.SubmissionFenceId = fence;
    args.Flags.Paging = (UINT)s->paging;
    /* The snapshot and the slot intervals share the adapter's scratch
     * buffer: no allocation per call once it has grown. */
    uint64_t len = known || s->dma_readonly ? 0 : snapshot_len(s);
    uint64_t snap = (len + 7) & ~7ull, slot_bytes = (uint64_t)s->patch_length * sizeof(struct slot);
    struct lists_copy lists;
    size_t list_bytes = lists_copy_size(s, &lists);
    uint8_t *scratch = gbuf_scratch_take(vm, snap + slot_bytes + list_bytes);
    if (!scratch)
        return fail(vm, WK_E_NO_MEMORY, "out of memory for a DMA-buffer snapshot");
    struct slot *slots = (struct slot *)(void *)(scratch + snap);
    struct dma_image before = { scratch, len };
    if (known)
        before = *known;
    else
        memcpy(scratch, s->dma->ptr, len);
    NTSTATUS status = STATUS_UNSUCCESSFUL;
    wk_status crashed;
    lists_copy_take(s, &lists, scratch + snap + slot_bytes);
    struct garg g; /* the driver gets a guarded copy (guard_args.c) */
    DXGKARG_PATCH *pargs = garg_in(vm, &g, &args, sizeof(args), "DXGKARG_PATCH argument (*pPatch)");
    DDI_CALL(vm, WK_DDI_PATCH, crashed, status = vm->ddi.DxgkDdiPatch(vm->miniport, pargs);
             ddi_rewrite(vm, WK_DDI_PATCH, pargs, &status));
    g.kit = NULL; /* const to the driver: nothing to read back */
    if (crashed == WK_OK)
        patch_inputs_check(vm, s, pargs != &args ? pargs : NULL, &args, &lists);
    wk_status guard = garg_out(vm, &g, WK_DDI_PATCH, crashed);
    if (crashed == WK_OK && guard != WK_OK)
        crashed = guard;
    else if (crashed == WK_OK) {
        if (status != STATUS_SUCCESS)
            violate(vm, R_PATCH_STATUS, WK_DDI_PATCH,
                    "returned 0x%08x; Windows would bug-check 0x119 (VIDEO_SCHEDULER_INTERNAL_ERROR) with parameter 1 = 0x3",
                    (unsigned)status);
        /* A read-only view: any write faulted, nothing changed to look for. */
        uint64_t allowed_end = s->dma_readonly ? 0 : check_patch_effect(vm, s, &before, slots);
        if (nonzero_end)
            *nonzero_end = allowed_end > before.len ? allowed_end : before.len;
        gbuf_check(vm, s->dma, WK_DDI_PATCH);
    }
    gbuf_scratch_put(vm, scratch);
    return crashed;
}

/* ------------------------------------------------------------------ */
/* SubmitCommand                                                        */
/* ------------------------------------------------------------------ */

/* The node a submission goes to: a paging buffer to the paging node the
 * system context was created on (adapter_paging_node), a render buffer to
 * its context's node (node 0 unless a case asked another: the
 * DXGKARG_CREATECONTEXT.NodeOrdinal it was created on). A paging
 * submission stays a system operation (NULL hContext, Flags.Paging: facts
 * §5.1 P25). */
static uint32_t submission_node(struct wk_vidmm *vm, const struct submission *s)
{
    const struct context *c = s->paging || !s->context ? NULL : context_get(vm, s->context);
    return s->paging ? adapter_paging_node(vm) : c ? c->node : VIDMM_NODE;
}

/* *doorbell: the kit GPU's DOORBELL the call rang when it rang exactly one
 * (that buffer's run: fence_complete), else 0. */
static wk_status call_submit(struct wk_vidmm *vm, const struct submission *s, uint32_t fence, uint64_t *doorbell)
{
    DXGKARG_SUBMITCOMMAND args;
    memset(&args, 0, sizeof(args));
    args.hContext = s->context ? context_get(vm, s->context)->driver_handle : NULL;
    args.DmaBufferSegmentId = s->dma_segment;
    args.DmaBufferPhysicalAddress.QuadPart = (LONGLONG)s->dma_gpu_address;
    args.DmaBufferSize = (UINT)s->dma->size;
    args.DmaBufferSubmissionStartOffset = s->start;
    args.DmaBufferSubmissionEndOffset = s->end;
    args.pDmaBufferPrivateData = s->dma_private->ptr;
    args.DmaBufferPrivateDataSize = (UINT)s->dma_private->size;
    args.DmaBufferPrivateDataSubmissionStartOffset = s->private_start;
    args.DmaBufferPrivateDataSubmissionEndOffset = s->private_end;
    args.SubmissionFenceId = fence;
    args.Flags.Paging = (UINT)s->paging;
    args.NodeOrdinal = submission_node(vm, s);
    args.EngineOrdinal = VIDMM_ENGINE;
    NTSTATUS status = STATUS_UNSUCCESSFUL;
    wk_status crashed;
    const unsigned char irql = km_irql_enter(vm, KM_DISPATCH_LEVEL); /* facts §5.3 T9 */
    struct garg g; /* the driver gets a guarded copy (guard_args.c) */
    DXGKARG_SUBMITCOMMAND *pargs =
        garg_in(vm, &g, &args, sizeof(args), "DXGKARG_SUBMITCOMMAND argument (*pSubmitCommand)");
    vm->submitting_fence = fence;
    const uint64_t doorbells = page_fault_doorbells(vm);
    DDI_CALL(vm, WK_DDI_SUBMIT_COMMAND, crashed,
             status = vm->ddi.DxgkDdiSubmitCommand(vm->miniport, pargs);
             ddi_rewrite(vm, WK_DDI_SUBMIT_COMMAND, pargs, &status));
    vm->submitting_fence = 0;
    *doorbell = page_fault_note_doorbell(vm, fence, doorbells);
    km_irql_leave(vm, irql);
    g.kit = NULL; /* const to the driver: nothing to read back */
    wk_status guard = garg_out(vm, &g, WK_DDI_SUBMIT_COMMAND, crashed);
    if (crashed != WK_OK)
        return crashed;
    if (guard != WK_OK)
        return guard;
    if (status != STATUS_SUCCESS)
        return violate(vm, R_SUBMIT_STATUS, WK_DDI_SUBMIT_COMMAND,
                       "returned 0x%08x; Windows would bug-check 0x119 with parameter 1 = 0x2, parameter 2 = the status",
                       (unsigned)status);
    return WK_OK;
}

static wk_status add_pending(struct wk_vidmm *vm, const struct submission *s, uint32_t fence, int held)
{
    if (vm->npending == MAX_PENDING)
        return fail(vm, WK_E_LIMIT, "more than %u submissions pending", MAX_PENDING);
    struct pending *p = &vm->pending[vm->npending++];
    memset(p, 0, sizeof(*p));
    p->fence = fence;
    p->paging = s->paging;
    p->held = held;
    p->context = s->context;
    p->node = submission_node(vm, s); /* as call_submit hands them */
    p->engine = VIDMM_ENGINE;
    p->start = s->start;
    p->end = s->end;
    p->dma_gpu_address = s->dma_gpu_address;
    p->space = s->space;
    return WK_OK;
}

/* The device error a case asks for (cfg.device_error_at): armed on the GPU
 * model before the driver's SubmitCommand rings the doorbell for that
 * render submission. Only the model's front end runs it: a binding's
 * processor and --gpu none have no such error. */
static void arm_device_error(struct wk_vidmm *vm, const struct submission *s)
{
    if (s->paging || !vm->cfg.device_error_at || vm->cfg.no_model || vm->binding)
        return;
    if (++vm->render_submits == vm->cfg.device_error_at) {
        wk_gpu_device_error_next_doorbell(vm->gpu);
        vm->device_error_armed = 1;
    }
}

int wk_vidmm_device_error_armed(const struct wk_vidmm *vm)
{
    return vm->device_error_armed;
}

const char *wk_vidmm_device_error_why_not(const struct wk_vidmm *vm)
{
    if (vm->cfg.no_model || vm->binding)
        return "a limit of the kit: it injects device errors on its own GPU only, not on a hardware binding's "
               "processor or with --gpu none";
    return "the case made fewer render and virtual submissions than that";
}

/*
 * Whether VidMm calls DxgkDdiPatch for submission s: the one place that
 * decides it.
 *  - The DMA buffer of a context whose DXGK_CONTEXTINFO.Caps reports
 *    NoPatchingRequired: never. DXGK_CONTEXTINFO_CAPS: "NoPatchingRequired:
 *    Indicates that no memory patching is required", and the memory
 *    patching is Patch's (facts §5.3 T1). The buffer goes to SubmitCommand
 *    as Render, and its pre-patching (§5.2 R6), left it (context_caps.c).
 *  - A paging buffer: when the driver has a Patch. The documentation says
 *    both that Patch comes for paging buffers and that the scheduler need
 *    not patch them (facts §7.3), so a driver without one is not held to it.
 *  - Any other DMA buffer: always. A driver without Patch never gets here
 *    with one: wk_vidmm_render and wk_vidmm_patch refuse it first, as not
 *    supported (context_render_judgeable, context_patch_callable).
 */
static int patch_called(struct wk_vidmm *vm, const struct submission *s)
{
    if (!vm->ddi.DxgkDdiPatch)
        return 0;
    if (s->paging)
        return 1;
    const struct context *c = context_get(vm, s->context);
    return !c || context_patched(c);
}

/* A render piece with patch locations that was not patched: counted, so
 * that a failed data check can say why (wk_vidmm_unpatched). */
static void note_unpatched(struct wk_vidmm *vm, const struct submission *s)
{
    if (s->paging || s->patch_length == 0)
        return;
    vm->unpatched++;
    vm->unpatched_context = s->context;
}

/*
 * The next SubmissionFenceId: one above the last, from cfg.first_fence on.
 * The id is a UINT (facts §4.4, §4.5) and rises by one per submission, as
 * the kit always numbered them. What follows 0xFFFFFFFF the facts do not
 * say; the kit goes on at 1, because 0 is no fence here (submit_wait's
 * "every pending", and the "nothing completed yet" a driver starts from).
 */
static uint32_t fence_next(struct wk_vidmm *vm)
{
    if (++vm->next_fence == 0)
        vm->next_fence = 1;
    return vm->next_fence;
}

wk_status submit_buffer(struct wk_vidmm *vm, const struct submission *s, uint32_t *fence)
{
    if (!vm->ddi.DxgkDdiSubmitCommand)
        return fail(vm, WK_E_NOT_SUPPORTED, "the driver has no DxgkDdiSubmitCommand");
    if (s->paging && vm->queue.count) { /* a paging buffer runs on an idle GPU (queue.c) */
        wk_status drained = queue_drain(vm);
        if (drained != WK_OK)
            return drained;
    }
    *fence = fence_next(vm);
    if (!s->paging && vm->hold) {
        vm->hold--;
        return add_pending(vm, s, *fence, 1);
    }
    arm_device_error(vm, s);
    wk_status st = WK_OK;
    if (patch_called(vm, s))
        st = call_patch(vm, s, *fence, NULL, NULL);
    else
        note_unpatched(vm, s);
    if (st != WK_OK)
        return st;
    st = add_pending(vm, s, *fence, 0);
    if (st != WK_OK)
        return st;
    uint64_t doorbell = 0;
    st = call_submit(vm, s, *fence, &doorbell);
    if (st != WK_OK) {
        submit_untrack(vm, *fence); /* never reached the hardware */
        return st;
    }
    for (uint32_t i = vm->npending; i-- > 0;)
        if (vm->pending[i].fence == *fence)
            vm->pending[i].doorbell = doorbell;
    return st;
}

/* A submission that is not SubmitCommand's (DxgkDdiSubmitCommandVirtual,
 * gpuva_context.c) is tracked as any other: the next fence, pending until
 * an interrupt reports it; untracked again when it never reached the
 * hardware. */
wk_status submit_track(struct wk_vidmm *vm, const struct submission *s, uint32_t *fence)
{
    *fence = fence_next(vm);
    arm_device_error(vm, s); /* a virtual submission counts as a render one does */
    return add_pending(vm, s, *fence, 0);
}

void submit_untrack(struct wk_vidmm *vm, uint32_t fence)
{
    for (uint32_t i = 0; i < vm->npending; i++)
        if (vm->pending[i].fence == fence) {
            memmove(&vm->pending[i], &vm->pending[i + 1], (vm->npending - i - 1) * sizeof(vm->pending[0]));
            vm->npending--;
            return;
        }
}

/* ------------------------------------------------------------------ */
/* Interrupts and completion                                            */
/* ------------------------------------------------------------------ */

/* The DPC point, once the interrupts are dismissed: DxgkDdiDpcRoutine
 * when the driver asked for it (DxgkCbNotifyDpc, DxgkCbQueueDpc), then the
 * DPC objects it queued (KeInsertQueueDpc), in order. */
static wk_status dpc_point(struct wk_vidmm *vm)
{
    if (vm->dpc_requested && vm->ddi.DxgkDdiDpcRoutine) {
        vm->dpc_requested = 0;
        wk_status crashed;
        const unsigned char irql = km_irql_enter(vm, KM_DISPATCH_LEVEL); /* a DPC runs at DISPATCH_LEVEL */
        DDI_CALL(vm, WK_DDI_DPC_ROUTINE, crashed, vm->ddi.DxgkDdiDpcRoutine(vm->miniport));
        km_irql_leave(vm, irql);
        if (crashed != WK_OK)
            return crashed;
    }
    return km_run_queued_dpcs(vm);
}

/* The interrupt line: the kit's GPU's, or the binding's register model's. */
static int line_asserted(struct wk_vidmm *vm)
{
    return binding_has_registers(vm) ? binding_irq_pending(vm) : wk_gpu_irq_asserted(vm->gpu);
}

/* What the report says of the line: the kit's GPU's status bits; a
 * binding's line has no status the kit knows. */
static void line_state(struct wk_vidmm *vm, char *buf, size_t cap)
{
    if (binding_has_registers(vm))
        snprintf(buf, cap, "the %s GPU's line", vm->binding->name);
    else
        snprintf(buf, cap, "status 0x%x", wk_gpu_mmio_read32(vm->gpu, WK_GPU_REG_IRQ_STATUS));
}

/* After a violation the kit quiets the line itself, as no driver did: the
 * kit's GPU by acknowledging every bit; a binding's line is not delivered
 * again until the GPU runs again. */
static void quiet_line(struct wk_vidmm *vm)
{
    if (binding_has_registers(vm)) {
        vm->irq_ignored = 1;
        return;
    }
    uint32_t bits = wk_gpu_mmio_read32(vm->gpu, WK_GPU_REG_IRQ_STATUS);
    wk_gpu_mmio_write32(vm->gpu, WK_GPU_REG_IRQ_ACK, bits);
}

static wk_status deliver_interrupts(struct wk_vidmm *vm)
{
    for (uint32_t round = 0; line_asserted(vm); round++) {
        char raised[64];
        line_state(vm, raised, sizeof(raised));
        if (!vm->ddi.DxgkDdiInterruptRoutine || round == MAX_IRQ_ROUNDS) {
            quiet_line(vm);
            return violate(vm, R_INTR_CLAIM, WK_DDI_INTERRUPT_ROUTINE,
                           "the interrupt line stayed asserted (%s) after %u calls", raised, round);
        }
        NTSTATUS claimed = 0; /* the BOOLEAN answer, widened for the rewriter */
        wk_status crashed;
        const unsigned char irql = km_irql_enter(vm, KM_DEVICE_IRQL); /* an ISR runs at its device's IRQL */
        DDI_CALL(vm, WK_DDI_INTERRUPT_ROUTINE, crashed,
                 claimed = vm->ddi.DxgkDdiInterruptRoutine(vm->miniport, 0);
                 ddi_rewrite(vm, WK_DDI_INTERRUPT_ROUTINE, NULL, &claimed));
        km_irql_leave(vm, irql);
        if (crashed != WK_OK)
            return crashed;
        if (!claimed) {
            quiet_line(vm);
            return violate(vm, R_INTR_CLAIM, WK_DDI_INTERRUPT_ROUTINE,
                           "returned FALSE while its device asserted the line (%s)", raised);
        }
    }
    return dpc_point(vm);
}

static int waiting_for(const struct wk_vidmm *vm, uint32_t fence)
{
    for (uint32_t i = 0; i < vm->npending; i++)
        if (!vm->pending[i].held && (fence == 0 || !fence_after(vm->pending[i].fence, fence)))
            return 1;
    return 0;
}

/*
 * The no_model mode: nothing executes the driver's buffers, so no
 * interrupt will report them done. The kit retires each submission the
 * driver accepted, in order, as a GPU of the driver's own would have
 * completed it; that it did complete, and reported it, is a semantic check
 * it cannot make (counted as skipped). A driver that reports completions
 * itself (a software GPU of its own) still has them checked as they come
 * (callbacks.c, fence_complete).
 */
static wk_status retire_unexecuted(struct wk_vidmm *vm, uint32_t fence)
{
    for (uint32_t i = 0; i < vm->npending;) {
        struct pending *p = &vm->pending[i];
        if (p->held || (fence && fence_after(p->fence, fence))) {
            i++;
            continue;
        }
        vm->last_completed = p->fence;
        vm->stats.fences_completed++;
        (void)semantic_check(vm);
        memmove(p, p + 1, (vm->npending - i - 1) * sizeof(*p));
        vm->npending--;
    }
    return vm->dead ? WK_E_DEAD : WK_OK;
}

/*
 * A binding's processor without a register model: as a GPU of the driver's
 * own would, it runs each submission the driver accepted, in order, and the
 * kit retires its fence (no interrupt comes; that the driver reported the
 * completion is the one thing not checked, as with no_model).
 */
static wk_status run_and_retire(struct wk_vidmm *vm, uint32_t fence)
{
    while (vm->npending) {
        struct pending *p = NULL;
        uint32_t i = 0;
        for (; i < vm->npending; i++)
            if (!vm->pending[i].held) {
                p = &vm->pending[i];
                break;
            }
        if (!p || (fence && fence_after(p->fence, fence)))
            break;
        struct wk_exec_fault fault;
        wk_status st;
        if (p->space) { /* a virtual submission: in its context's space; which root the driver made
                           active no register says (counted as not judged) */
            st = binding_exec_va(vm, gpuva_space_gpu(vm, p->space), p->dma_gpu_address, p->start, p->end, 0,
                                 p->fence, &fault);
            vm->semantic_skipped++;
            vm->binding_skipped[0]++;
        } else {
            st = binding_exec(vm, p->dma_gpu_address, p->start, p->end, p->paging ? WK_EXEC_PAGING : 0, p->fence,
                              &fault);
        }
        if (st == WK_E_BINDING || vm->dead)
            return vm->dead ? WK_E_DEAD : st;
        vm->buffers_run++;
        vm->last_completed = p->fence;
        vm->stats.fences_completed++;
        vm->semantic_skipped++; /* that the driver reported it: no interrupt to report it from */
        vm->binding_skipped[0]++;
        memmove(p, p + 1, (vm->npending - i - 1) * sizeof(*p));
        vm->npending--;
    }
    return vm->nkdpc ? dpc_point(vm) : WK_OK;
}

/* The most buffers a binding's register model may queue in one wait: a
 * queue that never empties is the binding's fault, not a reason to spin. */
#define MAX_BINDING_RUNS 65536u

/*
 * A submission the register model latched a root for (a virtual one): it
 * runs in the address space whose root table is there. None is: the engine
 * has no tables to translate with, so nothing of it runs and it faults
 * NO_ADDRESS_SPACE at that root, as the kit's GPU does (docs/gpu-model.md),
 * logged so the submission's check sees it (SUBMITV-GPU-001).
 */
static wk_status binding_exec_rooted(struct wk_vidmm *vm, const struct wk_submission *s, uint64_t root,
                                     struct wk_exec_fault *fault)
{
    uint32_t space = gpuva_space_by_root(vm, root);
    if (space)
        return binding_exec_va(vm, gpuva_space_gpu(vm, space), s->buffer_addr, s->start, s->end, s->flags, s->tag,
                               fault);
    memset(fault, 0, sizeof(*fault));
    fault->cls = WK_FAULT_MEMORY;
    fault->mem_reason = WK_GPU_FAULT_NO_ADDRESS_SPACE;
    fault->fault_addr = root;
    fault->offset = s->start;
    fault->opcode = 0xFFFFFFFFu;
    struct wk_gpu_fault f;
    memset(&f, 0, sizeof(f));
    f.reason = WK_GPU_FAULT_NO_ADDRESS_SPACE;
    f.opcode = 0xFFFFFFFFu;
    f.buffer_addr = s->buffer_addr;
    f.fault_addr = root;
    wk_gpu_fault_record(vm->gpu, &f);
    snprintf(vm->bind_fault_text, sizeof(vm->bind_fault_text),
             "the binding's registers ran it under root 0x%llx, no address space's", (unsigned long long)root);
    return WK_E_GPU_FAULT;
}

/* Whether `tag` is a fence the kit submitted and still waits for. */
static int tag_is_pending(const struct wk_vidmm *vm, uint32_t tag)
{
    for (uint32_t i = 0; i < vm->npending; i++)
        if (vm->pending[i].fence == tag)
            return 1;
    return 0;
}

/* Runs what the binding's register model queued: next, exec, done. The
 * first buffer a wait runs is the awaited fence's when its tag names no
 * fence the kit waits for: the tag is the driver's own to choose (outsider
 * 20: a driver with tags of its own was told a page fault it named right
 * was of a clean buffer). */
static wk_status run_binding_queue(struct wk_vidmm *vm, uint32_t awaited, uint32_t *ran, uint32_t *total)
{
    struct wk_submission s;
    const uint32_t limit = queue_run_limit(vm);
    *ran = 0;
    while (!vm->dead && (limit == 0 || *ran < limit) && binding_next(vm, &s)) {
        if (++*total > MAX_BINDING_RUNS) {
            vm->dead = 1;
            return violate(vm, R_BIND_RESULT, WK_DDI_NONE,
                           "the register model of binding '%s' queued more than %u buffers in one wait",
                           vm->binding->name, MAX_BINDING_RUNS);
        }
        struct wk_exec_fault fault;
        uint64_t root = binding_root(vm, &s);
        vm->bind_last_root = root;
        wk_status st = root ? binding_exec_rooted(vm, &s, root, &fault)
                            : binding_exec(vm, s.buffer_addr, s.start, s.end, s.flags, s.tag, &fault);
        if (st == WK_E_BINDING)
            return st;
        vm->buffers_run++;
        vm->irq_ignored = 0; /* the GPU ran: its line counts again */
        if (st == WK_E_GPU_FAULT)
            page_fault_note_binding(vm, tag_is_pending(vm, s.tag) || *total != 1 ? s.tag : awaited);
        binding_done(vm, &s, st == WK_E_GPU_FAULT ? &fault : NULL);
        ++*ran;
    }
    return vm->dead ? WK_E_DEAD : WK_OK;
}

/* Fences the GPU has run but nobody reported: SUBMIT-FENCE-001 each. */
/* Why a fence was never reported, in words: its buffer faulted (a fault is
 * reported too, DMA_FAULTED or a page fault: outsiders read "never
 * reported complete" and reported it complete), or it ran clean. */
static const char *faulted_hint(struct wk_vidmm *vm, uint32_t fence)
{
    return page_fault_submission_faulted(vm, fence) == 1 ? ": its buffer faulted on the GPU, and a fault is reported too (DMA_FAULTED; "
                     "DMA_PAGE_FAULTED for a virtual address)"
                   : " complete, and the GPU is idle: it ran all it was given (a submission that never reached "
                     "it, no doorbell rung, counts too)";
}

static wk_status unreported(struct wk_vidmm *vm, uint32_t fence)
{
    /* After a page fault that no reset recovered (the adapter-wide one
     * failed, or the driver has not its DDIs: TDR-RESET-001 said so, tdr.c)
     * a GPU that stops at a fault stays stopped: what it never ran is not
     * blamed twice. */
    if (vm->pf_reset.missing)
        return fail(vm, WK_E_NOT_SUPPORTED,
                    "not judged: a fence was not reported after %s, which no reset recovered (TDR-RESET-001)",
                    vm->pf_reset.why);
    for (uint32_t i = 0; i < vm->npending;) {
        struct pending *p = &vm->pending[i];
        if (p->held || (fence && fence_after(p->fence, fence))) {
            i++;
            continue;
        }
        const char *why = faulted_hint(vm, p->fence);
        char other[200] = "";
        if (vm->ignored_interrupt) /* outsider 13: a type-12 report vanished without a word */
            snprintf(other, sizeof(other), "; an interrupt of type %u came, which names no DMA buffer's fence here",
                     vm->ignored_interrupt);
        else if (vm->pf_reset.done && vm->pf_reset.adapter)
            snprintf(other, sizeof(other), "; the adapter was reset before (DxgkDdiResetFromTimeout, "
                     "DxgkDdiRestartFromTimeout): the GPU runs again only once they restart it");
        else if (vm->pf_reset.done) /* outsider 15: "the GPU is idle" of an engine its reset left stopped */
            snprintf(other, sizeof(other), "; a page fault's engine was reset (DxgkDdiResetEngine) before: an engine "
                     "that stops at a fault runs again only once the reset restarts it");
        if (other[0]) /* the hint in full, the why short: a message ends at 320 bytes */
            why = page_fault_submission_faulted(vm, p->fence) == 1 ? ": its buffer faulted on the GPU" : " complete";
        violate(vm, R_SUBMIT_FENCE, WK_DDI_INTERRUPT_ROUTINE, "fence %u was submitted and was never reported%s%s",
                p->fence, why, other);
        memmove(p, p + 1, (vm->npending - i - 1) * sizeof(*p));
        vm->npending--;
    }
    return WK_E_CONTRACT;
}

/* A binding with a register model: the driver rang its doorbell through
 * the register path; the GPU runs what it queued and raises its line. */
static wk_status wait_on_registers(struct wk_vidmm *vm, uint32_t fence)
{
    uint32_t total = 0;
    while (waiting_for(vm, fence)) {
        if (vm->dead)
            return WK_E_DEAD;
        uint32_t ran = 0;
        wk_status st = run_binding_queue(vm, fence, &ran, &total);
        if (st != WK_OK)
            return st;
        int irq = line_asserted(vm);
        st = deliver_interrupts(vm);
        if (st != WK_OK && st != WK_E_CONTRACT)
            return st;
        if (ran == 0 && !irq && waiting_for(vm, fence))
            return unreported(vm, fence);
    }
    return WK_OK;
}

wk_status submit_wait(struct wk_vidmm *vm, uint32_t fence)
{
    if (vm->queue.count && !vm->queue.draining) /* renders left queued run, and are judged, first (queue.c) */
        return queue_drain(vm);
    if (binding_executes(vm))
        return binding_has_registers(vm) ? wait_on_registers(vm, fence) : run_and_retire(vm, fence);
    if (vm->cfg.no_model) {
        wk_status st = retire_unexecuted(vm, fence);
        return st == WK_OK && vm->nkdpc ? dpc_point(vm) : st;
    }
    while (waiting_for(vm, fence)) {
        if (vm->dead)
            return WK_E_DEAD;
        FLOOR_BEGIN(1);
        uint32_t ran = wk_gpu_run(vm->gpu, queue_run_limit(vm));
        FLOOR_END(1, FLOOR_GPU);
        vm->buffers_run += ran;
        int irq = wk_gpu_irq_asserted(vm->gpu);
        wk_status st = deliver_interrupts(vm);
        if (st != WK_OK && st != WK_E_CONTRACT)
            return st;
        if (ran == 0 && !irq && waiting_for(vm, fence))
            return unreported(vm, fence); /* the GPU is idle and quiet, yet fences are outstanding */
    }
    return WK_OK;
}

static int patch_args_fit(const struct context *c, const struct wk_vidmm_patch *a)
{
    return a->dma_length <= c->dma.size && a->start <= a->end && a->end <= c->dma.size &&
           a->list_length <= 65536 && a->patch_length <= c->patch_entries &&
           a->patch_start <= a->patch_length && a->patch_count <= a->patch_length - a->patch_start &&
           (a->list_length == 0 || a->list) && (a->patch_length == 0 || a->patch) && (a->dma_length == 0 || a->dma);
}

/*
 * What wk_vidmm_patch knows its context's DMA buffer holds. Patch is handed
 * the input in the context's DMA buffer, zeroes after it; writing all of it
 * (16 KiB with the reference driver) on every call was a quarter of
 * fuzz_patch's time. After a call whose checks all passed, the kit has
 * proven what the buffer holds: the image it wrote, changed at most in the
 * listed slots (PATCH-CONFINE-001 compares every byte), so zero from the
 * end of the input or of the last slot on. The next call zeroes only up to
 * there: the driver and the checks see exactly the bytes a full rewrite
 * gives. (The patch-location list has no such question: it is a guarded
 * buffer of exactly the entries, see wk_vidmm_patch.)
 *
 * The proof holds only while nothing else writes the buffer. The driver
 * runs only inside a DDI call; the kit writes a context's DMA buffer only
 * for one (Render clears it before its call) or through the GPU, which
 * writes only inside an execution (a queued run, or an exec from the
 * host). So the proof is kept with the count of both (struct activity),
 * and any DDI call or GPU execution since, on any context, even one that
 * never touches this one, makes the next call rewrite everything; so does
 * a violation or a crash in the call itself, and a reset (it clears the
 * contexts). Not seen: a host writing the buffer's pages through the GPU
 * model's own interface (wk_gpu_write, wk_gpu_sysmem_page on the model of
 * wk_vidmm_gpu), which no caller does.
 */
static void activity_now(struct wk_vidmm *vm, struct activity *a)
{
    a->ddi_serial = vm->ddi_serial;
    wk_gpu_get_counters(vm->gpu, &a->gpu);
}

/* Where the context's DMA buffer is zero from (its size when nothing is
 * known); the proof is used up: a call that fails half way leaves nothing
 * known. */
static uint64_t known_take(struct wk_vidmm *vm, struct context *c)
{
    uint64_t dma_end = c->dma.size;
    if (c->known.valid) {
        struct activity now;
        activity_now(vm, &now);
        if (memcmp(&now, &c->known.seen, sizeof(now)) == 0) /* padding could only make them differ */
            dma_end = c->known.dma_end;
    }
    c->known.valid = 0;
    return dma_end;
}

/* After a call whose checks all passed: the DMA buffer is zero from
 * dma_end. */
static void known_keep(struct wk_vidmm *vm, struct context *c, uint64_t dma_end)
{
    c->known.dma_end = dma_end;
    activity_now(vm, &c->known.seen);
    c->known.valid = 1;
}

/* buf[0, n) = src[0, n), then zeroes up to zero_end: every byte that may
 * not be zero written once, and no other. */
static void fill_then_zero(uint8_t *buf, const void *src, uint64_t n, uint64_t zero_end)
{
    if (n)
        memcpy(buf, src, n);
    if (zero_end > n)
        memset(buf + n, 0, zero_end - n);
}

/* The two lists of a Patch call, each an input (read-only to the driver:
 * DXGKARG_PATCH has them const, facts §4.4) of exactly its entries against
 * a guard page; 0 or an error (nothing left allocated). */
static wk_status lists_alloc(struct wk_vidmm *vm, const struct wk_vidmm_patch *a, struct gbuf *list,
                             struct gbuf *patch)
{
    uint64_t list_bytes = (uint64_t)a->list_length * sizeof(DXGK_ALLOCATIONLIST);
    uint64_t patch_bytes = (uint64_t)a->patch_length * sizeof(D3DDDI_PATCHLOCATIONLIST);
    wk_status st = gbuf_alloc_input(vm, list, a->list, list_bytes, "allocation list");
    if (st != WK_OK)
        return st;
    st = gbuf_alloc_input(vm, patch, a->patch, patch_bytes, "patch-location list");
    if (st != WK_OK)
        gbuf_free(vm, list);
    return st;
}

/* Canary checks of both lists after a call that did not crash (the first
 * violation is the one reported), and both freed either way, the last
 * allocated first: the next call's lists then take the same spare
 * mappings (the pool hands out the spare kept last), each with its canary
 * known. */
static wk_status lists_check_free(struct wk_vidmm *vm, wk_status call, struct gbuf *list, struct gbuf *patch)
{
    if (call != WK_OK) {
        gbuf_free(vm, patch);
        gbuf_free(vm, list);
        return call;
    }
    wk_status st = gbuf_check_free(vm, patch, WK_DDI_PATCH);
    if (st != WK_OK) {
        gbuf_free(vm, list);
        return st;
    }
    return gbuf_check_free(vm, list, WK_DDI_PATCH);
}

/* Where the call's allowed slots end (allowed_slots' clipping; 0: none):
 * the DMA bytes the driver may need to write (patch_view.c). */
static uint64_t slots_end(struct wk_vidmm *vm, const struct wk_vidmm_patch *a)
{
    uint64_t end = 0;
    for (uint32_t i = a->patch_start; i < a->patch_start + a->patch_count; i++) {
        struct slot x = slot_clip(a->patch[i].PatchOffset, patch_slot_width(vm), a->start, a->end);
        if (x.lo < x.hi && x.hi > end)
            end = x.hi;
    }
    return end;
}

/*
 * The patch-location list Patch is handed holds exactly the call's entries
 * and ends at a guard page (PatchLocationListSize is their count): a Patch
 * that reads or writes past the list it was given faults at that
 * instruction (MEM-GUARD-001), and no byte of an earlier call's list can
 * reach it. The context's own patch-location list is Render's, not used
 * here.
 */
wk_status wk_vidmm_patch(struct wk_vidmm *vm, const struct wk_vidmm_patch *a)
{
    if (vm->dead)
        return fail(vm, WK_E_DEAD, "the adapter is dead after a driver crash");
    struct context *c = context_get(vm, a->context);
    if (!c)
        return fail(vm, WK_E_NOT_FOUND, "no context %u", a->context);
    wk_status callable = context_patch_callable(vm, c, a->context);
    if (callable != WK_OK)
        return callable;
    if (!patch_args_fit(c, a))
        return fail(vm, WK_E_INVALID_ARGUMENT, "patch inputs do not fit the context's buffers");
    struct gbuf list, patch;
    wk_status st = lists_alloc(vm, a, &list, &patch);
    if (st != WK_OK)
        return st;
    fill_then_zero(c->dma.ptr, a->dma, a->dma_length, known_take(vm, c));
    uint64_t check_end = c->dma.size;
    uint8_t *driver_dma = patch_view_for(vm, c, slots_end(vm, a), &check_end);
    const struct submission s = {
        .context = a->context,
        .dma = &c->dma,
        .dma_segment = c->dma_segment,
        .dma_gpu_address = c->dma_gpu_address,
        .dma_private = &c->dma_private,
        .private_end = (uint32_t)c->dma_private.size,
        .start = a->start,
        .end = a->end,
        .alloc_list = (DXGK_ALLOCATIONLIST *)(void *)list.ptr,
        .alloc_list_size = a->list_length,
        .patch_list = (D3DDDI_PATCHLOCATIONLIST *)(void *)patch.ptr,
        .patch_list_size = a->patch_length,
        .patch_start = a->patch_start,
        .patch_length = a->patch_count,
        .driver_dma = driver_dma,
        .check_end = check_end,
    };
    uint64_t before = vm->violation_total, nonzero_end = c->dma.size;
    struct dma_image image = { a->dma, a->dma_length }; /* as fill_then_zero left it */
    st = lists_check_free(vm, call_patch(vm, &s, fence_next(vm), &image, &nonzero_end), &list, &patch);
    if (st == WK_OK && vm->violation_total != before)
        st = WK_E_CONTRACT;
    if (st == WK_OK)
        known_keep(vm, c, nonzero_end);
    return st;
}

wk_status wk_vidmm_wait_idle(struct wk_vidmm *vm)
{
    if (vm->dead)
        return fail(vm, WK_E_DEAD, "the adapter is dead after a driver crash");
    RETURN_CHECKED(vm, submit_wait(vm, 0));
}

/* ------------------------------------------------------------------ */
/* Cancel                                                               */
/* ------------------------------------------------------------------ */

void wk_vidmm_hold_submissions(struct wk_vidmm *vm, uint32_t count)
{
    vm->hold = count;
}

static wk_status cancel_one(struct wk_vidmm *vm, const struct pending *p)
{
    struct context *c = context_get(vm, p->context);
    if (!c)
        return WK_OK;
    DXGKARG_CANCELCOMMAND args;
    memset(&args, 0, sizeof(args));
    args.hContext = c->driver_handle;
    args.pDmaBuffer = c->dma.ptr;
    args.DmaBufferSize = (UINT)c->dma.size;
    args.DmaBufferSubmissionStartOffset = p->start;
    args.DmaBufferSubmissionEndOffset = p->end;
    args.pDmaBufferPrivateData = c->dma_private.ptr;
    args.DmaBufferPrivateDataSize = (UINT)c->dma_private.size;
    args.pAllocationList = (const DXGK_ALLOCATIONLIST *)c->alloc_list.ptr;
    args.AllocationListSize = c->last_alloc_list_size;
    args.pPatchLocationList = (const D3DDDI_PATCHLOCATIONLIST *)c->patch_list.ptr;
    args.PatchLocationListSize = c->patch_entries;
    args.PatchLocationListSubmissionStart = 0;
    args.PatchLocationListSubmissionLength = c->last_patch_count;
    NTSTATUS status = STATUS_UNSUCCESSFUL;
    wk_status crashed;
    struct garg g; /* the driver gets a guarded copy (guard_args.c) */
    DXGKARG_CANCELCOMMAND *pargs =
        garg_in(vm, &g, &args, sizeof(args), "DXGKARG_CANCELCOMMAND argument (*pCancelCommand)");
    DDI_CALL(vm, WK_DDI_CANCEL_COMMAND, crashed,
             status = vm->ddi.DxgkDdiCancelCommand(vm->miniport, pargs);
             ddi_rewrite(vm, WK_DDI_CANCEL_COMMAND, pargs, &status));
    g.kit = NULL; /* const to the driver: nothing to read back */
    wk_status guard = garg_out(vm, &g, WK_DDI_CANCEL_COMMAND, crashed);
    if (crashed != WK_OK)
        return crashed;
    if (guard != WK_OK)
        return guard;
    if (status != STATUS_SUCCESS)
        return violate(vm, R_CANCEL_STATUS, WK_DDI_CANCEL_COMMAND,
                       "returned 0x%08x; Windows would bug-check 0x119 with parameter 1 = 0x9",
                       (unsigned)status);
    return WK_OK;
}

wk_status wk_vidmm_cancel_held(struct wk_vidmm *vm, uint32_t *cancelled)
{
    uint32_t n = 0;
    wk_status result = WK_OK;
    int aware = vm->caps.SchedulingCaps.CancelCommandAware && vm->ddi.DxgkDdiCancelCommand;
    for (uint32_t i = 0; i < vm->npending;) {
        struct pending p = vm->pending[i];
        if (!p.held) {
            i++;
            continue;
        }
        memmove(&vm->pending[i], &vm->pending[i + 1], (vm->npending - i - 1) * sizeof(p));
        vm->npending--;
        if (aware) { /* only CancelCommandAware drivers are called (K2) */
            wk_status st = cancel_one(vm, &p);
            if (st != WK_OK)
                result = st;
        }
        n++;
    }
    vm->hold = 0;
    if (cancelled)
        *cancelled = n;
    return result;
}
