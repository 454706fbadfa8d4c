/* SPDX-License-Identifier: MIT */
/*++

Module Name:

    driver.c

Abstract:

    DriverEntry, DxgkDdiUnload and the adapter's life: AddDevice,
    StartDevice, StopDevice, RemoveDevice, ResetDevice, power and ACPI
    notifications, interrupt control, QueryInterface.

Environment:

    Kernel mode only.

--*/

#include "heron.h"

HERON_GLOBALS HeronGlobals;

static NTSTATUS HeronSaveRegistryPath(_In_ PUNICODE_STRING RegistryPath);

#pragma alloc_text(INIT, DriverEntry)
#pragma alloc_text(INIT, HeronSaveRegistryPath)
#pragma alloc_text(PAGE, HeronDdiUnload)
#pragma alloc_text(PAGE, HeronDdiAddDevice)
#pragma alloc_text(PAGE, HeronDdiStartDevice)
#pragma alloc_text(PAGE, HeronDdiStopDevice)
#pragma alloc_text(PAGE, HeronDdiRemoveDevice)
#pragma alloc_text(PAGE, HeronDdiSetPowerState)
#pragma alloc_text(PAGE, HeronDdiNotifyAcpiEvent)
#pragma alloc_text(PAGE, HeronDdiQueryInterface)

//
// Register access. The window is mapped uncached in StartDevice.
//
ULONG
HeronReadRegister(
    _In_ PHERON_ADAPTER Adapter,
    _In_ ULONG Offset
    )
{
    NT_ASSERT(Adapter->Registers != NULL);
    NT_ASSERT(Offset < HERON_MMIO_SIZE && (Offset & 3) == 0);
    return READ_REGISTER_ULONG((volatile ULONG *)(Adapter->Registers + Offset));
}

VOID
HeronWriteRegister(
    _In_ PHERON_ADAPTER Adapter,
    _In_ ULONG Offset,
    _In_ ULONG Value
    )
{
    NT_ASSERT(Adapter->Registers != NULL);
    NT_ASSERT(Offset < HERON_MMIO_SIZE && (Offset & 3) == 0);
    WRITE_REGISTER_ULONG((volatile ULONG *)(Adapter->Registers + Offset), Value);
}

//
// Keeps a NUL-terminated copy of the service key path: RTL_REGISTRY_ABSOLUTE
// queries need the terminator, which RegistryPath does not promise.
//
static
NTSTATUS
HeronSaveRegistryPath(
    _In_ PUNICODE_STRING RegistryPath
    )
{
    USHORT Bytes;

    PAGED_CODE();

    Bytes = (USHORT)(RegistryPath->Length + sizeof(WCHAR));
    HeronGlobals.RegistryPath.Buffer =
        (PWCH)ExAllocatePool2(POOL_FLAG_PAGED, Bytes, HERON_TAG_GLOBAL);
    if (HeronGlobals.RegistryPath.Buffer == NULL) {
        return STATUS_INSUFFICIENT_RESOURCES;
    }

    RtlCopyMemory(HeronGlobals.RegistryPath.Buffer, RegistryPath->Buffer, RegistryPath->Length);
    HeronGlobals.RegistryPath.Buffer[RegistryPath->Length / sizeof(WCHAR)] = UNICODE_NULL;
    HeronGlobals.RegistryPath.Length = RegistryPath->Length;
    HeronGlobals.RegistryPath.MaximumLength = Bytes;
    return STATUS_SUCCESS;
}

