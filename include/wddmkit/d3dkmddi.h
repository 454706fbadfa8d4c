/* SPDX-License-Identifier: MIT */
/*
 * wddmkit/d3dkmddi.h - the WDDM kernel-mode DDI vocabulary, rebuilt for a
 * Linux host.
 *
 * A driver under test is compiled against this header instead of the WDK, so
 * every type, field and constant keeps its real WDDM name, and every struct
 * keeps the Windows x64 (LLP64) layout: UINT/ULONG/LONG are 32 bits, pointers,
 * HANDLE and SIZE_T are 64 bits, enums are 4 bytes. The base types are spelled
 * with <stdint.h> widths (never C `long`, which is 64 bits on LP64 Linux), and
 * the main structs carry size asserts here, so a wrong layout stops the build
 * of every user rather than corrupting a fuzz run. Field offsets are pinned in
 * tests/test_d3dkmddi_layout.c.
 *
 * One interface version is supported: DXGKDDI_INTERFACE_VERSION_WDDM2_3
 * (0x8001, WDK 10.0.16299). The version-dependent fields of that release are
 * all present and no #if ladder exists. Two later additions are included on
 * purpose because the kit models them: paging operation 17
 * (MAP_APERTURE_SEGMENT2, WDDM 3.0) with its DXGK_ADL, and the
 * MapAperture2Supported cap that opts into it.
 *
 * What this header deliberately is not: it has no DDI function-pointer table
 * (another header owns that), no Windows header compatibility (it only has to
 * coexist with itself), and three of its types have layouts of the kit's own
 * choosing, marked as such: MDL, DXGK_ADL's placement in the paging arm, and the
 * DXGK_DRIVERCAPS subset. Section numbers such as "facts 4.2" refer to
 * docs/wddm-facts.md; where the public sources disagree (facts 7) the
 * comment at the affected definition says which reading is followed and why.
 *
 * The header is valid C11 and C++11. Anonymous structs inside unions are used
 * exactly as the real header uses them (flags.Aperture, args.Transfer.pMdl);
 * GCC and Clang accept them in C++ unless -Wpedantic is on.
 */
#ifndef WDDMKIT_D3DKMDDI_H
#define WDDMKIT_D3DKMDDI_H

#include <stddef.h>
#include <stdint.h>
#include "wddmkit/kmwchar.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Compile-time check usable from both languages; msg must be a string literal. */
#ifndef WK_STATIC_ASSERT
#ifdef __cplusplus
#define WK_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define WK_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif
#endif

/* ------------------------------------------------------------------------ */
/* Base types (Windows LLP64 widths on any 64-bit host)                      */
/* ------------------------------------------------------------------------ */

WK_STATIC_ASSERT(sizeof(void *) == 8,
                 "wddmkit reproduces the x64 DDI layouts and needs a 64-bit host");

/* One guard for the whole block: the header only coexists with itself. */
#ifndef WK_WDDM_BASE_TYPES_DEFINED
#define WK_WDDM_BASE_TYPES_DEFINED

typedef void VOID;
typedef void *PVOID;
typedef void *HANDLE;

typedef uint8_t BYTE;
typedef uint8_t UCHAR;
typedef uint8_t BOOLEAN;
typedef uint16_t USHORT;
typedef int16_t SHORT;
typedef SHORT CSHORT;
typedef uint32_t UINT;
typedef uint32_t UINT32;
typedef uint32_t ULONG;
typedef uint32_t DWORD;
typedef int32_t INT;
typedef int32_t LONG; /* 32 bits as on Windows, not the LP64 `long` */
typedef int64_t LONGLONG;
typedef uint64_t UINT64;
typedef uint64_t ULONGLONG;
typedef uint64_t ULONG64;
typedef uint64_t SIZE_T;
typedef int32_t NTSTATUS;

/* A 64-bit value with 32-bit halves; used for segment and physical addresses. */
typedef union _LARGE_INTEGER {
    struct {
        ULONG LowPart;
        LONG HighPart;
    };
    struct {
        ULONG LowPart;
        LONG HighPart;
    } u;
    LONGLONG QuadPart;
} LARGE_INTEGER;

typedef LARGE_INTEGER PHYSICAL_ADDRESS;

/* A page frame number: physical address >> PAGE_SHIFT. */
typedef ULONG64 PFN_NUMBER;

typedef ULONGLONG D3DGPU_VIRTUAL_ADDRESS; /* facts 4.2 helper types */
typedef ULONGLONG D3DGPU_SIZE_T;
typedef UINT D3DKMT_HANDLE;
typedef UINT D3DDDI_VIDEO_PRESENT_SOURCE_ID;

#endif /* WK_WDDM_BASE_TYPES_DEFINED */

/* windef.h's single-precision float (added): miniports' hardware tables use
 * it. A typedef may be repeated with the same type. */
typedef float FLOAT;
WK_STATIC_ASSERT(sizeof(FLOAT) == 4, "FLOAT is 4 bytes");

/* dispmprt.h's (and d3dkmddi.h's) opt-in SAL annotations of the DDI
 * typedefs (added): they expand to _IRQL_requires_ etc. only under
 * ENABLE_DXGK_SAL, and to nothing otherwise, as in the WDK of 10.0.16299;
 * in the kit they are always empty. */
#ifndef _IRQL_requires_DXGK_
#define _IRQL_requires_DXGK_(irql)
#endif
#ifndef _Function_class_DXGK_
#define _Function_class_DXGK_(name)
#endif
#ifndef _Field_size_bytes_DXGK_
#define _Field_size_bytes_DXGK_(size)
#endif

WK_STATIC_ASSERT(sizeof(UINT) == 4 && sizeof(ULONG) == 4 && sizeof(LONG) == 4,
                 "32-bit Windows integer types");
WK_STATIC_ASSERT(sizeof(SIZE_T) == 8 && sizeof(HANDLE) == 8,
                 "64-bit SIZE_T and HANDLE");
WK_STATIC_ASSERT(sizeof(LARGE_INTEGER) == 8, "LARGE_INTEGER is 8 bytes");
WK_STATIC_ASSERT(sizeof(BOOLEAN) == 1 && sizeof(USHORT) == 2,
                 "small Windows integer types");

#ifndef PAGE_SIZE
#define PAGE_SIZE 4096
#endif
#ifndef PAGE_SHIFT
#define PAGE_SHIFT 12
#endif
WK_STATIC_ASSERT(PAGE_SIZE == 4096 && (1 << PAGE_SHIFT) == PAGE_SIZE,
                 "WDDM paging works in 4 KB host pages");

/* ------------------------------------------------------------------------ */
/* Interface version (facts 1.2)                                            */
/* ------------------------------------------------------------------------ */

#define DXGKDDI_INTERFACE_VERSION_VISTA 0x1052
#define DXGKDDI_INTERFACE_VERSION_VISTA_SP1 0x1053
#define DXGKDDI_INTERFACE_VERSION_WIN7 0x2005
#define DXGKDDI_INTERFACE_VERSION_WIN8 0x300E
#define DXGKDDI_INTERFACE_VERSION_WDDM1_3 0x4002
#define DXGKDDI_INTERFACE_VERSION_WDDM2_0 0x5023
#define DXGKDDI_INTERFACE_VERSION_WDDM2_1 0x6003
#define DXGKDDI_INTERFACE_VERSION_WDDM2_2 0x700A
#define DXGKDDI_INTERFACE_VERSION_WDDM2_3 0x8001
/* WDDM 3.0 (several public header copies agree on the value). The structs
 * here stay 2.3's; what the kit does with a driver whose
 * DRIVER_INITIALIZATION_DATA.Version says 3.0: it honours
 * DXGK_VIDMMCAPS.MapAperture2Supported (operation 17 in place of 5,
 * docs/writing-a-driver.md) and reads everything else as a 2.3 driver's. */
#define DXGKDDI_INTERFACE_VERSION_WDDM3_0 0xF003

/*
 * The layouts below exist for one version only (facts 7.9: several sizes
 * change with it), so a user asking for another one is refused rather than
 * handed silently wrong structs.
 */
#ifdef DXGKDDI_INTERFACE_VERSION
#if DXGKDDI_INTERFACE_VERSION != 0x8001
#error "wddmkit/d3dkmddi.h supports DXGKDDI_INTERFACE_VERSION_WDDM2_3 only"
#endif
#else
#define DXGKDDI_INTERFACE_VERSION DXGKDDI_INTERFACE_VERSION_WDDM2_3
#endif

/* ------------------------------------------------------------------------ */
/* NTSTATUS (facts 2.1)                                                     */
/* ------------------------------------------------------------------------ */

/*
 * Statuses are written as their unsigned 32-bit pattern and converted to the
 * signed NTSTATUS explicitly, so 0xC....... constants never overflow a signed
 * literal and need no compiler-specific suffix.
 */
#define WK_NTSTATUS(bits) ((NTSTATUS)(int32_t)(uint32_t)(bits))

/* Success and informational codes (severity 0 or 1) are non-negative. */
#define NT_SUCCESS(s) (((NTSTATUS)(s)) >= 0)

#define STATUS_SUCCESS WK_NTSTATUS(0x00000000u)
#define STATUS_UNSUCCESSFUL WK_NTSTATUS(0xC0000001u)
#define STATUS_NOT_IMPLEMENTED WK_NTSTATUS(0xC0000002u)
#define STATUS_ACCESS_VIOLATION WK_NTSTATUS(0xC0000005u)
#define STATUS_INVALID_HANDLE WK_NTSTATUS(0xC0000008u)
#define STATUS_INVALID_PARAMETER WK_NTSTATUS(0xC000000Du)
#define STATUS_NO_MEMORY WK_NTSTATUS(0xC0000017u)
#define STATUS_REVISION_MISMATCH WK_NTSTATUS(0xC0000059u)
#define STATUS_ILLEGAL_INSTRUCTION WK_NTSTATUS(0xC000001Du)
#define STATUS_BUFFER_TOO_SMALL WK_NTSTATUS(0xC0000023u)
#define STATUS_INTEGER_OVERFLOW WK_NTSTATUS(0xC0000095u)
#define STATUS_PRIVILEGED_INSTRUCTION WK_NTSTATUS(0xC0000096u)
#define STATUS_INSUFFICIENT_RESOURCES WK_NTSTATUS(0xC000009Au)
#define STATUS_DEVICE_NOT_CONNECTED WK_NTSTATUS(0xC000009Du)
#define STATUS_NOT_SUPPORTED WK_NTSTATUS(0xC00000BBu)
#define STATUS_INVALID_USER_BUFFER WK_NTSTATUS(0xC00000E8u)
#define STATUS_DEVICE_CONFIGURATION_ERROR WK_NTSTATUS(0xC0000182u)

/* Graphics facility (0x01E). */
#define STATUS_GRAPHICS_NOT_EXCLUSIVE_MODE_OWNER WK_NTSTATUS(0xC01E0000u)
#define STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER WK_NTSTATUS(0xC01E0001u)
#define STATUS_GRAPHICS_INVALID_DISPLAY_ADAPTER WK_NTSTATUS(0xC01E0002u)
#define STATUS_GRAPHICS_ADAPTER_WAS_RESET WK_NTSTATUS(0xC01E0003u)
#define STATUS_GRAPHICS_INVALID_DRIVER_MODEL WK_NTSTATUS(0xC01E0004u)
#define STATUS_GRAPHICS_PRESENT_MODE_CHANGED WK_NTSTATUS(0xC01E0005u)
#define STATUS_GRAPHICS_PRESENT_OCCLUDED WK_NTSTATUS(0xC01E0006u)
#define STATUS_GRAPHICS_PRESENT_DENIED WK_NTSTATUS(0xC01E0007u)
#define STATUS_GRAPHICS_CANNOTCOLORCONVERT WK_NTSTATUS(0xC01E0008u)
#define STATUS_GRAPHICS_DRIVER_MISMATCH WK_NTSTATUS(0xC01E0009u)
#define STATUS_GRAPHICS_PARTIAL_DATA_POPULATED WK_NTSTATUS(0x401E000Au)
#define STATUS_GRAPHICS_NO_VIDEO_MEMORY WK_NTSTATUS(0xC01E0100u)
#define STATUS_GRAPHICS_CANT_LOCK_MEMORY WK_NTSTATUS(0xC01E0101u)
#define STATUS_GRAPHICS_ALLOCATION_BUSY WK_NTSTATUS(0xC01E0102u)
#define STATUS_GRAPHICS_TOO_MANY_REFERENCES WK_NTSTATUS(0xC01E0103u)
#define STATUS_GRAPHICS_TRY_AGAIN_LATER WK_NTSTATUS(0xC01E0104u)
#define STATUS_GRAPHICS_TRY_AGAIN_NOW WK_NTSTATUS(0xC01E0105u)
#define STATUS_GRAPHICS_ALLOCATION_INVALID WK_NTSTATUS(0xC01E0106u)
#define STATUS_GRAPHICS_UNSWIZZLING_APERTURE_UNAVAILABLE WK_NTSTATUS(0xC01E0107u)
#define STATUS_GRAPHICS_UNSWIZZLING_APERTURE_UNSUPPORTED WK_NTSTATUS(0xC01E0108u)
#define STATUS_GRAPHICS_CANT_EVICT_PINNED_ALLOCATION WK_NTSTATUS(0xC01E0109u)
#define STATUS_GRAPHICS_INVALID_ALLOCATION_USAGE WK_NTSTATUS(0xC01E0110u)
#define STATUS_GRAPHICS_CANT_RENDER_LOCKED_ALLOCATION WK_NTSTATUS(0xC01E0111u)
#define STATUS_GRAPHICS_ALLOCATION_CLOSED WK_NTSTATUS(0xC01E0112u)
#define STATUS_GRAPHICS_INVALID_ALLOCATION_INSTANCE WK_NTSTATUS(0xC01E0113u)
#define STATUS_GRAPHICS_INVALID_ALLOCATION_HANDLE WK_NTSTATUS(0xC01E0114u)
#define STATUS_GRAPHICS_WRONG_ALLOCATION_DEVICE WK_NTSTATUS(0xC01E0115u)
#define STATUS_GRAPHICS_ALLOCATION_CONTENT_LOST WK_NTSTATUS(0xC01E0116u)
#define STATUS_GRAPHICS_GPU_EXCEPTION_ON_DEVICE WK_NTSTATUS(0xC01E0200u)
#define STATUS_GRAPHICS_SKIP_ALLOCATION_PREPARATION WK_NTSTATUS(0x401E0201u)

/* ------------------------------------------------------------------------ */
/* Enumerations (facts 1.1, 1.3, 1.4)                                       */
/* ------------------------------------------------------------------------ */

/*
 * The paging operation VidMm asks DxgkDdiBuildPagingBuffer to encode (facts 1.1).
 *
 * Era of 8/9 (facts 7.2): the reference pages call VIRTUAL_TRANSFER and
 * VIRTUAL_FILL "WDDMv1 only"; this header follows the WDK header, which calls
 * them WDDMv2-only, because they carry GPU virtual addresses that only exist in
 * the WDDM 2.x memory model. Operation 17 is a WDDM 3.0 addition (docs only),
 * sent instead of 5 to drivers that set DXGK_VIDMMCAPS.MapAperture2Supported.
 */
typedef enum _DXGK_BUILDPAGINGBUFFER_OPERATION {
    DXGK_OPERATION_TRANSFER = 0,
    DXGK_OPERATION_FILL = 1,
    DXGK_OPERATION_DISCARD_CONTENT = 2,
    DXGK_OPERATION_READ_PHYSICAL = 3,
    DXGK_OPERATION_WRITE_PHYSICAL = 4,
    DXGK_OPERATION_MAP_APERTURE_SEGMENT = 5,
    DXGK_OPERATION_UNMAP_APERTURE_SEGMENT = 6,
    DXGK_OPERATION_SPECIAL_LOCK_TRANSFER = 7,
    DXGK_OPERATION_VIRTUAL_TRANSFER = 8,
    DXGK_OPERATION_VIRTUAL_FILL = 9,
    DXGK_OPERATION_INIT_CONTEXT_RESOURCE = 10,
    DXGK_OPERATION_UPDATE_PAGE_TABLE = 11,
    DXGK_OPERATION_FLUSH_TLB = 12,
    DXGK_OPERATION_UPDATE_CONTEXT_ALLOCATION = 13,
    DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES = 14,
    DXGK_OPERATION_NOTIFY_RESIDENCY = 15,
    DXGK_OPERATION_SIGNAL_MONITORED_FENCE = 16,
    DXGK_OPERATION_MAP_APERTURE_SEGMENT2 = 17
} DXGK_BUILDPAGINGBUFFER_OPERATION;

