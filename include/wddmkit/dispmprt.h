/* SPDX-License-Identifier: MIT */
/*
 * wddmkit/dispmprt.h - the DDI tables whole: DRIVER_INITIALIZATION_DATA and
 * DXGKRNL_INTERFACE with every member up to DXGKDDI_INTERFACE_VERSION_WDDM2_3
 * in their Windows order and at their x64 offsets (docs/wddm-ddi-tables.md,
 * sections 1 and 2; tests/test_d3dkmddi_layout.c holds each one), and the
 * function types of every DDI and callback in them, as the WDK's
 * d3dkmddi.h and dispmprt.h declare them (signatures from the public DDI
 * reference pages, named in each comment).
 *
 * Included by wddmkit/driver.h, never on its own (it needs driver.h's
 * argument structs of the DDIs the kit drives). Of the argument structs of
 * the DDIs the kit does not drive, the ones miniports read have their real
 * layout at interface 2.3, with every type they need: DXGKARG_ESCAPE and,
 * in the section "Argument structs with their real layout" (each block
 * names its reference page), DXGKARG_PRESENT, DXGKARG_QUERYCURRENTFENCE,
 * DXGKARG_PREEMPTCOMMAND, DXGKARG_OPENALLOCATION, DXGKARG_CLOSEALLOCATION,
 * DXGKARG_DESCRIBEALLOCATION, DXGKARG_GETSTANDARDALLOCATIONDRIVERDATA,
 * DXGKARG_COLLECTDBGINFO, DXGKARG_RESETENGINE, DXGKARG_QUERYENGINESTATUS,
 * DXGKARG_QUERYDEPENDENTENGINEGROUP, DXGKARG_CALIBRATEGPUCLOCK,
 * DXGKARG_GETNODEMETADATA and the callback's DXGK_DEVICE_INFO with the
 * CM_RESOURCE_LIST it points at (wdm.h's types, facts 4.12). The rest (the VidPN,
 * overlay, MPO, hardware-queue, protected-session and display-only ones,
 * ...) are declared opaque: a driver that fills such a DDI compiles, and one
 * that reads its fields meets the missing layout at compile time rather than
 * a wrong one at run time. Callbacks follow the WDK: DXGKCB_X is a pointer
 * type and the member is `DXGKCB_X DxgkCbX`; the kit's own services follow
 * the real members, after the end of the Windows struct.
 */
#ifndef WDDMKIT_DISPMPRT_H
#define WDDMKIT_DISPMPRT_H

#ifndef WDDMKIT_DRIVER_H_BODY
#error "include wddmkit/driver.h, which includes this header where it belongs"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Types the signatures use                                             */
/* ------------------------------------------------------------------ */

/* km.h's names for these (a typedef may be repeated with the same type). */
typedef ULONG *PULONG;
typedef SIZE_T *PSIZE_T;
typedef BOOLEAN *PBOOLEAN;

typedef struct _GUID {
    ULONG Data1;
    USHORT Data2;
    USHORT Data3;
    UCHAR Data4[8];
} GUID;
typedef const GUID *LPCGUID;

/* wdm.h's interface header, which DxgkCbQueryServices fills. */
typedef VOID (*PINTERFACE_REFERENCE)(PVOID Context);
typedef VOID (*PINTERFACE_DEREFERENCE)(PVOID Context);
typedef struct _INTERFACE {
    USHORT Size;
    USHORT Version;
    PVOID Context;
    PINTERFACE_REFERENCE InterfaceReference;
    PINTERFACE_DEREFERENCE InterfaceDereference;
} INTERFACE, *PINTERFACE;

typedef BOOLEAN (*PKSYNCHRONIZE_ROUTINE)(PVOID SynchronizeContext);
typedef VOID (*DXGKDDI_PROTECTED_CALLBACK)(const PVOID MiniportDeviceContext, PVOID ProtectedCallbackContext,
                                           NTSTATUS ProtectionStatus);
typedef UINT D3DDDI_VIDEO_PRESENT_TARGET_ID;
typedef struct D3DKMDT_HVIDPN__ *D3DKMDT_HVIDPN;
typedef VOID *DXGKARG_RELEASE_HANDLE, **PDXGKARG_RELEASE_HANDLE;
typedef struct _DXGK_QUERYSEGMENTMEMORYSTATE DXGK_SEGMENTMEMORYSTATE;

typedef enum _DEVICE_POWER_STATE {
    PowerDeviceUnspecified = 0,
    PowerDeviceD0,
    PowerDeviceD1,
    PowerDeviceD2,
    PowerDeviceD3,
    PowerDeviceMaximum
} DEVICE_POWER_STATE;

typedef enum _POWER_ACTION {
    PowerActionNone = 0,
    PowerActionReserved,
    PowerActionSleep,
    PowerActionHibernate,
    PowerActionShutdown,
    PowerActionShutdownReset,
    PowerActionShutdownOff,
    PowerActionWarmEject,
    PowerActionDisplayOff
} POWER_ACTION;

typedef enum _MEMORY_CACHING_TYPE {
    MmNonCached = 0,
    MmCached = 1,
    MmWriteCombined = 2,
    MmHardwareCoherentCached,
    MmNonCachedUnordered,
    MmUSWCCached,
    MmMaximumCacheType,
    MmNotMapped = -1
} MEMORY_CACHING_TYPE;

/* What DxgkCbQueryServices is asked for; the kit answers none of the
 * Windows ones (STATUS_NOT_SUPPORTED). */
typedef enum {
    DxgkServicesAgp,
    DxgkServicesDebugReport,
    DxgkServicesTimedOperation,
    DxgkServicesSPB,
    DxgkServicesBDD,
    DxgkServicesFirmwareTable,
    DxgkServicesIDD
} DXGK_SERVICES;

typedef enum _DXGK_EVENT_TYPE {
    DxgkUndefinedEvent,
    DxgkAcpiEvent,
    DxgkPowerStateEvent,
    DxgkDockingEvent,
    DxgkChainedAcpiEvent
} DXGK_EVENT_TYPE;

typedef enum _DXGK_SURPRISE_REMOVAL_TYPE {
    DxgkRemovalHibernation = 0,
    DxgkRemovalPnPNotify = 1
} DXGK_SURPRISE_REMOVAL_TYPE;

typedef enum _DXGK_VIDPN_INTERFACE_VERSION {
    DXGK_VIDPN_INTERFACE_VERSION_UNINITIALIZED = 0,
    DXGK_VIDPN_INTERFACE_VERSION_V1 = 1,
    DXGK_VIDPN_INTERFACE_VERSION_V2 = 2
} DXGK_VIDPN_INTERFACE_VERSION;

typedef enum _DXGK_MONITOR_INTERFACE_VERSION {
    DXGK_MONITOR_INTERFACE_VERSION_UNINITIALIZED = 0,
    DXGK_MONITOR_INTERFACE_VERSION_V1 = 1,
    DXGK_MONITOR_INTERFACE_VERSION_V2 = 2
} DXGK_MONITOR_INTERFACE_VERSION;

/* Surface formats: D3DDDIFORMAT with every d3dukmdt.h value is in
 * d3dkmddi.h. */

/* The argument structs of the DDIs and callbacks the kit does not drive and
 * whose layout is not modelled: declared, not defined. (DXGKARG_ESCAPE
 * below and the section after this list have real layouts.) */
typedef struct _ACPI_EVAL_INPUT_BUFFER_COMPLEX ACPI_EVAL_INPUT_BUFFER_COMPLEX;
typedef struct _ACPI_EVAL_OUTPUT_BUFFER ACPI_EVAL_OUTPUT_BUFFER;
typedef struct _DXGKARGCB_ENUMHANDLECHILDREN DXGKARGCB_ENUMHANDLECHILDREN;
typedef struct _DXGKARGCB_GETCAPTUREADDRESS DXGKARGCB_GETCAPTUREADDRESS;
typedef struct _DXGKARGCB_INVALIDATEHWCONTEXT DXGKARGCB_INVALIDATEHWCONTEXT;
typedef struct _DXGKARGCB_PROTECTEDSESSIONSTATUS DXGKARGCB_PROTECTEDSESSIONSTATUS;
typedef enum _DXGK_HANDLE_TYPE {
    DXGK_HANDLE_ALLOCATION = 1,
    DXGK_HANDLE_RESOURCE = 2,
    DXGK_HANDLE_SHAREDRESOURCE = 3
} DXGK_HANDLE_TYPE;
/* DxgkCbGetHandleData's and DxgkCbAcquireHandleData's argument
 * (ns-d3dkmddi-_dxgkargcb_gethandledata; a public copy of the WDK's
 * d3dkmddi.h agrees): 12 bytes. */
typedef struct _DXGKCB_GETHANDLEDATAFLAGS {
    union {
        struct {
            UINT DeviceSpecific : 1;
            UINT Reserved : 31;
        };
        UINT Value;
    };
} DXGKCB_GETHANDLEDATAFLAGS;
typedef struct _DXGKARGCB_GETHANDLEDATA {
    D3DKMT_HANDLE hObject;
    DXGK_HANDLE_TYPE Type;
    DXGKCB_GETHANDLEDATAFLAGS Flags;
} DXGKARGCB_GETHANDLEDATA;
/* Passed by value to DxgkCbReleaseHandleData, so complete (its reference page). */
typedef struct _DXGKARGCB_RELEASEHANDLEDATA {
    DXGKARG_RELEASE_HANDLE ReleaseHandle;
    DXGK_HANDLE_TYPE Type;
} DXGKARGCB_RELEASEHANDLEDATA;
typedef struct _DXGKARGCB_RESERVEGPUVIRTUALADDRESSRANGE DXGKARGCB_RESERVEGPUVIRTUALADDRESSRANGE;
typedef struct _DXGKARG_ACQUIRESWIZZLINGRANGE DXGKARG_ACQUIRESWIZZLINGRANGE;
typedef struct _DXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT DXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT;
typedef struct _DXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT2 DXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT2;
typedef struct _DXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT3 DXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT3;
typedef struct _DXGKARG_COMMITVIDPN DXGKARG_COMMITVIDPN;
typedef struct _DXGKARG_CONTROLINTERRUPT2 DXGKARG_CONTROLINTERRUPT2;
typedef struct _DXGKARG_CONTROLMODEBEHAVIOR DXGKARG_CONTROLMODEBEHAVIOR;
typedef struct _DXGKARG_CREATEHWCONTEXT DXGKARG_CREATEHWCONTEXT;
typedef struct _DXGKARG_CREATEHWQUEUE DXGKARG_CREATEHWQUEUE;
typedef struct _DXGKARG_CREATEOVERLAY DXGKARG_CREATEOVERLAY;
typedef struct _DXGKARG_CREATEPERIODICFRAMENOTIFICATION DXGKARG_CREATEPERIODICFRAMENOTIFICATION;
typedef struct _DXGKARG_CREATEPROCESS DXGKARG_CREATEPROCESS;
typedef struct _DXGKARG_CREATEPROTECTEDSESSION DXGKARG_CREATEPROTECTEDSESSION;
typedef struct _DXGKARG_DESTROYPERIODICFRAMENOTIFICATION DXGKARG_DESTROYPERIODICFRAMENOTIFICATION;
typedef struct _DXGKARG_DISPLAYDETECTCONTROL DXGKARG_DISPLAYDETECTCONTROL;
typedef struct _DXGKARG_ENUMVIDPNCOFUNCMODALITY DXGKARG_ENUMVIDPNCOFUNCMODALITY;
/* The DeviceUid by which DxgkDdiSetPowerState names the adapter itself
 * rather than one of its children. */
#define DISPLAY_ADAPTER_HW_ID 0xFFFFFFFFu

/* DxgkDdiEscape's argument, with its real layout (ns-d3dkmddi-_dxgkarg_escape;
 * ns-d3dukmdt-_d3dddi_escapeflags: the bits of interface version 2.3):
 * the escape is the one DDI outside the kit's drive that every miniport
 * implements, and reads. 40 bytes on x64. */
typedef struct _D3DDDI_ESCAPEFLAGS {
    union {
        struct {
            UINT HardwareAccess : 1;
            UINT DeviceStatusQuery : 1;        /* WDDM 1.3 */
            UINT ChangeFrameLatency : 1;       /* WDDM 1.3 */
            UINT NoAdapterSynchronization : 1; /* WDDM 2.0 */
            UINT Reserved : 1;                 /* WDDM 2.2 */
            UINT VirtualMachineData : 1;       /* WDDM 2.2 */
            UINT Reserved2 : 26;
        };
        UINT Value;
    };
} D3DDDI_ESCAPEFLAGS;

typedef struct _DXGKARG_ESCAPE {
    HANDLE hDevice;
    D3DDDI_ESCAPEFLAGS Flags;
    VOID *pPrivateDriverData;
    UINT PrivateDriverDataSize;
    HANDLE hContext;
} DXGKARG_ESCAPE;
typedef struct _DXGKARG_FLIPOVERLAY DXGKARG_FLIPOVERLAY;
typedef struct _DXGKARG_FORMATHISTORYBUFFER DXGKARG_FORMATHISTORYBUFFER;
typedef struct _DXGKARG_GETMULTIPLANEOVERLAYCAPS DXGKARG_GETMULTIPLANEOVERLAYCAPS;
typedef struct _DXGKARG_GETPOSTCOMPOSITIONCAPS DXGKARG_GETPOSTCOMPOSITIONCAPS;
typedef struct _DXGKARG_GETROOTPAGETABLESIZE DXGKARG_GETROOTPAGETABLESIZE;
typedef struct _DXGKARG_GETSCANLINE DXGKARG_GETSCANLINE;
typedef struct _DXGKARG_ISSUPPORTEDVIDPN DXGKARG_ISSUPPORTEDVIDPN;
typedef struct _DXGKARG_MAPCPUHOSTAPERTURE DXGKARG_MAPCPUHOSTAPERTURE;
typedef struct _DXGKARG_POSTMULTIPLANEOVERLAYPRESENT DXGKARG_POSTMULTIPLANEOVERLAYPRESENT;
typedef struct _DXGKARG_QUERYCONNECTIONCHANGE DXGKARG_QUERYCONNECTIONCHANGE;
typedef struct _DXGKARG_QUERYVIDPNHWCAPABILITY DXGKARG_QUERYVIDPNHWCAPABILITY;
typedef struct _DXGKARG_RECOMMENDFUNCTIONALVIDPN DXGKARG_RECOMMENDFUNCTIONALVIDPN;
typedef struct _DXGKARG_RECOMMENDMONITORMODES DXGKARG_RECOMMENDMONITORMODES;
typedef struct _DXGKARG_RECOMMENDVIDPNTOPOLOGY DXGKARG_RECOMMENDVIDPNTOPOLOGY;
typedef struct _DXGKARG_RELEASESWIZZLINGRANGE DXGKARG_RELEASESWIZZLINGRANGE;
typedef struct _DXGKARG_RENDERGDI DXGKARG_RENDERGDI;
typedef struct _DXGKARG_RESETHWENGINE DXGKARG_RESETHWENGINE;
typedef struct _DXGKARG_SETDISPLAYPRIVATEDRIVERFORMAT DXGKARG_SETDISPLAYPRIVATEDRIVERFORMAT;
typedef struct _DXGKARG_SETPALETTE DXGKARG_SETPALETTE;
typedef struct _DXGKARG_SETPOINTERPOSITION DXGKARG_SETPOINTERPOSITION;
typedef struct _DXGKARG_SETPOINTERSHAPE DXGKARG_SETPOINTERSHAPE;
typedef struct _DXGKARG_SETROOTPAGETABLE DXGKARG_SETROOTPAGETABLE;
typedef struct DXGKARG_SETSTABLEPOWERSTATE DXGKARG_SETSTABLEPOWERSTATE;
typedef struct _DXGKARG_SETTARGETANALOGCOPYPROTECTION DXGKARG_SETTARGETANALOGCOPYPROTECTION;
typedef struct _DXGKARG_SETTARGETCONTENTTYPE DXGKARG_SETTARGETCONTENTTYPE;
typedef struct _DXGKARG_SETTARGETGAMMA DXGKARG_SETTARGETGAMMA;
typedef struct _DXGKARG_SETTIMINGSFROMVIDPN DXGKARG_SETTIMINGSFROMVIDPN;
typedef struct _DXGKARG_SETVIDEOPROTECTEDREGION DXGKARG_SETVIDEOPROTECTEDREGION;
typedef struct _DXGKARG_SETVIDPNSOURCEADDRESS DXGKARG_SETVIDPNSOURCEADDRESS;
typedef struct _DXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY DXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY;
typedef struct _DXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY2 DXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY2;
typedef struct _DXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY3 DXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY3;
typedef struct _DXGKARG_SETVIDPNSOURCEVISIBILITY DXGKARG_SETVIDPNSOURCEVISIBILITY;
typedef struct _DXGKARG_STOPCAPTURE DXGKARG_STOPCAPTURE;
typedef struct _DXGKARG_SUBMITCOMMANDTOHWQUEUE DXGKARG_SUBMITCOMMANDTOHWQUEUE;
typedef struct _DXGKARG_SUBMITCOMMANDVIRTUAL DXGKARG_SUBMITCOMMANDVIRTUAL;
typedef struct _DXGKARG_SWITCHTOHWCONTEXTLIST DXGKARG_SWITCHTOHWCONTEXTLIST;
typedef struct _DXGKARG_SYSTEM_DISPLAY_ENABLE_FLAGS DXGKARG_SYSTEM_DISPLAY_ENABLE_FLAGS;
typedef struct _DXGKARG_UNMAPCPUHOSTAPERTURE DXGKARG_UNMAPCPUHOSTAPERTURE;
typedef struct _DXGKARG_UPDATEACTIVEVIDPNPRESENTPATH DXGKARG_UPDATEACTIVEVIDPNPRESENTPATH;
typedef struct _DXGKARG_UPDATEHWCONTEXTSTATE DXGKARG_UPDATEHWCONTEXTSTATE;
typedef struct _DXGKARG_UPDATEMONITORLINKINFO DXGKARG_UPDATEMONITORLINKINFO;
typedef struct _DXGKARG_UPDATEOVERLAY DXGKARG_UPDATEOVERLAY;
typedef struct _DXGKARG_VALIDATEUPDATEALLOCPROPERTY DXGKARG_VALIDATEUPDATEALLOCPROPERTY;
typedef struct _DXGK_CHILD_CONTAINER_ID DXGK_CHILD_CONTAINER_ID;
typedef struct _DXGK_CHILD_DESCRIPTOR DXGK_CHILD_DESCRIPTOR;
typedef struct _DXGK_CHILD_STATUS DXGK_CHILD_STATUS;
typedef struct _DXGK_COLORIMETRY DXGK_COLORIMETRY;
typedef struct _DXGK_DEVICE_DESCRIPTOR DXGK_DEVICE_DESCRIPTOR;
typedef struct _DXGK_DISPLAY_INFORMATION DXGK_DISPLAY_INFORMATION;
typedef struct _DXGK_DISPLAY_OWNERSHIP_FLAGS DXGK_DISPLAY_OWNERSHIP_FLAGS;
typedef struct _DXGK_MONITOR_INTERFACE DXGK_MONITOR_INTERFACE;
typedef struct _DXGK_PRE_START_INFO DXGK_PRE_START_INFO;
typedef struct _DXGK_VIDPN_INTERFACE DXGK_VIDPN_INTERFACE;
typedef struct _LINKED_DEVICE LINKED_DEVICE;
typedef struct _PCI_DEVICE_PRESENCE_PARAMETERS PCI_DEVICE_PRESENCE_PARAMETERS;
typedef struct _QUERY_INTERFACE QUERY_INTERFACE;
typedef struct _VIDEO_REQUEST_PACKET VIDEO_REQUEST_PACKET;
typedef ACPI_EVAL_INPUT_BUFFER_COMPLEX *PACPI_EVAL_INPUT_BUFFER_COMPLEX;
typedef ACPI_EVAL_OUTPUT_BUFFER *PACPI_EVAL_OUTPUT_BUFFER;
typedef DXGK_CHILD_STATUS *PDXGK_CHILD_STATUS;
typedef DXGK_DISPLAY_INFORMATION *PDXGK_DISPLAY_INFORMATION;
typedef DXGK_DISPLAY_OWNERSHIP_FLAGS *PDXGK_DISPLAY_OWNERSHIP_FLAGS;
typedef PCI_DEVICE_PRESENCE_PARAMETERS *PPCI_DEVICE_PRESENCE_PARAMETERS;

