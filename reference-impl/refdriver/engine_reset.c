/* SPDX-License-Identifier: MIT */
/*
 * engine_reset.c - per-engine reset (TDR changes in Windows 8), in the
 * GpuMmu build: the kernel resets the faulting engine after a page fault
 * (access-to-non-resident-allocation), with DxgkDdiResetEngine, which a
 * driver that sets DXGK_DRIVERCAPS.SupportPerEngineTDR implements together
 * with DxgkDdiQueryEngineStatus and DxgkDdiQueryDependentEngineGroup ("it
 * must implement all of the listed functions").
 *
 * The kit's GPU does not stop at a fault: it finishes the faulting
 * submission (FAULT with COMPLETED) and runs the next. A reset therefore
 * has nothing of the hardware to restart; it returns once the queue is
 * empty (QUEUE_DEPTH 0, the DDI's "nothing remains in the hardware queue"),
 * with no root left active, and names the faulted submission as the last
 * one aborted in the middle of its execution.
 */
#include "refdriver.h"

static NTSTATUS wk_rd_reset_engine(const HANDLE hAdapter, DXGKARG_RESETENGINE *args)
{
    struct rd_adapter *a = rd_adapter_from(hAdapter);
    if (!a || !a->started || !args || args->NodeOrdinal != 0 || args->EngineOrdinal != 0)
        return STATUS_INVALID_PARAMETER; /* one node, one engine */
    if (rd_read_reg(a, WK_GPU_REG_QUEUE_DEPTH) != 0)
        return STATUS_UNSUCCESSFUL; /* work still queued: no register aborts it */
    rd_write_reg(a, WK_GPU_REG_RING_ROOT_LO, 0);
    rd_write_reg(a, WK_GPU_REG_RING_ROOT_HI, 0);
    args->LastAbortedFenceId = a->faulted_fence;
    return STATUS_SUCCESS;
}

static NTSTATUS wk_rd_query_engine_status(const HANDLE hAdapter, DXGKARG_QUERYENGINESTATUS *args)
{
    struct rd_adapter *a = rd_adapter_from(hAdapter);
    if (!a || !args || args->NodeOrdinal != 0 || args->EngineOrdinal != 0)
        return STATUS_INVALID_PARAMETER;
    args->EngineStatus.Value = 0;
    args->EngineStatus.Responsive = 1; /* it never hangs: every submission ends */
    return STATUS_SUCCESS;
}

static NTSTATUS wk_rd_query_dependent_engine_group(const HANDLE hAdapter, DXGKARG_QUERYDEPENDENTENGINEGROUP *args)
{
    struct rd_adapter *a = rd_adapter_from(hAdapter);
    if (!a || !args || args->NodeOrdinal != 0 || args->EngineOrdinal != 0)
        return STATUS_INVALID_PARAMETER;
    args->DependentNodeOrdinalMask = 1ull; /* resetting node 0 touches node 0 only */
    return STATUS_SUCCESS;
}

void wk_rd_engine_reset_ddis(DRIVER_INITIALIZATION_DATA *init, DXGK_DRIVERCAPS *caps)
{
    if (init) {
        init->DxgkDdiResetEngine = wk_rd_reset_engine;
        init->DxgkDdiQueryEngineStatus = wk_rd_query_engine_status;
        init->DxgkDdiQueryDependentEngineGroup = wk_rd_query_dependent_engine_group;
    }
    if (caps)
        caps->SupportPerEngineTDR = TRUE;
}