/*
 * Which question DxgkDdiQueryAdapterInfo is answering (facts 1.3), every
 * value up to interface 2.3 (changed: 6-10 and 16-20 were gaps). Values
 * from the reference page ne-d3dkmddi-_dxgk_queryadapterinfotype (which
 * numbers each, "FIELD:6") and checked against ReactOS' MIT d3dkmddi.h,
 * written from the WDK with its #if guards (the version comments are those
 * guards'). The kit
 * itself asks only the memory-management ones; a driver may still switch on
 * the others (RosKmd answers NUMPOWERCOMPONENTS, POWERCOMPONENTINFO and
 * HISTORYBUFFERPRECISION).
 */
typedef enum _DXGK_QUERYADAPTERINFOTYPE {
    DXGKQAITYPE_UMDRIVERPRIVATE = 0,
    DXGKQAITYPE_DRIVERCAPS = 1,
    DXGKQAITYPE_QUERYSEGMENT = 2,
    DXGKQAITYPE_RESERVED = 3,                      /* WIN7 */
    DXGKQAITYPE_QUERYSEGMENT2 = 4,                 /* WIN7 */
    DXGKQAITYPE_QUERYSEGMENT3 = 5,                 /* WIN8 */
    DXGKQAITYPE_NUMPOWERCOMPONENTS = 6,            /* WIN8: a UINT */
    DXGKQAITYPE_POWERCOMPONENTINFO = 7,            /* WIN8: DXGK_POWER_RUNTIME_COMPONENT */
    DXGKQAITYPE_PREFERREDGPUNODE = 8,              /* WIN8, system use */
    DXGKQAITYPE_POWERCOMPONENTPSTATEINFO = 9,      /* WDDM 1.3, system use */
    DXGKQAITYPE_HISTORYBUFFERPRECISION = 10,       /* WDDM 1.3: DXGKARG_HISTORYBUFFERPRECISION */
    DXGKQAITYPE_QUERYSEGMENT4 = 11,                /* WDDM 2.0 */
    DXGKQAITYPE_SEGMENTMEMORYSTATE = 12,           /* WDDM 2.0 */
    DXGKQAITYPE_GPUMMUCAPS = 13,                   /* WDDM 2.0 */
    DXGKQAITYPE_PAGETABLELEVELDESC = 14,           /* WDDM 2.0 */
    DXGKQAITYPE_PHYSICALADAPTERCAPS = 15,          /* WDDM 2.0 */
    DXGKQAITYPE_DISPLAY_DRIVERCAPS_EXTENSION = 16, /* WDDM 2.0 */
    DXGKQAITYPE_INTEGRATED_DISPLAY_DESCRIPTOR = 17, /* WDDM 2.2 */
    DXGKQAITYPE_UEFIFRAMEBUFFERRANGES = 18,        /* WDDM 2.2 */
    DXGKQAITYPE_QUERYCOLORIMETRYOVERRIDES = 19,    /* WDDM 2.2 */
    DXGKQAITYPE_DISPLAYID_DESCRIPTOR = 20          /* WDDM 2.3 */
} DXGK_QUERYADAPTERINFOTYPE;

/* The answer to DXGKQAITYPE_HISTORYBUFFERPRECISION, one per node
 * (ns-d3dkmddi-_dxgkarg_historybufferprecision; WDDM 1.3): the valid bits
 * of each history-buffer time stamp, 0, 32 or 33-64. 4 bytes. */
typedef struct _DXGKARG_HISTORYBUFFERPRECISION {
    UINT32 PrecisionBits;
} DXGKARG_HISTORYBUFFERPRECISION;

WK_STATIC_ASSERT(sizeof(DXGK_QUERYADAPTERINFOTYPE) == 4 &&
                     sizeof(DXGKARG_HISTORYBUFFERPRECISION) == 4,
                 "DXGK_QUERYADAPTERINFOTYPE and DXGKARG_HISTORYBUFFERPRECISION are 4 bytes");

/* Direction of a TransferVirtual copy between local and system memory (facts 1.4). */
typedef enum _DXGK_MEMORY_TRANSFER_DIRECTION {
    DXGK_MEMORY_TRANSFER_LOCAL_TO_SYSTEM = 0,
    DXGK_MEMORY_TRANSFER_SYSTEM_TO_LOCAL = 1,
    DXGK_MEMORY_TRANSFER_LOCAL_TO_LOCAL = 2
} DXGK_MEMORY_TRANSFER_DIRECTION;

/* How UpdatePageTable's PageTableAddress is to be read (facts 1.4). */
typedef enum _DXGK_PAGETABLEUPDATEMODE {
    DXGK_PAGETABLEUPDATE_CPU_VIRTUAL = 0,
    DXGK_PAGETABLEUPDATE_GPU_VIRTUAL = 1,
    DXGK_PAGETABLEUPDATE_GPU_PHYSICAL = 2
} DXGK_PAGETABLEUPDATEMODE;

/* Page size of the page table a PTE points at (facts 1.4). */
typedef enum _DXGK_PTE_PAGE_SIZE {
    DXGK_PTE_PAGE_TABLE_PAGE_4KB = 0,
    DXGK_PTE_PAGE_TABLE_PAGE_64KB = 1
} DXGK_PTE_PAGE_SIZE;

/*
 * Event a driver reports to the scheduler from its interrupt path (facts 1.4).
 * Only the values the kit models are named; 5-8, 10 and 12 and up are gaps
 * (display-only, Miracast, MPO and hardware-queue events).
 */
typedef enum _DXGK_INTERRUPT_TYPE {
    DXGK_INTERRUPT_DMA_COMPLETED = 1,
    DXGK_INTERRUPT_DMA_PREEMPTED = 2,
    DXGK_INTERRUPT_CRTC_VSYNC = 3,
    DXGK_INTERRUPT_DMA_FAULTED = 4,
    /* 5..8: not modelled */
    DXGK_INTERRUPT_DMA_PAGE_FAULTED = 9,
    /* 10: not modelled */
    DXGK_INTERRUPT_MONITORED_FENCE_SIGNALED = 11
    /* 12..: not modelled */
} DXGK_INTERRUPT_TYPE;

/* How many vertical syncs a flip waits for; carried by SubmitCommand (facts 4.5). */
typedef enum _D3DDDI_FLIPINTERVAL_TYPE {
    D3DDDI_FLIPINTERVAL_IMMEDIATE = 0,
    D3DDDI_FLIPINTERVAL_ONE = 1,
    D3DDDI_FLIPINTERVAL_TWO = 2,
    D3DDDI_FLIPINTERVAL_THREE = 3,
    D3DDDI_FLIPINTERVAL_FOUR = 4
} D3DDDI_FLIPINTERVAL_TYPE;

/*
 * What a GPU page fault reports (DXGKARGCB_NOTIFY_INTERRUPT_DATA's
 * DmaPageFaulted, WDDM 2.0; docs/wddm-gpummu-facts.md 5.5; values from
 * d3dkmdt.h). PageFaultFlags is a mask of the DXGK_PAGE_FAULT_* bits.
 */
typedef enum _DXGK_PAGE_FAULT_FLAGS {
    DXGK_PAGE_FAULT_WRITE = 0x1,
    DXGK_PAGE_FAULT_FENCE_INVALID = 0x2,
    DXGK_PAGE_FAULT_ADAPTER_RESET_REQUIRED = 0x4,
    DXGK_PAGE_FAULT_ENGINE_RESET_REQUIRED = 0x8,
    DXGK_PAGE_FAULT_FATAL_HARDWARE_ERROR = 0x10,
    DXGK_PAGE_FAULT_IOMMU = 0x20,
    DXGK_PAGE_FAULT_HW_CONTEXT_VALID = 0x40,
    DXGK_PAGE_FAULT_PROCESS_HANDLE_VALID = 0x80
} DXGK_PAGE_FAULT_FLAGS;

typedef enum _DXGK_RENDER_PIPELINE_STAGE {
    DXGK_RENDER_PIPELINE_STAGE_UNKNOWN = 0,
    DXGK_RENDER_PIPELINE_STAGE_INPUT_ASSEMBLER = 1,
    DXGK_RENDER_PIPELINE_STAGE_VERTEX_SHADER = 2,
    DXGK_RENDER_PIPELINE_STAGE_GEOMETRY_SHADER = 3,
    DXGK_RENDER_PIPELINE_STAGE_STREAM_OUTPUT = 4,
    DXGK_RENDER_PIPELINE_STAGE_RASTERIZER = 5,
    DXGK_RENDER_PIPELINE_STAGE_PIXEL_SHADER = 6,
    DXGK_RENDER_PIPELINE_STAGE_OUTPUT_MERGER = 7
} DXGK_RENDER_PIPELINE_STAGE;

typedef enum _DXGK_GENERAL_ERROR_CODE {
    DXGK_GENERAL_ERROR_PAGE_FAULT = 0,
    DXGK_GENERAL_ERROR_INVALID_INSTRUCTION = 1
} DXGK_GENERAL_ERROR_CODE;

/* Bit 0 clear: bits 1-31 are a DXGK_GENERAL_ERROR_CODE; set: the device's own code. */
typedef struct _DXGK_FAULT_ERROR_CODE {
    union {
        struct {
            UINT IsDeviceSpecificCode : 1;
            UINT GeneralErrorCode : 31; /* DXGK_GENERAL_ERROR_CODE */
        };
        struct {
            UINT IsDeviceSpecificCodeReservedBit : 1;
            UINT DeviceSpecificCode : 31;
        };
    };
} DXGK_FAULT_ERROR_CODE;

#define DXGK_PRIMITIVE_API_SEQUENCE_NUMBER_UNKNOWN 0xFFFFFFFFFFFFFFFFull
#define DXGK_BIND_TABLE_ENTRY_UNKNOWN 0xFFFFFFFFu

WK_STATIC_ASSERT(sizeof(DXGK_BUILDPAGINGBUFFER_OPERATION) == 4 &&
                     sizeof(DXGK_MEMORY_TRANSFER_DIRECTION) == 4 &&
                     sizeof(DXGK_PAGETABLEUPDATEMODE) == 4 &&
                     sizeof(D3DDDI_FLIPINTERVAL_TYPE) == 4 && sizeof(DXGK_PAGE_FAULT_FLAGS) == 4 &&
                     sizeof(DXGK_RENDER_PIPELINE_STAGE) == 4 && sizeof(DXGK_FAULT_ERROR_CODE) == 4,
                 "DDI enums are 4 bytes");

/* ------------------------------------------------------------------------ */
/* Constants (facts 1.5)                                                    */
/* ------------------------------------------------------------------------ */

/* A GDI context must ask for exactly this many allocation-list entries. */
#define DXGK_ALLOCATION_LIST_SIZE_GDICONTEXT 256

/*
 * Segment ids and sets. A set uses bit (id - 1) for segment id, yet the
 * header puts the system-memory segment (id 31) at bit 31, not bit 30
 * (facts 7.5). The value below is the header's, kept as a special marker; code
 * must not derive it from the (id - 1) rule. Which id the system segment really
 * has (0, 31, or N + 1, facts 7.11) is the reference VidMm's configuration.
 */
#define DXGK_SEGMENT_ID_INVALID 0
#define DXGK_SEGMENT_ID_SYSTEMMEMORY 31
#define DXGK_SEGMENT_SET_SYSTEMMEMORY 0x80000000u

/* Allocation-list slots used by Present; slot 0 is always a NULL handle. */
#define DXGK_PRESENT_SOURCE_INDEX 1
#define DXGK_PRESENT_DESTINATION_INDEX 2
#define DXGK_PRESENT_MAX_INDEX DXGK_PRESENT_DESTINATION_INDEX

/* ------------------------------------------------------------------------ */
/* Memory descriptors: MDL (kit-defined) and ADL                            */
/* ------------------------------------------------------------------------ */

/*
 * MDL - the system pages behind a transfer or an aperture mapping (facts 4.2).
 *
 * The layout is the KIT'S OWN, not Windows': the harness owns the PFN array
 * instead of appending it to the header, and the fields are prefixed wk_ to
 * say so. Drivers must reach the pages only through MmGetMdlPfnArray and the
 * two byte accessors, exactly as the DDI pages tell WDDM drivers to, so a
 * driver never depends on these fields.
 */
typedef struct _MDL {
    ULONG wk_byte_count;  /* bytes described */
    ULONG wk_byte_offset; /* offset of the first byte in the first page */
    ULONG wk_page_count;  /* entries in wk_pfns */
    PFN_NUMBER *wk_pfns;  /* one PFN per 4 KB page */
    /* How MmGetSystemAddressForMdlSafe reaches the pages: the kit maps them
     * at one contiguous host range on first use (wk_map, with its context)
     * and keeps it in wk_mapped_va until it frees the MDL. */
    VOID *wk_mapped_va;
    VOID *(*wk_map)(struct _MDL *mdl);
    VOID *wk_map_context;
    /* (added, driver ABI 3) The Windows flags a driver may test, with the
     * Windows values below: the kit's MDLs describe locked pages
     * (MDL_PAGES_LOCKED), and MmGetSystemAddressForMdlSafe sets
     * MDL_MAPPED_TO_SYSTEM_VA once it has mapped them. */
    CSHORT MdlFlags;
    CSHORT wk_reserved[3];
} MDL, *PMDL;

WK_STATIC_ASSERT(sizeof(MDL) == 56, "kit MDL layout");

#define MDL_MAPPED_TO_SYSTEM_VA 0x0001
#define MDL_PAGES_LOCKED 0x0002
#define MDL_SOURCE_IS_NONPAGED_POOL 0x0004
#define MDL_ALLOCATED_FIXED_SIZE 0x0008
#define MDL_PARTIAL 0x0010
#define MDL_PARTIAL_HAS_BEEN_MAPPED 0x0020
#define MDL_IO_PAGE_READ 0x0040
#define MDL_WRITE_OPERATION 0x0080
#define MDL_PARENT_MAPPED_SYSTEM_VA 0x0100
#define MDL_FREE_EXTRA_PTES 0x0200
#define MDL_DESCRIBES_AWE 0x0400
#define MDL_IO_SPACE 0x0800
#define MDL_NETWORK_HEADER 0x1000
#define MDL_MAPPING_CAN_FAIL 0x2000
#define MDL_ALLOCATED_MUST_SUCCEED 0x4000
#define MDL_INTERNAL ((CSHORT)0x8000)

/* The PFN array; page n of the MDL is MmGetMdlPfnArray(m)[n]. */
static inline PFN_NUMBER *MmGetMdlPfnArray(MDL *m)
{
    return m->wk_pfns;
}

/* Number of bytes the MDL describes. */
static inline ULONG MmGetMdlByteCount(const MDL *m)
{
    return m->wk_byte_count;
}

/* Offset of the described range inside its first page. */
static inline ULONG MmGetMdlByteOffset(const MDL *m)
{
    return m->wk_byte_offset;
}

/* A page number in an ADL; the docs guarantee it is PFN_NUMBER-sized. */
typedef ULONG64 DXGK_PAGE_NUMBER;

/* Flag word of an address descriptor list (operation 17, facts 1.1). */
typedef struct _DXGK_ADL_FLAGS {
    union {
        struct {
            UINT32 Contiguous : 1; /* 0x00000001 BasePageNumber, not Pages */
            UINT32 Reserved : 31;  /* 0xFFFFFFFE */
        };
        UINT32 Value;
    };
} DXGK_ADL_FLAGS;

/*
 * DXGK_ADL - the logical (IOMMU) or physical pages handed to operation 17 in
 * place of an MDL (facts 1.1, 4.2). Member order is the docs' syntax block;
 * no header in the pinned WDK defines it, so the x64 offsets are the kit's
 * computation: either a contiguous run of PageCount pages from BasePageNumber
 * (Flags.Contiguous = 1) or an array of exactly PageCount page numbers.
 */
