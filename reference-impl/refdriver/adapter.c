/* SPDX-License-Identifier: MIT */
/*
 * adapter.c - DriverEntry and the adapter DDIs of the reference driver:
 * AddDevice, StartDevice, StopDevice, RemoveDevice and QueryAdapterInfo
 * (driver caps and the segment queries, versions 3 and 4).
 *
 * StartDevice is where the driver learns its hardware: it checks the ID
 * register, then copies the model's segment table, so that every later DDI
 * answers from the adapter context alone. Each model segment N is reported
 * as WDDM segment N (docs/gpu-model.md: ids are 1-based in both), with its
 * GPU base as BaseAddress, which makes allocation-list PhysicalAddress values
 * and paging SegmentAddress values GPU addresses the model reaches directly.
 */
#include "refdriver.h"

/* The exported entry: -DDriverEntry=wk_refdriver_DriverEntry in the static
 * library, the plain name (the only visible symbol) in the shared object. */
WK_DRIVER_EXPORT DRIVER_INITIALIZE DriverEntry;

/* The reference driver writes the GPU model's command set (driver.h). Only
 * the loadable module says so: the static library is linked into modules
 * that say it themselves (examples/drivers/refwrap.h) and into programs. */
#ifdef WK_REFDRIVER_MODULE
WK_DRIVER_TARGETS_GPU_MODEL;
#endif

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    DRIVER_INITIALIZATION_DATA init;
    RtlZeroMemory(&init, sizeof(init));
#ifdef RD_MAP2
    /* The MAP_APERTURE_SEGMENT2 build: operation 17 comes to a WDDM 3.0
     * driver that sets MapAperture2Supported (query_caps below). */
    init.Version = DXGKDDI_INTERFACE_VERSION_WDDM3_0;
#else
    init.Version = DXGKDDI_INTERFACE_VERSION;
#endif
    init.DxgkDdiAddDevice = wk_rd_add_device;
    init.DxgkDdiStartDevice = wk_rd_start_device;
    init.DxgkDdiStopDevice = wk_rd_stop_device;
    init.DxgkDdiRemoveDevice = wk_rd_remove_device;
    init.DxgkDdiInterruptRoutine = wk_rd_interrupt_routine;
    init.DxgkDdiDpcRoutine = wk_rd_dpc_routine;
    init.DxgkDdiQueryAdapterInfo = wk_rd_query_adapter_info;
    init.DxgkDdiCreateDevice = wk_rd_create_device;
    init.DxgkDdiCreateAllocation = wk_rd_create_allocation;
    init.DxgkDdiDestroyAllocation = wk_rd_destroy_allocation;
    init.DxgkDdiOpenAllocation = wk_rd_open_allocation;
    init.DxgkDdiCloseAllocation = wk_rd_close_allocation;
    init.DxgkDdiPatch = wk_rd_patch;
    init.DxgkDdiSubmitCommand = wk_rd_submit_command;
    init.DxgkDdiBuildPagingBuffer = wk_rd_build_paging_buffer;
    init.DxgkDdiDestroyDevice = wk_rd_destroy_device;
    init.DxgkDdiRender = wk_rd_render;
    init.DxgkDdiCreateContext = wk_rd_create_context;
    init.DxgkDdiDestroyContext = wk_rd_destroy_context;
    init.DxgkDdiCancelCommand = wk_rd_cancel_command;
    wk_rd_timeout_ddis(&init);
    wk_rd_gpummu_ddis(&init);
    return DxgkInitialize(DriverObject, RegistryPath, &init);
}

NTSTATUS wk_rd_add_device(const PDEVICE_OBJECT PhysicalDeviceObject, VOID **MiniportDeviceContext)
{
    if (!MiniportDeviceContext)
        return STATUS_INVALID_PARAMETER;
    struct rd_adapter *a = rd_alloc(sizeof(*a));
    if (!a)
        return STATUS_NO_MEMORY;
    a->magic = RD_MAGIC_ADAPTER;
    a->pdo = PhysicalDeviceObject;
    rd_lock_init(&a->lock);
    a->next_context_id = 1;
    *MiniportDeviceContext = a;
    return STATUS_SUCCESS;
}

static void free_bank_tables(struct rd_adapter *a)
{
    for (UINT i = 0; i < a->segment_count; i++) {
        rd_free(a->segments[i].bank_table);
        a->segments[i].bank_table = NULL;
        a->segments[i].bank_count = 0;
    }
}

