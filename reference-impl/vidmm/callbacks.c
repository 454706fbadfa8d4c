/* SPDX-License-Identifier: MIT */
/*
 * callbacks.c - the DXGKRNL_INTERFACE the driver gets at StartDevice: the
 * kernel's callbacks (interrupt and DPC notification, context allocations)
 * and the kit's hardware access (registers of the GPU model).
 *
 * The driver calls these, so every argument is checked like an answer: a
 * bad hAdapter, a handle the kernel never gave out, arguments that break
 * facts §4.10/§5.8. A callback never trusts a pointer further than reading
 * the argument struct the DDI contract says it receives.
 */
#include <string.h>

#include "internal.h"

struct wk_vidmm *callbacks_vm(HANDLE hAdapter)
{
    struct wk_vidmm *vm = hAdapter;
    return vm && vm->magic == VIDMM_MAGIC ? vm : NULL;
}

/* The adapter's registers, as WkReadRegister32/WkWriteRegister32 reach
 * them: a binding's register model has them when it has one (its first
 * register BAR, as MMIO to that BAR would reach it), else the kit's GPU. */
static int register_bar(const struct wk_vidmm *vm)
{
    if (!binding_has_registers(vm))
        return -1;
    for (uint32_t i = 0; i < vm->binding->bar_count; i++)
        if (vm->binding->bars[i].kind == WK_BAR_REGISTERS)
            return (int)i;
    return -1;
}

static ULONG cb_read_register(const HANDLE hAdapter, ULONG offset)
{
    struct wk_vidmm *vm = callbacks_vm(hAdapter);
    if (!vm)
        return 0xFFFFFFFFu;
    int bar = register_bar(vm);
    uint32_t v = 0xFFFFFFFFu;
    if (bar < 0)
        return wk_gpu_mmio_read32(vm->gpu, offset);
    return binding_read32(vm, (uint32_t)bar, offset, &v) == 0 ? v : 0xFFFFFFFFu;
}

static VOID cb_write_register(const HANDLE hAdapter, ULONG offset, ULONG value)
{
    struct wk_vidmm *vm = callbacks_vm(hAdapter);
    if (!vm)
        return;
    int bar = register_bar(vm);
    if (bar < 0)
        wk_gpu_mmio_write32(vm->gpu, offset, value);
    else
        (void)binding_write32(vm, (uint32_t)bar, offset, value);
}

static const struct wk_gpu_desc *cb_gpu_description(const HANDLE hAdapter)
{
    struct wk_vidmm *vm = callbacks_vm(hAdapter);
    return vm ? &vm->gpu_desc : NULL;
}

/* Removes pending[i]: its fence is complete. */
static void retire_pending(struct wk_vidmm *vm, uint32_t i)
{
    vm->last_completed = vm->pending[i].fence;
    vm->stats.fences_completed++;
    memmove(&vm->pending[i], &vm->pending[i + 1], (vm->npending - i - 1) * sizeof(vm->pending[0]));
    vm->npending--;
}

/* A completion of a buffer the kit's GPU has not run: the fence's
 * SubmitCommand rang one doorbell, and the GPU has run fewer buffers than
 * that (a driver that reports the last fence it submitted, not the one its
 * GPU finished, is seen once buffers queue: queue.c). */
static void run_yet_check(struct wk_vidmm *vm, const struct pending *p, UINT fence, const char *how)
{
    if (!p->doorbell || vm->cfg.no_model || binding_executes(vm))
        return;
    struct wk_gpu_counters c;
    wk_gpu_get_counters(vm->gpu, &c);
    if (c.submissions_run < p->doorbell)
        violate(vm, R_SUBMIT_FENCE, WK_DDI_CB_NOTIFY_INTERRUPT,
                "fence %u reported %s before the GPU ran its buffer: the GPU has run %llu of the %llu buffers "
                "rung so far, and this one's was number %llu",
                fence, how, (unsigned long long)c.submissions_run, (unsigned long long)c.submissions,
                (unsigned long long)p->doorbell);
}