typedef struct _DXGK_ADL {
    UINT32 PageCount;
    DXGK_ADL_FLAGS Flags;
    union {
        DXGK_PAGE_NUMBER BasePageNumber;
        const DXGK_PAGE_NUMBER *Pages;
    };
} DXGK_ADL;

WK_STATIC_ASSERT(sizeof(DXGK_ADL) == 16, "kit DXGK_ADL layout");

/* ------------------------------------------------------------------------ */
/* Paging-operation flag words (facts 3.1)                                  */
/* ------------------------------------------------------------------------ */

/* Options of a Transfer or SpecialLockTransfer operation (facts 3.1). */
typedef struct _DXGK_TRANSFERFLAGS {
    union {
        struct {
            UINT Swizzle : 1;          /* 0x00000001 */
            UINT Unswizzle : 1;        /* 0x00000002 */
            UINT AllocationIsIdle : 1; /* 0x00000004 */
            UINT TransferStart : 1;    /* 0x00000008 */
            UINT TransferEnd : 1;      /* 0x00000010 */
            UINT Reserved : 27;        /* 0xFFFFFFE0 */
        };
        UINT Value;
    };
} DXGK_TRANSFERFLAGS;

/* Options of a DiscardContent operation (facts 3.1). */
typedef struct _DXGK_DISCARDCONTENTFLAGS {
    union {
        struct {
            UINT AllocationIsIdle : 1; /* 0x00000001 */
            UINT Reserved : 31;        /* 0xFFFFFFFE */
        };
        UINT Value;
    };
} DXGK_DISCARDCONTENTFLAGS;

/* Options of a MapApertureSegment(2) operation (facts 3.1). */
typedef struct _DXGK_MAPAPERTUREFLAGS {
    union {
        struct {
            UINT CacheCoherent : 1; /* 0x00000001 */
            UINT Reserved : 31;     /* 0xFFFFFFFE */
        };
        UINT Value;
    };
} DXGK_MAPAPERTUREFLAGS;

/* Options of an UpdatePageTable operation; a bare bit struct, no Value (facts 3.1). */
typedef struct _DXGK_UPDATEPAGETABLEFLAGS {
    UINT Repeat : 1;         /* 0x00000001 */
    UINT InitialUpdate : 1;  /* 0x00000002 */
    UINT NotifyEviction : 1; /* 0x00000004 */
    UINT Use64KBPages : 1;   /* 0x00000008 */
    UINT Reserved : 28;      /* 0xFFFFFFF0 */
} DXGK_UPDATEPAGETABLEFLAGS;

/* Page sizes of a TransferVirtual; the whole word is `Flags`, not `Value` (facts 3.1). */
typedef struct _DXGK_TRANSFERVIRTUALFLAGS {
    union {
        struct {
            UINT Src64KBPages : 1; /* 0x00000001 */
            UINT Dst64KBPages : 1; /* 0x00000002 */
            UINT Reserved : 30;    /* 0xFFFFFFFC */
        };
        UINT Flags;
    };
} DXGK_TRANSFERVIRTUALFLAGS;

/* ------------------------------------------------------------------------ */
/* Segment words (facts 3.2)                                                */
/* ------------------------------------------------------------------------ */

/*
 * Properties of a segment reported by QueryAdapterInfo (facts 3.2). Bits
 * 0-20 are the pinned header's; bit 21 exists only in the later docs' field
 * order (WDDM 2.9) and is named so the kit can reject it from 2.3 drivers.
 */
typedef struct _DXGK_SEGMENTFLAGS {
    union {
        struct {
            UINT Aperture : 1;                          /* 0x00000001 */
            UINT Agp : 1;                               /* 0x00000002 */
            UINT CpuVisible : 1;                        /* 0x00000004 */
            UINT UseBanking : 1;                        /* 0x00000008 */
            UINT CacheCoherent : 1;                     /* 0x00000010 */
            UINT PitchAlignment : 1;                    /* 0x00000020 */
            UINT PopulatedFromSystemMemory : 1;         /* 0x00000040 */
            UINT PreservedDuringStandby : 1;            /* 0x00000080 */
            UINT PreservedDuringHibernate : 1;          /* 0x00000100 */
            UINT PartiallyPreservedDuringHibernate : 1; /* 0x00000200 */
            UINT DirectFlip : 1;                        /* 0x00000400 */
            UINT Use64KBPages : 1;                      /* 0x00000800 */
            UINT ReservedSysMem : 1;                    /* 0x00001000 */
            UINT SupportsCpuHostAperture : 1;           /* 0x00002000 */
            UINT SupportsCachedCpuHostAperture : 1;     /* 0x00004000 */
            UINT ApplicationTarget : 1;                 /* 0x00008000 */
            UINT VprSupported : 1;                      /* 0x00010000 */
            UINT VprPreservedDuringStandby : 1;         /* 0x00020000 */
            UINT EncryptedPagingSupported : 1;          /* 0x00040000 */
            UINT LocalBudgetGroup : 1;                  /* 0x00080000 */
            UINT NonLocalBudgetGroup : 1;               /* 0x00100000 */
            UINT PopulatedByReservedDDRByFirmware : 1;  /* 0x00200000 */
            UINT Reserved : 10;                         /* 0xFFC00000 */
        };
        UINT Value;
    };
} DXGK_SEGMENTFLAGS;

/* Up to four 1-based banks, most preferred first, each with a scan direction (facts 3.2). */
typedef struct _DXGK_SEGMENTBANKPREFERENCE {
    union {
        struct {
            UINT Bank0 : 7;      /* 0x0000007F */
            UINT Direction0 : 1; /* 0x00000080 */
            UINT Bank1 : 7;      /* 0x00007F00 */
            UINT Direction1 : 1; /* 0x00008000 */
            UINT Bank2 : 7;      /* 0x007F0000 */
            UINT Direction2 : 1; /* 0x00800000 */
            UINT Bank3 : 7;      /* 0x7F000000 */
            UINT Direction3 : 1; /* 0x80000000 */
        };
        UINT Value;
    };
} DXGK_SEGMENTBANKPREFERENCE;

/* Up to five preferred segment ids, most preferred first (facts 3.2). */
typedef struct _D3DDDI_SEGMENTPREFERENCE {
    union {
        struct {
            UINT SegmentId0 : 5; /* 0x0000001F */
            UINT Direction0 : 1; /* 0x00000020 */
            UINT SegmentId1 : 5; /* 0x000007C0 */
            UINT Direction1 : 1; /* 0x00000800 */
            UINT SegmentId2 : 5; /* 0x0001F000 */
            UINT Direction2 : 1; /* 0x00020000 */
            UINT SegmentId3 : 5; /* 0x007C0000 */
            UINT Direction3 : 1; /* 0x00800000 */
            UINT SegmentId4 : 5; /* 0x1F000000 */
            UINT Direction4 : 1; /* 0x20000000 */
            UINT Reserved : 2;   /* 0xC0000000 */
        };
        UINT Value;
    };
} D3DDDI_SEGMENTPREFERENCE;

/* The kernel-side name of the same word (facts 3.2). */
typedef D3DDDI_SEGMENTPREFERENCE DXGK_SEGMENTPREFERENCE;

/* ------------------------------------------------------------------------ */
/* Context, scheduling and submission words (facts 3.3)                     */
/* ------------------------------------------------------------------------ */

/* What kind of context DxgkDdiCreateContext is asked for (facts 3.3). */
typedef struct _DXGK_CREATECONTEXTFLAGS {
    union {
        struct {
            UINT SystemContext : 1;          /* 0x00000001 */
            UINT GdiContext : 1;             /* 0x00000002 */
            UINT VirtualAddressing : 1;      /* 0x00000004 */
            UINT SystemProtectedContext : 1; /* 0x00000008 */
            UINT HwQueueSupported : 1;       /* 0x00000010 */
            UINT Reserved : 27;              /* 0xFFFFFFE0 */
        };
        UINT Value;
    };
} DXGK_CREATECONTEXTFLAGS;

/* Optional behaviours a new context reports back (facts 3.3). */
typedef struct _DXGK_CONTEXTINFO_CAPS {
    union {
        struct {
            UINT NoPatchingRequired : 1;     /* 0x00000001 */
            UINT DriverManagesResidency : 1; /* 0x00000002 */
            UINT UseIoMmu : 1;               /* 0x00000004 */
            UINT Reserved : 29;              /* 0xFFFFFFF8 */
        };
        UINT Value;
    };
} DXGK_CONTEXTINFO_CAPS;

/* Scope of a context allocation: one context or the whole device (facts 3.3). */
typedef struct _DXGK_CREATECONTEXTALLOCATIONFLAGS {
    union {
        struct {
            UINT SharedAcrossContexts : 1; /* 0x00000001 */
            UINT MapGpuVirtualAddress : 1; /* 0x00000002 */
            UINT Reserved : 30;            /* 0xFFFFFFFC */
        };
        UINT Value;
    };
} DXGK_CREATECONTEXTALLOCATIONFLAGS;

/* What kind of DMA buffer DxgkDdiPatch is touching (facts 3.3). */
typedef struct _DXGK_PATCHFLAGS {
    union {
        struct {
            UINT Paging : 1;            /* 0x00000001 */
            UINT Present : 1;           /* 0x00000002 */
            UINT RedirectedPresent : 1; /* 0x00000004 */
            UINT NullRendering : 1;     /* 0x00000008 */
            UINT Reserved : 28;         /* 0xFFFFFFF0 */
        };
        UINT Value;
    };
} DXGK_PATCHFLAGS;

/* What kind of DMA buffer DxgkDdiSubmitCommand is queueing (facts 3.3). */
typedef struct _DXGK_SUBMITCOMMANDFLAGS {
    union {
        struct {
            UINT Paging : 1;             /* 0x00000001 */
            UINT Present : 1;            /* 0x00000002 */
            UINT RedirectedPresent : 1;  /* 0x00000004 */
            UINT NullRendering : 1;      /* 0x00000008 */
            UINT Flip : 1;               /* 0x00000010 */
            UINT FlipWithNoWait : 1;     /* 0x00000020 */
            UINT ContextSwitch : 1;      /* 0x00000040 */
            UINT Resubmission : 1;       /* 0x00000080 */
            UINT VirtualMachineData : 1; /* 0x00000100 */
            UINT Reserved : 23;          /* 0xFFFFFE00 */
        };
        UINT Value;
    };
} DXGK_SUBMITCOMMANDFLAGS;

/* Scheduler capabilities in the driver caps (facts 3.3). */
typedef struct _DXGK_VIDSCHCAPS {
    union {
        struct {
            UINT MultiEngineAware : 1;      /* 0x00000001 */
            UINT VSyncPowerSaveAware : 1;   /* 0x00000002 */
            UINT PreemptionAware : 1;       /* 0x00000004 */
            UINT NoDmaPatching : 1;         /* 0x00000008 */
            UINT CancelCommandAware : 1;    /* 0x00000010 */
            UINT No64BitAtomics : 1;        /* 0x00000020 */
            UINT LowIrqlPreemptCommand : 1; /* 0x00000040 */
            UINT HwQueuePacketCap : 4;      /* 0x00000780 */
            UINT Reserved : 21;             /* 0xFFFFF800 */
        };
        UINT Value;
    };
} DXGK_VIDSCHCAPS;

/*
 * Memory-manager capabilities in the driver caps (facts 1.1, 4.11).
 *
 * The facts only name MapAperture2Supported. Bits 0-10 are as in the pinned
 * WDK header. MapAperture2Supported is bit 14: the current DXGK_VIDMMCAPS
 * page lists it after IoMmuSecureModeSupported, DisableSelfRefreshVRAMInS3
 * and IoMmuSecureModeRequired (bits 11-13, which the kit keeps reserved: it
 * models no IOMMU). It opts a WDDM 3.0 driver into operation 17.
 */
typedef struct _DXGK_VIDMMCAPS {
    union {
        struct {
            UINT OutOfOrderLock : 1;              /* 0x00000001 */
            UINT DedicatedPagingEngine : 1;       /* 0x00000002 */
            UINT PagingEngineCanSwizzle : 1;      /* 0x00000004 */
            UINT SectionBackedPrimary : 1;        /* 0x00000008 */
            UINT CrossAdapterResource : 1;        /* 0x00000010 */
            UINT VirtualAddressingSupported : 1;  /* 0x00000020 */
            UINT GpuMmuSupported : 1;             /* 0x00000040 */
            UINT IoMmuSupported : 1;              /* 0x00000080 */
            UINT ReplicateGdiContent : 1;         /* 0x00000100 */
            UINT NonCpuVisiblePrimary : 1;        /* 0x00000200 */
            UINT ParavirtualizationSupported : 1; /* 0x00000400 */
            UINT ReservedBits11To13 : 3;          /* 0x00003800 */
            UINT MapAperture2Supported : 1;       /* 0x00004000 */
            UINT Reserved : 17;                   /* 0xFFFF8000 */
        };
        UINT Value;
    };
    UINT PagingNode;
} DXGK_VIDMMCAPS;

/* Flags a non-multi-engine driver returns with its device info (facts 3.3). */
typedef struct _DXGK_DEVICEINFOFLAGS {
    union {
        struct {
            UINT GuaranteedDmaBufferContract : 1; /* 0x00000001 */
            UINT Reserved : 31;                   /* 0xFFFFFFFE */
        };
        UINT Value;
    };
} DXGK_DEVICEINFOFLAGS;

/* ------------------------------------------------------------------------ */
/* Allocation flag words (facts 3.4)                                        */
/* ------------------------------------------------------------------------ */

/*
 * Allocation properties, pre-WDDM 2.0 names (facts 3.4). AccessedPhysically
 * is bit 15 of this word, as in the header and the reference pages; the
 * conceptual page that files it under DXGK_ALLOCATIONINFOFLAGS2 is not
 * followed (facts 7.6).
 */
typedef struct _DXGK_ALLOCATIONINFOFLAGS {
    union {
        struct {
            UINT CpuVisible : 1;                    /* 0x00000001 */
            UINT PermanentSysMem : 1;               /* 0x00000002 */
            UINT Cached : 1;                        /* 0x00000004 */
            UINT Protected : 1;                     /* 0x00000008 */
            UINT ExistingSysMem : 1;                /* 0x00000010 */
            UINT ExistingKernelSysMem : 1;          /* 0x00000020 */
            UINT FromEndOfSegment : 1;              /* 0x00000040 */
            UINT Swizzled : 1;                      /* 0x00000080 */
            UINT Overlay : 1;                       /* 0x00000100 */
            UINT Capture : 1;                       /* 0x00000200 */
            UINT UseAlternateVA : 1;                /* 0x00000400 */
            UINT SynchronousPaging : 1;             /* 0x00000800 */
            UINT LinkMirrored : 1;                  /* 0x00001000 */
            UINT LinkInstanced : 1;                 /* 0x00002000 */
            UINT HistoryBuffer : 1;                 /* 0x00004000 */
            UINT AccessedPhysically : 1;            /* 0x00008000 */
            UINT ExplicitResidencyNotification : 1; /* 0x00010000 */
            UINT HardwareProtected : 1;             /* 0x00020000 */
            UINT CpuVisibleOnDemand : 1;            /* 0x00040000 */
            UINT Reserved : 13;                     /* 0xFFF80000 */
        };
        UINT Value;
    };
} DXGK_ALLOCATIONINFOFLAGS;

/*
 * The same word with its WDDM 2.0 names (facts 3.4). Bits 11 and 12 are
 * reserved (kit names); bit 13 is named MapApertureCpuVisible after the later
 * docs' field order because operation 17's CpuVisibleAddress depends on it.
 */
