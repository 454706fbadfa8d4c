/* SPDX-License-Identifier: MIT */
/*++

Module Name:

    submit.c

Abstract:

    The submission path: DxgkDdiSubmitCommand, DxgkDdiCancelCommand, the
    interrupt routine, DxgkDdiDpcRoutine, the retire DPC object and the
    TDR pair (DxgkDdiResetFromTimeout, DxgkDdiRestartFromTimeout).

    Every submission gets a HERON_SUBMISSION on the adapter's PendingList
    and a descriptor in the ring; the doorbell is the ring's write pointer.
    Heron moderates its interrupts (one per several fences), so besides the
    interrupt path a DPC object queued by SubmitCommand reads the engine's
    completed fence and retires what it covers. IdleEvent is signaled while
    nothing is pending.

    Synchronization: PendingLock (a spin lock) guards the list, the ring
    write pointer and the fence counters, between SubmitCommand
    (DISPATCH_LEVEL), the DPCs and the TDR path. The interrupt routine runs
    above DISPATCH_LEVEL and takes no spin lock: it latches the completed
    fence in the adapter, and the DPC reads it back through
    DxgkCbSynchronizeExecution.

Environment:

    Kernel mode only.

--*/

#include "heron.h"

#pragma alloc_text(PAGE, HeronInitializeSubmissions)
#pragma alloc_text(PAGE, HeronDdiResetFromTimeout)

_Use_decl_annotations_
VOID
HeronInitializeSubmissions(
    PHERON_ADAPTER Adapter
    )
{
    PAGED_CODE();

    KeInitializeSpinLock(&Adapter->PendingLock);
    InitializeListHead(&Adapter->PendingList);
    Adapter->PendingCount = 0;
    KeInitializeEvent(&Adapter->IdleEvent, NotificationEvent, TRUE);
    KeInitializeDpc(&Adapter->RetireDpc, HeronRetireDpc, Adapter);
}

//
// Fence ids wrap: A is at or before B.
//
static
BOOLEAN
HeronFenceReached(
    _In_ ULONG Fence,
    _In_ ULONG Completed
    )
{
    return (LONG)(Fence - Completed) <= 0;
}

//
// Takes the submissions Completed covers off PendingList into Retired.
// Called with PendingLock held.
//
_Requires_lock_held_(Adapter->PendingLock)
static
VOID
HeronRetireLocked(
    _Inout_ PHERON_ADAPTER Adapter,
    _In_ ULONG Completed,
    _Inout_ PLIST_ENTRY Retired
    )
{
    while (!IsListEmpty(&Adapter->PendingList)) {
        PHERON_SUBMISSION Submission =
            CONTAINING_RECORD(Adapter->PendingList.Flink, HERON_SUBMISSION, ListEntry);

        if (!HeronFenceReached(Submission->FenceId, Completed)) {
            break;
        }
        RemoveEntryList(&Submission->ListEntry);
        InsertTailList(Retired, &Submission->ListEntry);
        Adapter->PendingCount--;
        Adapter->LastRetiredFence = Submission->FenceId;
    }

    if (IsListEmpty(&Adapter->PendingList)) {
        KeSetEvent(&Adapter->IdleEvent, IO_NO_INCREMENT, FALSE);
    }
}

static
VOID
HeronFreeSubmissions(
    _Inout_ PLIST_ENTRY Retired
    )
{
    while (!IsListEmpty(Retired)) {
        PLIST_ENTRY Entry = RemoveHeadList(Retired);

        ExFreePoolWithTag(CONTAINING_RECORD(Entry, HERON_SUBMISSION, ListEntry), HERON_TAG_SUBMISSION);
    }
}

//
// Retires what the engine reports complete.
//
static
VOID
HeronRetireCompleted(
    _Inout_ PHERON_ADAPTER Adapter,
    _In_ ULONG Completed
    )
{
    LIST_ENTRY Retired;
    KIRQL OldIrql;

    InitializeListHead(&Retired);
    KeAcquireSpinLock(&Adapter->PendingLock, &OldIrql);
    if (Adapter->PendingCount != 0 && Completed != 0) {
        HeronRetireLocked(Adapter, Completed, &Retired);
    }
    KeReleaseSpinLock(&Adapter->PendingLock, OldIrql);

    HeronFreeSubmissions(&Retired);
}

