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

static ULONG cb_read_register(const HANDLE hAdapter, ULONG offset)
{
    struct wk_vidmm *vm = callbacks_vm(hAdapter);
    return vm ? wk_gpu_mmio_read32(vm->gpu, offset) : 0xFFFFFFFFu;
}

static VOID cb_write_register(const HANDLE hAdapter, ULONG offset, ULONG value)
{
    struct wk_vidmm *vm = callbacks_vm(hAdapter);
    if (vm)
        wk_gpu_mmio_write32(vm->gpu, offset, value);
}

static const struct wk_gpu_desc *cb_gpu_description(const HANDLE hAdapter)
{
    struct wk_vidmm *vm = callbacks_vm(hAdapter);
    return vm ? &vm->gpu_desc : NULL;
}

/* Fence completion (facts §2.2: an unknown fence is bug check 0x119/0x1). */
static void complete_fence(struct wk_vidmm *vm, UINT fence)
{
    uint32_t first_submitted = UINT32_MAX; /* held submissions never reached the driver */
    for (uint32_t i = 0; i < vm->npending; i++) {
        if (vm->pending[i].held)
            continue;
        if (first_submitted == UINT32_MAX)
            first_submitted = i;
        if (vm->pending[i].fence != fence)
            continue;
        if (i != first_submitted)
            violate(vm, R_INTR_FENCE, WK_DDI_CB_NOTIFY_INTERRUPT, "fence %u completed before the earlier fence %u",
                    fence, vm->pending[first_submitted].fence);
        memmove(&vm->pending[i], &vm->pending[i + 1], (vm->npending - i - 1) * sizeof(vm->pending[0]));
        vm->npending--;
        vm->last_completed = fence;
        vm->stats.fences_completed++;
        return;
    }
    violate(vm, R_INTR_FENCE, WK_DDI_CB_NOTIFY_INTERRUPT,
            "fence %u reported complete, but no such fence is pending (last completed %u)", fence,
            vm->last_completed);
}

static VOID cb_notify_interrupt(const HANDLE hAdapter, const DXGKARGCB_NOTIFY_INTERRUPT_DATA *d)
{
    struct wk_vidmm *vm = callbacks_vm(hAdapter);
    if (!vm || !d)
        return;
    vm->stats.ddi_calls[WK_DDI_CB_NOTIFY_INTERRUPT]++;
    DXGKARGCB_NOTIFY_INTERRUPT_DATA copy = *d; /* the answer as the rewriter may see it */
    NTSTATUS ignored = STATUS_SUCCESS;
    ddi_rewrite(vm, WK_DDI_CB_NOTIFY_INTERRUPT, &copy, &ignored);
    d = &copy;
    switch (d->InterruptType) {
    case DXGK_INTERRUPT_DMA_COMPLETED:
        complete_fence(vm, d->DmaCompleted.SubmissionFenceId);
        break;
    case DXGK_INTERRUPT_DMA_FAULTED:
        vm->stats.gpu_faults++;
        complete_fence(vm, d->DmaFaulted.FaultedFenceId);
        break;
    default:
        break; /* preemption, vsync, monitored fences: not modelled as errors */
    }
}

static VOID cb_notify_dpc(const HANDLE hAdapter)
{
    struct wk_vidmm *vm = callbacks_vm(hAdapter);
    if (vm)
        vm->dpc_requested = 1;
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
    callbacks_fill_unmodelled(iface); /* every other callback answers (callbacks_unmodelled.c) */
    iface->WkReadRegister32 = cb_read_register;
    iface->WkWriteRegister32 = cb_write_register;
    iface->WkGetGpuDescription = cb_gpu_description;
}
