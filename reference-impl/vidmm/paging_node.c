/* SPDX-License-Identifier: MIT */
/*
 * paging_node.c - which WDDM a driver speaks, and the question a WDDM 2.x
 * driver of several engines answers about its paging node: the
 * DXGKQAITYPE_PHYSICALADAPTERCAPS query at adapter start (facts §4.13).
 *
 * The choice itself is adapter_paging_node (objects.c, next to
 * adapter_nodes): this file only asks. DXGK_VIDMMCAPS.PagingNode "applies
 * to WDDM 1.x only. In WDDM 2.x, PagingNode was moved to
 * DXGK_PHYSICALADAPTERCAPS", whose PagingNodeIndex is the "Index of the
 * paging node for the physical adapter".
 */
#include <string.h>

#include "internal.h"

/* WDDM 2.x: the caps say so (DXGK_DRIVERCAPS.WDDMVersion, WIN7 and
 * later), or, when they leave it 0 (which the documentation allows,
 * docs/wddm-ddi-tables.md open question 5), the DDI table's interface
 * version does (DXGKDDI_INTERFACE_VERSION_WDDM2_0 and later). */
int adapter_wddm2(const struct wk_vidmm *vm)
{
    UINT v = (UINT)vm->caps.WDDMVersion;
    if (v)
        return v >= (UINT)DXGKDDI_WDDMv2;
    return vm->ddi.Version >= DXGKDDI_INTERFACE_VERSION_WDDM2_0;
}

/* Asks only a driver whose answer the kit would read: a WDDM 2.x driver
 * that is MultiEngineAware with more than one node (adapter_nodes). A
 * failed query is not blamed: the driver pages on node 0, as it does when
 * it names a node it did not report (adapter_paging_node). A crash or a
 * write past the answer is the driver's, as in any DDI call. */
wk_status paging_node_query(struct wk_vidmm *vm)
{
    vm->physical_paging_node = 0;
    if (adapter_nodes(vm) < 2 || !adapter_wddm2(vm))
        return WK_OK;
    DXGK_PHYSICALADAPTERCAPS caps;
    memset(&caps, 0, sizeof(caps));
    NTSTATUS st;
    wk_status call = query_adapter_info(vm, DXGKQAITYPE_PHYSICALADAPTERCAPS, NULL, 0, NULL, &caps, sizeof(caps),
                                        "DXGK_PHYSICALADAPTERCAPS output (pOutputData)", &st);
    if (call != WK_OK)
        return call;
    if (st == STATUS_SUCCESS)
        vm->physical_paging_node = caps.PagingNodeIndex;
    return WK_OK;
}