typedef struct _DXGK_ALLOCATIONINFOFLAGS_WDDM2_0 {
    union {
        struct {
            UINT CpuVisible : 1;                    /* 0x00000001 */
            UINT PermanentSysMem : 1;               /* 0x00000002 */
            UINT Cached : 1;                        /* 0x00000004 */
            UINT Protected : 1;                     /* 0x00000008 */
            UINT ExistingSysMem : 1;                /* 0x00000010 */
            UINT ExistingKernelSysMem : 1;          /* 0x00000020 */
            UINT FromEndOfSegment : 1;              /* 0x00000040 */
            UINT DisableLargePageMapping : 1;       /* 0x00000080 */
            UINT Overlay : 1;                       /* 0x00000100 */
            UINT Capture : 1;                       /* 0x00000200 */
            UINT CreateInVpr : 1;                   /* 0x00000400 */
            UINT ReservedBit11 : 1;                 /* 0x00000800 */
            UINT ReservedBit12 : 1;                 /* 0x00001000 */
            UINT MapApertureCpuVisible : 1;         /* 0x00002000 */
            UINT HistoryBuffer : 1;                 /* 0x00004000 */
            UINT AccessedPhysically : 1;            /* 0x00008000 */
            UINT ExplicitResidencyNotification : 1; /* 0x00010000 */
            UINT HardwareProtected : 1;             /* 0x00020000 */
            UINT CpuVisibleOnDemand : 1;            /* 0x00040000 */
            UINT Reserved : 13;                     /* 0xFFF80000 */
        };
        UINT Value;
    };
} DXGK_ALLOCATIONINFOFLAGS_WDDM2_0;

/* Options of DxgkDdiCreateAllocation (minimal shape, pinned header). */
typedef struct _DXGK_CREATEALLOCATIONFLAGS {
    union {
        struct {
            UINT Resource : 1;  /* 0x00000001 */
            UINT Reserved : 31; /* 0xFFFFFFFE */
        };
        UINT Value;
    };
} DXGK_CREATEALLOCATIONFLAGS;

/* Options of DxgkDdiDestroyAllocation (minimal shape, pinned header). */
typedef struct _DXGK_DESTROYALLOCATIONFLAGS {
    union {
        struct {
            UINT DestroyResource : 1; /* 0x00000001 */
            UINT Reserved : 31;       /* 0xFFFFFFFE */
        };
        UINT Value;
    };
} DXGK_DESTROYALLOCATIONFLAGS;

WK_STATIC_ASSERT(sizeof(DXGK_TRANSFERFLAGS) == 4 &&
                     sizeof(DXGK_DISCARDCONTENTFLAGS) == 4 &&
                     sizeof(DXGK_MAPAPERTUREFLAGS) == 4 &&
                     sizeof(DXGK_UPDATEPAGETABLEFLAGS) == 4 &&
                     sizeof(DXGK_TRANSFERVIRTUALFLAGS) == 4,
                 "paging flag words are 32 bits");
WK_STATIC_ASSERT(sizeof(DXGK_SEGMENTFLAGS) == 4 &&
                     sizeof(DXGK_SEGMENTBANKPREFERENCE) == 4 &&
                     sizeof(D3DDDI_SEGMENTPREFERENCE) == 4,
                 "segment words are 32 bits");
WK_STATIC_ASSERT(sizeof(DXGK_CREATECONTEXTFLAGS) == 4 &&
                     sizeof(DXGK_CONTEXTINFO_CAPS) == 4 &&
                     sizeof(DXGK_CREATECONTEXTALLOCATIONFLAGS) == 4 &&
                     sizeof(DXGK_PATCHFLAGS) == 4 &&
                     sizeof(DXGK_SUBMITCOMMANDFLAGS) == 4 &&
                     sizeof(DXGK_VIDSCHCAPS) == 4 &&
                     sizeof(DXGK_DEVICEINFOFLAGS) == 4,
                 "context and scheduling words are 32 bits");
WK_STATIC_ASSERT(sizeof(DXGK_ALLOCATIONINFOFLAGS) == 4 &&
                     sizeof(DXGK_ALLOCATIONINFOFLAGS_WDDM2_0) == 4 &&
                     sizeof(DXGK_CREATEALLOCATIONFLAGS) == 4 &&
                     sizeof(DXGK_DESTROYALLOCATIONFLAGS) == 4,
                 "allocation words are 32 bits");
WK_STATIC_ASSERT(sizeof(DXGK_VIDMMCAPS) == 8, "VidMm caps word plus PagingNode");

/* ------------------------------------------------------------------------ */
/* GPU virtual-memory helper types (facts 4.2, 4.10)                        */
/* ------------------------------------------------------------------------ */

/* A physical reference as (segment id, byte offset in that segment) (facts 4.2). */
typedef struct _D3DGPU_PHYSICAL_ADDRESS {
    UINT SegmentId;
    UINT64 SegmentOffset;
} D3DGPU_PHYSICAL_ADDRESS;

/* Where a page table lives; which arm is valid follows the update mode (facts 4.2). */
typedef struct _DXGK_PAGETABLEUPDATEADDRESS {
    union {
        PVOID CpuVirtual;
        D3DGPU_PHYSICAL_ADDRESS GpuPhysical;
        D3DGPU_VIRTUAL_ADDRESS GpuVirtual;
    };
} DXGK_PAGETABLEUPDATEADDRESS;

/*
 * One generic page-table entry VidMm hands the driver to translate into its
 * hardware format (facts 4.2). The flag word uses 64-bit bit-fields, as the
 * real type does; the address is in 4 KB units.
 */
typedef struct _DXGK_PTE {
    union {
        struct {
            ULONGLONG Valid : 1;                /* bit 0 */
            ULONGLONG Zero : 1;                 /* bit 1 */
            ULONGLONG CacheCoherent : 1;        /* bit 2 */
            ULONGLONG ReadOnly : 1;             /* bit 3 */
            ULONGLONG NoExecute : 1;            /* bit 4 */
            ULONGLONG Segment : 5;              /* bits 5-9 */
            ULONGLONG LargePage : 1;            /* bit 10 */
            ULONGLONG PhysicalAdapterIndex : 6; /* bits 11-16 */
            ULONGLONG PageTablePageSize : 2;    /* bits 17-18, DXGK_PTE_PAGE_SIZE */
            ULONGLONG SystemReserved0 : 1;      /* bit 19 */
            ULONGLONG Reserved : 44;            /* bits 20-63 */
        };
        ULONGLONG Flags;
    };
    union {
        ULONGLONG PageAddress;      /* leaf entry: page address >> 12 */
        ULONGLONG PageTableAddress; /* directory entry: table address >> 12 */
    };
} DXGK_PTE;

/* Access rights of a GPU VA mapping; a 64-bit bit word (facts 4.10). */
typedef struct _D3DDDIGPUVIRTUALADDRESS_PROTECTION_TYPE {
    union {
        struct {
            UINT64 Write : 1;         /* bit 0 */
            UINT64 Execute : 1;       /* bit 1 */
            UINT64 Zero : 1;          /* bit 2 */
            UINT64 NoAccess : 1;      /* bit 3 */
            UINT64 SystemUseOnly : 1; /* bit 4 */
            UINT64 Reserved : 59;     /* bits 5-63 */
        };
        UINT64 Value;
    };
} D3DDDIGPUVIRTUALADDRESS_PROTECTION_TYPE;

/* One range of PTEs to copy between page tables (facts 4.2, op 14). */
typedef struct _DXGK_BUILDPAGINGBUFFER_COPY_RANGE {
    UINT NumPageTableEntries;
    D3DGPU_VIRTUAL_ADDRESS SrcPageTableAddress;
    D3DGPU_VIRTUAL_ADDRESS DstPageTableAddress;
    UINT SrcStartPteIndex;
    UINT DstStartPteIndex;
} DXGK_BUILDPAGINGBUFFER_COPY_RANGE;

WK_STATIC_ASSERT(sizeof(D3DGPU_PHYSICAL_ADDRESS) == 16, "facts 4.2: 16 bytes");
WK_STATIC_ASSERT(sizeof(DXGK_PAGETABLEUPDATEADDRESS) == 16, "facts 4.2: 16 bytes");
WK_STATIC_ASSERT(sizeof(DXGK_PTE) == 16, "facts 4.2: 16 bytes");
WK_STATIC_ASSERT(sizeof(D3DDDIGPUVIRTUALADDRESS_PROTECTION_TYPE) == 8,
                 "facts 4.10: 64-bit protection word");
WK_STATIC_ASSERT(sizeof(DXGK_BUILDPAGINGBUFFER_COPY_RANGE) == 32,
                 "copy range: 32 bytes on x64");

/* ------------------------------------------------------------------------ */
/* Paging-buffer union arms with WDK names (facts 4.2)                      */
/* ------------------------------------------------------------------------ */

/* Op 8: copy an allocation between GPU virtual ranges (facts 4.2). */
typedef struct _DXGK_BUILDPAGINGBUFFER_TRANSFERVIRTUAL {
    HANDLE hAllocation;
    UINT64 AllocationOffsetInBytes;
    UINT64 TransferSizeInBytes;
    D3DGPU_VIRTUAL_ADDRESS SourceVirtualAddress;
    D3DGPU_VIRTUAL_ADDRESS DestinationVirtualAddress;
    D3DGPU_VIRTUAL_ADDRESS SourcePageTable;
    DXGK_MEMORY_TRANSFER_DIRECTION TransferDirection;
    DXGK_TRANSFERVIRTUALFLAGS Flags;
    D3DGPU_VIRTUAL_ADDRESS DestinationPageTable;
} DXGK_BUILDPAGINGBUFFER_TRANSFERVIRTUAL;

/* Op 9: fill a GPU virtual range with a 32-bit pattern (facts 4.2). */
typedef struct _DXGK_BUILDPAGINGBUFFER_FILLVIRTUAL {
    HANDLE hAllocation;
    UINT64 AllocationOffsetInBytes;
    UINT64 FillSizeInBytes;
    UINT FillPattern;
    D3DGPU_VIRTUAL_ADDRESS DestinationVirtualAddress;
} DXGK_BUILDPAGINGBUFFER_FILLVIRTUAL;

/* Op 11: write NumPageTableEntries PTEs into a page table (facts 4.2, P22). */
typedef struct _DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE {
    UINT PageTableLevel;
    HANDLE hAllocation;
    DXGK_PAGETABLEUPDATEADDRESS PageTableAddress;
    DXGK_PTE *pPageTableEntries;
    UINT StartIndex;
    UINT NumPageTableEntries;
    UINT Reserved0;
    DXGK_UPDATEPAGETABLEFLAGS Flags;
    UINT64 DriverProtection;
    UINT64 AllocationOffsetInBytes;
    HANDLE hProcess;
    DXGK_PAGETABLEUPDATEMODE UpdateMode;
    DXGK_PTE *pPageTableEntries64KB;
    D3DGPU_VIRTUAL_ADDRESS FirstPteVirtualAddress;
} DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE;

/* Op 12: invalidate TLB entries of one address space; 0..0 means all (facts 4.2). */
typedef struct _DXGK_BUILDPAGINGBUFFER_FLUSHTLB {
    D3DGPU_PHYSICAL_ADDRESS RootPageTableAddress;
    HANDLE hProcess;
    D3DGPU_VIRTUAL_ADDRESS StartVirtualAddress;
    D3DGPU_VIRTUAL_ADDRESS EndVirtualAddress;
} DXGK_BUILDPAGINGBUFFER_FLUSHTLB;

/* Op 14: copy PTE ranges between page tables (facts 4.2). */
typedef struct _DXGK_BUILDPAGINGBUFFER_COPYPAGETABLEENTRIES {
    UINT NumRanges;
    DXGK_BUILDPAGINGBUFFER_COPY_RANGE *pRanges;
} DXGK_BUILDPAGINGBUFFER_COPYPAGETABLEENTRIES;

/* Op 13: rewrite a context allocation mapped in the paging scratch area (facts 4.2). */
typedef struct _DXGK_BUILDPAGINGBUFFER_UPDATECONTEXTALLOCATION {
    D3DGPU_VIRTUAL_ADDRESS ContextAllocation;
    UINT64 ContextAllocationSize;
    PVOID pDriverPrivateData;
    UINT DriverPrivateDataSize;
} DXGK_BUILDPAGINGBUFFER_UPDATECONTEXTALLOCATION;

/*
 * Op 15: an allocation was committed (Resident = 1) or is about to be evicted
 * (facts 4.2, P23). Header quirk kept on purpose (facts 7.4): Resident and
 * Reserved are members of a union, not of a struct, so both begin at bit 0
 * and Reserved overlaps Resident. Reproducing it keeps the layout and the
 * aliasing a real driver sees; read Resident only.
 */
typedef struct _DXGK_BUILDPAGINGBUFFER_NOTIFYRESIDENCY {
    HANDLE hAllocation;
    D3DGPU_PHYSICAL_ADDRESS PhysicalAddress;
    union {
        UINT Resident : 1;
        UINT Reserved : 31;
    };
} DXGK_BUILDPAGINGBUFFER_NOTIFYRESIDENCY;

/* Op 16: store MonitoredFenceValue at MonitoredFenceGpuVa (facts 4.2, P24). */
typedef struct _DXGK_BUILDPAGINGBUFFER_SIGNALMONITOREDFENCE {
    D3DGPU_VIRTUAL_ADDRESS MonitoredFenceGpuVa;
    UINT64 MonitoredFenceValue;
} DXGK_BUILDPAGINGBUFFER_SIGNALMONITOREDFENCE;

WK_STATIC_ASSERT(sizeof(DXGK_BUILDPAGINGBUFFER_TRANSFERVIRTUAL) == 64, "facts 4.2");
WK_STATIC_ASSERT(sizeof(DXGK_BUILDPAGINGBUFFER_FILLVIRTUAL) == 40, "facts 4.2");
WK_STATIC_ASSERT(sizeof(DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE) == 104, "facts 4.2");
WK_STATIC_ASSERT(sizeof(DXGK_BUILDPAGINGBUFFER_FLUSHTLB) == 40, "facts 4.2");
WK_STATIC_ASSERT(sizeof(DXGK_BUILDPAGINGBUFFER_COPYPAGETABLEENTRIES) == 16, "facts 4.2");
WK_STATIC_ASSERT(sizeof(DXGK_BUILDPAGINGBUFFER_UPDATECONTEXTALLOCATION) == 32,
                 "facts 4.2");
WK_STATIC_ASSERT(sizeof(DXGK_BUILDPAGINGBUFFER_NOTIFYRESIDENCY) == 32, "facts 4.2");
WK_STATIC_ASSERT(sizeof(DXGK_BUILDPAGINGBUFFER_SIGNALMONITOREDFENCE) == 16, "facts 4.2");

/* ------------------------------------------------------------------------ */
/* DXGKARG_BUILDPAGINGBUFFER (facts 4.2, 5.1)                               */
/* ------------------------------------------------------------------------ */

/*
 * The argument of DxgkDdiBuildPagingBuffer: a cursor into the paging buffer
 * plus one operation payload (facts 4.2). The classic arms are unnamed struct
 * types inside an unnamed union, as in the WDK, so drivers write
 * args.Transfer.Source.pMdl. A SegmentId of 0 in a Source/Destination means
 * the pMdl arm of its inner union is the valid one (facts 5.1 P6).
 */