/* Fence completion (facts §2.2: an unknown fence is bug check 0x119/0x1),
 * reported by the node and engine that ran it (INTR-ORDINAL-001: the
 * DXGKARGCB_NOTIFY_INTERRUPT_DATA page names NodeOrdinal and EngineOrdinal
 * "the node" and "the engine ... that generates the notification").
 * The fence is "the latest completed DMA buffer" (facts §5.12 N5): every
 * submission queued before it on its node is complete with it, each node
 * being its own queue (N3), so a driver that reports only the latest of
 * several finished buffers reports them all; so does a fault report, the
 * buffers before the faulting one having finished. `how` names the report
 * in the messages ("complete", "faulted", "page-faulted"). */
void fence_reported(struct wk_vidmm *vm, UINT fence, UINT node, UINT engine, const char *how)
{
    /* DXGK_INTERRUPT_DMA_COMPLETED: "a DMA buffer is completed". Whatever
     * runs the buffers here (the kit's GPU, a binding's processor) runs
     * them only once the submitting call returned, so a completion of that
     * very fence inside the call reports a buffer nothing ran (a driver
     * with a software GPU of its own, --gpu none, may well have run it). */
    if (fence && fence == vm->submitting_fence && !vm->cfg.no_model)
        violate(vm, R_SUBMIT_FENCE, WK_DDI_CB_NOTIFY_INTERRUPT,
                "fence %u reported %s inside the call that submitted it, before the GPU could run any of its "
                "buffer", fence, how);
    for (uint32_t i = 0; i < vm->npending; i++) {
        if (vm->pending[i].held || vm->pending[i].fence != fence)
            continue;
        if (node != vm->pending[i].node || engine != vm->pending[i].engine)
            violate(vm, R_INTR_ORDINAL, WK_DDI_CB_NOTIFY_INTERRUPT,
                    "fence %u reported by node %u engine %u; it was submitted to node %u engine %u", fence, node,
                    engine, vm->pending[i].node, vm->pending[i].engine);
        run_yet_check(vm, &vm->pending[i], fence, how);
        const uint32_t on = vm->pending[i].node;
        for (uint32_t k = 0; k < i;) { /* the earlier ones of its node: complete with it */
            if (!vm->pending[k].held && vm->pending[k].node == on) {
                const uint32_t slot = vm->implied_next++ % (uint32_t)(sizeof(vm->implied) / sizeof(vm->implied[0]));
                vm->implied[slot].fence = vm->pending[k].fence;
                vm->implied[slot].by = fence;
                retire_pending(vm, k);
                i--;
            } else {
                k++;
            }
        }
        retire_pending(vm, i);
        return;
    }
    const uint32_t n = (uint32_t)(sizeof(vm->implied) / sizeof(vm->implied[0]));
    for (uint32_t k = 0; k < n && k < vm->implied_next; k++) {
        const uint32_t slot = (vm->implied_next - 1 - k) % n; /* the newest first */
        if (vm->implied[slot].fence == fence && fence) {
            violate(vm, R_INTR_FENCE, WK_DDI_CB_NOTIFY_INTERRUPT,
                    "fence %u reported %s, but the report of fence %u, a later one of its node, completed it "
                    "already: a report names the latest completed buffer and completes those before it (report "
                    "a fault before the completions after it)",
                    fence, how, vm->implied[slot].by);
            return;
        }
    }
    violate(vm, R_INTR_FENCE, WK_DDI_CB_NOTIFY_INTERRUPT,
            "fence %u reported %s, but no such fence is pending (last completed %u)", fence, how, vm->last_completed);
}

void fence_complete(struct wk_vidmm *vm, UINT fence, UINT node, UINT engine)
{
    fence_reported(vm, fence, node, engine, "complete");
}

/* INTR-IRQL-001: at the device's IRQL, that is in the interrupt routine or
 * in a routine DxgkCbSynchronizeExecution runs (two outsiders reported
 * from their DPC routine and broke no rule). Outside any DDI of the
 * adapter's (a driver's own thread) it is not judged: the kit cannot tell
 * at which IRQL that runs. */