/* A bank table the driver owns: NbOfBanks entries, entry i the end offset of
 * bank i, the last one the segment size. Readers that take NbOfBanks - 1
 * entries and readers that take NbOfBanks both get a correct answer
 * (facts 5.6 B2, 7.8). The model checked the ends; they are checked again
 * because this is outside data to the driver: a bad table reports no banks. */
static NTSTATUS copy_banks(struct rd_segment *seg, const struct wk_gpu_segment_desc *d)
{
    if (d->kind != WK_GPU_SEGMENT_MEMORY || d->bank_count < 2 || !d->bank_ends ||
        d->bank_count > WK_GPU_MAX_BANKS)
        return STATUS_SUCCESS;
    UINT64 prev = 0;
    for (UINT i = 0; i + 1 < d->bank_count; i++) {
        if (d->bank_ends[i] <= prev || d->bank_ends[i] >= d->size)
            return STATUS_SUCCESS;
        prev = d->bank_ends[i];
    }
    seg->bank_table = rd_alloc(sizeof(SIZE_T) * d->bank_count);
    if (!seg->bank_table)
        return STATUS_NO_MEMORY;
    for (UINT i = 0; i + 1 < d->bank_count; i++)
        seg->bank_table[i] = d->bank_ends[i];
    seg->bank_table[d->bank_count - 1] = d->size;
    seg->bank_count = d->bank_count;
    return STATUS_SUCCESS;
}

/* Copies the model description into the adapter (StartDevice). */
static NTSTATUS load_segments(struct rd_adapter *a, const struct wk_gpu_desc *desc)
{
    if (!desc->segments || desc->segment_count == 0 || desc->segment_count > WK_GPU_MAX_SEGMENTS)
        return STATUS_UNSUCCESSFUL;
    a->segment_count = desc->segment_count;
    for (UINT i = 0; i < desc->segment_count; i++) {
        const struct wk_gpu_segment_desc *d = &desc->segments[i];
        struct rd_segment *s = &a->segments[i];
        RtlZeroMemory(s, sizeof(*s));
        s->kind = d->kind;
        s->base = d->base;
        s->size = d->size;
        if (d->kind == WK_GPU_SEGMENT_APERTURE) {
            a->aperture_set |= 1u << i;
            a->aperture_bytes += d->size;
        } else {
            a->memory_set |= 1u << i;
        }
        NTSTATUS st = copy_banks(s, d);
        if (!NT_SUCCESS(st))
            return st;
    }
    a->sysmem_end = (desc->sysmem_first_pfn + desc->sysmem_pages) << WK_GPU_PAGE_SHIFT;
    return STATUS_SUCCESS;
}

#ifdef RD_MMIO
/* The first memory resource large enough for the model's registers
 * (facts 5.10 M2-M4), mapped uncached. */
static NTSTATUS map_registers(struct rd_adapter *a)
{
    DXGK_DEVICE_INFO info;
    RtlZeroMemory(&info, sizeof(info));
    NTSTATUS st = a->dxgk.DxgkCbGetDeviceInformation(a->dxgk.DeviceHandle, &info);
    if (!NT_SUCCESS(st))
        return st;
    const CM_RESOURCE_LIST *res = info.TranslatedResourceList;
    if (!res || res->Count < 1)
        return STATUS_UNSUCCESSFUL;
    const CM_PARTIAL_RESOURCE_LIST *list = &res->List[0].PartialResourceList;
    for (ULONG i = 0; i < list->Count; i++) {
        const CM_PARTIAL_RESOURCE_DESCRIPTOR *d = &list->PartialDescriptors[i];
        if (d->Type != CmResourceTypeMemory || d->u.Memory.Length < WK_GPU_REG_SIZE)
            continue;
        a->regs = (PUCHAR)MmMapIoSpace(d->u.Memory.Start, WK_GPU_REG_SIZE, MmNonCached);
        return a->regs ? STATUS_SUCCESS : STATUS_INSUFFICIENT_RESOURCES;
    }
    RD_TRACE("refdriver: StartDevice: no memory resource holds the registers\n");
    return STATUS_UNSUCCESSFUL;
}