typedef struct _DXGKARG_BUILDPAGINGBUFFER {
    VOID *pDmaBuffer;       /* in/out: first free byte; advance past output */
    UINT DmaSize;           /* in/out: bytes left at pDmaBuffer */
    VOID *pDmaBufferPrivateData;
    UINT DmaBufferPrivateDataSize;
    DXGK_BUILDPAGINGBUFFER_OPERATION Operation;
    UINT MultipassOffset;   /* in/out: driver progress cookie, 0 at first call */
    union {
        struct {
            HANDLE hAllocation;
            UINT TransferOffset; /* bytes, segment side only, same on retries */
            SIZE_T TransferSize;
            struct {
                UINT SegmentId;
                union {
                    LARGE_INTEGER SegmentAddress;
                    MDL *pMdl;
                };
            } Source;
            struct {
                UINT SegmentId;
                union {
                    LARGE_INTEGER SegmentAddress;
                    MDL *pMdl;
                };
            } Destination;
            DXGK_TRANSFERFLAGS Flags;
            UINT MdlOffset; /* pages: first PFN is MmGetMdlPfnArray(pMdl)[MdlOffset] */
        } Transfer;

        struct {
            HANDLE hAllocation;
            SIZE_T FillSize;
            UINT FillPattern;
            struct {
                UINT SegmentId;
                LARGE_INTEGER SegmentAddress;
            } Destination;
        } Fill;

        struct {
            HANDLE hAllocation;
            DXGK_DISCARDCONTENTFLAGS Flags;
            UINT SegmentId;
            PHYSICAL_ADDRESS SegmentAddress;
        } DiscardContent;

        struct {
            UINT SegmentId;
            PHYSICAL_ADDRESS PhysicalAddress;
        } ReadPhysical;

        struct {
            UINT SegmentId;
            PHYSICAL_ADDRESS PhysicalAddress;
        } WritePhysical;

        struct {
            HANDLE hDevice;
            HANDLE hAllocation;
            UINT SegmentId;
            SIZE_T OffsetInPages;
            SIZE_T NumberOfPages;
            PMDL pMdl;
            DXGK_MAPAPERTUREFLAGS Flags;
            ULONG MdlOffset; /* pages */
        } MapApertureSegment;

        struct {
            HANDLE hDevice;
            HANDLE hAllocation;
            UINT SegmentId;
            SIZE_T OffsetInPages;
            SIZE_T NumberOfPages;
            PHYSICAL_ADDRESS DummyPage; /* unmapped pages must point here (P14) */
        } UnmapApertureSegment;

        struct {
            HANDLE hAllocation;
            UINT TransferOffset;
            SIZE_T TransferSize;
            struct {
                UINT SegmentId;
                union {
                    LARGE_INTEGER SegmentAddress;
                    MDL *pMdl;
                };
            } Source;
            struct {
                UINT SegmentId;
                union {
                    LARGE_INTEGER SegmentAddress;
                    MDL *pMdl;
                };
            } Destination;
            DXGK_TRANSFERFLAGS Flags;
            UINT SwizzlingRangeId;
            UINT SwizzlingRangeData;
        } SpecialLockTransfer;

        struct {
            HANDLE hAllocation;
            struct {
                UINT SegmentId;
                union {
                    LARGE_INTEGER SegmentAddress;
                    MDL *pMdl;
                };
                PVOID VirtualAddress; /* CPU VA, valid only in the case of P19 */
                D3DGPU_VIRTUAL_ADDRESS GpuVirtualAddress;
            } Destination;
        } InitContextResource;

        DXGK_BUILDPAGINGBUFFER_TRANSFERVIRTUAL TransferVirtual;
        DXGK_BUILDPAGINGBUFFER_FILLVIRTUAL FillVirtual;
        DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE UpdatePageTable;
        DXGK_BUILDPAGINGBUFFER_FLUSHTLB FlushTlb;
        DXGK_BUILDPAGINGBUFFER_COPYPAGETABLEENTRIES CopyPageTableEntries;
        DXGK_BUILDPAGINGBUFFER_UPDATECONTEXTALLOCATION UpdateContextAllocation;
        DXGK_BUILDPAGINGBUFFER_NOTIFYRESIDENCY NotifyResidency;
        DXGK_BUILDPAGINGBUFFER_SIGNALMONITOREDFENCE SignalMonitoredFence;

        /*
         * Op 17 (WDDM 3.0, facts 1.1): member order per the docs page; the
         * pinned header lacks it, so the offsets are the kit's computation.
         */
        struct {
            HANDLE hDevice;
            HANDLE hAllocation;
            UINT SegmentId;
            SIZE_T OffsetInPages;
            SIZE_T NumberOfPages;
            DXGK_ADL Adl;
            DXGK_MAPAPERTUREFLAGS Flags;
            ULONG AdlOffset;         /* pages into Adl */
            PVOID CpuVisibleAddress; /* only with MapApertureCpuVisible, else NULL */
        } MapApertureSegment2;

        struct {
            UINT Reserved[64]; /* fixes the union at 256 bytes */
        } Reserved;
    };
    HANDLE hSystemContext;
    D3DGPU_VIRTUAL_ADDRESS DmaBufferGpuVirtualAddress;
    UINT DmaBufferWriteOffset; /* bytes from the start of the DMA buffer */
} DXGKARG_BUILDPAGINGBUFFER;

WK_STATIC_ASSERT(sizeof(DXGKARG_BUILDPAGINGBUFFER) == 320,
                 "facts 4.2: DXGKARG_BUILDPAGINGBUFFER is 320 bytes on x64");

/* ------------------------------------------------------------------------ */
/* Lists (facts 3.5, 4.7)                                                   */
/* ------------------------------------------------------------------------ */

/*
 * One kernel allocation-list entry: the driver's handle plus where VidMm
 * last put the allocation (facts 4.7). SegmentId is bits 1-5, mask 0x3E; the
 * WDK and reference-page comments print 0x2E, a typo (facts 7.1).
 */
typedef struct _DXGK_ALLOCATIONLIST {
    HANDLE hDeviceSpecificAllocation; /* NULL means "unbind" */
    struct {
        UINT WriteOperation : 1; /* 0x00000001 */
        UINT SegmentId : 5;      /* 0x0000003E, 0 = no pre-patch info */
        UINT Reserved : 26;      /* 0xFFFFFFC0 */
    };
    union {
        PHYSICAL_ADDRESS PhysicalAddress;
        D3DGPU_VIRTUAL_ADDRESS VirtualAddress;
    };
} DXGK_ALLOCATIONLIST;

/* One patch location: where in the DMA buffer an allocation address goes (facts 4.7). */
typedef struct _D3DDDI_PATCHLOCATIONLIST {
    UINT AllocationIndex;
    union {
        struct {
            UINT SlotId : 24;  /* 0x00FFFFFF */
            UINT Reserved : 8; /* 0xFF000000, must be 0 */
        };
        UINT Value;
    };
    UINT DriverId;
    UINT AllocationOffset;
    UINT PatchOffset;
    UINT SplitOffset;
} D3DDDI_PATCHLOCATIONLIST;

/* One user-mode allocation-list entry, before dxgkrnl converts it (facts 4.7). */
typedef struct _D3DDDI_ALLOCATIONLIST {
    D3DKMT_HANDLE hAllocation;
    union {
        struct {
            UINT WriteOperation : 1;      /* 0x00000001 */
            UINT DoNotRetireInstance : 1; /* 0x00000002 */
            UINT OfferPriority : 3;       /* 0x0000001C */
            UINT Reserved : 27;           /* 0xFFFFFFE0 */
        };
        UINT Value;
    };
} D3DDDI_ALLOCATIONLIST;

WK_STATIC_ASSERT(sizeof(DXGK_ALLOCATIONLIST) == 24, "facts 4.7: 24 bytes on x64");
WK_STATIC_ASSERT(sizeof(D3DDDI_PATCHLOCATIONLIST) == 24, "facts 4.7: 24 bytes");
WK_STATIC_ASSERT(sizeof(D3DDDI_ALLOCATIONLIST) == 8, "facts 4.7: 8 bytes");

/* ------------------------------------------------------------------------ */
/* Contexts and devices (facts 4.1)                                         */
/* ------------------------------------------------------------------------ */

/* Starting DMA-buffer and list sizes a new context asks for (facts 4.1). */
typedef struct _DXGK_CONTEXTINFO {
    UINT DmaBufferSize;
    UINT DmaBufferSegmentSet; /* aperture segments only; 0 = locked system memory */
    UINT DmaBufferPrivateDataSize;
    UINT AllocationListSize;  /* 256 for GDI contexts */
    UINT PatchLocationListSize;
    UINT Reserved;
    DXGK_CONTEXTINFO_CAPS Caps;
    ULONG PagingCompanionNodeId;
} DXGK_CONTEXTINFO;

/* The argument of DxgkDdiCreateContext (facts 4.1). */
typedef struct _DXGKARG_CREATECONTEXT {
    HANDLE hContext; /* in: runtime handle; out: driver handle */
    UINT NodeOrdinal;
    UINT EngineAffinity;
    DXGK_CREATECONTEXTFLAGS Flags;
    VOID *pPrivateDriverData;
    UINT PrivateDriverDataSize;
    DXGK_CONTEXTINFO ContextInfo; /* out */
} DXGKARG_CREATECONTEXT;

/* Per-device sizes returned by drivers that are not multi-engine aware (facts 4.1). */
typedef struct _DXGK_DEVICEINFO {
    UINT DmaBufferSize;
    UINT DmaBufferSegmentSet;
    UINT DmaBufferPrivateDataSize;
    UINT AllocationListSize;
    UINT PatchLocationListSize;
    DXGK_DEVICEINFOFLAGS Flags;
} DXGK_DEVICEINFO;

WK_STATIC_ASSERT(sizeof(DXGK_CONTEXTINFO) == 32, "facts 4.1: 32 bytes (WDDM 2.x)");
WK_STATIC_ASSERT(sizeof(DXGKARG_CREATECONTEXT) == 72, "facts 4.1: 72 bytes on x64");
WK_STATIC_ASSERT(sizeof(DXGK_DEVICEINFO) == 24, "facts 4.1: 24 bytes");

/* ------------------------------------------------------------------------ */
/* Render, patch, submit, cancel (facts 4.3 - 4.6)                          */
/* ------------------------------------------------------------------------ */

/*
 * The argument of DxgkDdiRender (facts 4.3). pCommand and CommandLength are
 * const members as in the WDK, so a driver cannot retarget its input; build
 * the struct with an initializer. pCommand and pPatchLocationListIn point at
 * untrusted user data (facts 5.2 R1).
 */
typedef struct _DXGKARG_RENDER {
    const VOID *const pCommand;
    const UINT CommandLength;
    VOID *pDmaBuffer; /* in/out: next unused byte on return */
    UINT DmaSize;
    VOID *pDmaBufferPrivateData;
    UINT DmaBufferPrivateDataSize;
    DXGK_ALLOCATIONLIST *pAllocationList;
    UINT AllocationListSize;
    D3DDDI_PATCHLOCATIONLIST *pPatchLocationListIn;
    UINT PatchLocationListInSize;
    D3DDDI_PATCHLOCATIONLIST *pPatchLocationListOut; /* in/out */
    UINT PatchLocationListOutSize;
    UINT MultipassOffset; /* in/out */
    UINT DmaBufferSegmentId;
    PHYSICAL_ADDRESS DmaBufferPhysicalAddress;
} DXGKARG_RENDER;

/* The argument of DxgkDdiPatch; every field is input (facts 4.4). */
typedef struct _DXGKARG_PATCH {
    union {
        HANDLE hDevice;
        HANDLE hContext;
    };
    UINT DmaBufferSegmentId; /* 0: contiguous system memory (T5) */
    PHYSICAL_ADDRESS DmaBufferPhysicalAddress; /* start of the whole buffer (T4) */
    VOID *pDmaBuffer;
    UINT DmaBufferSize;
    UINT DmaBufferSubmissionStartOffset;
    UINT DmaBufferSubmissionEndOffset;
    VOID *pDmaBufferPrivateData;
    UINT DmaBufferPrivateDataSize;
    UINT DmaBufferPrivateDataSubmissionStartOffset;
    UINT DmaBufferPrivateDataSubmissionEndOffset;
    const DXGK_ALLOCATIONLIST *pAllocationList;
    UINT AllocationListSize;
    const D3DDDI_PATCHLOCATIONLIST *pPatchLocationList;
    UINT PatchLocationListSize;
    UINT PatchLocationListSubmissionStart;
    UINT PatchLocationListSubmissionLength;
    UINT SubmissionFenceId;
    DXGK_PATCHFLAGS Flags;
    UINT EngineOrdinal;
} DXGKARG_PATCH;

/*
 * The argument of DxgkDdiSubmitCommand (facts 4.5). There is no CPU pointer
 * to the DMA buffer (facts 7.10); drivers find it through their private data.
 */
typedef struct _DXGKARG_SUBMITCOMMAND {
    union {
        HANDLE hDevice;
        HANDLE hContext; /* NULL for paging submissions */
    };
    UINT DmaBufferSegmentId;
    PHYSICAL_ADDRESS DmaBufferPhysicalAddress;
    UINT DmaBufferSize;
    UINT DmaBufferSubmissionStartOffset;
    UINT DmaBufferSubmissionEndOffset;
    VOID *pDmaBufferPrivateData;
    UINT DmaBufferPrivateDataSize;
    UINT DmaBufferPrivateDataSubmissionStartOffset;
    UINT DmaBufferPrivateDataSubmissionEndOffset;
    UINT SubmissionFenceId;
    D3DDDI_VIDEO_PRESENT_SOURCE_ID VidPnSourceId; /* flips only */
    D3DDDI_FLIPINTERVAL_TYPE FlipInterval;        /* flips only */
    DXGK_SUBMITCOMMANDFLAGS Flags;
    UINT EngineOrdinal;
    D3DGPU_VIRTUAL_ADDRESS DmaBufferVirtualAddress; /* reserved, 0 */
    UINT NodeOrdinal;
} DXGKARG_SUBMITCOMMAND;

/* The argument of DxgkDdiCancelCommand: what Patch would have seen (facts 4.6). */
typedef struct _DXGKARG_CANCELCOMMAND {
    HANDLE hContext;
    VOID *pDmaBuffer;
    UINT DmaBufferSize;
    UINT DmaBufferSubmissionStartOffset;
    UINT DmaBufferSubmissionEndOffset;
    VOID *pDmaBufferPrivateData;
    UINT DmaBufferPrivateDataSize;
    UINT DmaBufferPrivateDataSubmissionStartOffset;
    UINT DmaBufferPrivateDataSubmissionEndOffset;
    const DXGK_ALLOCATIONLIST *pAllocationList;
    UINT AllocationListSize;
    const D3DDDI_PATCHLOCATIONLIST *pPatchLocationList;
    UINT PatchLocationListSize;
    UINT PatchLocationListSubmissionStart;
    UINT PatchLocationListSubmissionLength;
    D3DGPU_VIRTUAL_ADDRESS DmaBufferVirtualAddress;
    UINT DmaBufferUmdPrivateDataSize;
} DXGKARG_CANCELCOMMAND;

WK_STATIC_ASSERT(sizeof(DXGKARG_RENDER) == 112, "facts 4.3: 112 bytes on x64");
WK_STATIC_ASSERT(sizeof(DXGKARG_PATCH) == 120, "facts 4.4: 120 bytes on x64");
WK_STATIC_ASSERT(sizeof(DXGKARG_SUBMITCOMMAND) == 96, "facts 4.5: 96 bytes on x64");
WK_STATIC_ASSERT(sizeof(DXGKARG_CANCELCOMMAND) == 112, "facts 4.6: 112 bytes on x64");

/* ------------------------------------------------------------------------ */
/* Segments (facts 4.8)                                                     */
/* ------------------------------------------------------------------------ */

/*
 * The CPU-host aperture through which a non-CPU-visible segment is reached
 * (facts 4.8).
 */
typedef struct _DXGK_CPUHOSTAPERTURE {
    UINT64 PhysicalAddress;
    UINT32 SizeInPages;
} DXGK_CPUHOSTAPERTURE;

/*
 * A segment as reported through QUERYSEGMENT (v1, facts 4.8).
 *
 * pBankRangeTable (facts 7.8): the docs say it holds the end offset of each
 * bank but that the last bank's end is implied by the segment end, leaving
 * open whether NbOfBanks or NbOfBanks - 1 entries exist. The kit follows the
 * reading that is safe for both: consumers read only the first NbOfBanks - 1
 * entries and never rely on a final one.
 */
typedef struct _DXGK_SEGMENTDESCRIPTOR {
    PHYSICAL_ADDRESS BaseAddress;          /* GPU view */
    PHYSICAL_ADDRESS CpuTranslatedAddress; /* bus/BAR view, if CpuVisible */
    SIZE_T Size;                           /* multiple of 4 KB */
    UINT NbOfBanks;
    SIZE_T *pBankRangeTable;
    SIZE_T CommitLimit;
    DXGK_SEGMENTFLAGS Flags;
} DXGK_SEGMENTDESCRIPTOR;