/* ------------------------------------------------------------------ */
/* Argument structs with their real layout, at interface 2.3            */
/* ------------------------------------------------------------------ */

/* Each block names the reference page it follows and was checked against
 * the WDK's own d3dkmddi.h of 10.0.16299 (interface 2.3; docs/wddm-ddi-tables.md
 * S2) and of 10.0.15063 (S3); d3dkmdt.h and dispmprt.h blocks say theirs.
 * Members a later interface adds are left out; "WIN8", "WDDM 2.0", ... say
 * when an included member arrived. Sizes and offsets are x64 and held by
 * tests/test_d3dkmddi_layout.c. */

/* windef.h's rectangle, as the Present and overlay arguments carry it. */
typedef struct tagRECT {
    LONG left;
    LONG top;
    LONG right;
    LONG bottom;
} RECT, *PRECT;

/* minwindef.h's 16-bit unsigned and 4-byte boolean, as the Present structs
 * use them (km.h has BOOL too; a typedef may be repeated). */
typedef USHORT WORD;
typedef INT BOOL;

/* d3dukmdt.h (ns-d3dukmdt-_d3dddi_rational, ns-d3dukmdt-_d3dddi_multisamplingmethod,
 * ne-d3dukmdt-_d3dddi_rotation). */
typedef struct _D3DDDI_RATIONAL {
    UINT Numerator;
    UINT Denominator;
} D3DDDI_RATIONAL;

typedef struct _D3DDDI_MULTISAMPLINGMETHOD {
    UINT NumSamples;
    UINT NumQualityLevels; /* the highest quality level, from 0 */
} D3DDDI_MULTISAMPLINGMETHOD;

typedef enum _D3DDDI_ROTATION {
    D3DDDI_ROTATION_IDENTITY = 1,
    D3DDDI_ROTATION_90 = 2,
    D3DDDI_ROTATION_180 = 3,
    D3DDDI_ROTATION_270 = 4
} D3DDDI_ROTATION;

/* -- Scheduling and TDR --------------------------------------------- */

/* DxgkDdiQueryCurrentFence (ns-d3dkmddi-_dxgkarg_querycurrentfence). 12 bytes. */
typedef struct _DXGKARG_QUERYCURRENTFENCE {
    UINT CurrentFence; /* out: the last completed submission fence */
    UINT NodeOrdinal;
    UINT EngineOrdinal;
} DXGKARG_QUERYCURRENTFENCE;

/* DxgkDdiPreemptCommand (ns-d3dkmddi-_dxgkarg_preemptcommand,
 * ns-d3dkmddi-_dxgk_preemptcommandflags: no flag defined). 16 bytes. */
typedef struct _DXGK_PREEMPTCOMMANDFLAGS {
    union {
        struct {
            UINT Reserved : 32;
        };
        UINT Value;
    };
} DXGK_PREEMPTCOMMANDFLAGS;

typedef struct _DXGKARG_PREEMPTCOMMAND {
    UINT PreemptionFenceId;
    UINT NodeOrdinal;
    UINT EngineOrdinal;
    DXGK_PREEMPTCOMMANDFLAGS Flags;
} DXGKARG_PREEMPTCOMMAND;

/* DxgkDdiQueryDependentEngineGroup (ns-d3dkmddi-_dxgkarg_querydependentenginegroup),
 * WIN8. 16 bytes. */
typedef struct _DXGKARG_QUERYDEPENDENTENGINEGROUP {
    UINT NodeOrdinal;
    UINT EngineOrdinal;
    ULONGLONG DependentNodeOrdinalMask; /* out: a bit for every node the reset affects */
} DXGKARG_QUERYDEPENDENTENGINEGROUP;

/* DxgkDdiQueryEngineStatus (ns-d3dkmddi-_dxgkarg_queryenginestatus,
 * ns-d3dkmddi-_dxgk_enginestatus), WIN8. 12 bytes. */
typedef struct _DXGK_ENGINESTATUS {
    union {
        struct {
            UINT Responsive : 1; /* 0x00000001 */
            UINT Reserved : 31;
        };
        UINT Value;
    };
} DXGK_ENGINESTATUS;

typedef struct _DXGKARG_QUERYENGINESTATUS {
    UINT NodeOrdinal;
    UINT EngineOrdinal;
    DXGK_ENGINESTATUS EngineStatus; /* out */
} DXGKARG_QUERYENGINESTATUS;

/* DxgkDdiResetEngine (ns-d3dkmddi-_dxgkarg_resetengine), WIN8. 12 bytes. */
typedef struct _DXGKARG_RESETENGINE {
    UINT NodeOrdinal;
    UINT EngineOrdinal;
    UINT LastAbortedFenceId; /* out */
} DXGKARG_RESETENGINE;

/* DxgkDdiCollectDbgInfo (ns-d3dkmddi-_dxgkarg_collectdbginfo,
 * ns-d3dkmddi-_dxgkarg_collectdbginfo_ext). 32 bytes each. */
#define DXGK_SECONDARY_BUCKETING_TAG 0x6253734Du /* the WDK's 'bSsM' */

typedef struct _DXGKARG_COLLECTDBGINFO_EXT {
    UINT BucketingKey;           /* out: the IHV's secondary bucketing key */
    UINT CurrentDmaBufferOffset; /* out */
    UINT Reserved2;
    UINT Reserved3;
    UINT Reserved4;
    UINT Reserved5;
    UINT Reserved6;
    UINT Reserved7;
} DXGKARG_COLLECTDBGINFO_EXT;

typedef struct _DXGKARG_COLLECTDBGINFO {
    UINT Reason;       /* the bugcheck code */
    VOID *pBuffer;     /* out */
    SIZE_T BufferSize;
    DXGKARG_COLLECTDBGINFO_EXT *pExtension; /* optional */
} DXGKARG_COLLECTDBGINFO;

/* d3dkmdt.h (ne-d3dkmdt-dxgk_engine_type, ns-d3dkmdt-_dxgk_nodemetadata,
 * ns-d3dkmdt-_dxgk_nodemetadata_flags; nc-d3dkmddi-dxgkddi_calibrategpuclock,
 * whose DXGKARG_CALIBRATEGPUCLOCK is d3dkmdt.h's DXGK_GPUCLOCKDATA): checked
 * against the 15063 d3dkmdt.h (S3's repository) and a later one with its
 * version guards. Both headers declare these under the `#pragma pack(push, 1)`
 * that runs to the end of d3dkmdt.h, so they are packed here too: the node
 * metadata is 74 bytes, not 76. DXGK_ENGINE_TYPE_CRYPTO and _MAX are in the
 * later header with no guard and not in the 15063 one (docs/wddm-ddi-tables.md
 * section 4 takes MAX = 9 at 2.3). */
#define DXGK_MAX_METADATA_NAME_LENGTH 32

typedef enum {
    DXGK_ENGINE_TYPE_OTHER = 0,
    DXGK_ENGINE_TYPE_3D = 1,
    DXGK_ENGINE_TYPE_VIDEO_DECODE = 2,
    DXGK_ENGINE_TYPE_VIDEO_ENCODE = 3,
    DXGK_ENGINE_TYPE_VIDEO_PROCESSING = 4,
    DXGK_ENGINE_TYPE_SCENE_ASSEMBLY = 5,
    DXGK_ENGINE_TYPE_COPY = 6,
    DXGK_ENGINE_TYPE_OVERLAY = 7,
    DXGK_ENGINE_TYPE_CRYPTO = 8,
    DXGK_ENGINE_TYPE_MAX = 9
} DXGK_ENGINE_TYPE;

#pragma pack(push, 1)
typedef struct _DXGK_NODEMETADATA_FLAGS { /* WDDM 2.2 */
    union {
        struct {
            UINT ContextSchedulingSupported : 1;
            UINT Reserved : 31;
        };
        UINT32 Value;
    };
} DXGK_NODEMETADATA_FLAGS;

typedef struct _DXGK_NODEMETADATA {
    DXGK_ENGINE_TYPE EngineType;
    WCHAR FriendlyName[DXGK_MAX_METADATA_NAME_LENGTH]; /* NUL-terminated */
    DXGK_NODEMETADATA_FLAGS Flags; /* WDDM 2.2; a UINT32 Reserved before */
    BOOLEAN GpuMmuSupported;       /* WDDM 2.0 */
    BOOLEAN IoMmuSupported;        /* WDDM 2.0 */
} DXGK_NODEMETADATA;

typedef struct _DXGK_GPUCLOCKDATA {
    ULONGLONG GpuFrequency;
    ULONGLONG GpuClockCounter;
    ULONGLONG CpuClockCounter;
} DXGK_GPUCLOCKDATA;
#pragma pack(pop)

/* DxgkDdiGetNodeMetadata and DxgkDdiCalibrateGpuClock fill these (WDDM 1.3). */
typedef DXGK_NODEMETADATA DXGKARG_GETNODEMETADATA;
typedef DXGK_GPUCLOCKDATA DXGKARG_CALIBRATEGPUCLOCK;

/* -- Allocations ----------------------------------------------------- */

/* DxgkDdiOpenAllocation (ns-d3dkmddi-_dxgkarg_openallocation,
 * ns-d3dkmddi-_dxgk_openallocationinfo, ns-d3dkmddi-_dxgk_openallocationflags).
 * 56 bytes; each info 32. */
typedef struct _DXGK_OPENALLOCATIONINFO {
    D3DKMT_HANDLE hAllocation;
    VOID *pPrivateDriverData; /* in/out */
    UINT PrivateDriverDataSize;
    HANDLE hDeviceSpecificAllocation; /* out: the driver's handle */
} DXGK_OPENALLOCATIONINFO;

typedef struct _DXGK_OPENALLOCATIONFLAGS {
    union {
        struct {
            UINT Create : 1;   /* 0x00000001: created, not opened */
            UINT ReadOnly : 1; /* 0x00000002 */
            UINT Reserved : 30;
        };
        UINT Value;
    };
} DXGK_OPENALLOCATIONFLAGS;

typedef struct _DXGKARG_OPENALLOCATION {
    UINT NumAllocations;
    DXGK_OPENALLOCATIONINFO *pOpenAllocation;
    VOID *pPrivateDriverData;
    UINT PrivateDriverSize;
    DXGK_OPENALLOCATIONFLAGS Flags;
    UINT SubresourceIndex;    /* WIN8 */
    SIZE_T SubresourceOffset; /* WIN8, out */
    UINT Pitch;               /* WIN8, out */
} DXGKARG_OPENALLOCATION;

/* DxgkDdiCloseAllocation (ns-d3dkmddi-_dxgkarg_closeallocation). 16 bytes. */
typedef struct _DXGKARG_CLOSEALLOCATION {
    UINT NumAllocations;
    const HANDLE *pOpenHandleList; /* the hDeviceSpecificAllocation handles */
} DXGKARG_CLOSEALLOCATION;

/* DxgkDdiDescribeAllocation (ns-d3dkmddi-_dxgkarg_describeallocation,
 * ns-d3dkmddi-_dxgk_describeallocationflags). 48 bytes. */
typedef struct _DXGK_DESCRIBEALLOCATIONFLAGS { /* WIN8 */
    union {
        struct {
            UINT CheckDisplayMode : 1; /* 0x00000001 */
            UINT Reserved : 31;
        };
        UINT Value;
    };
} DXGK_DESCRIBEALLOCATIONFLAGS;

typedef struct _DXGKARG_DESCRIBEALLOCATION {
    HANDLE hAllocation;
    UINT Width;  /* out */
    UINT Height; /* out */
    D3DDDIFORMAT Format; /* out */
    D3DDDI_MULTISAMPLINGMETHOD MultisampleMethod; /* out */
    D3DDDI_RATIONAL RefreshRate; /* out */
    UINT PrivateDriverFormatAttribute; /* out */
    DXGK_DESCRIBEALLOCATIONFLAGS Flags; /* WIN8 */
    D3DDDI_ROTATION Rotation; /* WIN8, out */
} DXGKARG_DESCRIBEALLOCATION;

/* DxgkDdiGetStandardAllocationDriverData
 * (ns-d3dkmddi-_dxgkarg_getstandardallocationdriverdata) and the d3dkmdt.h
 * surface descriptions it points at (ne-d3dkmdt-_d3dkmdt_standardallocation_type,
 * ns-d3dkmdt-_d3dkmdt_sharedprimarysurfacedata, _shadowsurfacedata,
 * _stagingsurfacedata, _gdisurfacedata; these lie before d3dkmdt.h's pack(1)
 * and are naturally aligned). 48 bytes. The WDK guards PhysicalAdapterIndex
 * with DXGKDDI_INTERFACE_VERSION_WDDM_2_0, a name no header defines, so the
 * member is there at every version. */
typedef enum _D3DKMDT_STANDARDALLOCATION_TYPE {
    D3DKMDT_STANDARDALLOCATION_SHAREDPRIMARYSURFACE = 1,
    D3DKMDT_STANDARDALLOCATION_SHADOWSURFACE = 2,
    D3DKMDT_STANDARDALLOCATION_STAGINGSURFACE = 3,
    D3DKMDT_STANDARDALLOCATION_GDISURFACE = 4, /* WIN7 */
    D3DKMDT_STANDARDALLOCATION_VGPU = 5        /* WDDM 2.1 */
} D3DKMDT_STANDARDALLOCATION_TYPE;

typedef struct _D3DKMDT_SHAREDPRIMARYSURFACEDATA {
    UINT Width;
    UINT Height;
    D3DDDIFORMAT Format;
    D3DDDI_RATIONAL RefreshRate;
    D3DDDI_VIDEO_PRESENT_SOURCE_ID VidPnSourceId;
} D3DKMDT_SHAREDPRIMARYSURFACEDATA;

