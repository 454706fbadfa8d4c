/* SPDX-License-Identifier: MIT */
/*
 * render.cpp - DxgkDdiRender: the kit's user command records (wddmkit/umd.h,
 * the UMD format the kit plays) into Lattice packets, with one patch
 * location per address operand (facts §5.2 R7).
 *
 *   WK_USER_OP_COPY     -> COPY         WK_USER_OP_FILL  -> FILL
 *   WK_USER_OP_WRITE32  -> FILL of 4    WK_USER_OP_BLIT  -> BLIT
 *   WK_USER_OP_NOP      -> nothing
 *
 * pCommand is hostile: the whole buffer is validated before anything is
 * written (every record bounded, every allocation reference inside a live
 * allocation of this driver), so bad input leaves pDmaBuffer and
 * pPatchLocationListOut where they were. Each record then becomes one
 * packet, whole or not at all; when the next one does not fit, the call
 * returns STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER with the record's index in
 * MultipassOffset (facts §5.2 R3). An address whose allocation-list entry
 * already has a SegmentId is written final (pre-patching, R6), any other as
 * lattice::UNPATCHED until Patch.
 *
 * With --gpu none the suite skips render steps (the encoder kind), so these
 * translations are not judged by it (KIT-FINDINGS.md).
 */
#include "cppgpu.h"
#include "commands.h"
#include "wddmkit/umd.h"

namespace cppgpu {

using namespace lattice;

namespace {

/* Slot ids of a packet's address operands (below MaxAllocationListSlotId). */
constexpr UINT SLOT_DESTINATION = 0, SLOT_SOURCE = 1;

/* The records of a user command buffer, read by copy (never in place:
 * the pages are the UMD's). */
class UserCommands {
public:
    explicit UserCommands(const DXGKARG_RENDER &render) : render_(render) {}

    /* Checks the header and every record; the count on success. */
    NTSTATUS validate(UINT &count) const;
    /* The record at byte `offset`; its length is checked by validate(). */
    template <class Record> Record read(UINT offset) const
    {
        Record r;
        RtlCopyMemory(&r, static_cast<const BYTE *>(render_.pCommand) + offset, sizeof(r));
        return r;
    }
    UINT first_record() const { return sizeof(WK_USER_COMMAND_HEADER); }

private:
    NTSTATUS validate_record(UINT offset, UINT &length) const;
    bool reference_ok(const WK_USER_REF &ref, UINT64 bytes) const;
    bool rows_ok(const WK_USER_REF &ref, UINT width, UINT height, UINT pitch) const;

