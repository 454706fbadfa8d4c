/* SPDX-License-Identifier: MIT */
/*
 * fuzz_patch.c - what the kernel hands DxgkDdiPatch, from the fuzzer: a DMA
 * buffer, an allocation list (SegmentId and PhysicalAddress chosen by the
 * input), a patch-location list and the submission ranges, through the
 * driver under test's Patch (wk_vidmm_patch), checked.
 *
 * Why: Patch writes addresses into a DMA buffer at offsets taken from a
 * list. A driver that does not bound PatchOffset by the submission range
 * (or computes PatchOffset + 8 in 32 bits), or trusts AllocationIndex,
 * writes where it must not.
 *
 * Input format: seeds_lib.h, "fuzz_patch". Ranges are folded into the
 * context's buffers here, so no input is wasted on a kit-side rejection
 * (wk_vidmm_patch's WK_E_INVALID_ARGUMENT would mean a bug in this file).
 * List entries name the driver handles of the fixture's seven allocations
 * (captured once from a Render's allocation list), or NULL.
 *
 * Input adjustments, for the GPU's patch slots (the kit's: 8 bytes at any
 * offset; a binding's: what its processor's read_address decodes, so
 * Heron's dword-aligned 8 bytes, Finch F1's unaligned 5): each PatchOffset
 * is rounded down to where a slot can start, and of two entries a correct
 * driver may write whose slots overlap (two values asked for one place,
 * which no Render makes and no correct driver can satisfy) the later one
 * gets an AllocationIndex past the list (a bad entry, which Patch must
 * skip), so the input keeps its shape and stays meaningful. The folding
 * and these adjustments are wk_patch_fold (seeds_lib.h), which the
 * conversion of an input to a step program (wk_patch_input_to_prog, for
 * wddmkit minimize and promote) shares, so a promoted program makes
 * exactly this Patch call.
 *
 * Findings: any violation on the DUT (PATCH-CONFINE-001 a byte outside the
 * listed slots of the range changed, PATCH-VALUE-001 a slot holds the wrong
 * address, PATCH-STATUS-001 a status other than SUCCESS, MEM-GUARD-001 a
 * write past the DMA buffer or the list, DRV-CRASH-001).
 *
 * State across inputs: the fixture (fuzz_driver.h) stays; wk_vidmm_patch
 * hands the driver the input and zeroes after it in the DMA buffer and the
 * patch list on every call (writing only the DMA bytes the last clean call
 * may have left: submit.c, known_take) and submits nothing, so inputs do
 * not see each other.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "fuzz.h"

#define HARNESS "fuzz_patch"

/* The driver handles of the fixture's allocations, by slot. */
struct handles {
    uint64_t epoch;
    HANDLE h[WK_RENDER_SLOTS + 1];
};

static void capture(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    (void)status;
    struct handles *hs = user;
    const DXGKARG_RENDER *r = args;
    if (ddi != WK_DDI_RENDER || !r->pAllocationList)
        return;
    for (uint32_t s = 1; s <= WK_RENDER_SLOTS && s - 1 < r->AllocationListSize; s++)
        hs->h[s] = r->pAllocationList[s - 1].hDeviceSpecificAllocation;
}

/* A Render of an empty command buffer naming every slot hands the driver
 * the allocation list with its own handles: the rewriter reads them. */
static void capture_handles(struct wk_fuzz_fixture *f, struct handles *hs)
{
    if (hs->epoch == f->epoch)
        return;
    memset(hs, 0, sizeof(*hs));
    WK_USER_COMMAND_HEADER h = { WK_USER_COMMAND_MAGIC, WK_USER_COMMAND_VERSION, 0, 0 };
    struct wk_vidmm_list_entry list[WK_RENDER_SLOTS];
    for (uint32_t s = 1; s <= WK_RENDER_SLOTS; s++)
        list[s - 1] = (struct wk_vidmm_list_entry){ f->alloc[s], 0 };
    struct wk_vidmm_render args = { f->context, &h, sizeof(h), list, WK_RENDER_SLOTS, NULL, 0, 0 };
    struct wk_vidmm_render_result result;
    wk_vidmm_set_rewriter(f->vm, capture, hs);
    wk_vidmm_render(f->vm, &args, &result);
    wk_vidmm_set_rewriter(f->vm, NULL, NULL);
    hs->epoch = f->epoch;
}