//
// Drops every pending submission (a stop, or a TDR: the engine was reset
// and will report none of them). Returns how many.
//
_Use_decl_annotations_
ULONG
HeronAbandonPending(
    PHERON_ADAPTER Adapter
    )
{
    LIST_ENTRY Retired;
    KIRQL OldIrql;
    ULONG Count;

    InitializeListHead(&Retired);
    KeAcquireSpinLock(&Adapter->PendingLock, &OldIrql);
    Count = Adapter->PendingCount;
    while (!IsListEmpty(&Adapter->PendingList)) {
        InsertTailList(&Retired, RemoveHeadList(&Adapter->PendingList));
    }
    Adapter->PendingCount = 0;
    Adapter->AbandonedCount += Count;
    Adapter->LastRetiredFence = Adapter->LastSubmittedFence;
    KeSetEvent(&Adapter->IdleEvent, IO_NO_INCREMENT, FALSE);
    KeReleaseSpinLock(&Adapter->PendingLock, OldIrql);

    HeronFreeSubmissions(&Retired);
    return Count;
}

_Use_decl_annotations_
VOID
HeronQueryFences(
    PHERON_ADAPTER Adapter,
    PULONG Submitted,
    PULONG Retired,
    PULONG Pending
    )
{
    KIRQL OldIrql;

    KeAcquireSpinLock(&Adapter->PendingLock, &OldIrql);
    *Submitted = Adapter->LastSubmittedFence;
    *Retired = Adapter->LastRetiredFence;
    *Pending = Adapter->PendingCount;
    KeReleaseSpinLock(&Adapter->PendingLock, OldIrql);
}

//
// Called at DISPATCH_LEVEL. It must not fail (bug check 0x119), so a
// submission record the pool cannot give is only a record lost: the
// descriptor still goes to the ring.
//
_Use_decl_annotations_
NTSTATUS
APIENTRY
HeronDdiSubmitCommand(
    IN_CONST_HANDLE hAdapter,
    IN_CONST_PDXGKARG_SUBMITCOMMAND pSubmitCommand
    )
{
    PHERON_ADAPTER Adapter = HeronAdapterFromHandle(hAdapter);
    PHERON_SUBMISSION Submission;
    PHERON_RING_ENTRY RingEntry;
    ULONGLONG DmaAddress;
    ULONG DmaLength;
    KIRQL OldIrql;

    NT_ASSERT(Adapter != NULL && Adapter->Started);
    NT_ASSERT(pSubmitCommand->DmaBufferSubmissionEndOffset >= pSubmitCommand->DmaBufferSubmissionStartOffset);

    DmaAddress = (ULONGLONG)pSubmitCommand->DmaBufferPhysicalAddress.QuadPart +
                 pSubmitCommand->DmaBufferSubmissionStartOffset;
    DmaLength = pSubmitCommand->DmaBufferSubmissionEndOffset - pSubmitCommand->DmaBufferSubmissionStartOffset;

    Submission = (PHERON_SUBMISSION)ExAllocatePool2(POOL_FLAG_NON_PAGED, sizeof(HERON_SUBMISSION),
                                                    HERON_TAG_SUBMISSION);

    KeAcquireSpinLock(&Adapter->PendingLock, &OldIrql);

    RingEntry = &Adapter->Ring[Adapter->RingWritePointer];
    RtlZeroMemory(RingEntry, sizeof(*RingEntry));
    RingEntry->DmaAddress = DmaAddress;
    RingEntry->DmaLength = DmaLength;
    RingEntry->FenceId = pSubmitCommand->SubmissionFenceId;
    RingEntry->Flags = HERON_RING_FLAG_INTERRUPT |
                       (pSubmitCommand->Flags.Paging ? HERON_RING_FLAG_PAGING : 0);

    if (Submission != NULL) {
        Submission->FenceId = pSubmitCommand->SubmissionFenceId;
        Submission->RingIndex = Adapter->RingWritePointer;
        Submission->DmaAddress = DmaAddress;
        Submission->DmaLength = DmaLength;
        Submission->Paging = pSubmitCommand->Flags.Paging ? TRUE : FALSE;
        InsertTailList(&Adapter->PendingList, &Submission->ListEntry);
        Adapter->PendingCount++;
        KeClearEvent(&Adapter->IdleEvent);
    }

    Adapter->LastSubmittedFence = pSubmitCommand->SubmissionFenceId;
    Adapter->RingWritePointer = (Adapter->RingWritePointer + 1) % HERON_RING_ENTRIES;
    KeMemoryBarrier();
    HeronWriteRegister(Adapter, HERON_REG_RING_WPTR, Adapter->RingWritePointer);

    KeReleaseSpinLock(&Adapter->PendingLock, OldIrql);

    //
    // Reclaim what the engine has finished, even when it coalesced the
    // interrupt away.
    //
    KeInsertQueueDpc(&Adapter->RetireDpc, NULL, NULL);
    return STATUS_SUCCESS;
}

