/* SPDX-License-Identifier: MIT */
/*
 * fuzz_render.c - the untrusted inputs of DxgkDdiRender: a user command
 * buffer, an allocation list and a user patch-location list, all from the
 * fuzzer, through the driver under test's Render, the kit's contract
 * checks, residency, Patch, SubmitCommand and execution on the GPU model.
 *
 * Why: Render is where user-mode bytes reach the kernel driver. A driver
 * that trusts an AllocationIndex, a PatchOffset, a CommandLength or a list
 * size from those bytes writes outside its buffers (a guard-page hit),
 * emits patch entries the kernel rejects (RENDER-PATCH-*), or builds a DMA
 * buffer that faults on the GPU.
 *
 * Input format: seeds_lib.h, "fuzz_render" (flags, the allocation list as
 * slots of seven allocations created once, the raw patch entries, then the
 * raw command buffer). One source, three builds (fuzz/CMakeLists.txt).
 *
 * A driver for other hardware with a hardware binding whose encoder
 * writes its user-mode format (WK_BINDING, fuzz_driver.h): the command
 * buffer's records (umd.h, as the structure-aware mutator edits them) are
 * the kit's abstract render operations, and the binding encodes them into
 * the driver's own pCommand and patch-location list (encode, below). The
 * input's patch entries are the kit's format's: their bytes become the
 * encoder's opaque bytes instead (binding.h), the values of the fields
 * the driver's format leaves to user mode (reserved words, flags), so the
 * driver's checks of those fields see what the mutator writes. A
 * command buffer that is not records (raw bytes of the kit's format) says
 * nothing in the driver's format: the input is a skip, as is one with an
 * operation the encoder cannot say.
 *
 * Findings (abort after printing every violation, fuzz_driver.h):
 *   - any contract violation on the DUT (wk_vidmm_violations total > 0),
 *     which includes a crash or a guard-page hit (the adapter is then dead);
 *   - a render status the kit does not document for a rejected input;
 *   - a Render of the kit's format that succeeded on a command buffer whose
 *     records reference bytes outside their allocations (umd.h: "a
 *     reference is valid when its bytes lie inside the allocation"): the
 *     driver took what it must refuse (invalid_reference, below).
 * A documented rejection (WK_E_DRIVER_FAILED: Render returned an error
 * status for a bad command buffer) is the driver's right and no finding.
 *
 * State across inputs, for speed: the device, the contexts and the seven
 * allocations (fuzz/driver/fixture.c) stay, paged in once; nothing is
 * reset between inputs. Why that is sound: the kit re-creates the DMA
 * buffer, the patch list and the allocation list of every Render call, and
 * drains the GPU before returning, so an input sees the same buffers and
 * the same list contents (placement) as if it ran first. What may leak is
 * the allocations' bytes (which Render and Patch never read) and the
 * driver's own internal state. An input that moves an allocation (an
 * eviction under pressure) would change the next input's allocation list,
 * so the fixture is checked before every input and rebuilt (wk_vidmm_reset,
 * cost proportional to what was touched) when it moved. WK_FUZZ_FRESH=1
 * (fuzz_driver.h) builds adapter and fixture afresh before every input, for
 * a bit-exact replay of a finding that depends on earlier inputs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "fuzz.h"
#include "wddmkit/binding.h"

#define HARNESS "fuzz_render"

/* Statuses wk_vidmm_render may return without a violation. */
static int acceptable(wk_status st)
{
    switch (st) {
    case WK_OK:
    case WK_E_DRIVER_FAILED:     /* Render rejected the command buffer */
    case WK_E_NOT_SUPPORTED:     /* the driver has no Render */
    case WK_E_NO_SPACE:          /* the slots do not fit with the driver's sizes */
    case WK_E_LIMIT:
        return 1;
    default:
        return 0;
    }
}

/* Every input is a Render of the kit's own user commands (umd.h): no use
 * against a driver for other hardware (fuzz_driver.h), unless its hardware
 * binding's encoder writes the driver's own format (below). */
int wk_fuzz_harness_needs_kit_umd(void)
{
    return 1;
}

/* Whether the DUT's Render gets its binding's encoding of the input's
 * records instead of the kit's bytes: it has an encoder, and the driver
 * does not declare that it reads the kit's format (as conform decides). */
static int binding_encodes(struct wk_vidmm *vm)
{
    return wk_fuzz_dut_binding_encodes() && wk_vidmm_driver_declares_kit_umd(vm) != 1;
}