static void build_lists(const struct wk_patch_input *in, const struct handles *hs, DXGK_ALLOCATIONLIST *list,
                        D3DDDI_PATCHLOCATIONLIST *patch)
{
    for (uint32_t i = 0; i < in->list_length; i++) {
        const struct wk_patch_list_entry *e = &in->list[i];
        memset(&list[i], 0, sizeof(list[i]));
        list[i].hDeviceSpecificAllocation = hs->h[e->handle];
        list[i].SegmentId = e->segment_id;
        list[i].WriteOperation = (UINT)e->write;
        list[i].PhysicalAddress.QuadPart = (LONGLONG)e->physical_address;
    }
    /* Each entry is stored whole, SlotId through its union's Value (the
     * bit-field holds the low 24 bits; Reserved stays 0): zeroing an entry
     * and then setting the bit-field made the compiler read back bytes it
     * had just stored, a stall that was a fifth of this harness's own time
     * (perf annotate). */
    for (uint32_t i = 0; i < in->patch_length; i++) {
        const struct wk_patch_entry *e = &in->patch[i];
        patch[i] = (D3DDDI_PATCHLOCATIONLIST){
            .AllocationIndex = e->allocation_index,
            .Value = e->slot_id & 0x00FFFFFFu,
            .DriverId = e->driver_id,
            .AllocationOffset = e->allocation_offset,
            .PatchOffset = e->patch_offset,
            .SplitOffset = e->split_offset,
        };
    }
}

/*
 * Where the GPU under test has patch slots: the kit's GPU, or what the
 * binding's processor decodes (wk_vidmm_patch_slots), probed once per
 * adapter. With a binding a patched slot is checked in the hardware's own
 * encoding (PATCH-VALUE-001 through read_address), so the input's offsets
 * and overlaps are judged by the hardware's slots, not the kit's: rounding
 * every offset to a dword manufactured slots Finch F1 does not have, and
 * its correct driver was blamed for two that overlapped (outsider 7).
 */
static struct wk_patch_slots slots_of(struct wk_fuzz_fixture *f)
{
    struct wk_vidmm_patch_slots s;
    wk_vidmm_patch_slots(f->vm, &s); /* probed once per adapter (reference-impl/vidmm/binding.c) */
    return (struct wk_patch_slots){ s.align, s.bytes };
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct handles hs;
    static struct wk_patch_input in;
    DXGK_ALLOCATIONLIST list[WK_PATCH_MAX_LIST];
    D3DDDI_PATCHLOCATIONLIST patch[WK_PATCH_MAX_PATCH];
    wk_patch_parse(data, size, &in);
    struct wk_fuzz_fixture *f = wk_fuzz_fixture(HARNESS);
    if (!f)
        return 0;
    capture_handles(f, &hs);
    wk_patch_fold(&in, f->info.DmaBufferSize, f->info.PatchLocationListSize, slots_of(f));
    build_lists(&in, &hs, list, patch);

    struct wk_vidmm_patch a;
    memset(&a, 0, sizeof(a));
    a.context = f->context;
    a.dma = in.dma;
    a.dma_length = (uint32_t)in.dma_length;
    a.list = list;
    a.list_length = in.list_length;
    a.patch = patch;
    a.patch_length = in.patch_length;
    a.end = in.end;
    a.start = in.start;
    a.patch_start = in.patch_start;
    a.patch_count = in.patch_count;

    wk_status st = wk_vidmm_patch(f->vm, &a);
    if (wk_fuzz_check(HARNESS, WK_FUZZ_DUT, f->vm, "during Patch"))
        return 0;
    if (st != WK_OK) {
        char kind[128];
        snprintf(kind, sizeof(kind), "patch returned %s without a violation", wk_status_name(st));
        wk_fuzz_finding_as(HARNESS, f->vm, kind, "wk_vidmm_patch returned %s without a violation (%s)",
                           wk_status_name(st), wk_vidmm_last_error(f->vm));
    }
    return 0;
}