typedef struct _D3DKMDT_SHADOWSURFACEDATA {
    UINT Width;
    UINT Height;
    D3DDDIFORMAT Format;
    UINT Pitch; /* out */
} D3DKMDT_SHADOWSURFACEDATA;

typedef struct _D3DKMDT_STAGINGSURFACEDATA { /* always D3DDDIFMT_X8R8G8B8 */
    UINT Width;
    UINT Height;
    UINT Pitch; /* out */
} D3DKMDT_STAGINGSURFACEDATA;

typedef struct _D3DKMDT_GDISURFACEFLAGS {
    union {
        struct {
            UINT Reserved : 32;
        };
        UINT Value;
    };
} D3DKMDT_GDISURFACEFLAGS;

/* CROSSADAPTER values: WDDM 1.3 (guarded by a name the 2.x headers do not
 * define, so present). */
typedef enum _D3DKMDT_GDISURFACETYPE {
    D3DKMDT_GDISURFACE_INVALID = 0,
    D3DKMDT_GDISURFACE_TEXTURE = 1,
    D3DKMDT_GDISURFACE_STAGING_CPUVISIBLE = 2,
    D3DKMDT_GDISURFACE_STAGING = 3,
    D3DKMDT_GDISURFACE_LOOKUPTABLE = 4,
    D3DKMDT_GDISURFACE_EXISTINGSYSMEM = 5,
    D3DKMDT_GDISURFACE_TEXTURE_CPUVISIBLE = 6,
    D3DKMDT_GDISURFACE_TEXTURE_CROSSADAPTER = 7,
    D3DKMDT_GDISURFACE_TEXTURE_CPUVISIBLE_CROSSADAPTER = 8
} D3DKMDT_GDISURFACETYPE;

typedef struct _D3DKMDT_GDISURFACEDATA { /* WIN7 */
    UINT Width;
    UINT Height;
    D3DDDIFORMAT Format;
    D3DKMDT_GDISURFACETYPE Type;
    D3DKMDT_GDISURFACEFLAGS Flags;
    UINT Pitch; /* out, when the allocation is CPU-visible */
} D3DKMDT_GDISURFACEDATA;

typedef struct _D3DKMDT_VIRTUALGPUSURFACEDATA { /* WDDM 2.1 */
    UINT64 Size;
    UINT Alignment;
    UINT DriverSegmentId;
    UINT PrivateDriverData;
} D3DKMDT_VIRTUALGPUSURFACEDATA;

typedef struct _DXGKARG_GETSTANDARDALLOCATIONDRIVERDATA {
    D3DKMDT_STANDARDALLOCATION_TYPE StandardAllocationType;
    union { /* the arm StandardAllocationType names */
        D3DKMDT_SHAREDPRIMARYSURFACEDATA *pCreateSharedPrimarySurfaceData;
        D3DKMDT_SHADOWSURFACEDATA *pCreateShadowSurfaceData;
        D3DKMDT_STAGINGSURFACEDATA *pCreateStagingSurfaceData;
        D3DKMDT_GDISURFACEDATA *pCreateGdiSurfaceData;               /* WIN7 */
        D3DKMDT_VIRTUALGPUSURFACEDATA *pCreateVirtualGpuSurfaceData; /* WDDM 2.1 */
    };
    VOID *pAllocationPrivateDriverData; /* NULL: report the size only */
    UINT AllocationPrivateDriverDataSize; /* out */
    VOID *pResourcePrivateDriverData;   /* NULL: report the size only */
    UINT ResourcePrivateDriverDataSize;   /* out */
    UINT PhysicalAdapterIndex;
} DXGKARG_GETSTANDARDALLOCATIONDRIVERDATA;

/* -- Present ---------------------------------------------------------- */

/* DxgkDdiPresent, the render miniport's copy, fill and flip
 * (ns-d3dkmddi-_dxgkarg_present, ns-d3dkmddi-_dxgk_presentflags,
 * ns-d3dkmddi-_dxgk_presentmultiplaneoverlayinfo). 168 bytes. It holds
 * DXGKARG_RENDER's DMA-buffer members but not at Render's offsets: Present
 * has no command buffer in front, so pDmaBuffer is at 0, not 16. The
 * allocation list's slots are d3dkmddi.h's DXGK_PRESENT_SOURCE_INDEX and
 * _DESTINATION_INDEX (entry 0's handle is NULL). The kit never calls Present. */

typedef struct _DXGK_PRESENTFLAGS {
    union {
        struct {
            UINT Blt : 1;                       /* 0x00000001 */
            UINT ColorFill : 1;                 /* 0x00000002 */
            UINT Flip : 1;                      /* 0x00000004 */
            UINT FlipWithNoWait : 1;            /* 0x00000008 */
            UINT SrcColorKey : 1;               /* 0x00000010 */
            UINT DstColorKey : 1;               /* 0x00000020 */
            UINT LinearToSrgb : 1;              /* 0x00000040 */
            UINT Rotate : 1;                    /* 0x00000080 */
            UINT FlipStereo : 1;                /* 0x00000100, WIN8 */
            UINT FlipStereoTemporaryMono : 1;   /* 0x00000200, WIN8 */
            UINT FlipStereoPreferRight : 1;     /* 0x00000400, WIN8 */
            UINT BltStereoUseRight : 1;         /* 0x00000800, WIN8 */
            UINT FlipWithMultiPlaneOverlay : 1; /* 0x00001000, WIN8 */
            UINT RedirectedFlip : 1;            /* 0x00002000, WDDM 2.0 */
            UINT Reserved : 18;                 /* 0xFFFFC000 */
        };
        UINT Value;
    };
} DXGK_PRESENTFLAGS;

/* Reserved for the system: a driver does not read pAllocationInfo. WIN7. */
typedef struct _DXGK_PRESENTALLOCATIONINFO {
    HANDLE hDeviceSpecificAllocation;
    D3DGPU_VIRTUAL_ADDRESS AllocationVirtualAddress;
    PHYSICAL_ADDRESS PhysicalAddress;
    WORD SegmentId;
    WORD PhysicalAdapterIndex;
} DXGK_PRESENTALLOCATIONINFO;

typedef struct _DXGK_PRESENTMULTIPLANEOVERLAYLIST { /* WIN8 */
    UINT LayerIndex;
    BOOL Enabled;
    HANDLE hDeviceSpecificAllocation;
    struct {
        UINT SegmentId : 5; /* 0x0000001F */
        UINT Reserved : 27;
    };
    PHYSICAL_ADDRESS PhysicalAddress;
} DXGK_PRESENTMULTIPLANEOVERLAYLIST;

typedef struct _DXGK_PRESENTMULTIPLANEOVERLAYINFO { /* WIN8 */
    D3DDDI_VIDEO_PRESENT_SOURCE_ID VidPnSourceId;
    UINT PlaneListCount;
    DXGK_PRESENTMULTIPLANEOVERLAYLIST *pPlaneList;
} DXGK_PRESENTMULTIPLANEOVERLAYINFO;

typedef struct _DXGKARG_PRESENT {
    VOID *pDmaBuffer; /* in/out: the next free byte on return */
    UINT DmaSize;
    VOID *pDmaBufferPrivateData;
    UINT DmaBufferPrivateDataSize;
    union { /* WIN7; a plain pAllocationList before */
        DXGK_ALLOCATIONLIST *pAllocationList;
        DXGK_PRESENTALLOCATIONINFO *pAllocationInfo;                      /* system use */
        DXGK_PRESENTMULTIPLANEOVERLAYINFO *pPresentMultiPlaneOverlayInfo; /* WIN8 */
    };
    D3DDDI_PATCHLOCATIONLIST *pPatchLocationListOut; /* in/out */
    UINT PatchLocationListOutSize;
    UINT MultipassOffset; /* in/out: 0 on the first call */
    UINT Color;           /* A8R8G8B8 (or a palette index) for ColorFill and the color keys */
    RECT DstRect;
    RECT SrcRect;
    UINT SubRectCnt;
    const RECT *pDstSubRects; /* pre-clipped to DstRect and the screen */
    D3DDDI_FLIPINTERVAL_TYPE FlipInterval;
    DXGK_PRESENTFLAGS Flags;
    UINT DmaBufferSegmentId;
    PHYSICAL_ADDRESS DmaBufferPhysicalAddress;
    UINT Reserved;                                 /* WDDM 1.3 */
    D3DGPU_VIRTUAL_ADDRESS DmaBufferGpuVirtualAddress; /* WDDM 2.0 */
    UINT NumSrcAllocations;                        /* WDDM 2.0 */
    UINT NumDstAllocations;                        /* WDDM 2.0 */
    UINT PrivateDriverDataSize;                    /* WDDM 2.0 */
    PVOID pPrivateDriverData;                      /* WDDM 2.0 */
} DXGKARG_PRESENT;

/* -- The adapter ----------------------------------------------------- */

/* The adapter's translated resources (wdm.h; docs/wddm-facts.md 4.12 and
 * 5.10 M2-M3): a CM_RESOURCE_LIST holds Count full descriptors back to back,
 * each a partial list whose Count partial descriptors follow it. The partial
 * descriptor is declared under 4-byte packing in wdm.h (pshpack4.h), so its
 * union starts at 4 and it is 20 bytes on x64; the lists that embed it follow
 * from that. Interrupt members are the Windows 7 and later layout (a USHORT
 * Level and Group). */
typedef uint64_t KAFFINITY; /* ULONG_PTR: pointer-sized, as on x64 Windows */

typedef enum _INTERFACE_TYPE {
    InterfaceTypeUndefined = -1,
    Internal = 0,
    Isa = 1,
    Eisa = 2,
    MicroChannel = 3,
    TurboChannel = 4,
    PCIBus = 5
} INTERFACE_TYPE, *PINTERFACE_TYPE; /* the start of Windows' bus types */

#define CmResourceTypeNull 0
#define CmResourceTypePort 1
#define CmResourceTypeInterrupt 2
#define CmResourceTypeMemory 3
#define CmResourceTypeDma 4
#define CmResourceTypeDeviceSpecific 5
#define CmResourceTypeBusNumber 6
#define CmResourceTypeMemoryLarge 7

#define CmResourceShareUndetermined 0
#define CmResourceShareDeviceExclusive 1
#define CmResourceShareDriverExclusive 2
#define CmResourceShareShared 3

#define CM_RESOURCE_MEMORY_READ_WRITE 0x0000
#define CM_RESOURCE_MEMORY_READ_ONLY 0x0001
#define CM_RESOURCE_MEMORY_WRITE_ONLY 0x0002
#define CM_RESOURCE_MEMORY_PREFETCHABLE 0x0004
#define CM_RESOURCE_MEMORY_24 0x0010
#define CM_RESOURCE_MEMORY_CACHEABLE 0x0020
#define CM_RESOURCE_MEMORY_BAR 0x0080

#pragma pack(push, 4)
typedef struct _CM_PARTIAL_RESOURCE_DESCRIPTOR {
    UCHAR Type;
    UCHAR ShareDisposition;
    USHORT Flags;
    union {
        struct {
            PHYSICAL_ADDRESS Start;
            ULONG Length;
        } Generic;
        struct {
            PHYSICAL_ADDRESS Start;
            ULONG Length;
        } Port;
        struct {
            USHORT Level;
            USHORT Group;
            ULONG Vector;
            KAFFINITY Affinity;
        } Interrupt;
        struct {
            union {
                struct {
                    USHORT Group;
                    USHORT MessageCount;
                    ULONG Vector;
                    KAFFINITY Affinity;
                } Raw;
                struct {
                    USHORT Level;
                    USHORT Group;
                    ULONG Vector;
                    KAFFINITY Affinity;
                } Translated;
            };
        } MessageInterrupt;
        struct {
            PHYSICAL_ADDRESS Start;
            ULONG Length;
        } Memory;
        struct {
            ULONG Channel;
            ULONG Port;
            ULONG Reserved1;
        } Dma;
        struct {
            ULONG Data[3];
        } DevicePrivate;
        struct {
            ULONG Start;
            ULONG Length;
            ULONG Reserved;
        } BusNumber;
        struct {
            ULONG DataSize;
            ULONG Reserved1;
            ULONG Reserved2;
        } DeviceSpecificData;
        struct {
            PHYSICAL_ADDRESS Start;
            ULONG Length40;
        } Memory40;
        struct {
            PHYSICAL_ADDRESS Start;
            ULONG Length48;
        } Memory48;
        struct {
            PHYSICAL_ADDRESS Start;
            ULONG Length64;
        } Memory64;
    } u;
} CM_PARTIAL_RESOURCE_DESCRIPTOR, *PCM_PARTIAL_RESOURCE_DESCRIPTOR;
#pragma pack(pop)

typedef struct _CM_PARTIAL_RESOURCE_LIST {
    USHORT Version;  /* 1 */
    USHORT Revision; /* 1 */
    ULONG Count;
    CM_PARTIAL_RESOURCE_DESCRIPTOR PartialDescriptors[1]; /* Count of them */
} CM_PARTIAL_RESOURCE_LIST, *PCM_PARTIAL_RESOURCE_LIST;

typedef struct _CM_FULL_RESOURCE_DESCRIPTOR {
    INTERFACE_TYPE InterfaceType;
    ULONG BusNumber;
    CM_PARTIAL_RESOURCE_LIST PartialResourceList;
} CM_FULL_RESOURCE_DESCRIPTOR, *PCM_FULL_RESOURCE_DESCRIPTOR;

typedef struct _CM_RESOURCE_LIST {
    ULONG Count;
    CM_FULL_RESOURCE_DESCRIPTOR List[1]; /* Count of them, each as long as its partial list */
} CM_RESOURCE_LIST, *PCM_RESOURCE_LIST;

WK_STATIC_ASSERT(sizeof(CM_PARTIAL_RESOURCE_DESCRIPTOR) == 20, "facts 4.12: 20 bytes, 4-byte packed");
WK_STATIC_ASSERT(sizeof(CM_PARTIAL_RESOURCE_LIST) == 28, "facts 4.12: 28 bytes");
WK_STATIC_ASSERT(sizeof(CM_FULL_RESOURCE_DESCRIPTOR) == 36, "facts 4.12: 36 bytes");
WK_STATIC_ASSERT(sizeof(CM_RESOURCE_LIST) == 40, "facts 4.12: 40 bytes");

/* What DxgkCbGetDeviceInformation fills (ns-dispmprt-_dxgk_device_info;
 * checked against a public copy of the WDK's dispmprt.h, where it has no
 * version guard). 80 bytes. */

typedef enum {
    DockStateUnsupported = 0,
    DockStateUnDocked = 1,
    DockStateDocked = 2,
    DockStateUnknown = 3
} DOCKING_STATE;

typedef struct _DXGK_DEVICE_INFO {
    PVOID MiniportDeviceContext;
    PDEVICE_OBJECT PhysicalDeviceObject;
    UNICODE_STRING DeviceRegistryPath; /* the adapter's software key */
    PCM_RESOURCE_LIST TranslatedResourceList;
    LARGE_INTEGER SystemMemorySize;
    PHYSICAL_ADDRESS HighestPhysicalAddress;
    PHYSICAL_ADDRESS AgpApertureBase; /* 0: not AGP */
    SIZE_T AgpApertureSize;
    DOCKING_STATE DockingState;
} DXGK_DEVICE_INFO, *PDXGK_DEVICE_INFO;

/* ------------------------------------------------------------------ */
/* The DDIs the kit does not drive (the others: driver.h)               */
/* ------------------------------------------------------------------ */