/* A segment as reported through QUERYSEGMENT3 (WDDM 1.2; Flags moved first) (facts 4.8). */
typedef struct _DXGK_SEGMENTDESCRIPTOR3 {
    DXGK_SEGMENTFLAGS Flags;
    PHYSICAL_ADDRESS BaseAddress;
    PHYSICAL_ADDRESS CpuTranslatedAddress;
    SIZE_T Size;
    UINT NbOfBanks;
    SIZE_T *pBankRangeTable; /* see DXGK_SEGMENTDESCRIPTOR on its length */
    SIZE_T CommitLimit;
    SIZE_T SystemMemoryEndAddress;
    SIZE_T Reserved;
} DXGK_SEGMENTDESCRIPTOR3;

/* A segment as reported through QUERYSEGMENT4 (WDDM 2.0; no banks) (facts 4.8). */
typedef struct _DXGK_SEGMENTDESCRIPTOR4 {
    DXGK_SEGMENTFLAGS Flags;
    PHYSICAL_ADDRESS BaseAddress;
    SIZE_T Size;
    SIZE_T CommitLimit;
    SIZE_T SystemMemoryEndAddress;
    union {
        PHYSICAL_ADDRESS CpuTranslatedAddress;
        DXGK_CPUHOSTAPERTURE CpuHostAperture; /* if SupportsCpuHostAperture */
    };
    UINT NumInvalidMemoryRanges;
    SIZE_T VprRangeStartOffset;
    SIZE_T VprRangeSize;
    UINT VprAlignment;
    UINT NumVprSupported;
    UINT VprReserveSize;
    UINT NumUEFIFrameBufferRanges;
} DXGK_SEGMENTDESCRIPTOR4;

/* What VidMm tells the driver about the AGP aperture before it reports segments (facts 4.8). */
typedef struct _DXGK_QUERYSEGMENTIN {
    PHYSICAL_ADDRESS AgpApertureBase;
    LARGE_INTEGER AgpApertureSize;
    DXGK_SEGMENTFLAGS AgpFlags;
} DXGK_QUERYSEGMENTIN;

/*
 * The driver's answer to QUERYSEGMENT (facts 4.8, 5.5 G9).
 *
 * PagingBufferSegmentId (facts 7.7): the field text demands an aperture
 * segment, the remarks also allow 0 (contiguous system memory) and CosKmd
 * reports 0. The kit follows the remarks and accepts 0 or an aperture id,
 * since rejecting 0 would fail a Microsoft sample.
 */
typedef struct _DXGK_QUERYSEGMENTOUT {
    UINT NbSegment;
    DXGK_SEGMENTDESCRIPTOR *pSegmentDescriptor; /* NULL on the first call */
    UINT PagingBufferSegmentId;
    UINT PagingBufferSize;
    UINT PagingBufferPrivateDataSize;
} DXGK_QUERYSEGMENTOUT;

/* The driver's answer to QUERYSEGMENT3; same rules as v1 (facts 4.8). */
typedef struct _DXGK_QUERYSEGMENTOUT3 {
    UINT NbSegment;
    DXGK_SEGMENTDESCRIPTOR3 *pSegmentDescriptor;
    UINT PagingBufferSegmentId;
    UINT PagingBufferSize;
    UINT PagingBufferPrivateDataSize;
} DXGK_QUERYSEGMENTOUT3;

/* Which physical adapter QUERYSEGMENT4 asks about (facts 4.8). */
typedef struct _DXGK_QUERYSEGMENTIN4 {
    UINT PhysicalAdapterIndex;
} DXGK_QUERYSEGMENTIN4;

/* The driver's answer to QUERYSEGMENT4; descriptors are SegmentDescriptorStride apart (facts 4.8). */
typedef struct _DXGK_QUERYSEGMENTOUT4 {
    UINT NbSegment;
    BYTE *pSegmentDescriptor;
    UINT PagingBufferSegmentId;
    UINT PagingBufferSize;
    UINT PagingBufferPrivateDataSize;
    SIZE_T SegmentDescriptorStride;
} DXGK_QUERYSEGMENTOUT4;

WK_STATIC_ASSERT(sizeof(DXGK_CPUHOSTAPERTURE) == 16, "facts 4.8: 16 bytes");
WK_STATIC_ASSERT(sizeof(DXGK_SEGMENTDESCRIPTOR) == 56, "facts 4.8: 56 bytes on x64");
WK_STATIC_ASSERT(sizeof(DXGK_SEGMENTDESCRIPTOR3) == 72, "facts 4.8: 72 bytes on x64");
WK_STATIC_ASSERT(sizeof(DXGK_SEGMENTDESCRIPTOR4) == 96, "facts 4.8: 96 bytes on x64");
WK_STATIC_ASSERT(sizeof(DXGK_QUERYSEGMENTIN) == 24, "facts 4.8: 24 bytes");
WK_STATIC_ASSERT(sizeof(DXGK_QUERYSEGMENTOUT) == 32, "facts 4.8: 32 bytes on x64");
WK_STATIC_ASSERT(sizeof(DXGK_QUERYSEGMENTOUT3) == 32, "facts 4.8: 32 bytes on x64");
WK_STATIC_ASSERT(sizeof(DXGK_QUERYSEGMENTIN4) == 4, "facts 4.8: 4 bytes");
WK_STATIC_ASSERT(sizeof(DXGK_QUERYSEGMENTOUT4) == 40, "facts 4.8: 40 bytes on x64");

/* ------------------------------------------------------------------------ */
/* Allocations (facts 4.9)                                                  */
/* ------------------------------------------------------------------------ */

/* Usage hint; only ever handled through a pointer, so it stays incomplete. */
typedef struct _DXGK_ALLOCATIONUSAGEHINT DXGK_ALLOCATIONUSAGEHINT;

/*
 * One allocation DxgkDdiCreateAllocation describes back to VidMm (facts 4.9).
 * The WDDM 3.0 Flags2 word that later fills the tail padding at 84 is not
 * part of the pinned version.
 */
typedef struct _DXGK_ALLOCATIONINFO {
    VOID *pPrivateDriverData;
    UINT PrivateDriverDataSize;
    UINT Alignment;
    SIZE_T Size;
    SIZE_T PitchAlignedSize;
    DXGK_SEGMENTBANKPREFERENCE HintedBank;
    DXGK_SEGMENTPREFERENCE PreferredSegment;
    UINT SupportedReadSegmentSet;  /* bit n = segment n + 1; unused in 2.x */
    UINT SupportedWriteSegmentSet;
    UINT EvictionSegmentSet;
    union {
        UINT MaximumRenamingListLength; /* before WDDM 2.0 */
        UINT PhysicalAdapterIndex;      /* WDDM 2.0 and later */
    };
    HANDLE hAllocation;
    union {
        DXGK_ALLOCATIONINFOFLAGS Flags;
        DXGK_ALLOCATIONINFOFLAGS_WDDM2_0 FlagsWddm2;
    };
    DXGK_ALLOCATIONUSAGEHINT *pAllocationUsageHint;
    UINT AllocationPriority; /* 0 is invalid */
} DXGK_ALLOCATIONINFO;

/* The argument of DxgkDdiCreateAllocation (minimal shape, pinned header). */
typedef struct _DXGKARG_CREATEALLOCATION {
    const VOID *pPrivateDriverData;
    UINT PrivateDriverDataSize;
    UINT NumAllocations;
    DXGK_ALLOCATIONINFO *pAllocationInfo;
    HANDLE hResource;
    DXGK_CREATEALLOCATIONFLAGS Flags;
} DXGKARG_CREATEALLOCATION;

/* The argument of DxgkDdiDestroyAllocation (minimal shape, pinned header). */
typedef struct _DXGKARG_DESTROYALLOCATION {
    UINT NumAllocations;
    const HANDLE *pAllocationList;
    HANDLE hResource;
    DXGK_DESTROYALLOCATIONFLAGS Flags;
} DXGKARG_DESTROYALLOCATION;

WK_STATIC_ASSERT(sizeof(DXGK_ALLOCATIONINFO) == 88, "facts 4.9: 88 bytes on x64");
WK_STATIC_ASSERT(sizeof(DXGKARG_CREATEALLOCATION) == 40, "create-allocation args, x64");
WK_STATIC_ASSERT(sizeof(DXGKARG_DESTROYALLOCATION) == 32, "destroy-allocation args, x64");

/* ------------------------------------------------------------------------ */
/* Context-allocation callbacks (facts 4.10)                                */
/* ------------------------------------------------------------------------ */

/* The argument of DxgkCbCreateContextAllocation (facts 4.10, 5.8). */
typedef struct _DXGKARGCB_CREATECONTEXTALLOCATION {
    DXGK_CREATECONTEXTALLOCATIONFLAGS ContextAllocationFlags;
    HANDLE hAdapter;
    HANDLE hDevice;           /* NULL: system device */
    HANDLE hContext;          /* NULL when SharedAcrossContexts = 1 */
    HANDLE hDriverAllocation; /* echoed back as hAllocation in paging ops */
    SIZE_T Size;
    UINT Alignment;
    UINT SupportedSegmentSet;
    UINT EvictionSegmentSet;
    DXGK_SEGMENTPREFERENCE PreferredSegment;
    DXGK_SEGMENTBANKPREFERENCE HintedBank;
    DXGK_ALLOCATIONINFOFLAGS Flags;
    HANDLE hAllocation; /* out: dxgkrnl handle, used to destroy */
    UINT PhysicalAdapterIndex;
} DXGKARGCB_CREATECONTEXTALLOCATION;

/* The argument of DxgkCbMapContextAllocation; offsets and sizes in 4 KB pages (facts 4.10). */
typedef struct _DXGKARGCB_MAPCONTEXTALLOCATION {
    D3DGPU_VIRTUAL_ADDRESS BaseAddress; /* nonzero: exactly this range */
    D3DGPU_VIRTUAL_ADDRESS MinimumAddress;
    D3DGPU_VIRTUAL_ADDRESS MaximumAddress; /* 0: no limit */
    HANDLE hAllocation;
    D3DGPU_SIZE_T OffsetInPages;
    D3DGPU_SIZE_T SizeInPages;
    D3DDDIGPUVIRTUALADDRESS_PROTECTION_TYPE Protection;
    UINT64 DriverProtection;
} DXGKARGCB_MAPCONTEXTALLOCATION;

/* The argument of DxgkCbUpdateContextAllocation (facts 4.10, 5.8 A6). */
typedef struct _DXGKARGCB_UPDATECONTEXTALLOCATION {
    HANDLE hAllocation;
    VOID *pPrivateDriverData;
    UINT PrivateDriverDataSize;
} DXGKARGCB_UPDATECONTEXTALLOCATION;

WK_STATIC_ASSERT(sizeof(DXGKARGCB_CREATECONTEXTALLOCATION) == 88,
                 "facts 4.10: 88 bytes on x64");
WK_STATIC_ASSERT(sizeof(DXGKARGCB_MAPCONTEXTALLOCATION) == 64,
                 "facts 4.10: 64 bytes on x64");
WK_STATIC_ASSERT(sizeof(DXGKARGCB_UPDATECONTEXTALLOCATION) == 24,
                 "facts 4.10: 24 bytes on x64");

/* ------------------------------------------------------------------------ */
/* Driver caps (facts 4.11; docs/wddm-ddi-tables.md section 3)          */
/* ------------------------------------------------------------------------ */

/* The WDDM version a driver reports (DXGK_DRIVERCAPS.WDDMVersion, WIN7+;
 * docs/wddm-ddi-tables.md section 4: the values up to WDDM 2.3). */
typedef enum _DXGK_WDDMVERSION {
    DXGKDDI_WDDMv1 = 0x1000,
    DXGKDDI_WDDMv1_2 = 0x1200,
    DXGKDDI_WDDMv1_3 = 0x1300,
    DXGKDDI_WDDMv2 = 0x2000,
    DXGKDDI_WDDMv2_1 = 0x2100,
    DXGKDDI_WDDMv2_1_5 = 0x2105,
    DXGKDDI_WDDMv2_1_6 = 0x2106,
    DXGKDDI_WDDMv2_2 = 0x2200,
    DXGKDDI_WDDMv2_3 = 0x2300
} DXGK_WDDMVERSION;

/* The bit-field caps of DXGK_DRIVERCAPS: a UINT each (docs/wddm-ddi-tables.md section 3). */
typedef struct _DXGK_POINTERFLAGS {
    union {
        struct {
            UINT Monochrome : 1;
            UINT Color : 1;
            UINT MaskedColor : 1;
            UINT Reserved : 29;
        };
        UINT Value;
    };
} DXGK_POINTERFLAGS;

typedef struct _DXGK_GAMMARAMPCAPS {
    union {
        struct {
            UINT Gamma_Rgb256x3x16 : 1;
            UINT Reserved : 31;
        };
        UINT Value;
    };
} DXGK_GAMMARAMPCAPS;

typedef struct _DXGK_COLORTRANSFORMCAPS { /* WDDM 2.2+: the same UINT as GammaRampCaps */
    union {
        struct {
            UINT Gamma_Rgb256x3x16 : 1;
            UINT Gamma_Dxgi1 : 1;
            UINT Reserved : 30;
        };
        UINT Value;
    };
} DXGK_COLORTRANSFORMCAPS;

typedef struct _DXGK_PRESENTATIONCAPS {
    union {
        struct {
            UINT NoScreenToScreenBlt : 1;
            UINT NoOverlapScreenBlt : 1;
            UINT SupportKernelModeCommandBuffer : 1;
            UINT NoSameBitmapAlphaBlend : 1;
            UINT NoSameBitmapStretchBlt : 1;
            UINT NoSameBitmapTransparentBlt : 1;
            UINT NoSameBitmapOverlappedAlphaBlend : 1;
            UINT NoSameBitmapOverlappedStretchBlt : 1;
            UINT DriverSupportsCddDwmInterop : 1;
            UINT Reserved0 : 1;
            UINT AlignmentShift : 4;
            UINT MaxTextureWidthShift : 3;
            UINT MaxTextureHeightShift : 3;
            UINT SupportAllBltRops : 1;
            UINT SupportMirrorStretchBlt : 1;
            UINT SupportMonoStretchBltModes : 1;
            UINT StagingRectStartPitchAligned : 1;
            UINT NoSameBitmapBitBlt : 1;
            UINT NoSameBitmapOverlappedBitBlt : 1;
            UINT Reserved1 : 1;
            UINT NoTempSurfaceForClearTypeBlend : 1;
            UINT SupportSoftwareDeviceBitmaps : 1;
            UINT NoCacheCoherentApertureMemory : 1;
            UINT SupportLinearHeap : 1;
            UINT Reserved : 1;
        };
        UINT Value;
    };
} DXGK_PRESENTATIONCAPS;

typedef struct _DXGK_FLIPCAPS {
    union {
        struct {
            UINT FlipOnVSyncWithNoWait : 1;
            UINT FlipOnVSyncMmIo : 1;
            UINT FlipInterval : 1;
            UINT FlipImmediateMmIo : 1;
            UINT FlipIndependent : 1;      /* WDDM 1.3 */
            UINT DdiPresentForIFlip : 1;   /* WDDM 2.0 */
            UINT FlipImmediateOnHSync : 1; /* WDDM 2.0 */
            UINT Reserved : 25;
        };
        UINT Value;
    };
} DXGK_FLIPCAPS;

typedef struct _DXGK_GPUENGINETOPOLOGY {
    UINT NbAsymetricProcessingNodes;
    UINT Reserved[64];
} DXGK_GPUENGINETOPOLOGY;

/* The two WIN7 members every later header renames Reserved/Reserved1:
 * their bytes, unused since. */
typedef struct _DXGK_VIRTUALADDRESSCAPS_DEPRECATED {
    UINT Reserved[7];
} DXGK_VIRTUALADDRESSCAPS_DEPRECATED;

typedef struct _DXGK_DMABUFFERCAPS_DEPRECATED {
    UINT Reserved[40]; /* 2 x {4 UINT + UINT[16]} */
} DXGK_DMABUFFERCAPS_DEPRECATED;