    const DXGKARG_RENDER &render_;
};

bool UserCommands::reference_ok(const WK_USER_REF &ref, UINT64 bytes) const
{
    if (!render_.pAllocationList || ref.AllocationIndex >= render_.AllocationListSize)
        return false;
    const Allocation *a =
        KernelObject::from<Allocation>(render_.pAllocationList[ref.AllocationIndex].hDeviceSpecificAllocation);
    return a && a->holds(ref.Offset, bytes); /* 0 bytes: valid at the very end too (umd.h) */
}

/* Rows of `width` bytes `pitch` apart, all inside the allocation. Any
 * pitch is valid (umd.h: 0 repeats one row, less than the width overlaps
 * them), and an empty blit spans nothing. */
bool UserCommands::rows_ok(const WK_USER_REF &ref, UINT width, UINT height, UINT pitch) const
{
    const UINT64 span = width == 0 || height == 0 ? 0 : UINT64(height - 1) * pitch + width;
    return reference_ok(ref, span);
}

NTSTATUS UserCommands::validate_record(UINT offset, UINT &length) const
{
    if (render_.CommandLength - offset < sizeof(WK_USER_RECORD))
        return STATUS_INVALID_PARAMETER;
    const WK_USER_RECORD head = read<WK_USER_RECORD>(offset);
    length = head.Length;
    if (head.Length < sizeof(head) || head.Length > render_.CommandLength - offset)
        return STATUS_INVALID_PARAMETER;
    switch (head.Op) {
    case WK_USER_OP_NOP:
        return STATUS_SUCCESS;
    case WK_USER_OP_COPY: {
        if (head.Length < sizeof(WK_USER_COPY)) /* longer: the tail is skipped (umd.h) */
            return STATUS_INVALID_PARAMETER;
        const auto r = read<WK_USER_COPY>(offset);
        return r.Reserved == 0 && reference_ok(r.Source, r.Size) && reference_ok(r.Destination, r.Size)
                   ? STATUS_SUCCESS
                   : STATUS_INVALID_PARAMETER;
    }
    case WK_USER_OP_FILL: {
        if (head.Length < sizeof(WK_USER_FILL)) /* longer: the tail is skipped (umd.h) */
            return STATUS_INVALID_PARAMETER;
        const auto r = read<WK_USER_FILL>(offset);
        return reference_ok(r.Destination, r.Size) ? STATUS_SUCCESS : STATUS_INVALID_PARAMETER;
    }
    case WK_USER_OP_WRITE32: {
        if (head.Length < sizeof(WK_USER_WRITE32)) /* longer: the tail is skipped (umd.h) */
            return STATUS_INVALID_PARAMETER;
        const auto r = read<WK_USER_WRITE32>(offset);
        return r.Reserved == 0 && reference_ok(r.Destination, 4) ? STATUS_SUCCESS : STATUS_INVALID_PARAMETER;
    }
    case WK_USER_OP_BLIT: {
        if (head.Length < sizeof(WK_USER_BLIT)) /* longer: the tail is skipped (umd.h) */
            return STATUS_INVALID_PARAMETER;
        const auto r = read<WK_USER_BLIT>(offset);
        return rows_ok(r.Source, r.Width, r.Height, r.SourcePitch) &&
                       rows_ok(r.Destination, r.Width, r.Height, r.DestinationPitch)
                   ? STATUS_SUCCESS
                   : STATUS_INVALID_PARAMETER;
    }
    default:
        return STATUS_ILLEGAL_INSTRUCTION;
    }
}

NTSTATUS UserCommands::validate(UINT &count) const
{
    if (!render_.pCommand || render_.CommandLength < sizeof(WK_USER_COMMAND_HEADER))
        return STATUS_INVALID_PARAMETER;
    const auto header = read<WK_USER_COMMAND_HEADER>(0);
    if (header.Magic != WK_USER_COMMAND_MAGIC || header.Version != WK_USER_COMMAND_VERSION || header.Reserved != 0)
        return STATUS_INVALID_PARAMETER;
    UINT offset = first_record();
    for (UINT i = 0; i < header.RecordCount; i++) {
        UINT length = 0;
        const NTSTATUS status = validate_record(offset, length);
        if (!NT_SUCCESS(status))
            return status;
        offset += length;
    }
    if (offset != render_.CommandLength || render_.MultipassOffset > header.RecordCount)
        return STATUS_INVALID_PARAMETER;
    count = header.RecordCount;
    return STATUS_SUCCESS;
}

/* Where Render's outputs go: packets and patch locations. */
class RenderOutput {
public:
    explicit RenderOutput(DXGKARG_RENDER &render)
        : render_(render), writer_(render.pDmaBuffer, render.DmaSize), patches_(render.pPatchLocationListOut),
          patches_left_(render.pPatchLocationListOut ? render.PatchLocationListOutSize : 0) {}

    /* Room for a packet and its patch locations. */
    bool fits(UINT payload_words, UINT addresses) const
    {
        return writer_.fits(payload_words) && patches_left_ >= addresses;
    }
    CommandWriter &writer() { return writer_; }