static void unmap_registers(struct rd_adapter *a)
{
    if (a->regs)
        MmUnmapIoSpace(a->regs, WK_GPU_REG_SIZE);
    a->regs = NULL;
}
#else
static NTSTATUS map_registers(struct rd_adapter *a)
{
    UNREFERENCED_PARAMETER(a);
    return STATUS_SUCCESS;
}

static void unmap_registers(struct rd_adapter *a)
{
    UNREFERENCED_PARAMETER(a);
}
#endif

static BOOLEAN interface_complete(const DXGKRNL_INTERFACE *i)
{
    return i->WkReadRegister32 && i->WkWriteRegister32 && i->WkGetGpuDescription &&
           i->DxgkCbNotifyInterrupt && i->DxgkCbNotifyDpc && i->DxgkCbQueueDpc;
}

NTSTATUS wk_rd_start_device(VOID *const MiniportDeviceContext, DXGK_START_INFO *DxgkStartInfo,
                         DXGKRNL_INTERFACE *DxgkInterface, ULONG *NumberOfVideoPresentSources,
                         ULONG *NumberOfChildren)
{
    UNREFERENCED_PARAMETER(DxgkStartInfo);
    struct rd_adapter *a = rd_adapter_from(MiniportDeviceContext);
    if (!a || !DxgkInterface || !NumberOfVideoPresentSources || !NumberOfChildren ||
        !interface_complete(DxgkInterface))
        return STATUS_INVALID_PARAMETER;
    if (a->started)
        return STATUS_UNSUCCESSFUL;
    a->dxgk = *DxgkInterface;
    const struct wk_gpu_desc *desc = a->dxgk.WkGetGpuDescription(a->dxgk.DeviceHandle);
    if (!desc) {
        RD_TRACE("refdriver: StartDevice: not a wddmkit GPU model (no description)\n");
        return STATUS_UNSUCCESSFUL;
    }
    NTSTATUS mapped = map_registers(a);
    if (!NT_SUCCESS(mapped))
        return mapped;
    ULONG id = rd_read_reg(a, WK_GPU_REG_ID);
    if (id != WK_GPU_ID) {
        RD_TRACE("refdriver: StartDevice: ID register 0x%08x, expected 0x%08x\n", id, WK_GPU_ID);
        unmap_registers(a);
        return STATUS_UNSUCCESSFUL;
    }
    a->memory_set = a->aperture_set = 0;
    a->aperture_bytes = 0;
    NTSTATUS st = load_segments(a, desc);
    if (!NT_SUCCESS(st)) {
        free_bank_tables(a);
        a->segment_count = 0;
        unmap_registers(a);
        return st;
    }
    /* A render-only adapter: no display sources, no children. */
    *NumberOfVideoPresentSources = 0;
    *NumberOfChildren = 0;
    a->started = TRUE;
    return STATUS_SUCCESS;
}

NTSTATUS wk_rd_stop_device(VOID *const MiniportDeviceContext)
{
    struct rd_adapter *a = rd_adapter_from(MiniportDeviceContext);
    if (!a)
        return STATUS_INVALID_PARAMETER;
    free_bank_tables(a);
    a->segment_count = 0;
    a->memory_set = a->aperture_set = 0;
    a->banks_reported = FALSE;
    unmap_registers(a);
    a->started = FALSE;
    return STATUS_SUCCESS;
}

NTSTATUS wk_rd_remove_device(VOID *const MiniportDeviceContext)
{
    struct rd_adapter *a = rd_adapter_from(MiniportDeviceContext);
    if (!a)
        return STATUS_INVALID_PARAMETER;
    if (a->started)
        wk_rd_stop_device(a);
    /* Context allocations still listed belong to contexts the kernel never
     * destroyed; free the driver side so nothing leaks. */
    while (a->context_allocations) {
        struct rd_allocation *next = a->context_allocations->next;
        a->context_allocations->magic = 0;
        rd_free(a->context_allocations);
        a->context_allocations = next;
    }
    a->magic = 0;
    rd_free(a);
    return STATUS_SUCCESS;
}

/* ------------------------------------------------------------------ */
/* QueryAdapterInfo                                                     */
/* ------------------------------------------------------------------ */

