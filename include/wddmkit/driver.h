/* SPDX-License-Identifier: MIT */
/*
 * wddmkit/driver.h - how a driver under test plugs into the kit.
 *
 * The flow is the Windows one, so real miniport code ports with little
 * change:
 *
 *   kit                                  driver
 *   ---                                  ------
 *   dlopen / static link
 *   DriverEntry(DriverObject, Path) ───▶ fills DRIVER_INITIALIZATION_DATA
 *                                   ◀─── DxgkInitialize(DriverObject, Path, &init)
 *   DxgkDdiAddDevice ──────────────────▶ allocates its adapter context
 *   DxgkDdiStartDevice(ctx, info, &DXGKRNL_INTERFACE, ...) ─▶ keeps the callbacks
 *   DxgkDdiQueryAdapterInfo(DRIVERCAPS, QUERYSEGMENT3|4)
 *   DxgkDdiCreateDevice / CreateContext / CreateAllocation / BuildPagingBuffer /
 *   Render / Patch / SubmitCommand / CancelCommand / InterruptRoutine / DpcRoutine ...
 *
 * Every DDI member of DRIVER_INITIALIZATION_DATA and every callback of
 * DXGKRNL_INTERFACE carries its real name and real argument struct
 * (d3dkmddi.h). A DDI left NULL means "not supported": cases that need it
 * are skipped, not failed.
 *
 * What is the kit's own (no Windows equivalent with this shape):
 *   - DRIVER_OBJECT, DEVICE_OBJECT, UNICODE_STRING are small kit structs;
 *     drivers treat them as opaque, as they should on Windows too;
 *   - DxgkInitialize is an inline function that hands the table to the kit
 *     through the DriverObject, so a driver .so needs no symbol from the
 *     host process;
 *   - hardware access: the GPU model sits behind DXGKRNL_INTERFACE's
 *     WkReadRegister32/WkWriteRegister32 (the BAR a miniport maps) and
 *     WkGetGpuDescription (what a miniport learns from its PCI resources).
 *     docs/writing-a-driver.md shows how to port MMIO code onto them.
 */
#ifndef WDDMKIT_DRIVER_H
#define WDDMKIT_DRIVER_H

#include "wddmkit/d3dkmddi.h"
#include "wddmkit/kmservices.h"
#include "wddmkit/kmwchar.h"

