/* SPDX-License-Identifier: MIT */
/*
 * tdr.c - the adapter-wide reset (timeout detection and recovery) the
 * kernel falls back to when a page fault's engine could not be reset on
 * its own: the driver has no per-engine reset (SupportPerEngineTDR), or
 * DxgkDdiResetEngine failed.
 *
 * What the documentation says happens, and what the kit does of it:
 *  - "The GPU scheduler calls the driver's DxgkDdiResetFromTimeout function,
 *    which resets the GPU" (Thread Synchronization and TDR), "and
 *    guarantees that the GPU is not writing or reading any memory by the
 *    time that DxgkDdiResetFromTimeout returns" (DxgkDdiResetFromTimeout).
 *    The kit calls it like any DDI (a crash or a hang is the driver's);
 *  - "After the driver returns from DxgkDdiResetFromTimeout ... the
 *    operating system starts to clean up resources that are no longer
 *    required": eviction notices (a TRANSFER of size 0, an UNMAP of an
 *    aperture) and destructions. The kit does not: its GPU kept every
 *    byte, so no content is lost, and the case goes on with its objects;
 *  - "The operating system calls the DxgkDdiRestartFromTimeout function
 *    after the recovery of a hardware time-out completes ... Regardless of
 *    whether DxgkDdiRestartFromTimeout performs any actions, it must still
 *    be implemented": the kit calls it next;
 *  - each returns STATUS_SUCCESS, "otherwise, the operating system bug
 *    checks and causes a restart" (both pages): TDR-RESET-001, as is a
 *    driver that fills neither or only one of them;
 *  - the work the GPU had queued is gone with the reset: the kit expects no
 *    report of a fence still pending, and the next submissions must run and
 *    be reported as any (SUBMIT-FENCE-001 says the adapter was reset before).
 */
#include <stdio.h>

#include "internal.h"

/* One of the two DDIs (no arguments but the adapter), guarded. */
static wk_status call_timeout_ddi(struct wk_vidmm *vm, enum wk_ddi ddi, PDXGKDDI_RESETFROMTIMEOUT fn)
{
    wk_status crashed;
    NTSTATUS status = STATUS_UNSUCCESSFUL;
    DDI_CALL(vm, ddi, crashed, status = fn(vm->miniport); ddi_rewrite(vm, ddi, NULL, &status));
    if (crashed != WK_OK)
        return crashed;
    if (status != STATUS_SUCCESS)
        return violate(vm, R_TDR_RESET, ddi, "returned 0x%08x during the adapter reset after %s: the kernel "
                       "bug-checks on anything but STATUS_SUCCESS", (unsigned)status, vm->pf_reset.why);
    return WK_OK;
}

/* "guarantees that the GPU is not writing or reading any memory by the
 * time that DxgkDdiResetFromTimeout returns": on the kit's GPU, a
 * submission still queued then would run (outsider 20's driver replayed the
 * faulted packet from its reset, and nothing saw it). A binding's queue is
 * its own. */
static wk_status check_quiet(struct wk_vidmm *vm)
{
    if (vm->cfg.no_model || binding_executes(vm))
        return WK_OK;
    uint32_t queued = wk_gpu_mmio_read32(vm->gpu, WK_GPU_REG_QUEUE_DEPTH);
    if (!queued)
        return WK_OK;
    return violate(vm, R_TDR_RESET, WK_DDI_RESET_FROM_TIMEOUT,
                   "returned with %u submission%s queued on the GPU (QUEUE_DEPTH), which would read and write "
                   "memory: the reset must leave the GPU touching none (after %s)",
                   queued, queued == 1 ? "" : "s", vm->pf_reset.why);
}

/* Fences still pending are the reset's: nobody reports them. */
static void drop_pending(struct wk_vidmm *vm)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < vm->npending; i++)
        if (vm->pending[i].held)
            vm->pending[kept++] = vm->pending[i];
    vm->npending = kept;
}

wk_status tdr_reset_adapter(struct wk_vidmm *vm)
{
    if (!vm->ddi.DxgkDdiResetFromTimeout || !vm->ddi.DxgkDdiRestartFromTimeout) {
        vm->pf_reset.missing = 1; /* the fences after it are not judged: the driver is blamed here */
        return violate(vm, R_TDR_RESET, WK_DDI_RESET_FROM_TIMEOUT,
                       "the kernel resets the adapter after %s, and the driver has %s: both DxgkDdiResetFromTimeout "
                       "and DxgkDdiRestartFromTimeout must be implemented",
                       vm->pf_reset.why,
                       vm->ddi.DxgkDdiResetFromTimeout ? "no DxgkDdiRestartFromTimeout"
                       : vm->ddi.DxgkDdiRestartFromTimeout ? "no DxgkDdiResetFromTimeout"
                                                           : "neither");
    }
    wk_status st = call_timeout_ddi(vm, WK_DDI_RESET_FROM_TIMEOUT, vm->ddi.DxgkDdiResetFromTimeout);
    if (st == WK_OK)
        st = check_quiet(vm);
    if (st == WK_OK) {
        drop_pending(vm);
        st = call_timeout_ddi(vm, WK_DDI_RESTART_FROM_TIMEOUT, vm->ddi.DxgkDdiRestartFromTimeout);
    }
    if (st != WK_OK) {
        vm->pf_reset.missing = 1;
        return st;
    }
    vm->pf_reset.adapter = 1;
    vm->pf_reset.done = 1;
    return WK_OK;
}