//
// A buffer dxgkrnl patched but will not run (CancelCommandAware). Heron
// keeps nothing per patched buffer, so there is nothing to undo; the call
// is where a driver that pins resources in Patch would release them.
//
_Use_decl_annotations_
NTSTATUS
APIENTRY
HeronDdiCancelCommand(
    IN_CONST_HANDLE hAdapter,
    IN_CONST_PDXGKARG_CANCELCOMMAND pCancelCommand
    )
{
    PHERON_ADAPTER Adapter = HeronAdapterFromHandle(hAdapter);

    if (Adapter == NULL || pCancelCommand == NULL) {
        return STATUS_INVALID_PARAMETER;
    }

    HeronTrace(DPFLTR_TRACE_LEVEL, "heron: CancelCommand: context %p, bytes %u..%u\n",
               pCancelCommand->hContext, pCancelCommand->DmaBufferSubmissionStartOffset,
               pCancelCommand->DmaBufferSubmissionEndOffset);
    return STATUS_SUCCESS;
}

//
// Interrupt routine: claim Heron's line, acknowledge, report to dxgkrnl.
// Runs at device IRQL: no spin lock, no pool, no paged code.
//
_Use_decl_annotations_
BOOLEAN
HeronDdiInterruptRoutine(
    IN_CONST_PVOID MiniportDeviceContext,
    IN_ULONG MessageNumber
    )
{
    PHERON_ADAPTER Adapter = (PHERON_ADAPTER)MiniportDeviceContext;
    DXGKARGCB_NOTIFY_INTERRUPT_DATA Notify;
    ULONG Status;

    UNREFERENCED_PARAMETER(MessageNumber);

    if (Adapter == NULL || Adapter->Registers == NULL) {
        return FALSE;
    }

    Status = HeronReadRegister(Adapter, HERON_REG_INT_STATUS) & HERON_INT_ALL;
    if (Status == 0) {
        return FALSE;   // not ours: the line is shared
    }
    HeronWriteRegister(Adapter, HERON_REG_INT_ACK, Status);

    RtlZeroMemory(&Notify, sizeof(Notify));
    if (Status & HERON_INT_FAULT) {
        Adapter->FaultCount++;
        Notify.InterruptType = DXGK_INTERRUPT_DMA_FAULTED;
        Notify.DmaFaulted.FaultedFenceId = HeronReadRegister(Adapter, HERON_REG_FAULT_FENCE);
        Notify.DmaFaulted.Status = STATUS_ILLEGAL_INSTRUCTION;
        Adapter->DxgkInterface.DxgkCbNotifyInterrupt(Adapter->DxgkInterface.DeviceHandle, &Notify);
    } else {
        Adapter->InterruptFence = HeronReadRegister(Adapter, HERON_REG_FENCE_COMPLETED);
        Notify.InterruptType = DXGK_INTERRUPT_DMA_COMPLETED;
        Notify.DmaCompleted.SubmissionFenceId = Adapter->InterruptFence;
        Adapter->DxgkInterface.DxgkCbNotifyInterrupt(Adapter->DxgkInterface.DeviceHandle, &Notify);
    }

    Adapter->DxgkInterface.DxgkCbQueueDpc(Adapter->DxgkInterface.DeviceHandle);
    return TRUE;
}

//
// Reads what the interrupt routine latched, synchronized with it.
//
typedef struct _HERON_LATCH {
    PHERON_ADAPTER  Adapter;
    ULONG           Fence;
} HERON_LATCH;

static
BOOLEAN
HeronReadLatchedFence(
    _In_ PVOID SynchronizeContext
    )
{
    HERON_LATCH *Latch = (HERON_LATCH *)SynchronizeContext;

    Latch->Fence = Latch->Adapter->InterruptFence;
    return TRUE;
}