/* DxgkDdiDispatchIoRequest: nc-dispmprt-dxgkddi_dispatch_io_request */
typedef NTSTATUS DXGKDDI_DISPATCH_IO_REQUEST(const PVOID MiniportDeviceContext, ULONG VidPnSourceId, VIDEO_REQUEST_PACKET *VideoRequestPacket);
typedef DXGKDDI_DISPATCH_IO_REQUEST *PDXGKDDI_DISPATCH_IO_REQUEST;
/* DxgkDdiQueryChildRelations: nc-dispmprt-dxgkddi_query_child_relations */
typedef NTSTATUS DXGKDDI_QUERY_CHILD_RELATIONS(const PVOID MiniportDeviceContext, DXGK_CHILD_DESCRIPTOR *ChildRelations, ULONG ChildRelationsSize);
typedef DXGKDDI_QUERY_CHILD_RELATIONS *PDXGKDDI_QUERY_CHILD_RELATIONS;
/* DxgkDdiQueryChildStatus: nc-dispmprt-dxgkddi_query_child_status */
typedef NTSTATUS DXGKDDI_QUERY_CHILD_STATUS(const PVOID MiniportDeviceContext, DXGK_CHILD_STATUS *ChildStatus, BOOLEAN NonDestructiveOnly);
typedef DXGKDDI_QUERY_CHILD_STATUS *PDXGKDDI_QUERY_CHILD_STATUS;
/* DxgkDdiQueryDeviceDescriptor: nc-dispmprt-dxgkddi_query_device_descriptor */
typedef NTSTATUS DXGKDDI_QUERY_DEVICE_DESCRIPTOR(const PVOID MiniportDeviceContext, ULONG ChildUid, DXGK_DEVICE_DESCRIPTOR *DeviceDescriptor);
typedef DXGKDDI_QUERY_DEVICE_DESCRIPTOR *PDXGKDDI_QUERY_DEVICE_DESCRIPTOR;
/* DxgkDdiSetPowerState: nc-dispmprt-dxgkddi_set_power_state */
typedef NTSTATUS DXGKDDI_SET_POWER_STATE(const PVOID MiniportDeviceContext, ULONG DeviceUid, DEVICE_POWER_STATE DevicePowerState, POWER_ACTION ActionType);
typedef DXGKDDI_SET_POWER_STATE *PDXGKDDI_SET_POWER_STATE;
/* DxgkDdiNotifyAcpiEvent: nc-dispmprt-dxgkddi_notify_acpi_event */
typedef NTSTATUS DXGKDDI_NOTIFY_ACPI_EVENT(const PVOID MiniportDeviceContext, DXGK_EVENT_TYPE EventType, ULONG Event, PVOID Argument, PULONG AcpiFlags);
typedef DXGKDDI_NOTIFY_ACPI_EVENT *PDXGKDDI_NOTIFY_ACPI_EVENT;
/* DxgkDdiResetDevice: nc-dispmprt-dxgkddi_reset_device */
typedef VOID DXGKDDI_RESET_DEVICE(const PVOID MiniportDeviceContext);
typedef DXGKDDI_RESET_DEVICE *PDXGKDDI_RESET_DEVICE;
/* DxgkDdiUnload: nc-dispmprt-dxgkddi_unload */
typedef VOID DXGKDDI_UNLOAD(VOID);
typedef DXGKDDI_UNLOAD *PDXGKDDI_UNLOAD;
/* DxgkDdiQueryInterface: nc-dispmprt-dxgkddi_query_interface */
typedef NTSTATUS DXGKDDI_QUERY_INTERFACE(const PVOID MiniportDeviceContext, QUERY_INTERFACE *QueryInterface);
typedef DXGKDDI_QUERY_INTERFACE *PDXGKDDI_QUERY_INTERFACE;
/* DxgkDdiControlEtwLogging: nc-dispmprt-dxgkddi_control_etw_logging */
typedef VOID DXGKDDI_CONTROL_ETW_LOGGING(BOOLEAN Enable, ULONG Flags, UCHAR Level);
typedef DXGKDDI_CONTROL_ETW_LOGGING *PDXGKDDI_CONTROL_ETW_LOGGING;
/* DxgkDdiDescribeAllocation: nc-d3dkmddi-dxgkddi_describeallocation */
typedef NTSTATUS DXGKDDI_DESCRIBEALLOCATION(const HANDLE hAdapter, DXGKARG_DESCRIBEALLOCATION *pDescribeAllocation);
typedef DXGKDDI_DESCRIBEALLOCATION *PDXGKDDI_DESCRIBEALLOCATION;
/* DxgkDdiGetStandardAllocationDriverData: nc-d3dkmddi-dxgkddi_getstandardallocationdriverdata */
typedef NTSTATUS DXGKDDI_GETSTANDARDALLOCATIONDRIVERDATA(const HANDLE hAdapter, DXGKARG_GETSTANDARDALLOCATIONDRIVERDATA *pGetStandardAllocationDriverData);
typedef DXGKDDI_GETSTANDARDALLOCATIONDRIVERDATA *PDXGKDDI_GETSTANDARDALLOCATIONDRIVERDATA;
/* DxgkDdiAcquireSwizzlingRange: nc-d3dkmddi-dxgkddi_acquireswizzlingrange */
typedef NTSTATUS DXGKDDI_ACQUIRESWIZZLINGRANGE(const HANDLE hAdapter, DXGKARG_ACQUIRESWIZZLINGRANGE *pAcquireSwizzlingRange);
typedef DXGKDDI_ACQUIRESWIZZLINGRANGE *PDXGKDDI_ACQUIRESWIZZLINGRANGE;
/* DxgkDdiReleaseSwizzlingRange: nc-d3dkmddi-dxgkddi_releaseswizzlingrange */
typedef NTSTATUS DXGKDDI_RELEASESWIZZLINGRANGE(const HANDLE hAdapter, const DXGKARG_RELEASESWIZZLINGRANGE *pReleaseSwizzlingRange);
typedef DXGKDDI_RELEASESWIZZLINGRANGE *PDXGKDDI_RELEASESWIZZLINGRANGE;
/* DxgkDdiPreemptCommand: nc-d3dkmddi-dxgkddi_preemptcommand */
typedef NTSTATUS DXGKDDI_PREEMPTCOMMAND(const HANDLE hAdapter, const DXGKARG_PREEMPTCOMMAND *pPreemptCommand);
typedef DXGKDDI_PREEMPTCOMMAND *PDXGKDDI_PREEMPTCOMMAND;
/* DxgkDdiSetPalette: nc-d3dkmddi-dxgkddi_setpalette */
typedef NTSTATUS DXGKDDI_SETPALETTE(const HANDLE hAdapter, const DXGKARG_SETPALETTE *pSetPalette);
typedef DXGKDDI_SETPALETTE *PDXGKDDI_SETPALETTE;
/* DxgkDdiSetPointerPosition: nc-d3dkmddi-dxgkddi_setpointerposition */
typedef NTSTATUS DXGKDDI_SETPOINTERPOSITION(const HANDLE hAdapter, const DXGKARG_SETPOINTERPOSITION *pSetPointerPosition);
typedef DXGKDDI_SETPOINTERPOSITION *PDXGKDDI_SETPOINTERPOSITION;
/* DxgkDdiSetPointerShape: nc-d3dkmddi-dxgkddi_setpointershape */
typedef NTSTATUS DXGKDDI_SETPOINTERSHAPE(const HANDLE hAdapter, const DXGKARG_SETPOINTERSHAPE *pSetPointerShape);
typedef DXGKDDI_SETPOINTERSHAPE *PDXGKDDI_SETPOINTERSHAPE;
/* DxgkDdiResetFromTimeout: nc-d3dkmddi-dxgkddi_resetfromtimeout */
typedef NTSTATUS DXGKDDI_RESETFROMTIMEOUT(const HANDLE hAdapter);
typedef DXGKDDI_RESETFROMTIMEOUT *PDXGKDDI_RESETFROMTIMEOUT;
/* DxgkDdiRestartFromTimeout: nc-d3dkmddi-dxgkddi_restartfromtimeout */
typedef NTSTATUS DXGKDDI_RESTARTFROMTIMEOUT(const HANDLE hAdapter);
typedef DXGKDDI_RESTARTFROMTIMEOUT *PDXGKDDI_RESTARTFROMTIMEOUT;
/* DxgkDdiEscape: nc-d3dkmddi-dxgkddi_escape */
typedef NTSTATUS DXGKDDI_ESCAPE(const HANDLE hAdapter, const DXGKARG_ESCAPE *pEscape);
typedef DXGKDDI_ESCAPE *PDXGKDDI_ESCAPE;
typedef NTSTATUS DXGKDDI_COLLECTDBGINFO(const HANDLE hAdapter, const DXGKARG_COLLECTDBGINFO *pCollectDbgInfo);
typedef DXGKDDI_COLLECTDBGINFO *PDXGKDDI_COLLECTDBGINFO;
/* DxgkDdiQueryCurrentFence: nc-d3dkmddi-dxgkddi_querycurrentfence */
typedef NTSTATUS DXGKDDI_QUERYCURRENTFENCE(const HANDLE hAdapter, DXGKARG_QUERYCURRENTFENCE *pCurrentFence);
typedef DXGKDDI_QUERYCURRENTFENCE *PDXGKDDI_QUERYCURRENTFENCE;
/* DxgkDdiIsSupportedVidPn: nc-d3dkmddi-dxgkddi_issupportedvidpn */
typedef NTSTATUS DXGKDDI_ISSUPPORTEDVIDPN(const HANDLE hAdapter, DXGKARG_ISSUPPORTEDVIDPN *pIsSupportedVidPn);
typedef DXGKDDI_ISSUPPORTEDVIDPN *PDXGKDDI_ISSUPPORTEDVIDPN;
/* DxgkDdiRecommendFunctionalVidPn: nc-d3dkmddi-dxgkddi_recommendfunctionalvidpn (IN_CONST_PDXGKARG_RECOMMENDFUNCTIONALVIDPN_CONST) */
typedef NTSTATUS DXGKDDI_RECOMMENDFUNCTIONALVIDPN(const HANDLE hAdapter, const DXGKARG_RECOMMENDFUNCTIONALVIDPN *const pRecommendFunctionalVidPn);
typedef DXGKDDI_RECOMMENDFUNCTIONALVIDPN *PDXGKDDI_RECOMMENDFUNCTIONALVIDPN;
/* DxgkDdiEnumVidPnCofuncModality: nc-d3dkmddi-dxgkddi_enumvidpncofuncmodality (IN_CONST_PDXGKARG_ENUMVIDPNCOFUNCMODALITY_CONST) */
typedef NTSTATUS DXGKDDI_ENUMVIDPNCOFUNCMODALITY(const HANDLE hAdapter, const DXGKARG_ENUMVIDPNCOFUNCMODALITY *const pEnumCofuncModality);
typedef DXGKDDI_ENUMVIDPNCOFUNCMODALITY *PDXGKDDI_ENUMVIDPNCOFUNCMODALITY;
/* DxgkDdiSetVidPnSourceAddress: nc-d3dkmddi-dxgkddi_setvidpnsourceaddress */
typedef NTSTATUS DXGKDDI_SETVIDPNSOURCEADDRESS(const HANDLE hAdapter, const DXGKARG_SETVIDPNSOURCEADDRESS *pSetVidPnSourceAddress);
typedef DXGKDDI_SETVIDPNSOURCEADDRESS *PDXGKDDI_SETVIDPNSOURCEADDRESS;
/* DxgkDdiSetVidPnSourceVisibility: nc-d3dkmddi-dxgkddi_setvidpnsourcevisibility */
typedef NTSTATUS DXGKDDI_SETVIDPNSOURCEVISIBILITY(const HANDLE hAdapter, const DXGKARG_SETVIDPNSOURCEVISIBILITY *pSetVidPnSourceVisibility);
typedef DXGKDDI_SETVIDPNSOURCEVISIBILITY *PDXGKDDI_SETVIDPNSOURCEVISIBILITY;
/* DxgkDdiCommitVidPn: nc-d3dkmddi-dxgkddi_commitvidpn (IN_CONST_PDXGKARG_COMMITVIDPN_CONST) */
typedef NTSTATUS DXGKDDI_COMMITVIDPN(const HANDLE hAdapter, const DXGKARG_COMMITVIDPN *const pCommitVidPn);
typedef DXGKDDI_COMMITVIDPN *PDXGKDDI_COMMITVIDPN;
/* DxgkDdiUpdateActiveVidPnPresentPath: nc-d3dkmddi-dxgkddi_updateactivevidpnpresentpath (IN_CONST_PDXGKARG_UPDATEACTIVEVIDPNPRESENTPATH_CONST) */
typedef NTSTATUS DXGKDDI_UPDATEACTIVEVIDPNPRESENTPATH(const HANDLE hAdapter, const DXGKARG_UPDATEACTIVEVIDPNPRESENTPATH *const pUpdateActiveVidPnPresentPath);
typedef DXGKDDI_UPDATEACTIVEVIDPNPRESENTPATH *PDXGKDDI_UPDATEACTIVEVIDPNPRESENTPATH;
/* DxgkDdiRecommendMonitorModes: nc-d3dkmddi-dxgkddi_recommendmonitormodes (IN_CONST_PDXGKARG_RECOMMENDMONITORMODES_CONST) */
typedef NTSTATUS DXGKDDI_RECOMMENDMONITORMODES(const HANDLE hAdapter, const DXGKARG_RECOMMENDMONITORMODES *const pRecommendMonitorModes);
typedef DXGKDDI_RECOMMENDMONITORMODES *PDXGKDDI_RECOMMENDMONITORMODES;
/* DxgkDdiRecommendVidPnTopology: nc-d3dkmddi-dxgkddi_recommendvidpntopology (IN_CONST_PDXGKARG_RECOMMENDVIDPNTOPOLOGY_CONST) */
typedef NTSTATUS DXGKDDI_RECOMMENDVIDPNTOPOLOGY(const HANDLE hAdapter, const DXGKARG_RECOMMENDVIDPNTOPOLOGY *const pRecommendVidPnTopology);
typedef DXGKDDI_RECOMMENDVIDPNTOPOLOGY *PDXGKDDI_RECOMMENDVIDPNTOPOLOGY;
/* DxgkDdiGetScanLine: nc-d3dkmddi-dxgkddi_getscanline */
typedef NTSTATUS DXGKDDI_GETSCANLINE(const HANDLE hAdapter, DXGKARG_GETSCANLINE *pGetScanLine);
typedef DXGKDDI_GETSCANLINE *PDXGKDDI_GETSCANLINE;
/* DxgkDdiStopCapture: nc-d3dkmddi-dxgkddi_stopcapture */
typedef NTSTATUS DXGKDDI_STOPCAPTURE(const HANDLE hAdapter, const DXGKARG_STOPCAPTURE *pStopCapture);
typedef DXGKDDI_STOPCAPTURE *PDXGKDDI_STOPCAPTURE;
/* DxgkDdiControlInterrupt: nc-d3dkmddi-dxgkddi_controlinterrupt */
typedef NTSTATUS DXGKDDI_CONTROLINTERRUPT(const HANDLE hAdapter, const DXGK_INTERRUPT_TYPE InterruptType, BOOLEAN EnableInterrupt);
typedef DXGKDDI_CONTROLINTERRUPT *PDXGKDDI_CONTROLINTERRUPT;
/* DxgkDdiCreateOverlay: nc-d3dkmddi-dxgkddi_createoverlay */
typedef NTSTATUS DXGKDDI_CREATEOVERLAY(const HANDLE hAdapter, DXGKARG_CREATEOVERLAY *pCreateOverlay);
typedef DXGKDDI_CREATEOVERLAY *PDXGKDDI_CREATEOVERLAY;
typedef NTSTATUS DXGKDDI_OPENALLOCATIONINFO(const HANDLE hDevice, const DXGKARG_OPENALLOCATION *pOpenAllocation);
typedef DXGKDDI_OPENALLOCATIONINFO *PDXGKDDI_OPENALLOCATIONINFO;
/* DxgkDdiCloseAllocation: nc-d3dkmddi-dxgkddi_closeallocation */
typedef NTSTATUS DXGKDDI_CLOSEALLOCATION(const HANDLE hDevice, const DXGKARG_CLOSEALLOCATION *pCloseAllocation);
typedef DXGKDDI_CLOSEALLOCATION *PDXGKDDI_CLOSEALLOCATION;
/* DxgkDdiPresent: nc-d3dkmddi-dxgkddi_present */
typedef NTSTATUS DXGKDDI_PRESENT(const HANDLE hContext, DXGKARG_PRESENT *pPresent);
typedef DXGKDDI_PRESENT *PDXGKDDI_PRESENT;
/* DxgkDdiUpdateOverlay: nc-d3dkmddi-dxgkddi_updateoverlay */
typedef NTSTATUS DXGKDDI_UPDATEOVERLAY(const HANDLE hOverlay, const DXGKARG_UPDATEOVERLAY *pUpdateOverlay);
typedef DXGKDDI_UPDATEOVERLAY *PDXGKDDI_UPDATEOVERLAY;
/* DxgkDdiFlipOverlay: nc-d3dkmddi-dxgkddi_flipoverlay */
typedef NTSTATUS DXGKDDI_FLIPOVERLAY(const HANDLE hOverlay, const DXGKARG_FLIPOVERLAY *pFlipOverlay);
typedef DXGKDDI_FLIPOVERLAY *PDXGKDDI_FLIPOVERLAY;
/* DxgkDdiDestroyOverlay: nc-d3dkmddi-dxgkddi_destroyoverlay */
typedef NTSTATUS DXGKDDI_DESTROYOVERLAY(const HANDLE hOverlay);
typedef DXGKDDI_DESTROYOVERLAY *PDXGKDDI_DESTROYOVERLAY;
/* DxgkDdiLinkDevice: nc-dispmprt-dxgkddi_link_device (declared in dispmprt.h) */
typedef NTSTATUS DXGKDDI_LINK_DEVICE(const PDEVICE_OBJECT PhysicalDeviceObject, const PVOID MiniportDeviceContext, LINKED_DEVICE *LinkedDevice);
typedef DXGKDDI_LINK_DEVICE *PDXGKDDI_LINK_DEVICE;
/* DxgkDdiSetDisplayPrivateDriverFormat: nc-d3dkmddi-dxgkddi_setdisplayprivatedriverformat */
typedef NTSTATUS DXGKDDI_SETDISPLAYPRIVATEDRIVERFORMAT(const HANDLE hAdapter, const DXGKARG_SETDISPLAYPRIVATEDRIVERFORMAT *pSetDisplayPrivateDriverFormat);
typedef DXGKDDI_SETDISPLAYPRIVATEDRIVERFORMAT *PDXGKDDI_SETDISPLAYPRIVATEDRIVERFORMAT;
/* DxgkDdiQueryVidPnHWCapability: nc-d3dkmddi-dxgkddi_queryvidpnhwcapability */
typedef NTSTATUS DXGKDDI_QUERYVIDPNHWCAPABILITY(const HANDLE i_hAdapter, DXGKARG_QUERYVIDPNHWCAPABILITY *io_pVidPnHWCaps);
typedef DXGKDDI_QUERYVIDPNHWCAPABILITY *PDXGKDDI_QUERYVIDPNHWCAPABILITY;
/* DxgkDdiSetPowerComponentFState: nc-d3dkmddi-dxgkddisetpowercomponentfstate */
typedef NTSTATUS DXGKDDISETPOWERCOMPONENTFSTATE(const HANDLE DriverContext, UINT ComponentIndex, UINT FState);
typedef DXGKDDISETPOWERCOMPONENTFSTATE *PDXGKDDISETPOWERCOMPONENTFSTATE;
/* DxgkDdiQueryDependentEngineGroup: nc-d3dkmddi-dxgkddi_querydependentenginegroup */
typedef NTSTATUS DXGKDDI_QUERYDEPENDENTENGINEGROUP(const HANDLE hAdapter, DXGKARG_QUERYDEPENDENTENGINEGROUP *pQueryDependentEngineGroup);
typedef DXGKDDI_QUERYDEPENDENTENGINEGROUP *PDXGKDDI_QUERYDEPENDENTENGINEGROUP;
/* DxgkDdiQueryEngineStatus: nc-d3dkmddi-dxgkddi_queryenginestatus */
typedef NTSTATUS DXGKDDI_QUERYENGINESTATUS(const HANDLE hAdapter, DXGKARG_QUERYENGINESTATUS *pQueryEngineStatus);
typedef DXGKDDI_QUERYENGINESTATUS *PDXGKDDI_QUERYENGINESTATUS;
/* DxgkDdiResetEngine: nc-d3dkmddi-dxgkddi_resetengine */
typedef NTSTATUS DXGKDDI_RESETENGINE(const HANDLE hAdapter, DXGKARG_RESETENGINE *pResetEngine);
typedef DXGKDDI_RESETENGINE *PDXGKDDI_RESETENGINE;
/* DxgkDdiStopDeviceAndReleasePostDisplayOwnership: nc-dispmprt-dxgkddi_stop_device_and_release_post_display_ownership */
typedef NTSTATUS DXGKDDI_STOP_DEVICE_AND_RELEASE_POST_DISPLAY_OWNERSHIP(PVOID MiniportDeviceContext, D3DDDI_VIDEO_PRESENT_TARGET_ID TargetId, DXGK_DISPLAY_INFORMATION *DisplayInfo);
typedef DXGKDDI_STOP_DEVICE_AND_RELEASE_POST_DISPLAY_OWNERSHIP *PDXGKDDI_STOP_DEVICE_AND_RELEASE_POST_DISPLAY_OWNERSHIP;
/* DxgkDdiSystemDisplayEnable: nc-dispmprt-dxgkddi_system_display_enable */
typedef NTSTATUS DXGKDDI_SYSTEM_DISPLAY_ENABLE(PVOID MiniportDeviceContext, D3DDDI_VIDEO_PRESENT_TARGET_ID TargetId, DXGKARG_SYSTEM_DISPLAY_ENABLE_FLAGS *Flags, UINT *Width, UINT *Height, D3DDDIFORMAT *ColorFormat);
typedef DXGKDDI_SYSTEM_DISPLAY_ENABLE *PDXGKDDI_SYSTEM_DISPLAY_ENABLE;
/* DxgkDdiSystemDisplayWrite: nc-dispmprt-dxgkddi_system_display_write */
typedef VOID DXGKDDI_SYSTEM_DISPLAY_WRITE(PVOID MiniportDeviceContext, PVOID Source, UINT SourceWidth, UINT SourceHeight, UINT SourceStride, UINT PositionX, UINT PositionY);
typedef DXGKDDI_SYSTEM_DISPLAY_WRITE *PDXGKDDI_SYSTEM_DISPLAY_WRITE;
/* DxgkDdiGetChildContainerId: nc-dispmprt-dxgkddi_get_child_container_id */
typedef NTSTATUS DXGKDDI_GET_CHILD_CONTAINER_ID(PVOID MiniportDeviceContext, ULONG ChildUid, DXGK_CHILD_CONTAINER_ID *ContainerId);
typedef DXGKDDI_GET_CHILD_CONTAINER_ID *PDXGKDDI_GET_CHILD_CONTAINER_ID;
/* DxgkDdiPowerRuntimeControlRequest: nc-d3dkmddi-dxgkddipowerruntimecontrolrequest */
typedef NTSTATUS DXGKDDIPOWERRUNTIMECONTROLREQUEST(const HANDLE DriverContext, LPCGUID PowerControlCode, PVOID InBuffer, SIZE_T InBufferSize, PVOID OutBuffer, SIZE_T OutBufferSize, PSIZE_T BytesReturned);
typedef DXGKDDIPOWERRUNTIMECONTROLREQUEST *PDXGKDDIPOWERRUNTIMECONTROLREQUEST;
/* DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay: nc-d3dkmddi-dxgkddi_setvidpnsourceaddresswithmultiplaneoverlay */
typedef NTSTATUS DXGKDDI_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY(const HANDLE hAdapter, const DXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY *pSetVidPnSourceAddressWithMultiPlaneOverlay);
typedef DXGKDDI_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY *PDXGKDDI_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY;
/* DxgkDdiNotifySurpriseRemoval: nc-dispmprt-dxgkddi_notify_surprise_removal */
typedef NTSTATUS DXGKDDI_NOTIFY_SURPRISE_REMOVAL(PVOID MiniportDeviceContext, DXGK_SURPRISE_REMOVAL_TYPE RemovalType);
typedef DXGKDDI_NOTIFY_SURPRISE_REMOVAL *PDXGKDDI_NOTIFY_SURPRISE_REMOVAL;
/* DxgkDdiGetNodeMetadata: nc-d3dkmddi-dxgkddi_getnodemetadata */
typedef NTSTATUS DXGKDDI_GETNODEMETADATA(const HANDLE hAdapter, UINT NodeOrdinalAndAdapterIndex, DXGKARG_GETNODEMETADATA *pGetNodeMetadata);
typedef DXGKDDI_GETNODEMETADATA *PDXGKDDI_GETNODEMETADATA;
/* DxgkDdiSetPowerPState: nc-d3dkmddi-dxgkddisetpowerpstate */
typedef NTSTATUS DXGKDDISETPOWERPSTATE(const HANDLE DriverContext, UINT ComponentIndex, UINT RequestedComponentPState);
typedef DXGKDDISETPOWERPSTATE *PDXGKDDISETPOWERPSTATE;
typedef NTSTATUS DXGKDDI_CONTROLINTERRUPT2(const HANDLE hAdapter, const DXGKARG_CONTROLINTERRUPT2 InterruptControl);
typedef DXGKDDI_CONTROLINTERRUPT2 *PDXGKDDI_CONTROLINTERRUPT2;
/* DxgkDdiCheckMultiPlaneOverlaySupport: nc-d3dkmddi-dxgkddi_checkmultiplaneoverlaysupport */
typedef NTSTATUS DXGKDDI_CHECKMULTIPLANEOVERLAYSUPPORT(const HANDLE hAdapter, DXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT *pCheckMultiPlaneOverlaySupport);
typedef DXGKDDI_CHECKMULTIPLANEOVERLAYSUPPORT *PDXGKDDI_CHECKMULTIPLANEOVERLAYSUPPORT;
/* DxgkDdiCalibrateGpuClock: nc-d3dkmddi-dxgkddi_calibrategpuclock */
typedef NTSTATUS DXGKDDI_CALIBRATEGPUCLOCK(const HANDLE hAdapter, UINT32 NodeOrdinal, UINT32 EngineOrdinal, DXGKARG_CALIBRATEGPUCLOCK *pClockCalibration);
typedef DXGKDDI_CALIBRATEGPUCLOCK *PDXGKDDI_CALIBRATEGPUCLOCK;
/* DxgkDdiFormatHistoryBuffer: nc-d3dkmddi-dxgkddi_formathistorybuffer */
typedef NTSTATUS DXGKDDI_FORMATHISTORYBUFFER(const HANDLE hContext, DXGKARG_FORMATHISTORYBUFFER *pFormatData);
typedef DXGKDDI_FORMATHISTORYBUFFER *PDXGKDDI_FORMATHISTORYBUFFER;
/* DxgkDdiRenderGdi: nc-d3dkmddi-dxgkddi_rendergdi */
typedef NTSTATUS DXGKDDI_RENDERGDI(const HANDLE hContext, DXGKARG_RENDERGDI *pRenderGdi);
typedef DXGKDDI_RENDERGDI *PDXGKDDI_RENDERGDI;
/* DxgkDdiSubmitCommandVirtual: nc-d3dkmddi-dxgkddi_submitcommandvirtual */
typedef NTSTATUS DXGKDDI_SUBMITCOMMANDVIRTUAL(const HANDLE hAdapter, const DXGKARG_SUBMITCOMMANDVIRTUAL *pSubmitCommand);
typedef DXGKDDI_SUBMITCOMMANDVIRTUAL *PDXGKDDI_SUBMITCOMMANDVIRTUAL;
/* DxgkDdiSetRootPageTable: nc-d3dkmddi-dxgkddi_setrootpagetable */
typedef VOID DXGKDDI_SETROOTPAGETABLE(const HANDLE hAdapter, const DXGKARG_SETROOTPAGETABLE *pSetPageTable);
typedef DXGKDDI_SETROOTPAGETABLE *PDXGKDDI_SETROOTPAGETABLE;
/* DxgkDdiGetRootPageTableSize: nc-d3dkmddi-dxgkddi_getrootpagetablesize */
typedef SIZE_T DXGKDDI_GETROOTPAGETABLESIZE(const HANDLE hAdapter, DXGKARG_GETROOTPAGETABLESIZE *pArgs);
typedef DXGKDDI_GETROOTPAGETABLESIZE *PDXGKDDI_GETROOTPAGETABLESIZE;
/* DxgkDdiMapCpuHostAperture: nc-d3dkmddi-dxgkddi_mapcpuhostaperture */
typedef NTSTATUS DXGKDDI_MAPCPUHOSTAPERTURE(const HANDLE hAdapter, const DXGKARG_MAPCPUHOSTAPERTURE *pArgs);
typedef DXGKDDI_MAPCPUHOSTAPERTURE *PDXGKDDI_MAPCPUHOSTAPERTURE;
/* DxgkDdiUnmapCpuHostAperture: nc-d3dkmddi-dxgkddi_unmapcpuhostaperture */
typedef NTSTATUS DXGKDDI_UNMAPCPUHOSTAPERTURE(const HANDLE hAdapter, const DXGKARG_UNMAPCPUHOSTAPERTURE *pArgs);
typedef DXGKDDI_UNMAPCPUHOSTAPERTURE *PDXGKDDI_UNMAPCPUHOSTAPERTURE;
/* DxgkDdiCheckMultiPlaneOverlaySupport2: nc-d3dkmddi-dxgkddi_checkmultiplaneoverlaysupport2 */
typedef NTSTATUS DXGKDDI_CHECKMULTIPLANEOVERLAYSUPPORT2(const HANDLE hAdapter, DXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT2 *pCheckMultiPlaneOverlaySupport);
typedef DXGKDDI_CHECKMULTIPLANEOVERLAYSUPPORT2 *PDXGKDDI_CHECKMULTIPLANEOVERLAYSUPPORT2;
/* DxgkDdiCreateProcess: nc-d3dkmddi-dxgkddi_createprocess */
typedef NTSTATUS DXGKDDI_CREATEPROCESS(const HANDLE hAdapter, DXGKARG_CREATEPROCESS *pArgs);
typedef DXGKDDI_CREATEPROCESS *PDXGKDDI_CREATEPROCESS;
/* DxgkDdiDestroyProcess: nc-d3dkmddi-dxgkddi_destroyprocess */
typedef NTSTATUS DXGKDDI_DESTROYPROCESS(const HANDLE hAdapter, const HANDLE hKmdProcess);
typedef DXGKDDI_DESTROYPROCESS *PDXGKDDI_DESTROYPROCESS;
/* DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay2: nc-d3dkmddi-dxgkddi_setvidpnsourceaddresswithmultiplaneoverlay2 */
typedef NTSTATUS DXGKDDI_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY2(const HANDLE hAdapter, const DXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY2 *pSetVidPnSourceAddressWithMultiPlaneOverlay);
typedef DXGKDDI_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY2 *PDXGKDDI_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY2;
/* DxgkDdiPowerRuntimeSetDeviceHandle: nc-d3dkmddi-dxgkddi_powerruntimesetdevicehandle */
typedef NTSTATUS DXGKDDI_POWERRUNTIMESETDEVICEHANDLE(const HANDLE DriverContext, HANDLE PoDeviceHandle);
typedef DXGKDDI_POWERRUNTIMESETDEVICEHANDLE *PDXGKDDI_POWERRUNTIMESETDEVICEHANDLE;
/* DxgkDdiSetStablePowerState: nc-d3dkmddi-dxgkddi_setstablepowerstate */
typedef VOID DXGKDDI_SETSTABLEPOWERSTATE(const HANDLE hAdapter, const DXGKARG_SETSTABLEPOWERSTATE *pArgs);
typedef DXGKDDI_SETSTABLEPOWERSTATE *PDXGKDDI_SETSTABLEPOWERSTATE;
/* DxgkDdiSetVideoProtectedRegion: nc-d3dkmddi-dxgkddi_setvideoprotectedregion */
typedef NTSTATUS DXGKDDI_SETVIDEOPROTECTEDREGION(const HANDLE hAdapter, const DXGKARG_SETVIDEOPROTECTEDREGION *pArgs);
typedef DXGKDDI_SETVIDEOPROTECTEDREGION *PDXGKDDI_SETVIDEOPROTECTEDREGION;
/* DxgkDdiCheckMultiPlaneOverlaySupport3: nc-d3dkmddi-dxgkddi_checkmultiplaneoverlaysupport3 */
typedef NTSTATUS DXGKDDI_CHECKMULTIPLANEOVERLAYSUPPORT3(const HANDLE hAdapter, DXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT3 *pCheckMultiPlaneOverlaySupport);
typedef DXGKDDI_CHECKMULTIPLANEOVERLAYSUPPORT3 *PDXGKDDI_CHECKMULTIPLANEOVERLAYSUPPORT3;
/* DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay3: nc-d3dkmddi-dxgkddi_setvidpnsourceaddresswithmultiplaneoverlay3 */
typedef NTSTATUS DXGKDDI_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY3(const HANDLE hAdapter, DXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY3 *pSetVidPnSourceAddressWithMultiPlaneOverlay);
typedef DXGKDDI_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY3 *PDXGKDDI_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY3;
/* DxgkDdiPostMultiPlaneOverlayPresent: nc-d3dkmddi-dxgkddi_postmultiplaneoverlaypresent */
typedef NTSTATUS DXGKDDI_POSTMULTIPLANEOVERLAYPRESENT(const HANDLE hAdapter, const DXGKARG_POSTMULTIPLANEOVERLAYPRESENT *pPostPresent);
typedef DXGKDDI_POSTMULTIPLANEOVERLAYPRESENT *PDXGKDDI_POSTMULTIPLANEOVERLAYPRESENT;
/* DxgkDdiValidateUpdateAllocationProperty: nc-d3dkmddi-dxgkddi_validateupdateallocationproperty */
typedef NTSTATUS DXGKDDI_VALIDATEUPDATEALLOCATIONPROPERTY(const HANDLE hAdapter, const DXGKARG_VALIDATEUPDATEALLOCPROPERTY *pValidateUpdateAllocProperty);
typedef DXGKDDI_VALIDATEUPDATEALLOCATIONPROPERTY *PDXGKDDI_VALIDATEUPDATEALLOCATIONPROPERTY;
/* DxgkDdiControlModeBehavior: nc-d3dkmddi-dxgkddi_controlmodebehavior */
typedef NTSTATUS DXGKDDI_CONTROLMODEBEHAVIOR(const HANDLE hAdapter, DXGKARG_CONTROLMODEBEHAVIOR *pControlModeBehaviorArg);
typedef DXGKDDI_CONTROLMODEBEHAVIOR *PDXGKDDI_CONTROLMODEBEHAVIOR;
/* DxgkDdiUpdateMonitorLinkInfo: nc-d3dkmddi-dxgkddi_updatemonitorlinkinfo */
typedef NTSTATUS DXGKDDI_UPDATEMONITORLINKINFO(const HANDLE hAdapter, DXGKARG_UPDATEMONITORLINKINFO *pUpdateMonitorLinkInfoArg);
typedef DXGKDDI_UPDATEMONITORLINKINFO *PDXGKDDI_UPDATEMONITORLINKINFO;
/* DxgkDdiCreateHwContext: nc-d3dkmddi-dxgkddi_createhwcontext */
typedef NTSTATUS DXGKDDI_CREATEHWCONTEXT(const HANDLE hDevice, DXGKARG_CREATEHWCONTEXT *pCreateContext);
typedef DXGKDDI_CREATEHWCONTEXT *PDXGKDDI_CREATEHWCONTEXT;
/* DxgkDdiDestroyHwContext: nc-d3dkmddi-dxgkddi_destroyhwcontext */
typedef NTSTATUS DXGKDDI_DESTROYHWCONTEXT(const HANDLE hHwContext);
typedef DXGKDDI_DESTROYHWCONTEXT *PDXGKDDI_DESTROYHWCONTEXT;
/* DxgkDdiCreateHwQueue: nc-d3dkmddi-dxgkddi_createhwqueue */
typedef NTSTATUS DXGKDDI_CREATEHWQUEUE(const HANDLE hHwContext, DXGKARG_CREATEHWQUEUE *pCreateHwQueue);
typedef DXGKDDI_CREATEHWQUEUE *PDXGKDDI_CREATEHWQUEUE;
/* DxgkDdiDestroyHwQueue: nc-d3dkmddi-dxgkddi_destroyhwqueue */
typedef NTSTATUS DXGKDDI_DESTROYHWQUEUE(const HANDLE hHwQueue);
typedef DXGKDDI_DESTROYHWQUEUE *PDXGKDDI_DESTROYHWQUEUE;
/* DxgkDdiSubmitCommandToHwQueue: nc-d3dkmddi-dxgkddi_submitcommandtohwqueue */
typedef NTSTATUS DXGKDDI_SUBMITCOMMANDTOHWQUEUE(const HANDLE hAdapter, const DXGKARG_SUBMITCOMMANDTOHWQUEUE *pSubmitCommandToHwQueue);
typedef DXGKDDI_SUBMITCOMMANDTOHWQUEUE *PDXGKDDI_SUBMITCOMMANDTOHWQUEUE;
/* DxgkDdiSwitchToHwContextList: nc-d3dkmddi-dxgkddi_switchtohwcontextlist */
typedef NTSTATUS DXGKDDI_SWITCHTOHWCONTEXTLIST(const HANDLE hAdapter, const DXGKARG_SWITCHTOHWCONTEXTLIST *pHwContextList);
typedef DXGKDDI_SWITCHTOHWCONTEXTLIST *PDXGKDDI_SWITCHTOHWCONTEXTLIST;
/* DxgkDdiResetHwEngine: nc-d3dkmddi-dxgkddi_resethwengine */
typedef NTSTATUS DXGKDDI_RESETHWENGINE(const HANDLE hAdapter, DXGKARG_RESETHWENGINE *pResetHwEngine);
typedef DXGKDDI_RESETHWENGINE *PDXGKDDI_RESETHWENGINE;
/* DxgkDdiCreatePeriodicFrameNotification: nc-d3dkmddi-dxgkddi_createperiodicframenotification */
typedef NTSTATUS DXGKDDI_CREATEPERIODICFRAMENOTIFICATION(DXGKARG_CREATEPERIODICFRAMENOTIFICATION *pCreatePeriodicFrameNotification);
typedef DXGKDDI_CREATEPERIODICFRAMENOTIFICATION *PDXGKDDI_CREATEPERIODICFRAMENOTIFICATION;
/* DxgkDdiDestroyPeriodicFrameNotification: nc-d3dkmddi-dxgkddi_destroyperiodicframenotification */
typedef NTSTATUS DXGKDDI_DESTROYPERIODICFRAMENOTIFICATION(const DXGKARG_DESTROYPERIODICFRAMENOTIFICATION *pDestroyPeriodicFrameNotification);
typedef DXGKDDI_DESTROYPERIODICFRAMENOTIFICATION *PDXGKDDI_DESTROYPERIODICFRAMENOTIFICATION;
/* DxgkDdiSetTimingsFromVidPn: nc-d3dkmddi-dxgkddi_settimingsfromvidpn */
typedef NTSTATUS DXGKDDI_SETTIMINGSFROMVIDPN(const HANDLE hAdapter, DXGKARG_SETTIMINGSFROMVIDPN *pSetTimings);
typedef DXGKDDI_SETTIMINGSFROMVIDPN *PDXGKDDI_SETTIMINGSFROMVIDPN;
/* DxgkDdiSetTargetGamma: nc-d3dkmddi-dxgkddi_settargetgamma */
typedef NTSTATUS DXGKDDI_SETTARGETGAMMA(const HANDLE hAdapter, const DXGKARG_SETTARGETGAMMA *pSetTargetGammaArg);
typedef DXGKDDI_SETTARGETGAMMA *PDXGKDDI_SETTARGETGAMMA;
/* DxgkDdiSetTargetContentType: nc-d3dkmddi-dxgkddi_settargetcontenttype */
typedef NTSTATUS DXGKDDI_SETTARGETCONTENTTYPE(const HANDLE hAdapter, const DXGKARG_SETTARGETCONTENTTYPE *pSetTargetContentTypeArg);
typedef DXGKDDI_SETTARGETCONTENTTYPE *PDXGKDDI_SETTARGETCONTENTTYPE;
/* DxgkDdiSetTargetAnalogCopyProtection: nc-d3dkmddi-dxgkddi_settargetanalogcopyprotection */
typedef NTSTATUS DXGKDDI_SETTARGETANALOGCOPYPROTECTION(const HANDLE hAdapter, const DXGKARG_SETTARGETANALOGCOPYPROTECTION *pSetTargetAnalogCopyProtectionArg);
typedef DXGKDDI_SETTARGETANALOGCOPYPROTECTION *PDXGKDDI_SETTARGETANALOGCOPYPROTECTION;
/* DxgkDdiSetTargetAdjustedColorimetry: nc-dispmprt-dxgkddi_settargetadjustedcolorimetry */
typedef NTSTATUS DXGKDDI_SETTARGETADJUSTEDCOLORIMETRY(const HANDLE hAdapter, D3DDDI_VIDEO_PRESENT_TARGET_ID TargetId, DXGK_COLORIMETRY AdjustedColorimetry);
typedef DXGKDDI_SETTARGETADJUSTEDCOLORIMETRY *PDXGKDDI_SETTARGETADJUSTEDCOLORIMETRY;
/* DxgkDdiDisplayDetectControl: nc-d3dkmddi-dxgkddi_displaydetectcontrol */
typedef NTSTATUS DXGKDDI_DISPLAYDETECTCONTROL(const HANDLE hAdapter, const DXGKARG_DISPLAYDETECTCONTROL *pDisplayDetectControl);
typedef DXGKDDI_DISPLAYDETECTCONTROL *PDXGKDDI_DISPLAYDETECTCONTROL;
/* DxgkDdiQueryConnectionChange: nc-d3dkmddi-dxgkddi_queryconnectionchange */
typedef NTSTATUS DXGKDDI_QUERYCONNECTIONCHANGE(const HANDLE hAdapter, DXGKARG_QUERYCONNECTIONCHANGE *pQueryConnectionChange);
typedef DXGKDDI_QUERYCONNECTIONCHANGE *PDXGKDDI_QUERYCONNECTIONCHANGE;
/* DxgkDdiExchangePreStartInfo: nc-dispmprt-dxgkddi_exchangeprestartinfo */
typedef NTSTATUS DXGKDDI_EXCHANGEPRESTARTINFO(const HANDLE hAdapter, DXGK_PRE_START_INFO *pPreStartInfo);
typedef DXGKDDI_EXCHANGEPRESTARTINFO *PDXGKDDI_EXCHANGEPRESTARTINFO;
/* DxgkDdiGetMultiPlaneOverlayCaps: nc-d3dkmddi-dxgkddi_getmultiplaneoverlaycaps */
typedef NTSTATUS DXGKDDI_GETMULTIPLANEOVERLAYCAPS(const HANDLE hAdapter, DXGKARG_GETMULTIPLANEOVERLAYCAPS *pGetMultiPlaneOverlayCaps);
typedef DXGKDDI_GETMULTIPLANEOVERLAYCAPS *PDXGKDDI_GETMULTIPLANEOVERLAYCAPS;
/* DxgkDdiGetPostCompositionCaps: nc-d3dkmddi-dxgkddi_getpostcompositioncaps */
typedef NTSTATUS DXGKDDI_GETPOSTCOMPOSITIONCAPS(const HANDLE hAdapter, DXGKARG_GETPOSTCOMPOSITIONCAPS *pGetPostCompositionCaps);
typedef DXGKDDI_GETPOSTCOMPOSITIONCAPS *PDXGKDDI_GETPOSTCOMPOSITIONCAPS;
/* DxgkDdiUpdateHwContextState: nc-d3dkmddi-dxgkddi_updatehwcontextstate */
typedef NTSTATUS DXGKDDI_UPDATEHWCONTEXTSTATE(const HANDLE hAdapter, const DXGKARG_UPDATEHWCONTEXTSTATE *pUpdateHwContextState);
typedef DXGKDDI_UPDATEHWCONTEXTSTATE *PDXGKDDI_UPDATEHWCONTEXTSTATE;
/* DxgkDdiCreateProtectedSession: nc-d3dkmddi-dxgkddi_createprotectedsession */
typedef NTSTATUS DXGKDDI_CREATEPROTECTEDSESSION(const HANDLE hAdapter, DXGKARG_CREATEPROTECTEDSESSION *pCreateProtectedSession);
typedef DXGKDDI_CREATEPROTECTEDSESSION *PDXGKDDI_CREATEPROTECTEDSESSION;
/* DxgkDdiDestroyProtectedSession: nc-d3dkmddi-dxgkddi_destroyprotectedsession */
typedef NTSTATUS DXGKDDI_DESTROYPROTECTEDSESSION(const HANDLE hAdapter, const HANDLE hProtectedSession);
typedef DXGKDDI_DESTROYPROTECTEDSESSION *PDXGKDDI_DESTROYPROTECTEDSESSION;

