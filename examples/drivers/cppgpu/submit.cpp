/* SPDX-License-Identifier: MIT */
/*
 * submit.cpp - DxgkDdiPatch, DxgkDdiSubmitCommand and the interrupt path.
 *
 * Patch writes Lattice's 8-byte address encoding at each listed PatchOffset
 * of the submission's patch-list range, and only inside the submission
 * range cut to the buffer (PATCH-CONFINE-001, facts §5.3 T2). Lattice's
 * ring and interrupt registers are not on the kit's BAR, so SubmitCommand
 * records the fence in the driver's software ring and writes no register;
 * no Lattice interrupt ever comes, so InterruptRoutine claims none and the
 * kit retires what was submitted (docs/verdicts.md, "A driver for other
 * hardware").
 */
#include "cppgpu.h"
#include "commands.h"

namespace cppgpu {

using namespace lattice;

namespace {

/* The 8 bytes at `offset` lie inside [SubmissionStart, SubmissionEnd) and
 * inside the buffer (64-bit arithmetic: no wrap). */
bool in_submission(const DXGKARG_PATCH &p, UINT offset)
{
    UINT64 end = p.DmaBufferSubmissionEndOffset;
    if (end > p.DmaBufferSize)
        end = p.DmaBufferSize;
    return offset >= p.DmaBufferSubmissionStartOffset && UINT64(offset) + 8 <= end;
}

} // namespace

/* Patch cannot fail (PATCH-STATUS-001): a bad entry is skipped, an
 * allocation that is not resident (SegmentId 0) has no address yet, and a
 * paging buffer has no patch locations (the kernel hands it read-only,
 * docs/writing-a-driver.md section 6). */
NTSTATUS Patch(const HANDLE hAdapter, const DXGKARG_PATCH *pPatch)
{
    UNREFERENCED_PARAMETER(hAdapter);
    const DXGKARG_PATCH &p = *pPatch;
    if (p.Flags.Paging || !p.pDmaBuffer || !p.pPatchLocationList || !p.pAllocationList)
        return STATUS_SUCCESS;
    UINT64 last = UINT64(p.PatchLocationListSubmissionStart) + p.PatchLocationListSubmissionLength;
    if (last > p.PatchLocationListSize)
        last = p.PatchLocationListSize;
    for (UINT64 i = p.PatchLocationListSubmissionStart; i < last; i++) {
        const D3DDDI_PATCHLOCATIONLIST &l = p.pPatchLocationList[i];
        if (l.AllocationIndex >= p.AllocationListSize || !in_submission(p, l.PatchOffset))
            continue;
        const DXGK_ALLOCATIONLIST &e = p.pAllocationList[l.AllocationIndex];
        if (e.SegmentId == 0)
            continue;
        CommandWriter::encode_address(static_cast<BYTE *>(p.pDmaBuffer) + l.PatchOffset,
                                      UINT64(e.PhysicalAddress.QuadPart) + l.AllocationOffset);
    }
    return STATUS_SUCCESS;
}

/* Lattice's doorbell would take the range's bus address and the fence;
 * here the software ring keeps the fence. SubmitCommand must succeed
 * (SUBMIT-STATUS-001). */
NTSTATUS SubmitCommand(const HANDLE hAdapter, const DXGKARG_SUBMITCOMMAND *pSubmitCommand)
{
    if (Adapter *adapter = KernelObject::from<Adapter>(hAdapter))
        adapter->submitted(pSubmitCommand->SubmissionFenceId);
    TraceEvents(TRACE_LEVEL_VERBOSE, TRACE_SUBMIT, "SubmitCommand fence %u", pSubmitCommand->SubmissionFenceId);
    return STATUS_SUCCESS;
}

/* Not Lattice's interrupt: the line the kit asserts is its model's. */
BOOLEAN InterruptRoutine(VOID *const MiniportDeviceContext, ULONG MessageNumber)
{
    UNREFERENCED_PARAMETER(MiniportDeviceContext);
    UNREFERENCED_PARAMETER(MessageNumber);
    return FALSE;
}

VOID DpcRoutine(VOID *const MiniportDeviceContext)
{
    UNREFERENCED_PARAMETER(MiniportDeviceContext);
}

} // namespace cppgpu