_Use_decl_annotations_
WK_DRIVER_EXPORT
NTSTATUS
DriverEntry(
    PDRIVER_OBJECT DriverObject,
    PUNICODE_STRING RegistryPath
    )
{
    DRIVER_INITIALIZATION_DATA InitializationData;
    NTSTATUS Status;

    PAGED_CODE();

    if (RegistryPath == NULL || RegistryPath->Buffer == NULL) {
        return STATUS_INVALID_PARAMETER;
    }

    Status = HeronSaveRegistryPath(RegistryPath);
    if (!NT_SUCCESS(Status)) {
        return Status;
    }

    HeronReadSettings(&HeronGlobals.RegistryPath, &HeronGlobals.Settings);

    HeronTrace(DPFLTR_INFO_LEVEL,
               "heron: DriverEntry: DmaBufferSize 0x%x PagingBufferSize 0x%x EnableCancel %u\n",
               HeronGlobals.Settings.DmaBufferSize,
               HeronGlobals.Settings.PagingBufferSize,
               HeronGlobals.Settings.EnableCancel);

    RtlZeroMemory(&InitializationData, sizeof(InitializationData));

    //
    // Heron addresses memory physically (no GPU MMU): the WDDM 1.3 model,
    // with Patch and a paging engine fed by DxgkDdiBuildPagingBuffer.
    //
    InitializationData.Version = DXGKDDI_INTERFACE_VERSION_WDDM1_3;

    InitializationData.DxgkDdiAddDevice = HeronDdiAddDevice;
    InitializationData.DxgkDdiStartDevice = HeronDdiStartDevice;
    InitializationData.DxgkDdiStopDevice = HeronDdiStopDevice;
    InitializationData.DxgkDdiRemoveDevice = HeronDdiRemoveDevice;
    InitializationData.DxgkDdiResetDevice = HeronDdiResetDevice;
    InitializationData.DxgkDdiUnload = HeronDdiUnload;
    InitializationData.DxgkDdiSetPowerState = HeronDdiSetPowerState;
    InitializationData.DxgkDdiNotifyAcpiEvent = HeronDdiNotifyAcpiEvent;
    InitializationData.DxgkDdiQueryInterface = HeronDdiQueryInterface;
    InitializationData.DxgkDdiControlInterrupt = HeronDdiControlInterrupt;

    InitializationData.DxgkDdiInterruptRoutine = HeronDdiInterruptRoutine;
    InitializationData.DxgkDdiDpcRoutine = HeronDdiDpcRoutine;

    InitializationData.DxgkDdiQueryAdapterInfo = HeronDdiQueryAdapterInfo;
    InitializationData.DxgkDdiCreateDevice = HeronDdiCreateDevice;
    InitializationData.DxgkDdiDestroyDevice = HeronDdiDestroyDevice;
    InitializationData.DxgkDdiCreateContext = HeronDdiCreateContext;
    InitializationData.DxgkDdiDestroyContext = HeronDdiDestroyContext;
    InitializationData.DxgkDdiCreateAllocation = HeronDdiCreateAllocation;
    InitializationData.DxgkDdiDestroyAllocation = HeronDdiDestroyAllocation;

    InitializationData.DxgkDdiBuildPagingBuffer = HeronDdiBuildPagingBuffer;
    InitializationData.DxgkDdiRender = HeronDdiRender;
    InitializationData.DxgkDdiPatch = HeronDdiPatch;
    InitializationData.DxgkDdiPresent = HeronDdiPresent;
    InitializationData.DxgkDdiSubmitCommand = HeronDdiSubmitCommand;
    if (HeronGlobals.Settings.EnableCancel) {
        InitializationData.DxgkDdiCancelCommand = HeronDdiCancelCommand;
    }
    InitializationData.DxgkDdiResetFromTimeout = HeronDdiResetFromTimeout;
    InitializationData.DxgkDdiRestartFromTimeout = HeronDdiRestartFromTimeout;
    InitializationData.DxgkDdiEscape = HeronDdiEscape;

    Status = DxgkInitialize(DriverObject, RegistryPath, &InitializationData);
    if (!NT_SUCCESS(Status)) {
        HeronTrace(DPFLTR_ERROR_LEVEL, "heron: DxgkInitialize failed 0x%08x\n", (unsigned)Status);
        ExFreePoolWithTag(HeronGlobals.RegistryPath.Buffer, HERON_TAG_GLOBAL);
        RtlZeroMemory(&HeronGlobals.RegistryPath, sizeof(HeronGlobals.RegistryPath));
    }

    return Status;
}

_Use_decl_annotations_
VOID
HeronDdiUnload(
    VOID
    )
{
    PAGED_CODE();

    if (HeronGlobals.RegistryPath.Buffer != NULL) {
        ExFreePoolWithTag(HeronGlobals.RegistryPath.Buffer, HERON_TAG_GLOBAL);
        RtlZeroMemory(&HeronGlobals.RegistryPath, sizeof(HeronGlobals.RegistryPath));
    }
}

