/* SPDX-License-Identifier: MIT */
/*
 * render.c - DxgkDdiRender: OtherGPU's own user-mode command format into
 * its DMA commands, with a patch location per address.
 *
 * The UMD format is othergpu_umd.h (not the kit's WK_USER_COMMAND records,
 * which this driver refuses with STATUS_INVALID_PARAMETER, their magic not
 * being its own): a header, then `count` records of
 * { op, size, value, reserved, dst_index, dst_offset, src_index, src_offset }.
 *
 * op FILL fills `size` bytes at dst with `value`; op COPY copies `size`
 * bytes from src to dst; op NOP does nothing. An index names an entry of
 * the allocation list, an offset a byte of that allocation.
 *
 * pCommand is hostile: the whole buffer is validated before anything is
 * written, so bad input leaves pDmaBuffer and pPatchLocationListOut where
 * they were. Then each record becomes one command group (SRC + COPY or
 * PATTERN + FILL), whole or not at all; when the next group does not fit,
 * MultipassOffset names its record and the kernel calls again.
 *
 * OG_BUG_RENDER_OUTPUTS (a planted bug): a refused buffer still moves
 * pDmaBuffer and pPatchLocationListOut by one entry.
 */
#include "othergpu.h"
#include "othergpu_umd.h"

static void read_record(const DXGKARG_RENDER *r, UINT i, struct og_umd_record *rec)
{
    RtlCopyMemory(rec, (const BYTE *)r->pCommand + sizeof(struct og_umd_header) + (SIZE_T)i * sizeof(*rec),
                  sizeof(*rec));
}

/* A reference names a live allocation of this driver in the list and
 * stays inside it. */
static BOOLEAN ref_ok(const DXGKARG_RENDER *r, UINT index, UINT offset, UINT size)
{
    if (!r->pAllocationList || index >= r->AllocationListSize)
        return FALSE;
    const struct og_allocation *a = og_allocation_get(r->pAllocationList[index].hDeviceSpecificAllocation);
    return a && (UINT64)offset + size <= a->size;
}

static NTSTATUS validate(const DXGKARG_RENDER *r, UINT *count)
{
    struct og_umd_header h;
    if (!r->pCommand || r->CommandLength < sizeof(h))
        return STATUS_INVALID_PARAMETER;
    RtlCopyMemory(&h, r->pCommand, sizeof(h));
    if (h.magic != OG_UMD_MAGIC)
        return STATUS_INVALID_PARAMETER; /* not OtherGPU's format (the kit's, say) */
    if ((UINT64)h.count * sizeof(struct og_umd_record) + sizeof(h) != r->CommandLength)
        return STATUS_INVALID_USER_BUFFER;
    if (r->MultipassOffset > h.count)
        return STATUS_INVALID_PARAMETER;
    for (UINT i = 0; i < h.count; i++) {
        struct og_umd_record rec;
        read_record(r, i, &rec);
        BOOLEAN ok = rec.reserved == 0;
        if (rec.op == OG_UMD_FILL || rec.op == OG_UMD_COPY)
            ok = ok && rec.size != 0 && ref_ok(r, rec.dst_index, rec.dst_offset, rec.size);
        if (rec.op == OG_UMD_COPY)
            ok = ok && ref_ok(r, rec.src_index, rec.src_offset, rec.size);
        if (rec.op > OG_UMD_COPY)
            return STATUS_ILLEGAL_INSTRUCTION;
        if (!ok)
            return STATUS_INVALID_PARAMETER;
    }
    *count = h.count;
    return STATUS_SUCCESS;
}

struct output {
    struct og_writer dma;
    D3DDDI_PATCHLOCATIONLIST *patch;
    UINT patch_left;
};

/* The address operand of the record just written: its final address when
 * the list already places the allocation, else 0 until Patch; a patch
 * location either way. */
static void bind(const DXGKARG_RENDER *r, struct output *out, UINT index, UINT offset, UINT slot, UINT group)
{
    const DXGK_ALLOCATIONLIST *e = &r->pAllocationList[index];
    UINT record = out->dma.used - OG_CMD_SIZE;
    if (e->SegmentId)
        og_encode_addr(out->dma.base + record + OG_ADDR_OFFSET, (UINT64)e->PhysicalAddress.QuadPart + offset);
    D3DDDI_PATCHLOCATIONLIST *p = out->patch++;
    out->patch_left--;
    RtlZeroMemory(p, sizeof(*p));
    p->AllocationIndex = index;
    p->AllocationOffset = offset;
    p->PatchOffset = record + OG_ADDR_OFFSET;
    p->SlotId = slot;
    p->SplitOffset = group;
}

static BOOLEAN translate_record(const DXGKARG_RENDER *r, struct output *out, const struct og_umd_record *rec)
{
    const UINT refs = rec->op == OG_UMD_COPY ? 2 : rec->op == OG_UMD_FILL ? 1 : 0;
    if (refs == 0)
        return TRUE;
    if (!og_room(&out->dma, 2) || out->patch_left < refs)
        return FALSE;
    const UINT group = out->dma.used;
    if (rec->op == OG_UMD_COPY) {
        og_emit(&out->dma, OG_SRC, 0, 0, 0);
        bind(r, out, rec->src_index, rec->src_offset, 0, group);
        og_emit(&out->dma, OG_COPY, 0, 0, rec->size);
        bind(r, out, rec->dst_index, rec->dst_offset, 1, group);
    } else {
        og_emit(&out->dma, OG_PATTERN, rec->value, 0, 0);
        og_emit(&out->dma, OG_FILL, 0, 0, rec->size);
        bind(r, out, rec->dst_index, rec->dst_offset, 0, group);
    }
    return TRUE;
}

NTSTATUS OgRender(const HANDLE hContext, DXGKARG_RENDER *pRender)
{
    DXGKARG_RENDER *r = pRender;
    UINT count = 0;
    NTSTATUS status = og_context_get(hContext) ? validate(r, &count) : STATUS_INVALID_HANDLE;
    if (status != STATUS_SUCCESS) {
#ifdef OG_BUG_RENDER_OUTPUTS
        if (r->DmaSize >= OG_CMD_SIZE && r->pPatchLocationListOut && r->PatchLocationListOutSize) {
            r->pDmaBuffer = (BYTE *)r->pDmaBuffer + OG_CMD_SIZE;
            r->pPatchLocationListOut++;
        }
#endif
        return status;
    }
    struct output out;
    og_writer_init(&out.dma, r->pDmaBuffer, r->DmaSize);
    out.patch = r->pPatchLocationListOut;
    out.patch_left = r->pPatchLocationListOut ? r->PatchLocationListOutSize : 0;
    status = STATUS_SUCCESS;
    for (UINT i = r->MultipassOffset; i < count; i++) {
        struct og_umd_record rec;
        read_record(r, i, &rec);
        if (!translate_record(r, &out, &rec)) {
            r->MultipassOffset = i;
            status = STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
            break;
        }
    }
    r->pDmaBuffer = (BYTE *)r->pDmaBuffer + out.dma.used;
    r->pPatchLocationListOut = out.patch;
    return status;
}
