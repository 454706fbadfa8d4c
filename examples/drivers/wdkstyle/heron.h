/* SPDX-License-Identifier: MIT */
/*++

Module Name:

    heron.h

Abstract:

    Declarations shared by the files of the Heron HR-2 display miniport
    (render only): pool tags, driver settings, the adapter, device,
    context, allocation and submission objects, and every DDI.

    On Windows these files include <ntddk.h>, <dispmprt.h> and
    <d3dkmddi.h>; against wddmkit they include wddmkit/km.h and
    wddmkit/driver.h, which stand for them (docs/writing-a-driver.md).

Environment:

    Kernel mode only. Compiles unchanged as C11 and as C++17.

--*/

#pragma once

#include "wddmkit/km.h"
#include "wddmkit/driver.h"

#include "heron_hw.h"

EXTERN_C_START

//
// Pool tags (reversed in the debugger's pool dump, as usual).
//
#define HERON_TAG_GLOBAL        'GnrH'
#define HERON_TAG_ADAPTER       'AnrH'
#define HERON_TAG_DEVICE        'DnrH'
#define HERON_TAG_CONTEXT       'CnrH'
#define HERON_TAG_ALLOCATION    'LnrH'
#define HERON_TAG_SUBMISSION    'SnrH'

//
// Object signatures: a handle dxgkrnl hands back is used only when the
// object behind it carries the signature of its kind.
//
#define HERON_ADAPTER_SIGNATURE     'pdAH'
#define HERON_DEVICE_SIGNATURE      'veDH'
#define HERON_CONTEXT_SIGNATURE     'xtCH'
#define HERON_ALLOCATION_SIGNATURE  'llAH'

//
// Segments Heron reports (QUERYSEGMENT): ids, addresses and sizes are the
// hardware's (heron_hw.h); which ones a kind of allocation may use is the
// driver's choice.
//
#define HERON_SEGMENT_BIT(Id)           (1u << ((Id) - 1))
#define HERON_SEGMENT_SET_ALL           ((1u << HERON_SEGMENT_COUNT) - 1)
#define HERON_SEGMENT_SET_CPU_VISIBLE   (HERON_SEGMENT_BIT(HERON_SEGMENT_LOCAL_VISIBLE) | \
                                         HERON_SEGMENT_BIT(HERON_SEGMENT_GART))
#define HERON_SEGMENT_SET_APERTURE      HERON_SEGMENT_BIT(HERON_SEGMENT_GART)

#define HERON_GART_COMMIT_LIMIT         0x01800000ull   // 24 MiB of the aperture committable

//
// List sizes; the GDI context's allocation list is fixed by the DDI.
//
#define HERON_ALLOCATION_LIST_SIZE      64
#define HERON_GDI_ALLOCATION_LIST_SIZE  256
#define HERON_PATCH_LOCATION_LIST_SIZE  256
#define HERON_MAX_SLOT_ID               2   // a COPY binds two addresses

#define HERON_DEFAULT_PRIORITY          0x78000000u

//
// Driver settings, from the Parameters subkey of the service key
// (DriverEntry's RegistryPath). Each has a default used when the value is
// absent or out of range.
//
typedef struct _HERON_SETTINGS {
    ULONG   DmaBufferSize;          // "DmaBufferSize", bytes, page multiple
    ULONG   PagingBufferSize;       // "PagingBufferSize", bytes, page multiple
    ULONG   DebugLevel;             // "DebugLevel", a DPFLTR_*_LEVEL
    ULONG   EnableCancel;           // "EnableCancel", 0 or 1: CancelCommandAware
} HERON_SETTINGS, *PHERON_SETTINGS;

#define HERON_DEFAULT_DMA_BUFFER_SIZE       0x4000u
#define HERON_DEFAULT_PAGING_BUFFER_SIZE    0x4000u
#define HERON_MIN_BUFFER_SIZE               0x1000u
#define HERON_MAX_BUFFER_SIZE               0x40000u