static void notify_irql_check(struct wk_vidmm *vm)
{
    enum wk_ddi in = call_current_vm() == vm ? call_current_ddi() : WK_DDI_NONE;
    if (in == WK_DDI_NONE || in == WK_DDI_INTERRUPT_ROUTINE || vm->sync_depth > 0)
        return;
    violate(vm, R_INTR_NOTIFY_IRQL, WK_DDI_CB_NOTIFY_INTERRUPT,
            "DxgkCbNotifyInterrupt called from %s, outside the interrupt routine and any routine "
            "DxgkCbSynchronizeExecution runs: it is called at the device's IRQL, synchronized with the interrupt",
            wk_ddi_name(in));
}

static VOID cb_notify_interrupt(const HANDLE hAdapter, const DXGKARGCB_NOTIFY_INTERRUPT_DATA *d)
{
    FLOOR_CALLBACK(); /* the kit's work, not the driver's: out of the floor (floor.c) */
    struct wk_vidmm *vm = callbacks_vm(hAdapter);
    if (vm && !d) /* the kernel would read through it (outsider 13 planted it, and nothing said) */
        violate(vm, R_CB_NULL, WK_DDI_CB_NOTIFY_INTERRUPT, "called with pNotifyInterruptData NULL");
    if (!vm || !d)
        return;
    vm->stats.ddi_calls[WK_DDI_CB_NOTIFY_INTERRUPT]++;
    notify_irql_check(vm);
    DXGKARGCB_NOTIFY_INTERRUPT_DATA copy = *d; /* the answer as the rewriter may see it */
    NTSTATUS ignored = STATUS_SUCCESS;
    ddi_rewrite(vm, WK_DDI_CB_NOTIFY_INTERRUPT, &copy, &ignored);
    d = &copy;
    switch (d->InterruptType) {
    case DXGK_INTERRUPT_DMA_COMPLETED:
        page_fault_note(vm, d->InterruptType, d->DmaCompleted.SubmissionFenceId);
        fence_complete(vm, d->DmaCompleted.SubmissionFenceId, d->DmaCompleted.NodeOrdinal,
                       d->DmaCompleted.EngineOrdinal);
        break;
    case DXGK_INTERRUPT_DMA_FAULTED:
        vm->stats.gpu_faults++;
        page_fault_note(vm, d->InterruptType, d->DmaFaulted.FaultedFenceId);
        fence_reported(vm, d->DmaFaulted.FaultedFenceId, d->DmaFaulted.NodeOrdinal, d->DmaFaulted.EngineOrdinal,
                       "faulted");
        break;
    case DXGK_INTERRUPT_DMA_PAGE_FAULTED: /* WDDM 2.0 (page_fault.c) */
        page_fault_reported(vm, d);
        break;
    default: /* preemption, vsync, monitored fences: not modelled as errors */
        if (d->InterruptType != DXGK_INTERRUPT_DMA_PREEMPTED && d->InterruptType != DXGK_INTERRUPT_CRTC_VSYNC &&
            d->InterruptType != DXGK_INTERRUPT_MONITORED_FENCE_SIGNALED)
            vm->ignored_interrupt = (uint32_t)d->InterruptType; /* named if a fence then goes unreported */
        break;
    }
}

/*
 * DxgkCbNotifyDpc tells the scheduler, at DPC time, what the interrupts
 * reported: the driver's DPC routine calls it, at DISPATCH_LEVEL, and the
 * interrupt routine asks for that DPC with DxgkCbQueueDpc (INTR-DPC-001,
 * WDK DXGKCB_NOTIFY_DPC and DXGKDDI_DPC_ROUTINE). Called from the DPC
 * routine it asks for nothing more: it used to ask for another DPC, one
 * spurious DxgkDdiDpcRoutine call at the next interrupt for every driver
 * that does it right. Called from the interrupt routine it is the rule's
 * violation, and it still asks for the DPC, so the case goes on as the
 * driver meant it to; anywhere else (no DDI of the adapter's, another
 * DDI) it asks for the DPC too, as the kit always did.
 */