_Use_decl_annotations_
NTSTATUS
HeronDdiAddDevice(
    IN_CONST_PDEVICE_OBJECT PhysicalDeviceObject,
    OUT_PPVOID MiniportDeviceContext
    )
{
    PHERON_ADAPTER Adapter;

    PAGED_CODE();

    if (PhysicalDeviceObject == NULL || MiniportDeviceContext == NULL) {
        return STATUS_INVALID_PARAMETER;
    }

    Adapter = (PHERON_ADAPTER)ExAllocatePool2(POOL_FLAG_NON_PAGED, sizeof(HERON_ADAPTER),
                                              HERON_TAG_ADAPTER);
    if (Adapter == NULL) {
        return STATUS_INSUFFICIENT_RESOURCES;
    }

    Adapter->Signature = HERON_ADAPTER_SIGNATURE;
    Adapter->PhysicalDeviceObject = PhysicalDeviceObject;
    Adapter->PowerState = PowerDeviceD0;
    HeronInitializeSubmissions(Adapter);

    *MiniportDeviceContext = Adapter;
    return STATUS_SUCCESS;
}

_Use_decl_annotations_
NTSTATUS
HeronDdiStartDevice(
    IN_CONST_PVOID MiniportDeviceContext,
    IN_PDXGK_START_INFO DxgkStartInfo,
    IN_PDXGKRNL_INTERFACE DxgkInterface,
    OUT_PULONG NumberOfVideoPresentSources,
    OUT_PULONG NumberOfChildren
    )
{
    PHERON_ADAPTER Adapter = (PHERON_ADAPTER)MiniportDeviceContext;
    DXGK_DEVICE_INFO DeviceInfo;
    PCM_PARTIAL_RESOURCE_LIST Resources;
    PCM_PARTIAL_RESOURCE_DESCRIPTOR Descriptor;
    PHYSICAL_ADDRESS MmioBase;
    PHYSICAL_ADDRESS Lowest;
    PHYSICAL_ADDRESS Highest;
    PHYSICAL_ADDRESS Boundary;
    BOOLEAN FoundMmio;
    ULONG ChipId;
    ULONG Index;
    NTSTATUS Status;

    PAGED_CODE();
    UNREFERENCED_PARAMETER(DxgkStartInfo);

    if (Adapter == NULL || Adapter->Signature != HERON_ADAPTER_SIGNATURE || DxgkInterface == NULL) {
        return STATUS_INVALID_PARAMETER;
    }

    Adapter->DxgkInterface = *DxgkInterface;

    //
    // The MMIO window is the first memory resource large enough for the
    // register file, among the translated resources PnP assigned.
    //
    RtlZeroMemory(&DeviceInfo, sizeof(DeviceInfo));
    Status = DxgkInterface->DxgkCbGetDeviceInformation(DxgkInterface->DeviceHandle, &DeviceInfo);
    if (!NT_SUCCESS(Status)) {
        return Status;
    }
    if (DeviceInfo.TranslatedResourceList == NULL || DeviceInfo.TranslatedResourceList->Count == 0) {
        return STATUS_UNSUCCESSFUL;
    }
    FoundMmio = FALSE;
    MmioBase.QuadPart = 0;
    Resources = &DeviceInfo.TranslatedResourceList->List[0].PartialResourceList;
    for (Index = 0; Index < Resources->Count; Index++) {
        Descriptor = &Resources->PartialDescriptors[Index];
        if (Descriptor->Type == CmResourceTypeMemory && Descriptor->u.Memory.Length >= HERON_MMIO_SIZE) {
            MmioBase = Descriptor->u.Memory.Start;
            FoundMmio = TRUE;
            break;
        }
    }
    if (!FoundMmio) {
        HeronTrace(DPFLTR_ERROR_LEVEL, "heron: no memory resource holds the register file\n");
        return STATUS_UNSUCCESSFUL;
    }

    Adapter->Registers = (PUCHAR)MmMapIoSpaceEx(MmioBase, HERON_MMIO_SIZE,
                                                PAGE_READWRITE | PAGE_NOCACHE);
    if (Adapter->Registers == NULL) {
        return STATUS_INSUFFICIENT_RESOURCES;
    }

    ChipId = HeronReadRegister(Adapter, HERON_REG_CHIP_ID);
    HeronTrace(DPFLTR_INFO_LEVEL, "heron: chip id 0x%08x\n", ChipId);

    //
    // The ring lives in contiguous host memory the engine reaches with
    // its 40-bit DMA.
    //
    Lowest.QuadPart = 0;
    Highest.QuadPart = (LONGLONG)HERON_HIGHEST_BUS_ADDRESS;
    Boundary.QuadPart = 0;
    Adapter->Ring = (PHERON_RING_ENTRY)MmAllocateContiguousMemorySpecifyCache(
        HERON_RING_ENTRIES * sizeof(HERON_RING_ENTRY), Lowest, Highest, Boundary, MmCached);
    if (Adapter->Ring == NULL) {
        MmUnmapIoSpace(Adapter->Registers, HERON_MMIO_SIZE);
        Adapter->Registers = NULL;
        return STATUS_INSUFFICIENT_RESOURCES;
    }
    RtlZeroMemory(Adapter->Ring, HERON_RING_ENTRIES * sizeof(HERON_RING_ENTRY));
    Adapter->RingPhysical = MmGetPhysicalAddress(Adapter->Ring);

    HeronWriteRegister(Adapter, HERON_REG_ENGINE_RESET, 1);
    HeronWriteRegister(Adapter, HERON_REG_RING_BASE_LO, (ULONG)Adapter->RingPhysical.QuadPart);
    HeronWriteRegister(Adapter, HERON_REG_RING_BASE_HI, (ULONG)((ULONGLONG)Adapter->RingPhysical.QuadPart >> 32));
    HeronWriteRegister(Adapter, HERON_REG_RING_ENTRIES, HERON_RING_ENTRIES);
    HeronWriteRegister(Adapter, HERON_REG_RING_WPTR, 0);
    HeronWriteRegister(Adapter, HERON_REG_INT_ACK, HERON_INT_ALL);
    HeronWriteRegister(Adapter, HERON_REG_INT_ENABLE, HERON_INT_ALL);

    Adapter->RingWritePointer = 0;
    Adapter->LastSubmittedFence = 0;
    Adapter->LastRetiredFence = 0;
    Adapter->InterruptFence = 0;
    Adapter->Started = TRUE;

    //
    // Render only: no video present sources, no children.
    //
    *NumberOfVideoPresentSources = 0;
    *NumberOfChildren = 0;
    return STATUS_SUCCESS;
}

