/* SPDX-License-Identifier: MIT */
/*
 * context_caps.c - DXGK_CONTEXTINFO.Caps (DXGK_CONTEXTINFO_CAPS): what the
 * kit reads of it, and what its memory manager does with each cap.
 *
 * The documentation says little (facts §3.3; the DXGK_CONTEXTINFO_CAPS
 * page): "NoPatchingRequired: Indicates that no memory patching is
 * required", "DriverManagesResidency: Indicates that the driver manages
 * memory residency", "UseIoMmu: Indicates that the driver supports IoMmu",
 * "Reserved: This field is reserved and should not be used"; and on
 * DXGK_CONTEXTINFO, Caps "describes optional features supported by the
 * context". The field exists from interface version WDDM 2.0 (0x5023, its
 * guard in d3dkmddi.h): for an older driver the kit reads it as 0, as it
 * never reads a member of the DDI table newer than the driver's Version
 * (ddi_table.c).
 *
 * What the kit does with each cap, and why:
 *  - NoPatchingRequired is modelled. Patching is what DxgkDdiPatch does
 *    (facts §5.3 T1), so VidMm calls no Patch for the context's DMA
 *    buffers: each goes to SubmitCommand as Render, and its pre-patching
 *    (§5.2 R6), left it (submit.c, patch_called). A driver that says so
 *    and whose buffers did need patching then runs wrong addresses on the
 *    GPU: the data checks fail (or SUBMIT-GPU-001 fires), and the message
 *    says the context reported the cap (wk_vidmm_unpatched). No rule of its
 *    own: the documentation does not say what the buffer must hold instead,
 *    only the effect can be judged. A driver whose contexts all report it
 *    needs no Patch, so DDI-TABLE-001 asks a context before it names Patch
 *    (context_caps_check_patch).
 *  - DriverManagesResidency and UseIoMmu are not modelled: the kit's memory
 *    manager makes every allocation a render names resident itself, and
 *    its GPU reaches system memory by physical address with no IOMMU. A
 *    render on such a context is therefore not judged: it is refused as
 *    not supported with a reason naming the cap, so the case is a skip,
 *    never a failure (context_render_judgeable). Creating the context and
 *    everything else about it is judged as for any context.
 *  - The reserved bits are CTX-CAPS-001 (objects.c; why it is a contract
 *    rule: its source in rules.h).
 */
#include <stdio.h>

#include "internal.h"

uint32_t context_caps_read(const struct wk_vidmm *vm, const DXGK_CONTEXTINFO *info)
{
    return wk_dxgk_has_context_caps(vm->ddi.Version) ? info->Caps.Value : 0;
}

static DXGK_CONTEXTINFO_CAPS caps_of(const struct context *c)
{
    DXGK_CONTEXTINFO_CAPS k;
    k.Value = c->caps;
    return k;
}

int context_patched(const struct context *c)
{
    return !caps_of(c).NoPatchingRequired;
}

/* The cap of c the kit does not model, or NULL; *why what the kit does
 * instead. */
static const char *unmodelled_cap(const struct context *c, const char **why)
{
    DXGK_CONTEXTINFO_CAPS k = caps_of(c);
    if (k.DriverManagesResidency) {
        *why = "its memory manager makes every allocation a render names resident itself";
        return "DriverManagesResidency";
    }
    if (k.UseIoMmu) {
        *why = "its GPU reaches system memory by physical address, with no IOMMU";
        return "UseIoMmu";
    }
    return NULL;
}

wk_status context_render_judgeable(struct wk_vidmm *vm, const struct context *c, uint32_t id)
{
    const char *why = NULL;
    const char *cap = unmodelled_cap(c, &why);
    if (cap)
        return fail(vm, WK_E_NOT_SUPPORTED,
                    "context %u reports DXGK_CONTEXTINFO.Caps.%s, which the kit does not model (%s): its "
                    "submissions are not judged",
                    id, cap, why);
    if (context_patched(c) && !vm->ddi.DxgkDdiPatch)
        return fail(vm, WK_E_NOT_SUPPORTED,
                    "the driver has no DxgkDdiPatch, which the kernel calls for context %u's DMA buffers (it does "
                    "not report DXGK_CONTEXTINFO.Caps.NoPatchingRequired)",
                    id);
    return WK_OK;
}

wk_status context_patch_callable(struct wk_vidmm *vm, const struct context *c, uint32_t id)
{
    if (!context_patched(c))
        return fail(vm, WK_E_NOT_SUPPORTED,
                    "context %u reports DXGK_CONTEXTINFO.Caps.NoPatchingRequired: the kernel never calls "
                    "DxgkDdiPatch for its DMA buffers",
                    id);
    if (!vm->ddi.DxgkDdiPatch)
        return fail(vm, WK_E_NOT_SUPPORTED, "the driver has no DxgkDdiPatch");
    return WK_OK;
}

const char *context_dma_origin(const struct wk_vidmm *vm, uint32_t id, char *buf, size_t cap)
{
    const struct context *c = context_get((struct wk_vidmm *)vm, id);
    if (c && !context_patched(c))
        snprintf(buf, cap, "DMA buffer (built by DxgkDdiRender, not patched: context %u reported "
                           "Caps.NoPatchingRequired)", id);
    else
        snprintf(buf, cap, "DMA buffer (built by DxgkDdiRender, patched by DxgkDdiPatch)");
    return buf;
}

uint32_t wk_vidmm_unpatched(const struct wk_vidmm *vm, uint32_t *context)
{
    if (context)
        *context = vm->unpatched ? vm->unpatched_context : 0;
    return vm->unpatched;
}

/*
 * Whether the driver needs a Patch is the contexts' to say: the kernel
 * calls it for every context that does not report NoPatchingRequired. So
 * the table check asks one: an ordinary context (flags 0) of a new device,
 * destroyed again at once, as the kernel learns it from its first
 * CreateContext. Only when the table check runs (the case
 * adapter-start.ddi-table), so no other case's calls change. A driver
 * that cannot make one (no CreateDevice or CreateContext: DDI-TABLE-001
 * names those already; a failure: its own rule) renders nothing, and is
 * not told Patch is missing.
 */
void context_caps_check_patch(struct wk_vidmm *vm)
{
    if (!wk_dxgk_patch_left_to_contexts(&vm->ddi) || !vm->ddi.DxgkDdiCreateDevice ||
        !vm->ddi.DxgkDdiCreateContext)
        return;
    uint32_t device = 0, context = 0;
    if (wk_vidmm_create_device(vm, 0, &device) != WK_OK)
        return;
    int patched = -1;
    if (wk_vidmm_create_context(vm, device, 0, &context) == WK_OK)
        patched = context_patched(context_get(vm, context));
    if (!vm->dead)
        wk_vidmm_destroy_device(vm, device);
    if (patched == 1 && !vm->dead)
        violate(vm, R_DDI_TABLE, WK_DDI_DRIVER_ENTRY,
                "the table handed to DxgkInitialize leaves NULL DxgkDdiPatch, which the kernel calls for the DMA "
                "buffers of every context that does not report DXGK_CONTEXTINFO.Caps.NoPatchingRequired, and "
                "context %u does not",
                context);
}