static NTSTATUS query_caps(struct rd_adapter *a, const DXGKARG_QUERYADAPTERINFO *q)
{
    if (q->OutputDataSize < sizeof(DXGK_DRIVERCAPS))
        return STATUS_BUFFER_TOO_SMALL;
    DXGK_DRIVERCAPS *caps = q->pOutputData;
    RtlZeroMemory(caps, sizeof(*caps));
    /* The GPU reaches every system page of the model directly. */
    caps->HighestAcceptableAddress.QuadPart =
        a->sysmem_end ? (LONGLONG)(a->sysmem_end - 1) : (LONGLONG)INT64_MAX;
    /* Slot ids the driver uses are 0 and 1 (render.c); the table is larger
     * than needed, which VidMm allows (facts 5.4 S2). */
    caps->MaxAllocationListSlotId = RD_MAX_SLOT_ID;
    caps->ApertureSegmentCommitLimit = a->aperture_bytes;
    /* CancelCommandAware requires MultiEngineAware (facts 5.9 K2). */
    caps->SchedulingCaps.MultiEngineAware = 1;
#ifdef RD_LEGAL_TWO_NODES /* wk_test_two_nodes: a second engine; the kit's GPU runs both nodes' buffers in order */
    caps->GpuEngineTopology.NbAsymetricProcessingNodes = 2;
#endif
    caps->SchedulingCaps.CancelCommandAware = 1;
    /* It answers QUERYSEGMENT4, which came with WDDM 2.0 (segments.c in
     * the kit asks a WDDM 1.x driver QUERYSEGMENT3 only), and builds
     * SIGNAL_MONITORED_FENCE, which came with WDDM 2.2 (facts §1.1: the
     * kit asks no older driver for it). */
    caps->WDDMVersion = DXGKDDI_WDDMv2_2;
#ifdef RD_MAP2
    caps->MemoryManagementCaps.MapAperture2Supported = 1; /* paging.c, op_map_aperture2 */
#endif
    wk_rd_gpummu_caps(caps);
    return STATUS_SUCCESS;
}

static DXGK_SEGMENTFLAGS segment_flags(const struct rd_segment *s)
{
    DXGK_SEGMENTFLAGS f;
    f.Value = 0;
    if (s->kind == WK_GPU_SEGMENT_APERTURE)
        f.Aperture = 1; /* facts 5.5 G1: aperture, no CpuVisible/CacheCoherent */
    else if (s->bank_count)
        f.UseBanking = 1; /* facts 5.6 B1: memory segments only */
#ifdef RD_LEGAL_SEG64K /* wk_test_seg64k: memory segments managed in 64 KiB pages (facts 5.5 G12) */
    if (s->kind != WK_GPU_SEGMENT_APERTURE)
        f.Use64KBPages = 1;
#endif
    return f;
}

static void fill_descriptor3(const struct rd_segment *s, DXGK_SEGMENTDESCRIPTOR3 *d)
{
    RtlZeroMemory(d, sizeof(*d));
    d->Flags = segment_flags(s);
    d->BaseAddress.QuadPart = (LONGLONG)s->base;
    d->Size = s->size;
    /* G5: CommitLimit = Size for memory; the driver does not restrict its
     * aperture either. */
    d->CommitLimit = s->size;
    if (s->bank_count) {
        d->NbOfBanks = s->bank_count;
        d->pBankRangeTable = s->bank_table;
    }
}

static void fill_descriptor4(const struct rd_segment *s, DXGK_SEGMENTDESCRIPTOR4 *d)
{
    RtlZeroMemory(d, sizeof(*d));
    d->Flags = segment_flags(s);
    d->Flags.UseBanking = 0; /* facts 5.6 B7: no banks in v4 */
    d->BaseAddress.QuadPart = (LONGLONG)s->base;
    d->Size = s->size;
    d->CommitLimit = s->size;
}

/* DXGK_QUERYSEGMENTIN, when given, must be whole; the driver reports no AGP
 * segment, so its contents do not matter (facts 5.5 G8). */
static NTSTATUS check_segment_input(const DXGKARG_QUERYADAPTERINFO *q, UINT needed)
{
    if (q->InputDataSize == 0)
        return STATUS_SUCCESS;
    return q->pInputData && q->InputDataSize >= needed ? STATUS_SUCCESS : STATUS_INVALID_PARAMETER;
}

/* QUERYSEGMENT3, two calls (facts 5.5 G9): pSegmentDescriptor NULL asks for
 * NbSegment only; the second call fills the array and the paging fields. */
