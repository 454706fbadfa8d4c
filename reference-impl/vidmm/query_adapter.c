/* SPDX-License-Identifier: MIT */
/*
 * query_adapter.c - one DxgkDdiQueryAdapterInfo call, as every query of the
 * kit makes it (the caps, the segments, the physical adapter's caps).
 */
#include <string.h>

#include "internal.h"

wk_status query_adapter_info(struct wk_vidmm *vm, DXGK_QUERYADAPTERINFOTYPE type, void *in, UINT in_size,
                             const char *in_name, void *out, UINT out_size, const char *out_name, NTSTATUS *status)
{
    DXGKARG_QUERYADAPTERINFO q;
    memset(&q, 0, sizeof(q));
    q.Type = type;
    q.InputDataSize = in_size;
    q.OutputDataSize = out_size;
    struct garg g[3]; /* the input (when there is one), the output, the argument */
    memset(g, 0, sizeof(g));
    q.pInputData = in_size ? garg_in(vm, &g[0], in, in_size, in_name) : NULL;
    q.pOutputData = garg_in(vm, &g[1], out, out_size, out_name);
    DXGKARG_QUERYADAPTERINFO *pq =
        garg_in(vm, &g[2], &q, sizeof(q), "DXGKARG_QUERYADAPTERINFO argument (*pQueryAdapterInfo)");
    wk_status crashed;
    *status = STATUS_UNSUCCESSFUL;
    DDI_CALL(vm, WK_DDI_QUERY_ADAPTER_INFO, crashed,
             *status = vm->ddi.DxgkDdiQueryAdapterInfo(vm->miniport, pq);
             ddi_rewrite(vm, WK_DDI_QUERY_ADAPTER_INFO, pq, status));
    wk_status guard = WK_OK;
    for (int i = 2; i >= 0; i--) {
        if (i == 0 && !in_size)
            break;
        wk_status one = garg_out(vm, &g[i], WK_DDI_QUERY_ADAPTER_INFO, crashed);
        guard = guard != WK_OK ? guard : one;
    }
    return crashed != WK_OK ? crashed : guard;
}