/* Pointers to the DDIs driver.h declares. */
typedef DXGKDDI_ADD_DEVICE *PDXGKDDI_ADD_DEVICE;
typedef DXGKDDI_START_DEVICE *PDXGKDDI_START_DEVICE;
typedef DXGKDDI_STOP_DEVICE *PDXGKDDI_STOP_DEVICE;
typedef DXGKDDI_REMOVE_DEVICE *PDXGKDDI_REMOVE_DEVICE;
typedef DXGKDDI_INTERRUPT_ROUTINE *PDXGKDDI_INTERRUPT_ROUTINE;
typedef DXGKDDI_DPC_ROUTINE *PDXGKDDI_DPC_ROUTINE;
typedef DXGKDDI_QUERYADAPTERINFO *PDXGKDDI_QUERYADAPTERINFO;
typedef DXGKDDI_CREATEDEVICE *PDXGKDDI_CREATEDEVICE;
typedef DXGKDDI_CREATEALLOCATION *PDXGKDDI_CREATEALLOCATION;
typedef DXGKDDI_DESTROYALLOCATION *PDXGKDDI_DESTROYALLOCATION;
typedef DXGKDDI_PATCH *PDXGKDDI_PATCH;
typedef DXGKDDI_SUBMITCOMMAND *PDXGKDDI_SUBMITCOMMAND;
typedef DXGKDDI_BUILDPAGINGBUFFER *PDXGKDDI_BUILDPAGINGBUFFER;
typedef DXGKDDI_DESTROYDEVICE *PDXGKDDI_DESTROYDEVICE;
typedef DXGKDDI_RENDER *PDXGKDDI_RENDER;
typedef DXGKDDI_CREATECONTEXT *PDXGKDDI_CREATECONTEXT;
typedef DXGKDDI_DESTROYCONTEXT *PDXGKDDI_DESTROYCONTEXT;
typedef DXGKDDI_CANCELCOMMAND *PDXGKDDI_CANCELCOMMAND;