typedef enum _D3DKMDT_GRAPHICS_PREEMPTION_GRANULARITY {
    D3DKMDT_GRAPHICS_PREEMPTION_NONE = 0,
    D3DKMDT_GRAPHICS_PREEMPTION_DMA_BUFFER_BOUNDARY = 100,
    D3DKMDT_GRAPHICS_PREEMPTION_PRIMITIVE_BOUNDARY = 200,
    D3DKMDT_GRAPHICS_PREEMPTION_TRIANGLE_BOUNDARY = 300,
    D3DKMDT_GRAPHICS_PREEMPTION_PIXEL_BOUNDARY = 400,
    D3DKMDT_GRAPHICS_PREEMPTION_SHADER_BOUNDARY = 500
} D3DKMDT_GRAPHICS_PREEMPTION_GRANULARITY;

typedef enum _D3DKMDT_COMPUTE_PREEMPTION_GRANULARITY {
    D3DKMDT_COMPUTE_PREEMPTION_NONE = 0,
    D3DKMDT_COMPUTE_PREEMPTION_DMA_BUFFER_BOUNDARY = 100,
    D3DKMDT_COMPUTE_PREEMPTION_DISPATCH_BOUNDARY = 200,
    D3DKMDT_COMPUTE_PREEMPTION_THREAD_GROUP_BOUNDARY = 300,
    D3DKMDT_COMPUTE_PREEMPTION_THREAD_BOUNDARY = 400,
    D3DKMDT_COMPUTE_PREEMPTION_SHADER_BOUNDARY = 500
} D3DKMDT_COMPUTE_PREEMPTION_GRANULARITY;

typedef struct _D3DKMDT_PREEMPTION_CAPS {
    D3DKMDT_GRAPHICS_PREEMPTION_GRANULARITY GraphicsPreemptionGranularity;
    D3DKMDT_COMPUTE_PREEMPTION_GRANULARITY ComputePreemptionGranularity;
} D3DKMDT_PREEMPTION_CAPS;

/*
 * DXGK_DRIVERCAPS whole, as of DXGKDDI_INTERFACE_VERSION_WDDM2_3: every
 * member at its Windows x64 offset (docs/wddm-ddi-tables.md section 3, checked there
 * against an offset dump; tests/test_d3dkmddi_layout.c holds each one).
 * The kit reads HighestAcceptableAddress, MaxAllocationListSlotId,
 * ApertureSegmentCommitLimit, SchedulingCaps, MemoryManagementCaps and
 * WDDMVersion; the rest is the driver's answer, kept as it gave it.
 */
typedef struct _DXGK_DRIVERCAPS {
    PHYSICAL_ADDRESS HighestAcceptableAddress;     /* 0x000 */
    UINT MaxAllocationListSlotId;                  /* 0x008: rows of VidMm's split slot table */
    SIZE_T ApertureSegmentCommitLimit;             /* 0x010: bytes mappable into apertures */
    UINT MaxPointerWidth;                          /* 0x018 */
    UINT MaxPointerHeight;                         /* 0x01C */
    DXGK_POINTERFLAGS PointerCaps;                 /* 0x020 */
    UINT InterruptMessageNumber;                   /* 0x024 */
    UINT NumberOfSwizzlingRanges;                  /* 0x028 */
    UINT MaxOverlays;                              /* 0x02C */
    union {                                        /* 0x030 */
        DXGK_GAMMARAMPCAPS GammaRampCaps;
        DXGK_COLORTRANSFORMCAPS ColorTransformCaps; /* WDDM 2.2 */
    };
    DXGK_PRESENTATIONCAPS PresentationCaps;        /* 0x034 */
    UINT MaxQueuedFlipOnVSync;                     /* 0x038 */
    DXGK_FLIPCAPS FlipCaps;                        /* 0x03C */
    DXGK_VIDSCHCAPS SchedulingCaps;                /* 0x040 */
    DXGK_VIDMMCAPS MemoryManagementCaps;           /* 0x044 (and PagingNode) */
    DXGK_GPUENGINETOPOLOGY GpuEngineTopology;      /* 0x04C */
    DXGK_WDDMVERSION WDDMVersion;                  /* 0x150: WIN7 */
    DXGK_VIRTUALADDRESSCAPS_DEPRECATED Reserved;   /* 0x154 */
    DXGK_DMABUFFERCAPS_DEPRECATED Reserved1;       /* 0x170 */
    D3DKMDT_PREEMPTION_CAPS PreemptionCaps;        /* 0x210: WIN8 */
    BOOLEAN SupportNonVGA;                         /* 0x218 */
    BOOLEAN SupportSmoothRotation;
    BOOLEAN SupportPerEngineTDR;
    BOOLEAN SupportDirectFlip;
    BOOLEAN SupportMultiPlaneOverlay;
    BOOLEAN SupportRuntimePowerManagement;
    BOOLEAN SupportSurpriseRemovalInHibernation;
    BOOLEAN HybridDiscrete;                        /* 0x21F: WDDM 1.3 */
    UINT MaxOverlayPlanes;                         /* 0x220 */
    BOOLEAN HybridIntegrated;                      /* 0x224: WDDM 2.0 */
    D3DGPU_VIRTUAL_ADDRESS InternalGpuVirtualAddressRangeStart; /* 0x228 */
    D3DGPU_VIRTUAL_ADDRESS InternalGpuVirtualAddressRangeEnd;   /* 0x230 */
    BOOLEAN SupportSurpriseRemoval;                /* 0x238 */
    BOOLEAN SupportMultiPlaneOverlayImmediateFlip; /* 0x239: WDDM 2.1 */
    BOOLEAN CursorScaledWithMultiPlaneOverlayPlane0;
    BOOLEAN HybridAcpiChainingRequired;
    UINT MaxQueuedMultiPlaneOverlayFlipVSync;      /* 0x23C */
} DXGK_DRIVERCAPS;

WK_STATIC_ASSERT(sizeof(DXGK_DRIVERCAPS) == 0x240, "docs/wddm-ddi-tables.md section 3: 0x240 bytes at WDDM 2.3 on x64");

/*
 * The answer to DXGKQAITYPE_PHYSICALADAPTERCAPS (WDDM 2.0; facts 4.13,
 * docs/wddm-ddi-tables.md section 3b). The kit reads NumExecutionNodes and
 * PagingNodeIndex: "Index of the paging node for the physical adapter", the
 * WDDM 2.x home of DXGK_VIDMMCAPS.PagingNode (which "applies to WDDM 1.x
 * only"). WORD in the WDK: a USHORT here. Offsets x64, computed [X].
 */
typedef struct _DXGK_PHYSICALADAPTERFLAGS {
    union {
        struct {
            UINT IoMmuSupported : 1;           /* 0x00000001 */
            UINT GpuMmuSupported : 1;          /* 0x00000002 */
            UINT MovePagingSupported : 1;      /* 0x00000004 */
            UINT VPRPagingContextRequired : 1; /* 0x00000008 */
            UINT Reserved : 28;                /* later interface versions name more of these */
        };
        UINT Value;
    };
} DXGK_PHYSICALADAPTERFLAGS;

typedef struct _DXGK_PHYSICALADAPTERCAPS {
    USHORT NumExecutionNodes;            /* 0x00: WORD */
    USHORT PagingNodeIndex;              /* 0x02: WORD */
    HANDLE DxgkPhysicalAdapterHandle;    /* 0x08 */
    DXGK_PHYSICALADAPTERFLAGS Flags;     /* 0x10 */
    UINT VPRPagingNode;                  /* 0x14 */
    UINT VirtualCopyNodeIndex;           /* 0x18: WDDM 2.7 */
} DXGK_PHYSICALADAPTERCAPS;

WK_STATIC_ASSERT(sizeof(DXGK_PHYSICALADAPTERFLAGS) == 4, "physical adapter flags are 32 bits");
WK_STATIC_ASSERT(sizeof(DXGK_PHYSICALADAPTERCAPS) == 32,
                 "docs/wddm-ddi-tables.md section 3b: 32 bytes on x64 with VirtualCopyNodeIndex");

/* ------------------------------------------------------------------------ */
/* The GpuMmu model (WDDM 2.0): docs/wddm-gpummu-facts.md                    */
/* ------------------------------------------------------------------------ */

#define DXGK_MIN_PAGE_TABLE_LEVEL_COUNT 2 /* d3dukmdt.h (wddm-gpummu-facts.md 1.2) */
#define DXGK_MAX_PAGE_TABLE_LEVEL_COUNT 6

/* DXGKQAITYPE_GPUMMUCAPS's input: which physical adapter (0 unless linked). */
typedef struct _DXGK_QUERYGPUMMUCAPSIN {
    UINT PhysicalAdapterIndex;
} DXGK_QUERYGPUMMUCAPSIN;

/* wddm-gpummu-facts.md 1.3: the flags, bit 0 first. */
typedef struct _DXGK_GPUMMUCAPS {
    union {
        struct {
            UINT ReadOnlyMemorySupported : 1;               /* 0x00000001 */
            UINT NoExecuteMemorySupported : 1;              /* 0x00000002 */
            UINT ZeroInPteSupported : 1;                    /* 0x00000004 */
            UINT ExplicitPageTableInvalidation : 1;         /* 0x00000008 */
            UINT CacheCoherentMemorySupported : 1;          /* 0x00000010 */
            UINT PageTableUpdateRequireAddressSpaceIdle : 1; /* 0x00000020 */
            UINT LargePageSupported : 1;                    /* 0x00000040 */
            UINT DualPteSupported : 1;                      /* 0x00000080 */
            UINT AllowNonAlignedLargePageAddress : 1;       /* 0x00000100: WDDM 2.1 */
            UINT SysMem64KBPageSupported : 1;               /* 0x00000200: WDDM 2.1 */
            UINT InvalidTlbEntriesNotCached : 1;            /* 0x00000400: WDDM 2.6 */
            UINT SysMemLargePageSupported : 1;              /* 0x00000800: WDDM 2.9 */
            UINT CachedPageTables : 1;                      /* 0x00001000: WDDM 3.1 */
            UINT Reserved : 19;
        };
        UINT Value;
    };
    DXGK_PAGETABLEUPDATEMODE PageTableUpdateMode; /* 0x04 */
    UINT VirtualAddressBitCount;                  /* 0x08 */
    UINT LeafPageTableSizeFor64KPagesInBytes;     /* 0x0C: a multiple of 4096 */
    UINT PageTableLevelCount;                     /* 0x10: 2 to 6 */
    struct {
        UINT SourcePageTableVaInTransfer : 1;     /* VidMm fills TransferVirtual.SourcePageTable */
        UINT Reserved : 31;
    } LegacyBehaviors;                            /* 0x14 */
} DXGK_GPUMMUCAPS;

/* DXGKQAITYPE_PAGETABLELEVELDESC's input: a level (0 the leaf) of a
 * physical adapter. */
typedef struct _DXGK_QUERYPAGETABLELEVELDESCIN {
    USHORT LevelIndex;           /* WORD */
    USHORT PhysicalAdapterIndex; /* WORD */
} DXGK_QUERYPAGETABLELEVELDESCIN;

/* One level of the page tables (wddm-gpummu-facts.md 2.3). The segment ids here
 * count system memory as 0. */
typedef struct _DXGK_PAGE_TABLE_LEVEL_DESC {
    UINT PageTableIndexBitCount;          /* 0x00: the table has 2^n entries */
    UINT PageTableSegmentId;              /* 0x04: where ordinary processes' tables of the level go */
    UINT PagingProcessPageTableSegmentId; /* 0x08: where the paging process's go */
    UINT PageTableSizeInBytes;            /* 0x0C: a multiple of the CPU page size */
    UINT PageTableAlignmentInBytes;       /* 0x10: 0 = the segment's page size */
} DXGK_PAGE_TABLE_LEVEL_DESC;

typedef struct _DXGK_CREATEPROCESSFLAGS {
    union {
        struct {
            UINT SystemProcess : 1;               /* 0x00000001 */
            UINT GdiProcess : 1;                  /* 0x00000002 */
            UINT VirtualMachineProcess : 1;       /* 0x00000004: WDDM 2.2 */
            UINT VirtualMachineWorkerProcess : 1; /* 0x00000008: WDDM 2.4 */
            UINT Reserved : 28;
        };
        UINT Value;
    };
} DXGK_CREATEPROCESSFLAGS;

typedef struct _DXGKARG_CREATEPROCESS {
    HANDLE hDxgkProcess;                  /* 0x00 in */
    HANDLE hKmdProcess;                   /* 0x08 out: the driver's handle of the process */
    DXGK_CREATEPROCESSFLAGS Flags;        /* 0x10 */
    UINT NumPasid;                        /* 0x14 */
    ULONG *pPasid;                        /* 0x18 */
    HANDLE hKmdVmWorkerProcess;           /* 0x20: WDDM 2.4 */
    UINT ProcessNameLength;               /* 0x28: WDDM 2.4 */
    WCHAR *pProcessName;                  /* 0x30: WDDM 2.4 */
} DXGKARG_CREATEPROCESS;

typedef struct _DXGKARG_GETROOTPAGETABLESIZE {
    UINT NumberOfPte;                     /* in: entries needed; out: entries the size holds */
    UINT PhysicalAdapterIndex;
} DXGKARG_GETROOTPAGETABLESIZE;

typedef struct _DXGKARG_SETROOTPAGETABLE {
    HANDLE hContext;                      /* 0x00 */
    D3DGPU_PHYSICAL_ADDRESS Address;      /* 0x08: where the root table is */
    UINT NumEntries;                      /* 0x18: a root index at or past it faults */
} DXGKARG_SETROOTPAGETABLE;

typedef struct _DXGKARG_SUBMITCOMMANDVIRTUAL {
    HANDLE hContext;                              /* 0x00 */
    D3DGPU_VIRTUAL_ADDRESS DmaBufferVirtualAddress; /* 0x08: in the context's process */
    UINT DmaBufferSize;                           /* 0x10 */
    VOID *pDmaBufferPrivateData;                  /* 0x18 */
    UINT DmaBufferPrivateDataSize;                /* 0x20 */
    UINT DmaBufferUmdPrivateDataSize;             /* 0x24 */
    UINT SubmissionFenceId;                       /* 0x28 */
    D3DDDI_VIDEO_PRESENT_SOURCE_ID VidPnSourceId; /* 0x2C */
    D3DDDI_FLIPINTERVAL_TYPE FlipInterval;        /* 0x30 */
    DXGK_SUBMITCOMMANDFLAGS Flags;                /* 0x34 */
    UINT EngineOrdinal;                           /* 0x38 */
    UINT NodeOrdinal;                             /* 0x3C */
} DXGKARG_SUBMITCOMMANDVIRTUAL;

WK_STATIC_ASSERT(sizeof(DXGK_GPUMMUCAPS) == 24, "wddm-gpummu-facts.md 1.2: 24 bytes");
WK_STATIC_ASSERT(sizeof(DXGK_PAGE_TABLE_LEVEL_DESC) == 20, "wddm-gpummu-facts.md 2.3: 20 bytes");
WK_STATIC_ASSERT(sizeof(DXGK_QUERYPAGETABLELEVELDESCIN) == 4, "wddm-gpummu-facts.md 2.1: 4 bytes");
WK_STATIC_ASSERT(sizeof(DXGKARG_CREATEPROCESS) == 56, "wddm-gpummu-facts.md 3.2: 56 bytes at WDDM 2.4");
WK_STATIC_ASSERT(sizeof(DXGKARG_GETROOTPAGETABLESIZE) == 8, "wddm-gpummu-facts.md 3.3: 8 bytes");
WK_STATIC_ASSERT(sizeof(DXGKARG_SETROOTPAGETABLE) == 32, "wddm-gpummu-facts.md 3.4: 32 bytes on x64");
WK_STATIC_ASSERT(sizeof(DXGKARG_SUBMITCOMMANDVIRTUAL) == 64, "wddm-gpummu-facts.md 3.5: 64 bytes on x64");

/* ------------------------------------------------------------------------ */
/* Surface formats: D3DDDIFORMAT (d3dukmdt.h)                                */
/* ------------------------------------------------------------------------ */

/* The four-character code of a FOURCC format, first character in the low
 * byte (d3dukmdt.h's definition, kept if the driver has its own). */