_Use_decl_annotations_
NTSTATUS
HeronDdiStopDevice(
    IN_CONST_PVOID MiniportDeviceContext
    )
{
    PHERON_ADAPTER Adapter = (PHERON_ADAPTER)MiniportDeviceContext;
    LARGE_INTEGER NoWait;
    ULONG Abandoned;

    PAGED_CODE();

    if (Adapter == NULL || Adapter->Signature != HERON_ADAPTER_SIGNATURE) {
        return STATUS_INVALID_PARAMETER;
    }
    if (!Adapter->Started) {
        return STATUS_SUCCESS;
    }

    HeronWriteRegister(Adapter, HERON_REG_INT_ENABLE, 0);
    KeRemoveQueueDpc(&Adapter->RetireDpc);
    KeFlushQueuedDpcs();

    //
    // dxgkrnl idles the engine before it stops the adapter; whatever the
    // engine has not reported is gone with the reset below.
    //
    NoWait.QuadPart = 0;
    if (KeWaitForSingleObject(&Adapter->IdleEvent, Executive, KernelMode, FALSE, &NoWait) != STATUS_SUCCESS) {
        HeronWriteRegister(Adapter, HERON_REG_ENGINE_RESET, 1);
    }
    Abandoned = HeronAbandonPending(Adapter);
    if (Abandoned != 0) {
        HeronTrace(DPFLTR_TRACE_LEVEL, "heron: StopDevice: %u submissions never reported complete\n",
                   Abandoned);
    }

    MmFreeContiguousMemorySpecifyCache(Adapter->Ring, HERON_RING_ENTRIES * sizeof(HERON_RING_ENTRY),
                                       MmCached);
    Adapter->Ring = NULL;
    MmUnmapIoSpace(Adapter->Registers, HERON_MMIO_SIZE);
    Adapter->Registers = NULL;
    Adapter->Started = FALSE;
    return STATUS_SUCCESS;
}