/* ------------------------------------------------------------------ */
/* Callbacks: DXGKCB_X is a pointer type, as in the WDK                 */
/* ------------------------------------------------------------------ */

typedef NTSTATUS (*DXGKCB_CREATECONTEXTALLOCATION)(const HANDLE hAdapter,
                                                   DXGKARGCB_CREATECONTEXTALLOCATION *ContextAllocation);
typedef NTSTATUS (*DXGKCB_DESTROYCONTEXTALLOCATION)(const HANDLE hAdapter, const HANDLE hAllocation);
typedef NTSTATUS (*DXGKCB_UPDATECONTEXTALLOCATION)(const HANDLE hAdapter,
                                                   const DXGKARGCB_UPDATECONTEXTALLOCATION *pArgs);
typedef VOID (*DXGKCB_NOTIFY_INTERRUPT)(const HANDLE hAdapter,
                                        const DXGKARGCB_NOTIFY_INTERRUPT_DATA *pNotifyInterrupt);
typedef VOID (*DXGKCB_NOTIFY_DPC)(const HANDLE hAdapter);

/* [3] DxgkCbEvalAcpiMethod: nc-dispmprt-dxgkcb_eval_acpi_method */
typedef NTSTATUS (*DXGKCB_EVAL_ACPI_METHOD)(HANDLE DeviceHandle, ULONG DeviceUid, PACPI_EVAL_INPUT_BUFFER_COMPLEX AcpiInputBuffer, ULONG AcpiInputSize, PACPI_EVAL_OUTPUT_BUFFER AcpiOutputBuffer, ULONG AcpiOutputSize);
/* [4] DxgkCbGetDeviceInformation: nc-dispmprt-dxgkcb_get_device_information */
typedef NTSTATUS (*DXGKCB_GET_DEVICE_INFORMATION)(HANDLE DeviceHandle, PDXGK_DEVICE_INFO DeviceInfo);
/* [5] DxgkCbIndicateChildStatus: nc-dispmprt-dxgkcb_indicate_child_status */
typedef NTSTATUS (*DXGKCB_INDICATE_CHILD_STATUS)(HANDLE DeviceHandle, PDXGK_CHILD_STATUS ChildStatus);
/* [6] DxgkCbMapMemory: nc-dispmprt-dxgkcb_map_memory */
typedef NTSTATUS (*DXGKCB_MAP_MEMORY)(HANDLE DeviceHandle, PHYSICAL_ADDRESS TranslatedAddress, ULONG Length, BOOLEAN InIoSpace, BOOLEAN MapToUserMode, MEMORY_CACHING_TYPE CacheType, PVOID *VirtualAddress);
/* [7] DxgkCbQueueDpc: nc-dispmprt-dxgkcb_queue_dpc */
typedef BOOLEAN (*DXGKCB_QUEUE_DPC)(HANDLE DeviceHandle);
/* [8] DxgkCbQueryServices: nc-dispmprt-dxgkcb_query_services */
typedef NTSTATUS (*DXGKCB_QUERY_SERVICES)(HANDLE DeviceHandle, DXGK_SERVICES ServicesType, PINTERFACE Interface);
/* [9] DxgkCbReadDeviceSpace: nc-dispmprt-dxgkcb_read_device_space */
typedef NTSTATUS (*DXGKCB_READ_DEVICE_SPACE)(HANDLE DeviceHandle, ULONG DataType, PVOID Buffer, ULONG Offset, ULONG Length, PULONG BytesRead);
/* [10] DxgkCbSynchronizeExecution: nc-dispmprt-dxgkcb_synchronize_execution */
typedef NTSTATUS (*DXGKCB_SYNCHRONIZE_EXECUTION)(HANDLE DeviceHandle, PKSYNCHRONIZE_ROUTINE SynchronizeRoutine, PVOID Context, ULONG MessageNumber, PBOOLEAN ReturnValue);
/* [11] DxgkCbUnmapMemory: nc-dispmprt-dxgkcb_unmap_memory */
typedef NTSTATUS (*DXGKCB_UNMAP_MEMORY)(HANDLE DeviceHandle, PVOID VirtualAddress);
/* [12] DxgkCbWriteDeviceSpace: nc-dispmprt-dxgkcb_write_device_space */
typedef NTSTATUS (*DXGKCB_WRITE_DEVICE_SPACE)(HANDLE DeviceHandle, ULONG DataType, PVOID Buffer, ULONG Offset, ULONG Length, PULONG BytesWritten);
/* [13] DxgkCbIsDevicePresent: nc-dispmprt-dxgkcb_is_device_present */
typedef NTSTATUS (*DXGKCB_IS_DEVICE_PRESENT)(HANDLE DeviceHandle, PPCI_DEVICE_PRESENCE_PARAMETERS DevicePresenceParameters, PBOOLEAN DevicePresent);
/* [14] DxgkCbGetHandleData: nc-d3dkmddi-dxgkcb_gethandledata   -- NO DeviceHandle */
typedef VOID * (*DXGKCB_GETHANDLEDATA)(const DXGKARGCB_GETHANDLEDATA *unnamedParam1);
/* [15] DxgkCbGetHandleParent: nc-d3dkmddi-dxgkcb_gethandleparent   -- NO DeviceHandle */
typedef D3DKMT_HANDLE (*DXGKCB_GETHANDLEPARENT)(D3DKMT_HANDLE hAllocation);
/* [16] DxgkCbEnumHandleChildren: nc-d3dkmddi-dxgkcb_enumhandlechildren   -- NO DeviceHandle */
typedef D3DKMT_HANDLE (*DXGKCB_ENUMHANDLECHILDREN)(const DXGKARGCB_ENUMHANDLECHILDREN *unnamedParam1);
typedef NTSTATUS (*DXGKCB_QUERYVIDPNINTERFACE)(const D3DKMDT_HVIDPN hVidPn, const DXGK_VIDPN_INTERFACE_VERSION VidPnInterfaceVersion, const DXGK_VIDPN_INTERFACE **ppVidPnInterface);
typedef NTSTATUS (*DXGKCB_QUERYMONITORINTERFACE)(const HANDLE hAdapter, const DXGK_MONITOR_INTERFACE_VERSION MonitorInterfaceVersion, const DXGK_MONITOR_INTERFACE **ppMonitorInterface);
/* [21] DxgkCbGetCaptureAddress: nc-d3dkmddi-dxgkcb_getcaptureaddress   -- NO DeviceHandle */
typedef NTSTATUS (*DXGKCB_GETCAPTUREADDRESS)(DXGKARGCB_GETCAPTUREADDRESS *unnamedParam1);
/* [22] DxgkCbLogEtwEvent: nc-dispmprt-dxgkcb_log_etw_event   -- NO DeviceHandle */
typedef VOID (*DXGKCB_LOG_ETW_EVENT)(const LPCGUID EventGuid, UCHAR Type, USHORT EventBufferSize, PVOID EventBuffer);
/* [23] DxgkCbExcludeAdapterAccess: nc-dispmprt-dxgkcb_exclude_adapter_access */
typedef NTSTATUS (*DXGKCB_EXCLUDE_ADAPTER_ACCESS)(HANDLE DeviceHandle, ULONG Attributes, DXGKDDI_PROTECTED_CALLBACK DxgkProtectedCallback, PVOID ProtectedCallbackContext);
/* [26] DxgkCbSetPowerComponentActive: nc-d3dkmddi-dxgkcb_setpowercomponentactive */
typedef VOID (*DXGKCB_SETPOWERCOMPONENTACTIVE)(const HANDLE hAdapter, UINT ComponentIndex);
/* [27] DxgkCbSetPowerComponentIdle: nc-d3dkmddi-dxgkcb_setpowercomponentidle */
typedef VOID (*DXGKCB_SETPOWERCOMPONENTIDLE)(const HANDLE hAdapter, UINT ComponentIndex);
/* [28] DxgkCbAcquirePostDisplayOwnership: nc-dispmprt-dxgkcb_acquire_post_display_ownership */
typedef NTSTATUS (*DXGKCB_ACQUIRE_POST_DISPLAY_OWNERSHIP)(HANDLE DeviceHandle, PDXGK_DISPLAY_INFORMATION DisplayInfo);
/* [29] DxgkCbPowerRuntimeControlRequest: nc-d3dkmddi-dxgkcb_powerruntimecontrolrequest */
typedef NTSTATUS (*DXGKCB_POWERRUNTIMECONTROLREQUEST)(const HANDLE hAdapter, LPCGUID PowerControlCode, PVOID InBuffer, SIZE_T InBufferSize, PVOID OutBuffer, SIZE_T OutBufferSize, PSIZE_T BytesReturned);
/* [30] DxgkCbSetPowerComponentLatency: nc-d3dkmddi-dxgkcb_setpowercomponentlatency */
typedef VOID (*DXGKCB_SETPOWERCOMPONENTLATENCY)(const HANDLE hAdapter, UINT ComponentIndex, ULONGLONG Latency);
/* [31] DxgkCbSetPowerComponentResidency: nc-d3dkmddi-dxgkcb_setpowercomponentresidency */
typedef VOID (*DXGKCB_SETPOWERCOMPONENTRESIDENCY)(const HANDLE hAdapter, UINT ComponentIndex, ULONGLONG Residency);
/* [32] DxgkCbCompleteFStateTransition: nc-d3dkmddi-dxgkcb_completefstatetransition */
typedef VOID (*DXGKCB_COMPLETEFSTATETRANSITION)(const HANDLE hAdapter, UINT ComponentIndex);
/* [33] DxgkCbCompletePStateTransition: nc-d3dkmddi-dxgkcb_completepstatetransition */
typedef VOID (*DXGKCB_COMPLETEPSTATETRANSITION)(const HANDLE hAdapter, UINT ComponentIndex, UINT CompletedPState);
typedef D3DGPU_VIRTUAL_ADDRESS (*DXGKCB_MAPCONTEXTALLOCATION)(const HANDLE hAdapter, const DXGKARGCB_MAPCONTEXTALLOCATION *pArgs);
/* [36] DxgkCbReserveGpuVirtualAddressRange: nc-d3dkmddi-dxgkcb_reservegpuvirtualaddressrange */
typedef NTSTATUS (*DXGKCB_RESERVEGPUVIRTUALADDRESSRANGE)(const HANDLE hAdapter, DXGKARGCB_RESERVEGPUVIRTUALADDRESSRANGE *pArgs);
/* [37] DxgkCbAcquireHandleData: nc-d3dkmddi-dxgkcb_acquirehandledata   -- NO DeviceHandle */
typedef VOID * (*DXGKCB_ACQUIREHANDLEDATA)(const DXGKARGCB_GETHANDLEDATA *unnamedParam1, PDXGKARG_RELEASE_HANDLE unnamedParam2);
/* [38] DxgkCbReleaseHandleData: nc-d3dkmddi-dxgkcb_releasehandledata   -- NO DeviceHandle */
typedef VOID (*DXGKCB_RELEASEHANDLEDATA)(const DXGKARGCB_RELEASEHANDLEDATA unnamedParam1);
/* [39] DxgkCbHardwareContentProtectionTeardown: nc-d3dkmddi-dxgkcb_hardwarecontentprotectionteardown */
typedef VOID (*DXGKCB_HARDWARECONTENTPROTECTIONTEARDOWN)(const HANDLE hAdapter, UINT Flags);
typedef VOID (*DXGKCB_MULTIPLANEOVERLAYDISABLED)(const HANDLE hAdapter, UINT VidPnSourceId);
typedef VOID (*DXGKCB_DXGKCB_MITIGATEDRANGEUPDATE)(const HANDLE hAdapter, ULONG VirtualFunctionIndex);
/* [42] DxgkCbInvalidateHwContext: nc-d3dkmddi-dxgkcb_invalidatehwcontext   -- NO DeviceHandle */
typedef NTSTATUS (*DXGKCB_INVALIDATEHWCONTEXT)(const DXGKARGCB_INVALIDATEHWCONTEXT *unnamedParam1);
/* [43] DxgkCbIndicateConnectorChange: nc-d3dkmddi-dxgkcb_indicate_connector_change */
typedef NTSTATUS (*DXGKCB_INDICATE_CONNECTOR_CHANGE)(const HANDLE hAdapter);
typedef NTSTATUS (*DXGKCB_UNBLOCKUEFIFRAMEBUFFERRANGES)(const HANDLE hAdapter, const DXGK_SEGMENTMEMORYSTATE *pSegmentMemoryState);
/* [45] DxgkCbAcquirePostDisplayOwnership2: nc-dispmprt-dxgkcb_acquire_post_display_ownership2 */
typedef NTSTATUS (*DXGKCB_ACQUIRE_POST_DISPLAY_OWNERSHIP2)(HANDLE DeviceHandle, PDXGK_DISPLAY_INFORMATION DisplayInfo, PDXGK_DISPLAY_OWNERSHIP_FLAGS Flags);
typedef NTSTATUS (*DXGKCB_SETPROTECTEDSESSIONSTATUS)(const DXGKARGCB_PROTECTEDSESSIONSTATUS *pProtectedSessionStatus);

