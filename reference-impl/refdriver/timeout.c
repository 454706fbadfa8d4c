/* SPDX-License-Identifier: MIT */
/*
 * timeout.c - the adapter-wide reset (Thread Synchronization and TDR):
 * DxgkDdiResetFromTimeout "resets the graphics processing unit (GPU) after a
 * hardware timeout occurs and guarantees that the GPU is not writing or
 * reading any memory by the time that DxgkDdiResetFromTimeout returns";
 * DxgkDdiRestartFromTimeout follows once the kernel has cleaned up, and
 * "must still be implemented" when it has nothing to do.
 *
 * The kit's GPU does not stop at a fault and runs each submission to its
 * end before the next: by the time the kernel resets, nothing of ours is
 * running or queued. The reset leaves no root active, so the next buffer
 * runs as its submission says, and forgets the faulted fence. Nothing to do
 * at the restart.
 *
 * RD_PLANTED_TDR_FAILS (a planted bug, off unless defined): the reset
 * returns STATUS_UNSUCCESSFUL, which bug-checks Windows.
 */
#include "refdriver.h"

static NTSTATUS wk_rd_reset_from_timeout(const HANDLE hAdapter)
{
    struct rd_adapter *a = rd_adapter_from(hAdapter);
    if (!a || !a->started)
        return STATUS_SUCCESS; /* nothing of the GPU to reset: anything else bug-checks */
#ifdef RD_PLANTED_TDR_FAILS
    return STATUS_UNSUCCESSFUL;
#endif
    rd_write_reg(a, WK_GPU_REG_RING_ROOT_LO, 0);
    rd_write_reg(a, WK_GPU_REG_RING_ROOT_HI, 0);
    a->faulted_fence = 0;
    return STATUS_SUCCESS;
}

static NTSTATUS wk_rd_restart_from_timeout(const HANDLE hAdapter)
{
    (void)hAdapter;
    return STATUS_SUCCESS;
}

void wk_rd_timeout_ddis(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiResetFromTimeout = wk_rd_reset_from_timeout;
    init->DxgkDdiRestartFromTimeout = wk_rd_restart_from_timeout;
}