_Use_decl_annotations_
NTSTATUS
HeronDdiRemoveDevice(
    IN_CONST_PVOID MiniportDeviceContext
    )
{
    PHERON_ADAPTER Adapter = (PHERON_ADAPTER)MiniportDeviceContext;

    PAGED_CODE();

    if (Adapter == NULL || Adapter->Signature != HERON_ADAPTER_SIGNATURE) {
        return STATUS_INVALID_PARAMETER;
    }

    if (Adapter->Started) {
        (VOID)HeronDdiStopDevice(Adapter);
    }

    Adapter->Signature = 0;
    ExFreePoolWithTag(Adapter, HERON_TAG_ADAPTER);
    return STATUS_SUCCESS;
}

//
// Called to quiet the hardware before a bug check or a hand-over to the
// firmware: any IRQL, no locks, no waits.
//
_Use_decl_annotations_
VOID
HeronDdiResetDevice(
    IN_CONST_PVOID MiniportDeviceContext
    )
{
    PHERON_ADAPTER Adapter = (PHERON_ADAPTER)MiniportDeviceContext;

    if (Adapter != NULL && Adapter->Registers != NULL) {
        HeronWriteRegister(Adapter, HERON_REG_INT_ENABLE, 0);
        HeronWriteRegister(Adapter, HERON_REG_ENGINE_RESET, 1);
    }
}

_Use_decl_annotations_
NTSTATUS
HeronDdiSetPowerState(
    IN_CONST_PVOID MiniportDeviceContext,
    IN_ULONG DeviceUid,
    IN_DEVICE_POWER_STATE DevicePowerState,
    IN_POWER_ACTION ActionType
    )
{
    PHERON_ADAPTER Adapter = (PHERON_ADAPTER)MiniportDeviceContext;

    PAGED_CODE();
    UNREFERENCED_PARAMETER(ActionType);

    if (Adapter == NULL || Adapter->Signature != HERON_ADAPTER_SIGNATURE) {
        return STATUS_INVALID_PARAMETER;
    }

    //
    // Heron has no children: only the adapter itself changes state.
    //
    if (DeviceUid != DISPLAY_ADAPTER_HW_ID) {
        return STATUS_INVALID_PARAMETER;
    }

    Adapter->PowerState = DevicePowerState;
    if (Adapter->Registers != NULL) {
        HeronWriteRegister(Adapter, HERON_REG_INT_ENABLE,
                           DevicePowerState == PowerDeviceD0 ? HERON_INT_ALL : 0);
    }
    return STATUS_SUCCESS;
}

_Use_decl_annotations_
NTSTATUS
HeronDdiNotifyAcpiEvent(
    IN_CONST_PVOID MiniportDeviceContext,
    IN_DXGK_EVENT_TYPE EventType,
    IN_ULONG Event,
    IN_PVOID Argument,
    OUT_PULONG AcpiFlags
    )
{
    PAGED_CODE();
    UNREFERENCED_PARAMETER(MiniportDeviceContext);
    UNREFERENCED_PARAMETER(EventType);
    UNREFERENCED_PARAMETER(Event);
    UNREFERENCED_PARAMETER(Argument);

    //
    // No lid, dock or thermal events concern a render engine.
    //
    if (AcpiFlags != NULL) {
        *AcpiFlags = 0;
    }
    return STATUS_SUCCESS;
}

//
// Heron raises no vertical-blank or display interrupts.
//
_Use_decl_annotations_
NTSTATUS
HeronDdiControlInterrupt(
    IN_CONST_HANDLE hAdapter,
    IN_CONST_DXGK_INTERRUPT_TYPE InterruptType,
    IN_BOOLEAN EnableInterrupt
    )
{
    UNREFERENCED_PARAMETER(hAdapter);
    UNREFERENCED_PARAMETER(InterruptType);
    UNREFERENCED_PARAMETER(EnableInterrupt);
    return STATUS_NOT_IMPLEMENTED;
}

//
// Heron exposes no interfaces to other drivers.
//
_Use_decl_annotations_
NTSTATUS
HeronDdiQueryInterface(
    IN_CONST_PVOID MiniportDeviceContext,
    IN_PQUERY_INTERFACE QueryInterface
    )
{
    PAGED_CODE();
    UNREFERENCED_PARAMETER(MiniportDeviceContext);
    UNREFERENCED_PARAMETER(QueryInterface);
    return STATUS_NOT_SUPPORTED;
}