static VOID cb_notify_dpc(const HANDLE hAdapter)
{
    FLOOR_CALLBACK(); /* the kit's work, not the driver's: out of the floor (floor.c) */
    struct wk_vidmm *vm = callbacks_vm(hAdapter);
    if (!vm)
        return;
    enum wk_ddi in = call_current_vm() == vm ? call_current_ddi() : WK_DDI_NONE;
    if (in == WK_DDI_INTERRUPT_ROUTINE)
        violate(vm, R_INTR_NOTIFY_DPC, WK_DDI_INTERRUPT_ROUTINE,
                "DxgkCbNotifyDpc called from DxgkDdiInterruptRoutine, at the device's IRQL: the interrupt routine "
                "asks for the DPC with DxgkCbQueueDpc, and the DPC routine calls DxgkCbNotifyDpc at DISPATCH_LEVEL");
    if (in != WK_DDI_DPC_ROUTINE)
        vm->dpc_requested = 1;
}

/* ------------------------------------------------------------------ */
/* PCI configuration space                                              */
/* ------------------------------------------------------------------ */

/* DXGK_WHICHSPACE_CONFIG (PCI_WHICHSPACE_CONFIG) and DXGK_WHICHSPACE_ROM:
 * the kit's adapter has a configuration space and no option ROM. */
#define WHICHSPACE_CONFIG 0x0u
#define WHICHSPACE_ROM 0x52696350u

void wk_vidmm_default_pci_config(uint8_t out[WK_VIDMM_PCI_CONFIG_SIZE])
{
    memset(out, 0, WK_VIDMM_PCI_CONFIG_SIZE);
    out[0x00] = 0x14, out[0x01] = 0x14; /* VendorID 1414h */
    out[0x02] = 0x44, out[0x03] = 0x57; /* DeviceID 5744h */
    out[0x04] = 0x06;                   /* Command: memory space, bus master */
    out[0x08] = 0x01;                   /* RevisionID */
    out[0x0A] = 0x80, out[0x0B] = 0x03; /* class 03h (display), subclass 80h (other) */
    out[0x2C] = 0x14, out[0x2D] = 0x14; /* SubVendorID */
    out[0x2E] = 0x44, out[0x2F] = 0x57; /* SubSystemID */
}

/* The part of [offset, offset + length) inside the space; 0 when none. */
static ULONG space_span(ULONG offset, ULONG length)
{
    if (offset >= WK_VIDMM_PCI_CONFIG_SIZE)
        return 0;
    return length < WK_VIDMM_PCI_CONFIG_SIZE - offset ? length : WK_VIDMM_PCI_CONFIG_SIZE - offset;
}

/* Reads the adapter's configuration space; bytes past its end are not
 * read (*BytesRead says how many were). The option ROM and other spaces:
 * STATUS_NOT_SUPPORTED, the kit's adapter has none. */
static NTSTATUS cb_read_device_space(HANDLE DeviceHandle, ULONG DataType, PVOID Buffer, ULONG Offset, ULONG Length,
                                     PULONG BytesRead)
{
    FLOOR_CALLBACK(); /* the kit's work, not the driver's: out of the floor (floor.c) */
    struct wk_vidmm *vm = callbacks_vm(DeviceHandle);
    if (BytesRead)
        *BytesRead = 0;
    if (!vm || !Buffer || !BytesRead)
        return STATUS_INVALID_PARAMETER;
    if (DataType != WHICHSPACE_CONFIG)
        return STATUS_NOT_SUPPORTED;
    ULONG n = space_span(Offset, Length);
    if (!n)
        return STATUS_INVALID_PARAMETER;
    wk_status crashed;
    DDI_GUARD(vm, WK_DDI_NONE, crashed, guarded_copy(Buffer, vm->pci_config + Offset, n)); /* the driver's buffer */
    if (crashed != WK_OK)
        return STATUS_INVALID_PARAMETER;
    *BytesRead = n;
    return STATUS_SUCCESS;
}

/* Writes the configuration space; the identification bytes (vendor and
 * device id, revision and class) are read-only, as in hardware. */