/*
 * The input's command buffer in the driver's own format: its records (the
 * kit's abstract render operations, which the structure-aware mutator
 * edits) encoded by the binding over the input's allocation list, with the
 * binding's patch-location list, and the input's patch bytes as the
 * encoder's opaque bytes (the kit's patch entries mean nothing in that
 * format). WK_OK; WK_E_NOT_SUPPORTED for an
 * input that says nothing in that format (raw bytes of the kit's format,
 * an operation the encoder cannot say: a skip, never a finding, *skip
 * says which);
 * WK_E_BINDING when the encoder broke binding.h (a BIND-* violation, the
 * binding's finding).
 */
static wk_status encode(struct wk_vidmm *vm, const struct wk_render_input *in, const struct wk_vidmm_list_entry *list,
                        uint32_t list_length, struct wk_encode_render *e, enum wk_fuzz_reach *skip)
{
    static struct wk_prog_render records;
    static uint8_t command[WK_RENDER_MAX_COMMAND];
    static D3DDDI_PATCHLOCATIONLIST patch[WK_RENDER_MAX_PATCH];
    static uint8_t opaque[WK_RENDER_MAX_PATCH * WK_RENDER_PATCH_ENTRY];
    *skip = WK_FUZZ_SKIP_RAW_BYTES;
    if (!wk_render_command_records(in->command, in->command_length, &records))
        return WK_E_NOT_SUPPORTED;
    *skip = WK_FUZZ_SKIP_UNSAYABLE;
    /* The patch entries the context takes (after the fold), bytes past the
     * input zero, as the decoded program hands them (render_input.c). */
    size_t opaque_length = (size_t)in->patch_length * WK_RENDER_PATCH_ENTRY;
    memset(opaque, 0, opaque_length);
    if (in->patch_bytes)
        memcpy(opaque, in->patch, in->patch_bytes);
    memset(e, 0, sizeof(*e));
    e->command = command;
    e->command_cap = sizeof(command);
    e->patch = patch;
    e->patch_cap = WK_RENDER_MAX_PATCH;
    e->opaque = opaque;
    e->opaque_length = (uint32_t)opaque_length;
    return wk_prog_encode_render(vm, &records, list, list_length, e);
}

/* Whether reference r of `extent` bytes lies outside its allocation: past
 * the input's list, on a NULL entry (slot 0: no allocation to address), or
 * past the end of the slot's allocation (64-bit math: no 32-bit offset
 * wraps). */
static int ref_outside(const struct wk_render_input *in, struct wk_prog_ref r, uint64_t extent, uint64_t *size)
{
    *size = 0;
    if (r.list_index >= in->list_length)
        return 1;
    uint32_t slot = in->list[r.list_index] & 0x7u;
    *size = wk_render_slots[slot].size;
    return slot == 0 || r.offset > *size || extent > *size - r.offset;
}

/* One side of a record: its reference and how many bytes it spans. */
struct side_ref {
    const char *side;
    struct wk_prog_ref ref;
    uint64_t extent;
};

/*
 * The first reference of the input's records that the kit's user-mode
 * format says is invalid (include/wddmkit/umd.h, "What a driver that reads
 * this format accepts": its bytes, 0 included, lie inside the allocation),
 * described in why; 0 when every one is valid, or when the command buffer
 * is not exactly records (raw bytes: the format says less of them). A
 * Render that succeeded on such a buffer took bytes user mode does not own:
 * the outsider's off-by-one in an extent check let a record write one byte
 * into the next allocation, which this harness saw only when the byte
 * happened to fall on an unmapped aperture page. The reference driver
 * refuses every such reference (refdriver/render.c, check_ref).
 */