typedef struct _HERON_GLOBALS {
    UNICODE_STRING  RegistryPath;   // a NUL-terminated copy, freed by DxgkDdiUnload
    HERON_SETTINGS  Settings;
} HERON_GLOBALS, *PHERON_GLOBALS;

extern HERON_GLOBALS HeronGlobals;

//
// DbgPrintEx-style tracing, filtered by the DebugLevel setting (on top of
// the debugger's own Kd_IHVVIDEO_Mask).
//
FORCEINLINE
BOOLEAN
HeronTraceEnabled(
    _In_ ULONG Level
    )
{
    return Level <= HeronGlobals.Settings.DebugLevel;
}

#define HeronTrace(Level, ...)                                              \
    do {                                                                    \
        if (HeronTraceEnabled(Level)) {                                     \
            DbgPrintEx(DPFLTR_IHVVIDEO_ID, (Level), __VA_ARGS__);           \
        }                                                                   \
    } while (0)

//
// A submission the engine has not retired yet.
//
typedef struct _HERON_SUBMISSION {
    LIST_ENTRY  ListEntry;          // HERON_ADAPTER::PendingList
    ULONG       FenceId;
    ULONG       RingIndex;
    ULONGLONG   DmaAddress;
    ULONG       DmaLength;
    BOOLEAN     Paging;
} HERON_SUBMISSION, *PHERON_SUBMISSION;

typedef struct _HERON_ADAPTER {
    ULONG               Signature;
    PDEVICE_OBJECT      PhysicalDeviceObject;
    DXGKRNL_INTERFACE   DxgkInterface;      // from DxgkDdiStartDevice
    BOOLEAN             Started;
    DEVICE_POWER_STATE  PowerState;

    //
    // Hardware: the MMIO window and the ring in host memory.
    //
    PUCHAR              Registers;
    PHERON_RING_ENTRY   Ring;
    PHYSICAL_ADDRESS    RingPhysical;

    //
    // Submissions. PendingLock guards everything below it: SubmitCommand,
    // the DPCs and the TDR path all take it. The interrupt routine does
    // not (it runs above DISPATCH_LEVEL); what it latches goes through
    // DxgkCbSynchronizeExecution.
    //
    KSPIN_LOCK          PendingLock;
    LIST_ENTRY          PendingList;
    ULONG               PendingCount;
    ULONG               RingWritePointer;
    ULONG               LastSubmittedFence;
    ULONG               LastRetiredFence;
    ULONG               AbandonedCount;     // dropped by a stop or a TDR
    KEVENT              IdleEvent;          // signaled while PendingList is empty
    KDPC                RetireDpc;          // queued by SubmitCommand and the DPC routine

    //
    // Latched by the interrupt routine, read under DxgkCbSynchronizeExecution.
    //
    ULONG               InterruptFence;
    ULONG               FaultCount;
    ULONG               ResetCount;
} HERON_ADAPTER, *PHERON_ADAPTER;

typedef struct _HERON_DEVICE {
    ULONG               Signature;
    PHERON_ADAPTER      Adapter;
    HANDLE              hRuntimeDevice;
    DXGK_CREATEDEVICEFLAGS Flags;
} HERON_DEVICE, *PHERON_DEVICE;

typedef struct _HERON_CONTEXT {
    ULONG               Signature;
    PHERON_DEVICE       Device;
    UINT                NodeOrdinal;
    BOOLEAN             GdiContext;
} HERON_CONTEXT, *PHERON_CONTEXT;

typedef struct _HERON_ALLOCATION {
    ULONG               Signature;
    SIZE_T              Size;               // bytes, as answered in DXGK_ALLOCATIONINFO
    UINT                SegmentSet;
} HERON_ALLOCATION, *PHERON_ALLOCATION;