static NTSTATUS cb_write_device_space(HANDLE DeviceHandle, ULONG DataType, PVOID Buffer, ULONG Offset, ULONG Length,
                                      PULONG BytesWritten)
{
    FLOOR_CALLBACK(); /* the kit's work, not the driver's: out of the floor (floor.c) */
    struct wk_vidmm *vm = callbacks_vm(DeviceHandle);
    if (BytesWritten)
        *BytesWritten = 0;
    if (!vm || !Buffer || !BytesWritten)
        return STATUS_INVALID_PARAMETER;
    if (DataType != WHICHSPACE_CONFIG)
        return STATUS_NOT_SUPPORTED;
    ULONG n = space_span(Offset, Length);
    if (!n)
        return STATUS_INVALID_PARAMETER;
    uint8_t bytes[WK_VIDMM_PCI_CONFIG_SIZE];
    wk_status crashed;
    DDI_GUARD(vm, WK_DDI_NONE, crashed, guarded_copy(bytes, Buffer, n));
    if (crashed != WK_OK)
        return STATUS_INVALID_PARAMETER;
    for (ULONG i = 0; i < n; i++) {
        ULONG at = Offset + i;
        if (at >= 0x04 && (at < 0x08 || at >= 0x0C))
            vm->pci_config[at] = bytes[i];
    }
    *BytesWritten = n;
    return STATUS_SUCCESS;
}

/* What the kernel knows of the device (dispmprt.h, DXGK_DEVICE_INFO; facts
 * 5.10 M1): the driver's context and the PDO, the registry path, the system
 * memory the kit's pool has, and the translated resources: one memory
 * resource per device BAR (bars.c), the register BAR a driver maps with
 * MmMapIoSpace. The list is the adapter's, valid for its life. No AGP. */
static NTSTATUS cb_get_device_information(HANDLE DeviceHandle, PDXGK_DEVICE_INFO DeviceInfo)
{
    FLOOR_CALLBACK(); /* the kit's work, not the driver's: out of the floor (floor.c) */
    struct wk_vidmm *vm = callbacks_vm(DeviceHandle);
    if (!vm || !DeviceInfo)
        return STATUS_INVALID_PARAMETER;
    DXGK_DEVICE_INFO info;
    memset(&info, 0, sizeof(info));
    info.MiniportDeviceContext = vm->miniport;
    info.PhysicalDeviceObject = vm->pdo;
    wk_vidmm_service_key(&info.DeviceRegistryPath);
    info.SystemMemorySize.QuadPart = (LONGLONG)(vm->gpu_desc.sysmem_pages * WK_GPU_PAGE_SIZE);
    info.HighestPhysicalAddress.QuadPart =
        (LONGLONG)((vm->gpu_desc.sysmem_first_pfn + vm->gpu_desc.sysmem_pages) * WK_GPU_PAGE_SIZE - 1);
    info.DockingState = DockStateUnsupported;
    info.TranslatedResourceList = bars_resource_list(vm);
    wk_status crashed;
    DDI_GUARD(vm, WK_DDI_NONE, crashed, guarded_copy(DeviceInfo, &info, sizeof(info))); /* the driver's memory */
    return crashed == WK_OK ? STATUS_SUCCESS : STATUS_INVALID_PARAMETER;
}

void callbacks_fill(struct wk_vidmm *vm, DXGKRNL_INTERFACE *iface)
{
    memset(iface, 0, sizeof(*iface));
    iface->Size = sizeof(*iface);
    iface->Version = DXGKDDI_INTERFACE_VERSION;
    iface->DeviceHandle = vm;
    iface->DxgkCbNotifyInterrupt = cb_notify_interrupt;
    iface->DxgkCbNotifyDpc = cb_notify_dpc;
    iface->DxgkCbCreateContextAllocation = ctxalloc_create;
    iface->DxgkCbDestroyContextAllocation = ctxalloc_destroy;
    iface->DxgkCbMapContextAllocation = ctxalloc_map;
    iface->DxgkCbUpdateContextAllocation = ctxalloc_update;
    iface->DxgkCbGetDeviceInformation = cb_get_device_information;
    iface->DxgkCbReadDeviceSpace = cb_read_device_space;
    iface->DxgkCbWriteDeviceSpace = cb_write_device_space;
    callbacks_fill_unmodelled(iface); /* every other callback answers (callbacks_unmodelled.c) */
    iface->WkReadRegister32 = cb_read_register;
    iface->WkWriteRegister32 = cb_write_register;
    iface->WkGetGpuDescription = cb_gpu_description;
}