static int invalid_reference(const struct wk_render_input *in, char *why, size_t cap)
{
    static struct wk_prog_render g;
    if (!wk_render_command_records(in->command, in->command_length, &g))
        return 0;
    for (uint32_t i = 0; i < g.record_count; i++) {
        const struct wk_prog_record *r = &g.records[i];
        struct side_ref refs[2];
        uint32_t n = 0;
        switch (r->op) {
        case WK_USER_OP_COPY:
            refs[n++] = (struct side_ref){ "source", r->src, r->size };
            refs[n++] = (struct side_ref){ "destination", r->dst, r->size };
            break;
        case WK_USER_OP_FILL: refs[n++] = (struct side_ref){ "destination", r->dst, r->size }; break;
        case WK_USER_OP_WRITE32: refs[n++] = (struct side_ref){ "destination", r->dst, 4 }; break;
        case WK_USER_OP_BLIT:
            refs[n++] = (struct side_ref){ "source", r->src, wk_user_blit_extent(r->width, r->height, r->src_pitch) };
            refs[n++] = (struct side_ref){ "destination", r->dst, wk_user_blit_extent(r->width, r->height, r->dst_pitch) };
            break;
        default: break;
        }
        for (uint32_t k = 0; k < n; k++) {
            uint64_t size;
            if (!ref_outside(in, refs[k].ref, refs[k].extent, &size))
                continue;
            snprintf(why, cap, "record %u's %s, list entry %u at offset %u for %llu bytes, %s", i, refs[k].side,
                     refs[k].ref.list_index, refs[k].ref.offset, (unsigned long long)refs[k].extent,
                     refs[k].ref.list_index >= in->list_length ? "is past the allocation list"
                     : size == 0                               ? "names a NULL entry"
                                                               : "runs past the end of its allocation");
            return 1;
        }
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static D3DDDI_PATCHLOCATIONLIST patch[WK_RENDER_MAX_PATCH];
    struct wk_render_input in;
    wk_render_parse(data, size, &in);
    struct wk_fuzz_fixture *f = wk_fuzz_fixture(HARNESS);
    if (!f)
        return 0;
    int gdi = (in.flags & WK_RENDER_GDI) && f->gdi_context;
    const DXGK_CONTEXTINFO *info = gdi ? &f->gdi_info : &f->info;

    wk_render_fold(&in, info->AllocationListSize, info->PatchLocationListSize);

    struct wk_vidmm_list_entry list[WK_RENDER_MAX_LIST];
    uint32_t list_length = in.list_length;
    for (uint32_t i = 0; i < list_length; i++) {
        list[i].allocation = f->alloc[in.list[i] & 0x7]; /* slot 0: a NULL entry */
        list[i].write = (in.list[i] & WK_RENDER_WRITE) != 0;
    }
    uint32_t patch_length = in.patch_length;
    memset(patch, 0, sizeof(patch));
    if (in.patch_bytes)
        memcpy(patch, in.patch, in.patch_bytes);

    struct wk_vidmm_render args = {
        gdi ? f->gdi_context : f->context, in.command, (uint32_t)in.command_length, list, list_length,
        patch_length ? patch : NULL, patch_length, (in.flags & WK_RENDER_NO_PREPATCH) != 0,
    };
    if (binding_encodes(f->vm)) {
        struct wk_encode_render e;
        enum wk_fuzz_reach skip = WK_FUZZ_REACHED;
        wk_status enc = encode(f->vm, &in, list, list_length, &e, &skip);
        if (wk_fuzz_check(HARNESS, WK_FUZZ_DUT, f->vm, "while the binding encoded the render"))
            return 0;
        if (enc != WK_OK) {
            wk_fuzz_count_input(skip); /* nothing the driver's format can say: a skip */
            return 0;
        }
        args.command = e.command;
        args.command_length = e.command_length;
        args.patch_in = e.patch_length ? e.patch : NULL;
        args.patch_in_length = e.patch_length;
    }
    struct wk_vidmm_render_result result;
    wk_fuzz_count_input(WK_FUZZ_REACHED);
    wk_status st = wk_vidmm_render(f->vm, &args, &result);
    if (wk_fuzz_check(HARNESS, WK_FUZZ_DUT, f->vm, "during Render/Patch/SubmitCommand"))
        return 0;
    if (!acceptable(st)) {
        char kind[128];
        snprintf(kind, sizeof(kind), "render returned %s without a violation", wk_status_name(st));
        wk_fuzz_finding_as(HARNESS, f->vm, kind, "wk_vidmm_render returned %s (%s) without a violation",
                           wk_status_name(st), wk_vidmm_last_error(f->vm));
        return 0;
    }
    char why[256];
    if (st == WK_OK && !binding_encodes(f->vm) && invalid_reference(&in, why, sizeof(why)))
        wk_fuzz_finding_as(HARNESS, f->vm, "render took a reference outside its allocation",
                           "Render succeeded on a command buffer the kit's format refuses (include/wddmkit/umd.h: a "
                           "reference is valid when its bytes lie inside the allocation): %s", why);
    return 0;
}