//
// Handle checks (objects.c).
//
_Must_inspect_result_ PHERON_ADAPTER HeronAdapterFromHandle(_In_opt_ HANDLE hAdapter);
_Must_inspect_result_ PHERON_DEVICE HeronDeviceFromHandle(_In_opt_ HANDLE hDevice);
_Must_inspect_result_ PHERON_CONTEXT HeronContextFromHandle(_In_opt_ HANDLE hContext);
_Must_inspect_result_ PHERON_ALLOCATION HeronAllocationFromHandle(_In_opt_ HANDLE hAllocation);

//
// Registers (driver.c).
//
ULONG HeronReadRegister(_In_ PHERON_ADAPTER Adapter, _In_ ULONG Offset);
VOID HeronWriteRegister(_In_ PHERON_ADAPTER Adapter, _In_ ULONG Offset, _In_ ULONG Value);

//
// Registry settings (registry.c).
//
_IRQL_requires_(PASSIVE_LEVEL)
VOID HeronReadSettings(_In_ PUNICODE_STRING RegistryPath, _Out_ PHERON_SETTINGS Settings);

//
// Submission bookkeeping (submit.c).
//
_IRQL_requires_(PASSIVE_LEVEL)
VOID HeronInitializeSubmissions(_Inout_ PHERON_ADAPTER Adapter);
_IRQL_requires_max_(DISPATCH_LEVEL)
ULONG HeronAbandonPending(_Inout_ PHERON_ADAPTER Adapter);
_IRQL_requires_max_(DISPATCH_LEVEL)
VOID HeronQueryFences(_In_ PHERON_ADAPTER Adapter, _Out_ PULONG Submitted, _Out_ PULONG Retired,
                      _Out_ PULONG Pending);

//
// DDIs. driver.c
//
DRIVER_INITIALIZE DriverEntry;
DXGKDDI_UNLOAD HeronDdiUnload;
DXGKDDI_ADD_DEVICE HeronDdiAddDevice;
DXGKDDI_START_DEVICE HeronDdiStartDevice;
DXGKDDI_STOP_DEVICE HeronDdiStopDevice;
DXGKDDI_REMOVE_DEVICE HeronDdiRemoveDevice;
DXGKDDI_RESET_DEVICE HeronDdiResetDevice;
DXGKDDI_SET_POWER_STATE HeronDdiSetPowerState;
DXGKDDI_NOTIFY_ACPI_EVENT HeronDdiNotifyAcpiEvent;
DXGKDDI_CONTROLINTERRUPT HeronDdiControlInterrupt;
DXGKDDI_QUERY_INTERFACE HeronDdiQueryInterface;

// query.c
DXGKDDI_QUERYADAPTERINFO HeronDdiQueryAdapterInfo;

// objects.c
DXGKDDI_CREATEDEVICE HeronDdiCreateDevice;
DXGKDDI_DESTROYDEVICE HeronDdiDestroyDevice;
DXGKDDI_CREATECONTEXT HeronDdiCreateContext;
DXGKDDI_DESTROYCONTEXT HeronDdiDestroyContext;
DXGKDDI_CREATEALLOCATION HeronDdiCreateAllocation;
DXGKDDI_DESTROYALLOCATION HeronDdiDestroyAllocation;

// paging.c
DXGKDDI_BUILDPAGINGBUFFER HeronDdiBuildPagingBuffer;

// render.c
DXGKDDI_RENDER HeronDdiRender;
DXGKDDI_PATCH HeronDdiPatch;
DXGKDDI_PRESENT HeronDdiPresent;

// submit.c
DXGKDDI_SUBMITCOMMAND HeronDdiSubmitCommand;
DXGKDDI_CANCELCOMMAND HeronDdiCancelCommand;
DXGKDDI_INTERRUPT_ROUTINE HeronDdiInterruptRoutine;
DXGKDDI_DPC_ROUTINE HeronDdiDpcRoutine;
DXGKDDI_RESETFROMTIMEOUT HeronDdiResetFromTimeout;
DXGKDDI_RESTARTFROMTIMEOUT HeronDdiRestartFromTimeout;
KDEFERRED_ROUTINE HeronRetireDpc;

// escape.c
DXGKDDI_ESCAPE HeronDdiEscape;

EXTERN_C_END