/* ------------------------------------------------------------------ */
/* DRIVER_INITIALIZATION_DATA (docs/wddm-ddi-tables.md, section 1)      */
/* ------------------------------------------------------------------ */

/* What DriverEntry hands DxgkInitialize: Version, then every DDI in the
 * WDK's order. A member newer than the driver's Version is absent: the
 * kit reads only the members that Version defines, and takes the
 * versions of WDDM 1.3 to 2.3 (docs/writing-a-driver.md). */
struct _DRIVER_INITIALIZATION_DATA {
    ULONG                                        Version; /* 0x000 base */
    PDXGKDDI_ADD_DEVICE                          DxgkDdiAddDevice; /* 0x008 base */
    PDXGKDDI_START_DEVICE                        DxgkDdiStartDevice; /* 0x010 base */
    PDXGKDDI_STOP_DEVICE                         DxgkDdiStopDevice; /* 0x018 base */
    PDXGKDDI_REMOVE_DEVICE                       DxgkDdiRemoveDevice; /* 0x020 base */
    PDXGKDDI_DISPATCH_IO_REQUEST                 DxgkDdiDispatchIoRequest; /* 0x028 base */
    PDXGKDDI_INTERRUPT_ROUTINE                   DxgkDdiInterruptRoutine; /* 0x030 base */
    PDXGKDDI_DPC_ROUTINE                         DxgkDdiDpcRoutine; /* 0x038 base */
    PDXGKDDI_QUERY_CHILD_RELATIONS               DxgkDdiQueryChildRelations; /* 0x040 base */
    PDXGKDDI_QUERY_CHILD_STATUS                  DxgkDdiQueryChildStatus; /* 0x048 base */
    PDXGKDDI_QUERY_DEVICE_DESCRIPTOR             DxgkDdiQueryDeviceDescriptor; /* 0x050 base */
    PDXGKDDI_SET_POWER_STATE                     DxgkDdiSetPowerState; /* 0x058 base */
    PDXGKDDI_NOTIFY_ACPI_EVENT                   DxgkDdiNotifyAcpiEvent; /* 0x060 base */
    PDXGKDDI_RESET_DEVICE                        DxgkDdiResetDevice; /* 0x068 base */
    PDXGKDDI_UNLOAD                              DxgkDdiUnload; /* 0x070 base */
    PDXGKDDI_QUERY_INTERFACE                     DxgkDdiQueryInterface; /* 0x078 base */
    PDXGKDDI_CONTROL_ETW_LOGGING                 DxgkDdiControlEtwLogging; /* 0x080 base */
    PDXGKDDI_QUERYADAPTERINFO                    DxgkDdiQueryAdapterInfo; /* 0x088 base */
    PDXGKDDI_CREATEDEVICE                        DxgkDdiCreateDevice; /* 0x090 base */
    PDXGKDDI_CREATEALLOCATION                    DxgkDdiCreateAllocation; /* 0x098 base */
    PDXGKDDI_DESTROYALLOCATION                   DxgkDdiDestroyAllocation; /* 0x0A0 base */
    PDXGKDDI_DESCRIBEALLOCATION                  DxgkDdiDescribeAllocation; /* 0x0A8 base */
    PDXGKDDI_GETSTANDARDALLOCATIONDRIVERDATA     DxgkDdiGetStandardAllocationDriverData; /* 0x0B0 base */
    PDXGKDDI_ACQUIRESWIZZLINGRANGE               DxgkDdiAcquireSwizzlingRange; /* 0x0B8 base */
    PDXGKDDI_RELEASESWIZZLINGRANGE               DxgkDdiReleaseSwizzlingRange; /* 0x0C0 base */
    PDXGKDDI_PATCH                               DxgkDdiPatch; /* 0x0C8 base */
    PDXGKDDI_SUBMITCOMMAND                       DxgkDdiSubmitCommand; /* 0x0D0 base */
    PDXGKDDI_PREEMPTCOMMAND                      DxgkDdiPreemptCommand; /* 0x0D8 base */
    PDXGKDDI_BUILDPAGINGBUFFER                   DxgkDdiBuildPagingBuffer; /* 0x0E0 base */
    PDXGKDDI_SETPALETTE                          DxgkDdiSetPalette; /* 0x0E8 base */
    PDXGKDDI_SETPOINTERPOSITION                  DxgkDdiSetPointerPosition; /* 0x0F0 base */
    PDXGKDDI_SETPOINTERSHAPE                     DxgkDdiSetPointerShape; /* 0x0F8 base */
    PDXGKDDI_RESETFROMTIMEOUT                    DxgkDdiResetFromTimeout; /* 0x100 base */
    PDXGKDDI_RESTARTFROMTIMEOUT                  DxgkDdiRestartFromTimeout; /* 0x108 base */
    PDXGKDDI_ESCAPE                              DxgkDdiEscape; /* 0x110 base */
    PDXGKDDI_COLLECTDBGINFO                      DxgkDdiCollectDbgInfo; /* 0x118 base */
    PDXGKDDI_QUERYCURRENTFENCE                   DxgkDdiQueryCurrentFence; /* 0x120 base */
    PDXGKDDI_ISSUPPORTEDVIDPN                    DxgkDdiIsSupportedVidPn; /* 0x128 base */
    PDXGKDDI_RECOMMENDFUNCTIONALVIDPN            DxgkDdiRecommendFunctionalVidPn; /* 0x130 base */
    PDXGKDDI_ENUMVIDPNCOFUNCMODALITY             DxgkDdiEnumVidPnCofuncModality; /* 0x138 base */
    PDXGKDDI_SETVIDPNSOURCEADDRESS               DxgkDdiSetVidPnSourceAddress; /* 0x140 base */
    PDXGKDDI_SETVIDPNSOURCEVISIBILITY            DxgkDdiSetVidPnSourceVisibility; /* 0x148 base */
    PDXGKDDI_COMMITVIDPN                         DxgkDdiCommitVidPn; /* 0x150 base */
    PDXGKDDI_UPDATEACTIVEVIDPNPRESENTPATH        DxgkDdiUpdateActiveVidPnPresentPath; /* 0x158 base */
    PDXGKDDI_RECOMMENDMONITORMODES               DxgkDdiRecommendMonitorModes; /* 0x160 base */
    PDXGKDDI_RECOMMENDVIDPNTOPOLOGY              DxgkDdiRecommendVidPnTopology; /* 0x168 base */
    PDXGKDDI_GETSCANLINE                         DxgkDdiGetScanLine; /* 0x170 base */
    PDXGKDDI_STOPCAPTURE                         DxgkDdiStopCapture; /* 0x178 base */
    PDXGKDDI_CONTROLINTERRUPT                    DxgkDdiControlInterrupt; /* 0x180 base */
    PDXGKDDI_CREATEOVERLAY                       DxgkDdiCreateOverlay; /* 0x188 base */
    PDXGKDDI_DESTROYDEVICE                       DxgkDdiDestroyDevice; /* 0x190 base */
    PDXGKDDI_OPENALLOCATIONINFO                  DxgkDdiOpenAllocation; /* 0x198 base */
    PDXGKDDI_CLOSEALLOCATION                     DxgkDdiCloseAllocation; /* 0x1A0 base */
    PDXGKDDI_RENDER                              DxgkDdiRender; /* 0x1A8 base */
    PDXGKDDI_PRESENT                             DxgkDdiPresent; /* 0x1B0 base */
    PDXGKDDI_UPDATEOVERLAY                       DxgkDdiUpdateOverlay; /* 0x1B8 base */
    PDXGKDDI_FLIPOVERLAY                         DxgkDdiFlipOverlay; /* 0x1C0 base */
    PDXGKDDI_DESTROYOVERLAY                      DxgkDdiDestroyOverlay; /* 0x1C8 base */
    PDXGKDDI_CREATECONTEXT                       DxgkDdiCreateContext; /* 0x1D0 base */
    PDXGKDDI_DESTROYCONTEXT                      DxgkDdiDestroyContext; /* 0x1D8 base */
    PDXGKDDI_LINK_DEVICE                         DxgkDdiLinkDevice; /* 0x1E0 base */
    PDXGKDDI_SETDISPLAYPRIVATEDRIVERFORMAT       DxgkDdiSetDisplayPrivateDriverFormat; /* 0x1E8 base */
    PVOID                                        DxgkDdiDescribePageTable; /* 0x1F0 >= WIN7 */
    PVOID                                        DxgkDdiUpdatePageTable; /* 0x1F8 >= WIN7 */
    PVOID                                        DxgkDdiUpdatePageDirectory; /* 0x200 >= WIN7 */
    PVOID                                        DxgkDdiMovePageDirectory; /* 0x208 >= WIN7 */
    PVOID                                        DxgkDdiSubmitRender; /* 0x210 >= WIN7 */
    PVOID                                        DxgkDdiCreateAllocation2; /* 0x218 >= WIN7 */
    PDXGKDDI_RENDER                              DxgkDdiRenderKm; /* 0x220 >= WIN7 */
    PVOID                                        Reserved; /* 0x228 >= WIN7 */
    PDXGKDDI_QUERYVIDPNHWCAPABILITY              DxgkDdiQueryVidPnHWCapability; /* 0x230 >= WIN7 */
    PDXGKDDISETPOWERCOMPONENTFSTATE              DxgkDdiSetPowerComponentFState; /* 0x238 >= WIN8 */
    PDXGKDDI_QUERYDEPENDENTENGINEGROUP           DxgkDdiQueryDependentEngineGroup; /* 0x240 >= WIN8 */
    PDXGKDDI_QUERYENGINESTATUS                   DxgkDdiQueryEngineStatus; /* 0x248 >= WIN8 */
    PDXGKDDI_RESETENGINE                         DxgkDdiResetEngine; /* 0x250 >= WIN8 */
    PDXGKDDI_STOP_DEVICE_AND_RELEASE_POST_DISPLAY_OWNERSHIP DxgkDdiStopDeviceAndReleasePostDisplayOwnership; /* 0x258 >= WIN8 */
    PDXGKDDI_SYSTEM_DISPLAY_ENABLE               DxgkDdiSystemDisplayEnable; /* 0x260 >= WIN8 */
    PDXGKDDI_SYSTEM_DISPLAY_WRITE                DxgkDdiSystemDisplayWrite; /* 0x268 >= WIN8 */
    PDXGKDDI_CANCELCOMMAND                       DxgkDdiCancelCommand; /* 0x270 >= WIN8 */
    PDXGKDDI_GET_CHILD_CONTAINER_ID              DxgkDdiGetChildContainerId; /* 0x278 >= WIN8 */
    PDXGKDDIPOWERRUNTIMECONTROLREQUEST           DxgkDdiPowerRuntimeControlRequest; /* 0x280 >= WIN8 */
    PDXGKDDI_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay; /* 0x288 >= WIN8 */
    PDXGKDDI_NOTIFY_SURPRISE_REMOVAL             DxgkDdiNotifySurpriseRemoval; /* 0x290 >= WIN8 */
    PDXGKDDI_GETNODEMETADATA                     DxgkDdiGetNodeMetadata; /* 0x298 >= WDDM1_3 */
    PDXGKDDISETPOWERPSTATE                       DxgkDdiSetPowerPState; /* 0x2A0 >= WDDM1_3 */
    PDXGKDDI_CONTROLINTERRUPT2                   DxgkDdiControlInterrupt2; /* 0x2A8 >= WDDM1_3 */
    PDXGKDDI_CHECKMULTIPLANEOVERLAYSUPPORT       DxgkDdiCheckMultiPlaneOverlaySupport; /* 0x2B0 >= WDDM1_3 */
    PDXGKDDI_CALIBRATEGPUCLOCK                   DxgkDdiCalibrateGpuClock; /* 0x2B8 >= WDDM1_3 */
    PDXGKDDI_FORMATHISTORYBUFFER                 DxgkDdiFormatHistoryBuffer; /* 0x2C0 >= WDDM1_3 */
    PDXGKDDI_RENDERGDI                           DxgkDdiRenderGdi; /* 0x2C8 >= WDDM2_0 */
    PDXGKDDI_SUBMITCOMMANDVIRTUAL                DxgkDdiSubmitCommandVirtual; /* 0x2D0 >= WDDM2_0 */
    PDXGKDDI_SETROOTPAGETABLE                    DxgkDdiSetRootPageTable; /* 0x2D8 >= WDDM2_0 */
    PDXGKDDI_GETROOTPAGETABLESIZE                DxgkDdiGetRootPageTableSize; /* 0x2E0 >= WDDM2_0 */
    PDXGKDDI_MAPCPUHOSTAPERTURE                  DxgkDdiMapCpuHostAperture; /* 0x2E8 >= WDDM2_0 */
    PDXGKDDI_UNMAPCPUHOSTAPERTURE                DxgkDdiUnmapCpuHostAperture; /* 0x2F0 >= WDDM2_0 */
    PDXGKDDI_CHECKMULTIPLANEOVERLAYSUPPORT2      DxgkDdiCheckMultiPlaneOverlaySupport2; /* 0x2F8 >= WDDM2_0 */
    PDXGKDDI_CREATEPROCESS                       DxgkDdiCreateProcess; /* 0x300 >= WDDM2_0 */
    PDXGKDDI_DESTROYPROCESS                      DxgkDdiDestroyProcess; /* 0x308 >= WDDM2_0 */
    PDXGKDDI_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY2 DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay2; /* 0x310 >= WDDM2_0 */
    PVOID                                        Reserved1; /* 0x318 >= WDDM2_0 */
    PVOID                                        Reserved2; /* 0x320 >= WDDM2_0 */
    PDXGKDDI_POWERRUNTIMESETDEVICEHANDLE         DxgkDdiPowerRuntimeSetDeviceHandle; /* 0x328 >= WDDM2_0 */
    PDXGKDDI_SETSTABLEPOWERSTATE                 DxgkDdiSetStablePowerState; /* 0x330 >= WDDM2_0 */
    PDXGKDDI_SETVIDEOPROTECTEDREGION             DxgkDdiSetVideoProtectedRegion; /* 0x338 >= WDDM2_0 */
    PDXGKDDI_CHECKMULTIPLANEOVERLAYSUPPORT3      DxgkDdiCheckMultiPlaneOverlaySupport3; /* 0x340 >= WDDM2_1 */
    PDXGKDDI_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY3 DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay3; /* 0x348 >= WDDM2_1 */
    PDXGKDDI_POSTMULTIPLANEOVERLAYPRESENT        DxgkDdiPostMultiPlaneOverlayPresent; /* 0x350 >= WDDM2_1 */
    PDXGKDDI_VALIDATEUPDATEALLOCATIONPROPERTY    DxgkDdiValidateUpdateAllocationProperty; /* 0x358 >= WDDM2_1 */
    PDXGKDDI_CONTROLMODEBEHAVIOR                 DxgkDdiControlModeBehavior; /* 0x360 >= WDDM2_1 */
    PDXGKDDI_UPDATEMONITORLINKINFO               DxgkDdiUpdateMonitorLinkInfo; /* 0x368 >= WDDM2_1 */
    PDXGKDDI_CREATEHWCONTEXT                     DxgkDdiCreateHwContext; /* 0x370 >= WDDM2_2 */
    PDXGKDDI_DESTROYHWCONTEXT                    DxgkDdiDestroyHwContext; /* 0x378 >= WDDM2_2 */
    PDXGKDDI_CREATEHWQUEUE                       DxgkDdiCreateHwQueue; /* 0x380 >= WDDM2_2 */
    PDXGKDDI_DESTROYHWQUEUE                      DxgkDdiDestroyHwQueue; /* 0x388 >= WDDM2_2 */
    PDXGKDDI_SUBMITCOMMANDTOHWQUEUE              DxgkDdiSubmitCommandToHwQueue; /* 0x390 >= WDDM2_2 */
    PDXGKDDI_SWITCHTOHWCONTEXTLIST               DxgkDdiSwitchToHwContextList; /* 0x398 >= WDDM2_2 */
    PDXGKDDI_RESETHWENGINE                       DxgkDdiResetHwEngine; /* 0x3A0 >= WDDM2_2 */
    PDXGKDDI_CREATEPERIODICFRAMENOTIFICATION     DxgkDdiCreatePeriodicFrameNotification; /* 0x3A8 >= WDDM2_2 */
    PDXGKDDI_DESTROYPERIODICFRAMENOTIFICATION    DxgkDdiDestroyPeriodicFrameNotification; /* 0x3B0 >= WDDM2_2 */
    PDXGKDDI_SETTIMINGSFROMVIDPN                 DxgkDdiSetTimingsFromVidPn; /* 0x3B8 >= WDDM2_2 */
    PDXGKDDI_SETTARGETGAMMA                      DxgkDdiSetTargetGamma; /* 0x3C0 >= WDDM2_2 */
    PDXGKDDI_SETTARGETCONTENTTYPE                DxgkDdiSetTargetContentType; /* 0x3C8 >= WDDM2_2 */
    PDXGKDDI_SETTARGETANALOGCOPYPROTECTION       DxgkDdiSetTargetAnalogCopyProtection; /* 0x3D0 >= WDDM2_2 */
    PDXGKDDI_SETTARGETADJUSTEDCOLORIMETRY        DxgkDdiSetTargetAdjustedColorimetry; /* 0x3D8 >= WDDM2_2 */
    PDXGKDDI_DISPLAYDETECTCONTROL                DxgkDdiDisplayDetectControl; /* 0x3E0 >= WDDM2_2 */
    PDXGKDDI_QUERYCONNECTIONCHANGE               DxgkDdiQueryConnectionChange; /* 0x3E8 >= WDDM2_2 */
    PDXGKDDI_EXCHANGEPRESTARTINFO                DxgkDdiExchangePreStartInfo; /* 0x3F0 >= WDDM2_2 */
    PDXGKDDI_GETMULTIPLANEOVERLAYCAPS            DxgkDdiGetMultiPlaneOverlayCaps; /* 0x3F8 >= WDDM2_2 */
    PDXGKDDI_GETPOSTCOMPOSITIONCAPS              DxgkDdiGetPostCompositionCaps; /* 0x400 >= WDDM2_2 */
    PDXGKDDI_UPDATEHWCONTEXTSTATE                DxgkDdiUpdateHwContextState; /* 0x408 >= WDDM2_3 */
    PDXGKDDI_CREATEPROTECTEDSESSION              DxgkDdiCreateProtectedSession; /* 0x410 >= WDDM2_3 */
    PDXGKDDI_DESTROYPROTECTEDSESSION             DxgkDdiDestroyProtectedSession; /* 0x418 >= WDDM2_3 */
};