static NTSTATUS query_segment3(struct rd_adapter *a, const DXGKARG_QUERYADAPTERINFO *q)
{
    if (q->OutputDataSize < sizeof(DXGK_QUERYSEGMENTOUT3))
        return STATUS_BUFFER_TOO_SMALL;
    NTSTATUS st = check_segment_input(q, sizeof(DXGK_QUERYSEGMENTIN));
    if (!NT_SUCCESS(st))
        return st;
    DXGK_QUERYSEGMENTOUT3 *out = q->pOutputData;
    if (!out->pSegmentDescriptor) {
        out->NbSegment = a->segment_count;
        return STATUS_SUCCESS;
    }
    /* NbSegment, when non-zero, is the room the caller made. */
    if (out->NbSegment != 0 && out->NbSegment < a->segment_count)
        return STATUS_BUFFER_TOO_SMALL;
    for (UINT i = 0; i < a->segment_count; i++)
        fill_descriptor3(&a->segments[i], &out->pSegmentDescriptor[i]);
    out->NbSegment = a->segment_count;
    a->banks_reported = TRUE;
    /* G10, facts 7.7: 0 = paging buffers in contiguous system memory, which
     * the model reaches at their physical address. */
    out->PagingBufferSegmentId = 0;
    out->PagingBufferSize = RD_PAGING_BUFFER_SIZE;
    out->PagingBufferPrivateDataSize = sizeof(struct rd_dma_private);
    return STATUS_SUCCESS;
}

/* QUERYSEGMENT4: first call has NbSegment 0 and must only set it; the
 * second steps through the array by the kernel's SegmentDescriptorStride. */
static NTSTATUS query_segment4(struct rd_adapter *a, const DXGKARG_QUERYADAPTERINFO *q)
{
    if (q->OutputDataSize < sizeof(DXGK_QUERYSEGMENTOUT4))
        return STATUS_BUFFER_TOO_SMALL;
    NTSTATUS st = check_segment_input(q, sizeof(DXGK_QUERYSEGMENTIN4));
    if (!NT_SUCCESS(st))
        return st;
    DXGK_QUERYSEGMENTOUT4 *out = q->pOutputData;
    if (out->NbSegment == 0) {
        out->NbSegment = a->segment_count;
        return STATUS_SUCCESS;
    }
    if (out->NbSegment < a->segment_count)
        return STATUS_BUFFER_TOO_SMALL;
    if (!out->pSegmentDescriptor || out->SegmentDescriptorStride < sizeof(DXGK_SEGMENTDESCRIPTOR4))
        return STATUS_INVALID_PARAMETER;
    for (UINT i = 0; i < a->segment_count; i++) {
        BYTE *slot = out->pSegmentDescriptor + (SIZE_T)i * out->SegmentDescriptorStride;
        RtlZeroMemory(slot, out->SegmentDescriptorStride); /* fields newer than ours: 0 */
        DXGK_SEGMENTDESCRIPTOR4 d;
        fill_descriptor4(&a->segments[i], &d);
        RtlCopyMemory(slot, &d, sizeof(d));
    }
    out->NbSegment = a->segment_count;
    a->banks_reported = FALSE;
    out->PagingBufferSegmentId = 0;
    out->PagingBufferSize = RD_PAGING_BUFFER_SIZE;
    out->PagingBufferPrivateDataSize = sizeof(struct rd_dma_private);
    return STATUS_SUCCESS;
}

NTSTATUS wk_rd_query_adapter_info(const HANDLE hAdapter, const DXGKARG_QUERYADAPTERINFO *q)
{
    struct rd_adapter *a = rd_adapter_from(hAdapter);
    if (!a || !q || !q->pOutputData || !a->started)
        return STATUS_INVALID_PARAMETER;
    NTSTATUS st;
    if (wk_rd_gpummu_query(a, q, &st))
        return st;
    switch (q->Type) {
    case DXGKQAITYPE_DRIVERCAPS: return query_caps(a, q);
    case DXGKQAITYPE_QUERYSEGMENT3: return query_segment3(a, q);
    case DXGKQAITYPE_QUERYSEGMENT4: return query_segment4(a, q);
    default:
        /* facts 2.2: INVALID_PARAMETER for a query the driver does not answer. */
        RD_TRACE("refdriver: QueryAdapterInfo: type %d not supported\n", (int)q->Type);
        return STATUS_INVALID_PARAMETER;
    }
}