#ifndef MAKEFOURCC
#define MAKEFOURCC(ch0, ch1, ch2, ch3)                                                \
    ((DWORD)(BYTE)(ch0) | ((DWORD)(BYTE)(ch1) << 8) | ((DWORD)(BYTE)(ch2) << 16) | \
     ((DWORD)(BYTE)(ch3) << 24))
#endif

/*
 * Every surface format of d3dukmdt.h at interface 2.3 (the WDK of
 * 10.0.16299, shared/d3dukmdt.h, public copy repo tpn/winsdk-10): the
 * Direct3D 9 D3DFORMAT numbering (checked against the D3DFORMAT reference
 * page of d3d9types.h, direct3d9/d3dformat), FOURCC codes through
 * MAKEFOURCC as the WDK writes them. The names are those of the reference
 * page ne-d3dukmdt-_d3dddiformat (which gives no values). D3DDDIFMT_G8R8
 * and D3DDDIFMT_R8 are guarded by D3D_UMD_INTERFACE_VERSION >= WDDM 1.3 in
 * the WDK, which a kernel build defaults to 2.3: present. S8D24/X8D24 and
 * D24S8/D24X8 are distinct values (74/76 and 75/77).
 */
typedef enum _D3DDDIFORMAT {
    D3DDDIFMT_UNKNOWN = 0,

    D3DDDIFMT_R8G8B8 = 20,
    D3DDDIFMT_A8R8G8B8 = 21,
    D3DDDIFMT_X8R8G8B8 = 22,
    D3DDDIFMT_R5G6B5 = 23,
    D3DDDIFMT_X1R5G5B5 = 24,
    D3DDDIFMT_A1R5G5B5 = 25,
    D3DDDIFMT_A4R4G4B4 = 26,
    D3DDDIFMT_R3G3B2 = 27,
    D3DDDIFMT_A8 = 28,
    D3DDDIFMT_A8R3G3B2 = 29,
    D3DDDIFMT_X4R4G4B4 = 30,
    D3DDDIFMT_A2B10G10R10 = 31,
    D3DDDIFMT_A8B8G8R8 = 32,
    D3DDDIFMT_X8B8G8R8 = 33,
    D3DDDIFMT_G16R16 = 34,
    D3DDDIFMT_A2R10G10B10 = 35,
    D3DDDIFMT_A16B16G16R16 = 36,

    D3DDDIFMT_A8P8 = 40,
    D3DDDIFMT_P8 = 41,

    D3DDDIFMT_L8 = 50,
    D3DDDIFMT_A8L8 = 51,
    D3DDDIFMT_A4L4 = 52,

    D3DDDIFMT_V8U8 = 60,
    D3DDDIFMT_L6V5U5 = 61,
    D3DDDIFMT_X8L8V8U8 = 62,
    D3DDDIFMT_Q8W8V8U8 = 63,
    D3DDDIFMT_V16U16 = 64,
    D3DDDIFMT_W11V11U10 = 65,
    D3DDDIFMT_A2W10V10U10 = 67,

    D3DDDIFMT_UYVY = MAKEFOURCC('U', 'Y', 'V', 'Y'),
    D3DDDIFMT_R8G8_B8G8 = MAKEFOURCC('R', 'G', 'B', 'G'),
    D3DDDIFMT_YUY2 = MAKEFOURCC('Y', 'U', 'Y', '2'),
    D3DDDIFMT_G8R8_G8B8 = MAKEFOURCC('G', 'R', 'G', 'B'),
    D3DDDIFMT_DXT1 = MAKEFOURCC('D', 'X', 'T', '1'),
    D3DDDIFMT_DXT2 = MAKEFOURCC('D', 'X', 'T', '2'),
    D3DDDIFMT_DXT3 = MAKEFOURCC('D', 'X', 'T', '3'),
    D3DDDIFMT_DXT4 = MAKEFOURCC('D', 'X', 'T', '4'),
    D3DDDIFMT_DXT5 = MAKEFOURCC('D', 'X', 'T', '5'),

    D3DDDIFMT_D16_LOCKABLE = 70,
    D3DDDIFMT_D32 = 71,
    D3DDDIFMT_D15S1 = 73,
    D3DDDIFMT_D24S8 = 75,
    D3DDDIFMT_D24X8 = 77,
    D3DDDIFMT_D24X4S4 = 79,
    D3DDDIFMT_D16 = 80,

    D3DDDIFMT_D32F_LOCKABLE = 82,
    D3DDDIFMT_D24FS8 = 83,

    D3DDDIFMT_D32_LOCKABLE = 84,
    D3DDDIFMT_S8_LOCKABLE = 85,

    D3DDDIFMT_S1D15 = 72,
    D3DDDIFMT_S8D24 = 74,
    D3DDDIFMT_X8D24 = 76,
    D3DDDIFMT_X4S4D24 = 78,

    D3DDDIFMT_L16 = 81,
    D3DDDIFMT_G8R8 = 91, /* WDDM 1.3 (UMD interface) */
    D3DDDIFMT_R8 = 92,   /* WDDM 1.3 (UMD interface) */

    D3DDDIFMT_VERTEXDATA = 100,
    D3DDDIFMT_INDEX16 = 101,
    D3DDDIFMT_INDEX32 = 102,

    D3DDDIFMT_Q16W16V16U16 = 110,

    D3DDDIFMT_MULTI2_ARGB8 = MAKEFOURCC('M', 'E', 'T', '1'),

    /* s10e5 floating point, 16 bits a channel */
    D3DDDIFMT_R16F = 111,
    D3DDDIFMT_G16R16F = 112,
    D3DDDIFMT_A16B16G16R16F = 113,

    /* IEEE s23e8 floating point, 32 bits a channel */
    D3DDDIFMT_R32F = 114,
    D3DDDIFMT_G32R32F = 115,
    D3DDDIFMT_A32B32G32R32F = 116,

    D3DDDIFMT_CxV8U8 = 117,
    D3DDDIFMT_A1 = 118,                  /* 1 bit a pixel, monochrome */
    D3DDDIFMT_A2B10G10R10_XR_BIAS = 119, /* 2.8 biased fixed point */

    /* DXVA compressed buffers: 150 + n */
    D3DDDIFMT_DXVACOMPBUFFER_BASE = 150,
    D3DDDIFMT_PICTUREPARAMSDATA = D3DDDIFMT_DXVACOMPBUFFER_BASE + 0,
    D3DDDIFMT_MACROBLOCKDATA = D3DDDIFMT_DXVACOMPBUFFER_BASE + 1,
    D3DDDIFMT_RESIDUALDIFFERENCEDATA = D3DDDIFMT_DXVACOMPBUFFER_BASE + 2,
    D3DDDIFMT_DEBLOCKINGDATA = D3DDDIFMT_DXVACOMPBUFFER_BASE + 3,
    D3DDDIFMT_INVERSEQUANTIZATIONDATA = D3DDDIFMT_DXVACOMPBUFFER_BASE + 4,
    D3DDDIFMT_SLICECONTROLDATA = D3DDDIFMT_DXVACOMPBUFFER_BASE + 5,
    D3DDDIFMT_BITSTREAMDATA = D3DDDIFMT_DXVACOMPBUFFER_BASE + 6,
    D3DDDIFMT_MOTIONVECTORBUFFER = D3DDDIFMT_DXVACOMPBUFFER_BASE + 7,
    D3DDDIFMT_FILMGRAINBUFFER = D3DDDIFMT_DXVACOMPBUFFER_BASE + 8,
    D3DDDIFMT_DXVA_RESERVED9 = D3DDDIFMT_DXVACOMPBUFFER_BASE + 9,
    D3DDDIFMT_DXVA_RESERVED10 = D3DDDIFMT_DXVACOMPBUFFER_BASE + 10,
    D3DDDIFMT_DXVA_RESERVED11 = D3DDDIFMT_DXVACOMPBUFFER_BASE + 11,
    D3DDDIFMT_DXVA_RESERVED12 = D3DDDIFMT_DXVACOMPBUFFER_BASE + 12,
    D3DDDIFMT_DXVA_RESERVED13 = D3DDDIFMT_DXVACOMPBUFFER_BASE + 13,
    D3DDDIFMT_DXVA_RESERVED14 = D3DDDIFMT_DXVACOMPBUFFER_BASE + 14,
    D3DDDIFMT_DXVA_RESERVED15 = D3DDDIFMT_DXVACOMPBUFFER_BASE + 15,
    D3DDDIFMT_DXVA_RESERVED16 = D3DDDIFMT_DXVACOMPBUFFER_BASE + 16,
    D3DDDIFMT_DXVA_RESERVED17 = D3DDDIFMT_DXVACOMPBUFFER_BASE + 17,
    D3DDDIFMT_DXVA_RESERVED18 = D3DDDIFMT_DXVACOMPBUFFER_BASE + 18,
    D3DDDIFMT_DXVA_RESERVED19 = D3DDDIFMT_DXVACOMPBUFFER_BASE + 19,
    D3DDDIFMT_DXVA_RESERVED20 = D3DDDIFMT_DXVACOMPBUFFER_BASE + 20,
    D3DDDIFMT_DXVA_RESERVED21 = D3DDDIFMT_DXVACOMPBUFFER_BASE + 21,
    D3DDDIFMT_DXVA_RESERVED22 = D3DDDIFMT_DXVACOMPBUFFER_BASE + 22,
    D3DDDIFMT_DXVA_RESERVED23 = D3DDDIFMT_DXVACOMPBUFFER_BASE + 23,
    D3DDDIFMT_DXVA_RESERVED24 = D3DDDIFMT_DXVACOMPBUFFER_BASE + 24,
    D3DDDIFMT_DXVA_RESERVED25 = D3DDDIFMT_DXVACOMPBUFFER_BASE + 25,
    D3DDDIFMT_DXVA_RESERVED26 = D3DDDIFMT_DXVACOMPBUFFER_BASE + 26,
    D3DDDIFMT_DXVA_RESERVED27 = D3DDDIFMT_DXVACOMPBUFFER_BASE + 27,
    D3DDDIFMT_DXVA_RESERVED28 = D3DDDIFMT_DXVACOMPBUFFER_BASE + 28,
    D3DDDIFMT_DXVA_RESERVED29 = D3DDDIFMT_DXVACOMPBUFFER_BASE + 29,
    D3DDDIFMT_DXVA_RESERVED30 = D3DDDIFMT_DXVACOMPBUFFER_BASE + 30,
    D3DDDIFMT_DXVA_RESERVED31 = D3DDDIFMT_DXVACOMPBUFFER_BASE + 31,
    D3DDDIFMT_DXVACOMPBUFFER_MAX = D3DDDIFMT_DXVA_RESERVED31,

    D3DDDIFMT_BINARYBUFFER = 199,

    D3DDDIFMT_FORCE_UINT = 0x7fffffff
} D3DDDIFORMAT;

WK_STATIC_ASSERT(sizeof(D3DDDIFORMAT) == 4, "D3DDDIFORMAT is 4 bytes");

/* ------------------------------------------------------------------------ */
/* Runtime power management (d3dkmddi.h, WIN8 and later)                     */
/* ------------------------------------------------------------------------ */

/*
 * The types of DxgkDdiQueryAdapterInfo's power-component answers, at
 * interface 2.3, as the WDK's d3dkmddi.h defines them (public copy of the
 * 10.0.15063 header, repo T-RN-R/ddk_headers shared/d3dkmddi.h, S3 of
 * docs/wddm-ddi-tables.md: its #if guards put every member below in 2.3),
 * checked against the reference pages ns-d3dkmddi-_dxgk_power_runtime_state,
 * ne-d3dkmddi-_dxgk_power_component_type, ns-d3dkmddi-_dxgk_power_component_mapping
 * and ns-d3dkmddi-_dxgk_power_component_flags. DXGK_POWER_RUNTIME_COMPONENT
 * itself carries a GUID, which the kit defines in dispmprt.h: it is in
 * wddmkit/dxgkpower.h (km.h includes it).
 */
#define DXGK_FSTATE_UNKNOWN_POWER 0xFFFFFFFFu
#define DXGK_FSTATE_UNKNOWN_TIME 0xFFFFFFFFFFFFFFFFull
#define DXGK_MAX_F_STATES 8
#define DXGK_POWER_COMPONENT_NAME_SIZE 40
#define DXGK_MAX_POWER_COMPONENT_PROVIDERS 16

/* One idle state (F-state) of a power component: latencies in 100 ns
 * units, power in microwatts. 24 bytes (with 4 of tail padding). */
typedef struct _DXGK_POWER_RUNTIME_STATE {
    ULONGLONG TransitionLatency;
    ULONGLONG ResidencyRequirement;
    ULONG NominalPower;
} DXGK_POWER_RUNTIME_STATE;

/* What a power component is. The values are the WDK's explicit ones (OTHER
 * is 5 whatever the version); SHARED and MAX = 8 are WDDM 2.2. */
typedef enum _DXGK_POWER_COMPONENT_TYPE {
    DXGK_POWER_COMPONENT_ENGINE = 0,
    DXGK_POWER_COMPONENT_MONITOR = 1,
    DXGK_POWER_COMPONENT_MONITOR_REFRESH = 2,
    DXGK_POWER_COMPONENT_MEMORY = 3,         /* WDDM 1.3 */
    DXGK_POWER_COMPONENT_MEMORY_REFRESH = 4, /* WDDM 1.3 */
    DXGK_POWER_COMPONENT_OTHER = 5,
    DXGK_POWER_COMPONENT_D3_TRANSITION = 6,  /* WDDM 1.3 */
    DXGK_POWER_COMPONENT_SHARED = 7,         /* WDDM 2.2 */
    DXGK_POWER_COMPONENT_MAX = 8
} DXGK_POWER_COMPONENT_TYPE;

/* Which engine, source, target or segment a component powers. 8 bytes.
 * The WDK tags the arms DXGK_POWER_COMPONENT_ENGINE_DESC ...; the kit
 * does not: C++ refuses tagged structs in an anonymous union. (Later headers add a SharedDesc
 * arm; the 2.2 header has none, and the kit leaves it out.) */
typedef struct _DXGK_POWER_COMPONENT_MAPPING {
    DXGK_POWER_COMPONENT_TYPE ComponentType;
    union {
        struct {
            UINT NodeIndex;
        } EngineDesc;
        struct {
            UINT VidPnSourceID;
        } MonitorRefreshDesc;
        struct {
            UINT VidPnTargetID;
        } MonitorDesc;
        struct { /* WDDM 1.3 */
            UINT SegmentID;                       /* zero-based segment index */
        } MemoryDesc;
    };
} DXGK_POWER_COMPONENT_MAPPING;

/* A component index split by physical adapter (LDA). 4 bytes. */
typedef struct _DXGK_POWER_COMPONENT_INDEX {
    union {
        struct {
            USHORT PhysicalAdapterComponentIndex;
            USHORT PhysicalAdapterIndex;
        };
        UINT Value;
    };
} DXGK_POWER_COMPONENT_INDEX;

/* F-state transition options of a component. 4 bytes. */
typedef struct _DXGK_POWER_COMPONENT_FLAGS {
    union {
        struct {
            UINT Reserved0 : 1;                       /* 0x00000001 */
            UINT DriverCompletesFStateTransition : 1; /* 0x00000002 */
            UINT TransitionTo_F0_OnDx : 1;            /* 0x00000004 */
            UINT NoDebounce : 1;                      /* 0x00000008 WDDM 1.3 */
            UINT ActiveInD3 : 1;                      /* 0x00000010 WDDM 1.3 */
            UINT Reserved : 27;                       /* 0xFFFFFFE0 */
        };
        UINT Value;
    };
} DXGK_POWER_COMPONENT_FLAGS;

WK_STATIC_ASSERT(sizeof(DXGK_POWER_RUNTIME_STATE) == 24 && sizeof(DXGK_POWER_COMPONENT_TYPE) == 4 &&
                     sizeof(DXGK_POWER_COMPONENT_MAPPING) == 8 &&
                     sizeof(DXGK_POWER_COMPONENT_INDEX) == 4 &&
                     sizeof(DXGK_POWER_COMPONENT_FLAGS) == 4,
                 "runtime power types have their x64 sizes");

#ifdef __cplusplus
}
#endif

#endif /* WDDMKIT_D3DKMDDI_H */