_Use_decl_annotations_
VOID
HeronDdiDpcRoutine(
    IN_CONST_PVOID MiniportDeviceContext
    )
{
    PHERON_ADAPTER Adapter = (PHERON_ADAPTER)MiniportDeviceContext;
    HERON_LATCH Latch;
    BOOLEAN Ignored;

    //
    // dxgkrnl's own DPC work (fence notification) first.
    //
    Adapter->DxgkInterface.DxgkCbNotifyDpc(Adapter->DxgkInterface.DeviceHandle);

    Latch.Adapter = Adapter;
    Latch.Fence = 0;
    if (NT_SUCCESS(Adapter->DxgkInterface.DxgkCbSynchronizeExecution(
            Adapter->DxgkInterface.DeviceHandle, HeronReadLatchedFence, &Latch, 0, &Ignored))) {
        HeronRetireCompleted(Adapter, Latch.Fence);
    }
}

//
// The retire DPC object: polls the engine's completed fence.
//
_Use_decl_annotations_
VOID
HeronRetireDpc(
    PKDPC Dpc,
    PVOID DeferredContext,
    PVOID SystemArgument1,
    PVOID SystemArgument2
    )
{
    PHERON_ADAPTER Adapter = (PHERON_ADAPTER)DeferredContext;

    UNREFERENCED_PARAMETER(Dpc);
    UNREFERENCED_PARAMETER(SystemArgument1);
    UNREFERENCED_PARAMETER(SystemArgument2);

    NT_ASSERT(KeGetCurrentIrql() == DISPATCH_LEVEL);

    if (Adapter->Registers != NULL) {
        HeronRetireCompleted(Adapter, HeronReadRegister(Adapter, HERON_REG_FENCE_COMPLETED));
    }
}

//
// TDR: reset the engine so it touches no memory once this returns, and
// forget what it held.
//
_Use_decl_annotations_
NTSTATUS
APIENTRY
HeronDdiResetFromTimeout(
    IN_CONST_HANDLE hAdapter
    )
{
    PHERON_ADAPTER Adapter = HeronAdapterFromHandle(hAdapter);
    ULONG Abandoned;

    PAGED_CODE();

    if (Adapter == NULL) {
        return STATUS_INVALID_PARAMETER;
    }

    if (Adapter->Registers != NULL) {
        HeronWriteRegister(Adapter, HERON_REG_INT_ENABLE, 0);
        HeronWriteRegister(Adapter, HERON_REG_ENGINE_RESET, 1);
    }
    KeRemoveQueueDpc(&Adapter->RetireDpc);
    Abandoned = HeronAbandonPending(Adapter);
    Adapter->ResetCount++;

    HeronTrace(DPFLTR_WARNING_LEVEL, "heron: ResetFromTimeout #%u: %u submissions dropped\n",
               Adapter->ResetCount, Abandoned);
    return STATUS_SUCCESS;
}

//
// After the reset: program the ring again, from empty. Not pageable: it
// takes PendingLock.
//
_Use_decl_annotations_
NTSTATUS
APIENTRY
HeronDdiRestartFromTimeout(
    IN_CONST_HANDLE hAdapter
    )
{
    PHERON_ADAPTER Adapter = HeronAdapterFromHandle(hAdapter);
    KIRQL OldIrql;

    if (Adapter == NULL || Adapter->Registers == NULL || Adapter->Ring == NULL) {
        return STATUS_INVALID_PARAMETER;
    }

    KeAcquireSpinLock(&Adapter->PendingLock, &OldIrql);
    Adapter->RingWritePointer = 0;
    KeReleaseSpinLock(&Adapter->PendingLock, OldIrql);

    RtlZeroMemory(Adapter->Ring, HERON_RING_ENTRIES * sizeof(HERON_RING_ENTRY));
    HeronWriteRegister(Adapter, HERON_REG_RING_BASE_LO, (ULONG)Adapter->RingPhysical.QuadPart);
    HeronWriteRegister(Adapter, HERON_REG_RING_BASE_HI, (ULONG)((ULONGLONG)Adapter->RingPhysical.QuadPart >> 32));
    HeronWriteRegister(Adapter, HERON_REG_RING_WPTR, 0);
    HeronWriteRegister(Adapter, HERON_REG_INT_ACK, HERON_INT_ALL);
    HeronWriteRegister(Adapter, HERON_REG_INT_ENABLE, HERON_INT_ALL);
    return STATUS_SUCCESS;
}