/* ------------------------------------------------------------------ */
/* DXGKRNL_INTERFACE (docs/wddm-ddi-tables.md, section 2)               */
/* ------------------------------------------------------------------ */

/* The kit's own services, after the Windows members (a driver of the GPU
 * model reads its registers and its adapter through them; a driver for
 * other hardware never needs them). */
typedef ULONG (*WKCB_READ_REGISTER32)(const HANDLE hAdapter, ULONG Offset);
typedef VOID (*WKCB_WRITE_REGISTER32)(const HANDLE hAdapter, ULONG Offset, ULONG Value);
/* The GPU model's description (segments, banks, system memory), NULL when
 * the adapter is not the kit's model. */
typedef const struct wk_gpu_desc *(*WKCB_GET_GPU_DESCRIPTION)(const HANDLE hAdapter);

/* What StartDevice receives: every callback answers (the ones the kit does
 * not model say STATUS_NOT_SUPPORTED, or do nothing, and are counted). */
struct _DXGKRNL_INTERFACE {
    ULONG                                        Size; /* 0x000 base */
    ULONG                                        Version; /* 0x004 base */
    HANDLE                                       DeviceHandle; /* 0x008 base */
    DXGKCB_EVAL_ACPI_METHOD                      DxgkCbEvalAcpiMethod; /* 0x010 base */
    DXGKCB_GET_DEVICE_INFORMATION                DxgkCbGetDeviceInformation; /* 0x018 base */
    DXGKCB_INDICATE_CHILD_STATUS                 DxgkCbIndicateChildStatus; /* 0x020 base */
    DXGKCB_MAP_MEMORY                            DxgkCbMapMemory; /* 0x028 base */
    DXGKCB_QUEUE_DPC                             DxgkCbQueueDpc; /* 0x030 base */
    DXGKCB_QUERY_SERVICES                        DxgkCbQueryServices; /* 0x038 base */
    DXGKCB_READ_DEVICE_SPACE                     DxgkCbReadDeviceSpace; /* 0x040 base */
    DXGKCB_SYNCHRONIZE_EXECUTION                 DxgkCbSynchronizeExecution; /* 0x048 base */
    DXGKCB_UNMAP_MEMORY                          DxgkCbUnmapMemory; /* 0x050 base */
    DXGKCB_WRITE_DEVICE_SPACE                    DxgkCbWriteDeviceSpace; /* 0x058 base */
    DXGKCB_IS_DEVICE_PRESENT                     DxgkCbIsDevicePresent; /* 0x060 base */
    DXGKCB_GETHANDLEDATA                         DxgkCbGetHandleData; /* 0x068 base */
    DXGKCB_GETHANDLEPARENT                       DxgkCbGetHandleParent; /* 0x070 base */
    DXGKCB_ENUMHANDLECHILDREN                    DxgkCbEnumHandleChildren; /* 0x078 base */
    DXGKCB_NOTIFY_INTERRUPT                      DxgkCbNotifyInterrupt; /* 0x080 base */
    DXGKCB_NOTIFY_DPC                            DxgkCbNotifyDpc; /* 0x088 base */
    DXGKCB_QUERYVIDPNINTERFACE                   DxgkCbQueryVidPnInterface; /* 0x090 base */
    DXGKCB_QUERYMONITORINTERFACE                 DxgkCbQueryMonitorInterface; /* 0x098 base */
    DXGKCB_GETCAPTUREADDRESS                     DxgkCbGetCaptureAddress; /* 0x0A0 base */
    DXGKCB_LOG_ETW_EVENT                         DxgkCbLogEtwEvent; /* 0x0A8 base */
    DXGKCB_EXCLUDE_ADAPTER_ACCESS                DxgkCbExcludeAdapterAccess; /* 0x0B0 base */
    DXGKCB_CREATECONTEXTALLOCATION               DxgkCbCreateContextAllocation; /* 0x0B8 >= WIN8 */
    DXGKCB_DESTROYCONTEXTALLOCATION              DxgkCbDestroyContextAllocation; /* 0x0C0 >= WIN8 */
    DXGKCB_SETPOWERCOMPONENTACTIVE               DxgkCbSetPowerComponentActive; /* 0x0C8 >= WIN8 */
    DXGKCB_SETPOWERCOMPONENTIDLE                 DxgkCbSetPowerComponentIdle; /* 0x0D0 >= WIN8 */
    DXGKCB_ACQUIRE_POST_DISPLAY_OWNERSHIP        DxgkCbAcquirePostDisplayOwnership; /* 0x0D8 >= WIN8 */
    DXGKCB_POWERRUNTIMECONTROLREQUEST            DxgkCbPowerRuntimeControlRequest; /* 0x0E0 >= WIN8 */
    DXGKCB_SETPOWERCOMPONENTLATENCY              DxgkCbSetPowerComponentLatency; /* 0x0E8 >= WIN8 */
    DXGKCB_SETPOWERCOMPONENTRESIDENCY            DxgkCbSetPowerComponentResidency; /* 0x0F0 >= WIN8 */
    DXGKCB_COMPLETEFSTATETRANSITION              DxgkCbCompleteFStateTransition; /* 0x0F8 >= WIN8 */
    DXGKCB_COMPLETEPSTATETRANSITION              DxgkCbCompletePStateTransition; /* 0x100 >= WDDM1_3 */
    DXGKCB_MAPCONTEXTALLOCATION                  DxgkCbMapContextAllocation; /* 0x108 >= WDDM2_0 */
    DXGKCB_UPDATECONTEXTALLOCATION               DxgkCbUpdateContextAllocation; /* 0x110 >= WDDM2_0 */
    DXGKCB_RESERVEGPUVIRTUALADDRESSRANGE         DxgkCbReserveGpuVirtualAddressRange; /* 0x118 >= WDDM2_0 */
    DXGKCB_ACQUIREHANDLEDATA                     DxgkCbAcquireHandleData; /* 0x120 >= WDDM2_0 */
    DXGKCB_RELEASEHANDLEDATA                     DxgkCbReleaseHandleData; /* 0x128 >= WDDM2_0 */
    DXGKCB_HARDWARECONTENTPROTECTIONTEARDOWN     DxgkCbHardwareContentProtectionTeardown; /* 0x130 >= WDDM2_0 */
    DXGKCB_MULTIPLANEOVERLAYDISABLED             DxgkCbMultiPlaneOverlayDisabled; /* 0x138 >= WDDM2_1 */
    DXGKCB_DXGKCB_MITIGATEDRANGEUPDATE           DxgkCbMitigatedRangeUpdate; /* 0x140 >= WDDM2_1 */
    DXGKCB_INVALIDATEHWCONTEXT                   DxgkCbInvalidateHwContext; /* 0x148 >= WDDM2_2 */
    DXGKCB_INDICATE_CONNECTOR_CHANGE             DxgkCbIndicateConnectorChange; /* 0x150 >= WDDM2_2 */
    DXGKCB_UNBLOCKUEFIFRAMEBUFFERRANGES          DxgkCbUnblockUEFIFrameBufferRanges; /* 0x158 >= WDDM2_2 */
    DXGKCB_ACQUIRE_POST_DISPLAY_OWNERSHIP2       DxgkCbAcquirePostDisplayOwnership2; /* 0x160 >= WDDM2_2 */
    DXGKCB_SETPROTECTEDSESSIONSTATUS             DxgkCbSetProtectedSessionStatus; /* 0x168 >= WDDM2_3 */
    /* The kit's services: not Windows members, at 0x170 and on. */
    WKCB_READ_REGISTER32 WkReadRegister32;
    WKCB_WRITE_REGISTER32 WkWriteRegister32;
    WKCB_GET_GPU_DESCRIPTION WkGetGpuDescription;
};

#ifdef __cplusplus
}
#endif

#endif /* WDDMKIT_DISPMPRT_H */