    /* The address operand at `operand` (a byte offset in the buffer) of the
     * packet at `packet`: its final address if known, and a patch location. */
    void bind(const WK_USER_REF &ref, UINT packet, UINT operand, UINT slot);
    /* What the DDI hands back (facts §5.2 R2). */
    void commit()
    {
        render_.pDmaBuffer = static_cast<BYTE *>(render_.pDmaBuffer) + writer_.used();
        render_.pPatchLocationListOut = patches_;
    }

private:
    DXGKARG_RENDER &render_;
    CommandWriter writer_;
    D3DDDI_PATCHLOCATIONLIST *patches_;
    UINT patches_left_;
};

void RenderOutput::bind(const WK_USER_REF &ref, UINT packet, UINT operand, UINT slot)
{
    const DXGK_ALLOCATIONLIST &entry = render_.pAllocationList[ref.AllocationIndex];
    CommandWriter::encode_address(writer_.at(operand),
                                  entry.SegmentId ? UINT64(entry.PhysicalAddress.QuadPart) + ref.Offset : UNPATCHED);
    D3DDDI_PATCHLOCATIONLIST &p = *patches_++;
    patches_left_--;
    RtlZeroMemory(&p, sizeof(p));
    p.AllocationIndex = ref.AllocationIndex;
    p.AllocationOffset = ref.Offset;
    p.PatchOffset = operand;
    p.SlotId = slot;
    p.SplitOffset = packet; /* a packet's addresses are re-programmed together */
}

/* One record into one packet; false when it does not fit. */
bool translate(const UserCommands &commands, UINT offset, RenderOutput &out)
{
    const UINT op = commands.read<WK_USER_RECORD>(offset).Op;
    CommandWriter &w = out.writer();
    if (op == WK_USER_OP_COPY) {
        const auto r = commands.read<WK_USER_COPY>(offset);
        if (!out.fits(COPY_WORDS, 2))
            return false;
        const UINT at = w.copy(UNPATCHED, UNPATCHED, r.Size);
        out.bind(r.Destination, at, at + address_offset(0), SLOT_DESTINATION);
        out.bind(r.Source, at, at + address_offset(2), SLOT_SOURCE);
    } else if (op == WK_USER_OP_FILL) {
        const auto r = commands.read<WK_USER_FILL>(offset);
        if (!out.fits(FILL_WORDS, 1))
            return false;
        const UINT at = w.fill(UNPATCHED, r.Size, r.Pattern);
        out.bind(r.Destination, at, at + address_offset(0), SLOT_DESTINATION);
    } else if (op == WK_USER_OP_WRITE32) { /* a FILL of one 32-bit word */
        const auto r = commands.read<WK_USER_WRITE32>(offset);
        if (!out.fits(FILL_WORDS, 1))
            return false;
        const UINT at = w.fill(UNPATCHED, 4, r.Value);
        out.bind(r.Destination, at, at + address_offset(0), SLOT_DESTINATION);
    } else if (op == WK_USER_OP_BLIT) {
        const auto r = commands.read<WK_USER_BLIT>(offset);
        if (!out.fits(BLIT_WORDS, 2))
            return false;
        const UINT at = w.blit(UNPATCHED, UNPATCHED, r.Width, r.Height, r.DestinationPitch, r.SourcePitch);
        out.bind(r.Destination, at, at + address_offset(0), SLOT_DESTINATION);
        out.bind(r.Source, at, at + address_offset(2), SLOT_SOURCE);
    }
    return true; /* NOP: nothing to write */
}

} // namespace

NTSTATUS Render(const HANDLE hContext, DXGKARG_RENDER *pRender)
{
    if (!KernelObject::from<Context>(hContext) || !pRender)
        return STATUS_INVALID_HANDLE;
    const UserCommands commands(*pRender);
    UINT count = 0;
    NTSTATUS status = commands.validate(count);
    if (!NT_SUCCESS(status))
        return status;
    RenderOutput out(*pRender);
    UINT offset = commands.first_record();
    status = STATUS_SUCCESS;
    for (UINT i = 0; i < count; i++) {
        const UINT length = commands.read<WK_USER_RECORD>(offset).Length;
        if (i >= pRender->MultipassOffset && !translate(commands, offset, out)) {
            pRender->MultipassOffset = i;
            status = STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER;
            break;
        }
        offset += length;
    }
    out.commit();
    return status;
}

} // namespace cppgpu