#ifdef __cplusplus
extern "C" {
#endif

struct wk_gpu_desc;

/* ------------------------------------------------------------------ */
/* Objects the kit owns                                                 */
/* ------------------------------------------------------------------ */

/* A counted UTF-16 string, as the registry path handed to DriverEntry. */
typedef struct _UNICODE_STRING {
    USHORT Length;        /* bytes, without terminator */
    USHORT MaximumLength;
    WCHAR *Buffer;        /* UTF-16 (kmwchar.h: char16_t, or wchar_t under -fshort-wchar) */
} UNICODE_STRING, *PUNICODE_STRING;

typedef struct _DRIVER_INITIALIZATION_DATA DRIVER_INITIALIZATION_DATA, *PDRIVER_INITIALIZATION_DATA;
typedef struct _DXGKRNL_INTERFACE DXGKRNL_INTERFACE, *PDXGKRNL_INTERFACE;

/*
 * The kit's driver ABI: what a driver module compiled against these
 * headers exchanges with the kit (the layouts of the DDI tables and of
 * every struct the DDIs pass). It changes when one of them does; the kit
 * refuses a module built against another, by name, at DxgkInitialize and
 * in `wddmkit driver check`. 1: the kit's own table layouts; 2: the
 * Windows DDI tables whole (dispmprt.h) and DXGK_DRIVERCAPS whole; 3: the
 * driver object also hands km.h the kit's services (kmservices.h). The kit
 * takes every ABI from WK_DRIVER_ABI_OLDEST on: a module of ABI 2 reads
 * nothing past the members it knows, and does without the services.
 */
#define WK_DRIVER_ABI_VERSION 3u
#define WK_DRIVER_ABI_OLDEST 2u
/* A module of driver ABI `abi` is one this kit takes. */
#define WK_DRIVER_ABI_TAKEN(abi) ((abi) >= WK_DRIVER_ABI_OLDEST && (abi) <= WK_DRIVER_ABI_VERSION)

/* The kit's driver object: drivers only pass it to DxgkInitialize. The
 * slot at wk_initialize_abi1 is where a module of driver ABI 1 calls (the
 * kit answers it by refusing); DxgkInitialize below calls wk_initialize
 * with the ABI the module was compiled against. */
typedef struct _DRIVER_OBJECT {
    ULONG wk_magic; /* WK_DRIVER_OBJECT_MAGIC */
    NTSTATUS (*wk_initialize_abi1)(struct _DRIVER_OBJECT *self, PUNICODE_STRING registry_path,
                                   const DRIVER_INITIALIZATION_DATA *init);
    VOID *wk_owner;
    NTSTATUS (*wk_initialize)(struct _DRIVER_OBJECT *self, PUNICODE_STRING registry_path,
                              const DRIVER_INITIALIZATION_DATA *init, ULONG driver_abi);
    const WK_KM_SERVICES *wk_km_services; /* ABI 3: km.h's way into the kit */
} DRIVER_OBJECT, *PDRIVER_OBJECT;

#define WK_DRIVER_OBJECT_MAGIC 0x4A424F44u /* 'DOBJ' */

/* The physical device object AddDevice receives (opaque to drivers); the
 * kit's carries WK_DEVICE_OBJECT_MAGIC, which IoGetDeviceProperty checks. */
#define WK_DEVICE_OBJECT_MAGIC 0x4F445050u /* 'PPDO' */
typedef struct _DEVICE_OBJECT {
    ULONG wk_magic;
    VOID *wk_owner;
} DEVICE_OBJECT, *PDEVICE_OBJECT;

/* ------------------------------------------------------------------ */
/* Arguments of the DDIs not in d3dkmddi.h                              */
/* ------------------------------------------------------------------ */

/* DxgkDdiQueryAdapterInfo's argument. */
typedef struct _DXGKARG_QUERYADAPTERINFO {
    DXGK_QUERYADAPTERINFOTYPE Type;
    VOID *pInputData;
    UINT InputDataSize;
    VOID *pOutputData;
    UINT OutputDataSize;
    UINT Flags;
    HANDLE hKmdProcessHandle;
} DXGKARG_QUERYADAPTERINFO;

/* DxgkDdiCreateDevice's flags. */
typedef struct _DXGK_CREATEDEVICEFLAGS {
    union {
        struct {
            UINT SystemDevice : 1;
            UINT GdiDevice : 1;
            UINT Reserved : 29;
            UINT DXGK_DEVICE_RESERVED0 : 1;
        };
        UINT Value;
    };
} DXGK_CREATEDEVICEFLAGS;

/* DxgkDdiCreateDevice's argument: hDevice is the runtime's handle in and
 * the driver's handle out.
 *
 * The WDK puts Flags and pInfo in one union (wddm-gpummu-facts.md 3.6);
 * the kit keeps them apart and fills both, Flags in and pInfo pointing at
 * a zeroed DXGK_DEVICEINFO. Which of the two the kernel gives which driver
 * is not documented, so a driver that reads Flags and one that fills
 * *pInfo (as a driver that is not MultiEngineAware does) both work; a
 * driver is compiled from source against these headers, so the offsets do
 * not reach it. Pasid and hKmdProcess are the WDDM 2.0 members: the
 * process the device belongs to, as DxgkDdiCreateProcess's hKmdProcess
 * named it (NULL for a device of no process). */
typedef struct _DXGKARG_CREATEDEVICE {
    HANDLE hDevice;
    DXGK_CREATEDEVICEFLAGS Flags;
    DXGK_DEVICEINFO *pInfo; /* out, for drivers that are not MultiEngineAware */
    ULONG Pasid;            /* in, WDDM 2.0: the owner process's PASID (SVM); 0 in the kit */
    HANDLE hKmdProcess;     /* in, WDDM 2.0: the driver's handle of the device's process */
} DXGKARG_CREATEDEVICE;

/* What StartDevice learns about the adapter (the kit's subset). */
typedef struct _DXGK_START_INFO {
    ULONG RequiredDxgkInterfaceVersion;
    ULONG AdapterGuidLow;
} DXGK_START_INFO, *PDXGK_START_INFO;

/*
 * DxgkCbNotifyInterrupt's argument, in the WDK's layout (80 bytes on x64:
 * the union holds 8-byte members, so it starts at 8 and Flags sits at 72;
 * docs/wddm-gpummu-facts.md 5.5). The arms of the interrupts the kit
 * models are named; Reserved spans the union as the WDK's does.
 */
typedef struct _DXGKARGCB_NOTIFY_INTERRUPT_DATA {
    DXGK_INTERRUPT_TYPE InterruptType;
    union {
        struct {
            UINT SubmissionFenceId;
            UINT NodeOrdinal;
            UINT EngineOrdinal;
        } DmaCompleted;
        struct {
            UINT PreemptionFenceId;
            UINT LastCompletedFenceId;
            UINT NodeOrdinal;
            UINT EngineOrdinal;
        } DmaPreempted;
        struct {
            UINT FaultedFenceId;
            NTSTATUS Status;
            UINT NodeOrdinal;
            UINT EngineOrdinal;
        } DmaFaulted;
        struct {
            UINT VidPnTargetId;
            PHYSICAL_ADDRESS PhysicalAddress;
            UINT PhysicalAdapterMask;
        } CrtcVsync;
        struct { /* WDDM 2.0: a GPU virtual address that could not be used */
            UINT FaultedFenceId;
            UINT64 FaultedPrimitiveAPISequenceNumber;
            DXGK_RENDER_PIPELINE_STAGE FaultedPipelineStage;
            UINT FaultedBindTableEntry;
            DXGK_PAGE_FAULT_FLAGS PageFaultFlags;
            D3DGPU_VIRTUAL_ADDRESS FaultedVirtualAddress;
            UINT NodeOrdinal;
            UINT EngineOrdinal;
            UINT PageTableLevel;
            DXGK_FAULT_ERROR_CODE FaultErrorCode;
            HANDLE FaultedProcessHandle; /* the kernel's (DXGKARG_CREATEPROCESS hDxgkProcess), or NULL */
        } DmaPageFaulted;
        UINT Reserved[16];
    };
    UINT Flags;
} DXGKARGCB_NOTIFY_INTERRUPT_DATA;

/* ------------------------------------------------------------------ */
/* DDI function types (real names)                                      */
/* ------------------------------------------------------------------ */

typedef NTSTATUS DXGKDDI_ADD_DEVICE(const PDEVICE_OBJECT PhysicalDeviceObject,
                                    VOID **MiniportDeviceContext);
typedef NTSTATUS DXGKDDI_START_DEVICE(VOID *const MiniportDeviceContext,
                                      DXGK_START_INFO *DxgkStartInfo,
                                      DXGKRNL_INTERFACE *DxgkInterface,
                                      ULONG *NumberOfVideoPresentSources, ULONG *NumberOfChildren);
typedef NTSTATUS DXGKDDI_STOP_DEVICE(VOID *const MiniportDeviceContext);
typedef NTSTATUS DXGKDDI_REMOVE_DEVICE(VOID *const MiniportDeviceContext);
typedef NTSTATUS DXGKDDI_QUERYADAPTERINFO(const HANDLE hAdapter,
                                          const DXGKARG_QUERYADAPTERINFO *pQueryAdapterInfo);
typedef NTSTATUS DXGKDDI_CREATEDEVICE(const HANDLE hAdapter, DXGKARG_CREATEDEVICE *pCreateDevice);
typedef NTSTATUS DXGKDDI_DESTROYDEVICE(const HANDLE hDevice);
typedef NTSTATUS DXGKDDI_CREATEALLOCATION(const HANDLE hAdapter,
                                          DXGKARG_CREATEALLOCATION *pCreateAllocation);
typedef NTSTATUS DXGKDDI_DESTROYALLOCATION(const HANDLE hAdapter,
                                           const DXGKARG_DESTROYALLOCATION *pDestroyAllocation);
typedef NTSTATUS DXGKDDI_CREATECONTEXT(const HANDLE hDevice, DXGKARG_CREATECONTEXT *pCreateContext);
typedef NTSTATUS DXGKDDI_DESTROYCONTEXT(const HANDLE hContext);
typedef NTSTATUS DXGKDDI_BUILDPAGINGBUFFER(const HANDLE hAdapter,
                                           DXGKARG_BUILDPAGINGBUFFER *pBuildPagingBuffer);
typedef NTSTATUS DXGKDDI_RENDER(const HANDLE hContext, DXGKARG_RENDER *pRender);
typedef NTSTATUS DXGKDDI_PATCH(const HANDLE hAdapter, const DXGKARG_PATCH *pPatch);
typedef NTSTATUS DXGKDDI_SUBMITCOMMAND(const HANDLE hAdapter,
                                       const DXGKARG_SUBMITCOMMAND *pSubmitCommand);
typedef NTSTATUS DXGKDDI_CANCELCOMMAND(const HANDLE hAdapter,
                                       const DXGKARG_CANCELCOMMAND *pCancelCommand);
typedef BOOLEAN DXGKDDI_INTERRUPT_ROUTINE(VOID *const MiniportDeviceContext, ULONG MessageNumber);
typedef VOID DXGKDDI_DPC_ROUTINE(VOID *const MiniportDeviceContext);

/* The DDI tables whole (DRIVER_INITIALIZATION_DATA, DXGKRNL_INTERFACE), the
 * other DDIs' and the callbacks' types. */
#define WDDMKIT_DRIVER_H_BODY
#include "wddmkit/dispmprt.h"
/* The WDK's names of the DDI parameter types (IN_CONST_HANDLE ...). */
#include "wddmkit/ddiparams.h"
/* DXGK_POWER_RUNTIME_COMPONENT (needs dispmprt.h's GUID). */
#include "wddmkit/dxgkpower.h"

/* ------------------------------------------------------------------ */
/* Entry points                                                         */
/* ------------------------------------------------------------------ */

/* Hands the driver's DDI table to the kit; call it from DriverEntry, as on
 * Windows. Returns STATUS_INVALID_PARAMETER for a foreign DriverObject, and
 * the kit's STATUS_REVISION_MISMATCH for a module of another driver ABI.
 * Takes the kit's services for km.h first (kmservices.h), and starts the
 * thread at PASSIVE_LEVEL. */
static inline NTSTATUS DxgkInitialize(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath,
                                      PDRIVER_INITIALIZATION_DATA DriverInitializationData)
{
    if (!DriverObject || DriverObject->wk_magic != WK_DRIVER_OBJECT_MAGIC ||
        !DriverObject->wk_initialize)
        return STATUS_INVALID_PARAMETER;
    wk_km_services = DriverObject->wk_km_services;
    wk_km_thread_irql = 0; /* PASSIVE_LEVEL */
    return DriverObject->wk_initialize(DriverObject, RegistryPath, DriverInitializationData,
                                       WK_DRIVER_ABI_VERSION);
}

/* What a driver object exports (a shared object's visible symbol, or a
 * static library's function linked into a harness). */
#if defined(__GNUC__)
#define WK_DRIVER_EXPORT __attribute__((visibility("default")))
#else
#define WK_DRIVER_EXPORT
#endif

/*
 * A driver that targets the kit's GPU model (it writes the kit's command set
 * with gpu.h's encoder) says so once, at file scope of one of its sources:
 *
 *     WK_DRIVER_TARGETS_GPU_MODEL;
 *
 * The line exports the symbol wk_driver_gpu_model, which the kit looks up
 * after loading the module (`wddmkit conform --gpu auto`, the default).
 * Without it the kit takes the driver to be for other hardware: it executes
 * none of its buffers on the model, retires its submissions itself, and
 * skips every check of what a buffer did (the semantic kind), never failing
 * a driver for the kit's own command set; every contract check still runs
 * (docs/verdicts.md, "Kinds of check"). `--gpu model|none` overrides.
 */
#define WK_DRIVER_GPU_MODEL_SYMBOL "wk_driver_gpu_model"
#ifdef __cplusplus
#define WK_DRIVER_TARGETS_GPU_MODEL extern "C" WK_DRIVER_EXPORT const int wk_driver_gpu_model = 1
#else
#define WK_DRIVER_TARGETS_GPU_MODEL                                                                  \
    WK_DRIVER_EXPORT extern const int wk_driver_gpu_model;                                            \
    WK_DRIVER_EXPORT const int wk_driver_gpu_model = 1
#endif

/*
 * A driver whose DxgkDdiRender reads the kit's own user-mode command format
 * (umd.h: WK_USER_COMMAND_HEADER and its records) says so likewise:
 *
 *     WK_DRIVER_READS_KIT_UMD;
 *
 * It exports wk_driver_kit_umd. Then even a driver for other hardware
 * (`--gpu none`) is judged on every case that hands it that format (the
 * encoder kind: its Render, Patch of that Render's output, submission and
 * cancel contract checks), only what its buffers did being skipped.
 * `wddmkit conform --umd kit|none` overrides.
 */
#define WK_DRIVER_KIT_UMD_SYMBOL "wk_driver_kit_umd"
#ifdef __cplusplus
#define WK_DRIVER_READS_KIT_UMD extern "C" WK_DRIVER_EXPORT const int wk_driver_kit_umd = 1
#else
#define WK_DRIVER_READS_KIT_UMD                                                                      \
    WK_DRIVER_EXPORT extern const int wk_driver_kit_umd;                                              \
    WK_DRIVER_EXPORT const int wk_driver_kit_umd = 1
#endif

typedef NTSTATUS DRIVER_INITIALIZE(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

#ifdef __cplusplus
}
#endif

#endif /* WDDMKIT_DRIVER_H */
