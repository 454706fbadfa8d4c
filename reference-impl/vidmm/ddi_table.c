/* SPDX-License-Identifier: MIT */
/*
 * ddi_table.c - what a driver's DRIVER_INITIALIZATION_DATA holds, by its
 * Version: which members that interface version defines (a member newer
 * than it is absent, whatever bytes sit there), which interface versions
 * the kit takes, and which DDIs a driver fills that the kit never calls.
 *
 * The member list, offsets and guards are docs/wddm-ddi-tables.md,
 * section 1 (include/wddmkit/dispmprt.h declares the struct, the layout
 * test holds its offsets). Members are appended version by version, so
 * the members a version defines are a prefix of the table.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "vidmm.h"

/* What the kit does with a member. REQUIRED: the kernel calls it on every
 * adapter that renders, so a driver must fill it (DDI-TABLE-001, facts
 * §5.11): the documented submission sequence (Render, BuildPagingBuffer,
 * SubmitCommand; the interrupt and DPC routines that report its fences)
 * and the object life cycle around it. PATCHING: DxgkDdiPatch, which the
 * kernel calls for the DMA buffers of every context that does not report
 * DXGK_CONTEXTINFO.Caps.NoPatchingRequired ("Indicates that no memory
 * patching is required"); REQUIRED for a table whose version has no Caps,
 * left to the contexts from WDDM 2.0 (wk_dxgk_patch_left_to_contexts).
 * DRIVEN: the kit calls it when the driver fills it (DxgkDdiCancelCommand,
 * with CancelCommandAware; DxgkDdiUnload; DxgkDdiOpenAllocation and
 * DxgkDdiCloseAllocation, openalloc.c). UNDRIVEN: the kit never calls
 * it. */
enum member_role { UNDRIVEN, DRIVEN, REQUIRED, PATCHING };

struct member {
    const char *name;
    size_t offset;
    ULONG since;           /* the interface version that added it */
    enum member_role role;
};

static const struct member members[] = {
    { "DxgkDdiAddDevice", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiAddDevice), DXGKDDI_INTERFACE_VERSION_VISTA, REQUIRED },
    { "DxgkDdiStartDevice", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiStartDevice), DXGKDDI_INTERFACE_VERSION_VISTA, REQUIRED },
    { "DxgkDdiStopDevice", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiStopDevice), DXGKDDI_INTERFACE_VERSION_VISTA, REQUIRED },
    { "DxgkDdiRemoveDevice", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiRemoveDevice), DXGKDDI_INTERFACE_VERSION_VISTA, REQUIRED },
    { "DxgkDdiDispatchIoRequest", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiDispatchIoRequest), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiInterruptRoutine", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiInterruptRoutine), DXGKDDI_INTERFACE_VERSION_VISTA, REQUIRED },
    { "DxgkDdiDpcRoutine", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiDpcRoutine), DXGKDDI_INTERFACE_VERSION_VISTA, REQUIRED },
    { "DxgkDdiQueryChildRelations", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiQueryChildRelations), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiQueryChildStatus", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiQueryChildStatus), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiQueryDeviceDescriptor", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiQueryDeviceDescriptor), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiSetPowerState", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetPowerState), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiNotifyAcpiEvent", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiNotifyAcpiEvent), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiResetDevice", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiResetDevice), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiUnload", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiUnload), DXGKDDI_INTERFACE_VERSION_VISTA, DRIVEN },
    { "DxgkDdiQueryInterface", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiQueryInterface), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiControlEtwLogging", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiControlEtwLogging), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiQueryAdapterInfo", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiQueryAdapterInfo), DXGKDDI_INTERFACE_VERSION_VISTA, REQUIRED },
    { "DxgkDdiCreateDevice", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCreateDevice), DXGKDDI_INTERFACE_VERSION_VISTA, REQUIRED },
    { "DxgkDdiCreateAllocation", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCreateAllocation), DXGKDDI_INTERFACE_VERSION_VISTA, REQUIRED },
    { "DxgkDdiDestroyAllocation", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiDestroyAllocation), DXGKDDI_INTERFACE_VERSION_VISTA, REQUIRED },
    { "DxgkDdiDescribeAllocation", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiDescribeAllocation), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiGetStandardAllocationDriverData", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiGetStandardAllocationDriverData), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiAcquireSwizzlingRange", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiAcquireSwizzlingRange), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiReleaseSwizzlingRange", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiReleaseSwizzlingRange), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiPatch", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiPatch), DXGKDDI_INTERFACE_VERSION_VISTA, PATCHING },
    { "DxgkDdiSubmitCommand", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSubmitCommand), DXGKDDI_INTERFACE_VERSION_VISTA, REQUIRED },
    { "DxgkDdiPreemptCommand", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiPreemptCommand), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiBuildPagingBuffer", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiBuildPagingBuffer), DXGKDDI_INTERFACE_VERSION_VISTA, REQUIRED },
    { "DxgkDdiSetPalette", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetPalette), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiSetPointerPosition", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetPointerPosition), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiSetPointerShape", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetPointerShape), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiResetFromTimeout", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiResetFromTimeout), DXGKDDI_INTERFACE_VERSION_VISTA, DRIVEN }, /* tdr.c: after a page fault no engine reset recovered */
    { "DxgkDdiRestartFromTimeout", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiRestartFromTimeout), DXGKDDI_INTERFACE_VERSION_VISTA, DRIVEN },
    { "DxgkDdiEscape", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiEscape), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiCollectDbgInfo", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCollectDbgInfo), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiQueryCurrentFence", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiQueryCurrentFence), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiIsSupportedVidPn", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiIsSupportedVidPn), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiRecommendFunctionalVidPn", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiRecommendFunctionalVidPn), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiEnumVidPnCofuncModality", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiEnumVidPnCofuncModality), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiSetVidPnSourceAddress", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetVidPnSourceAddress), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiSetVidPnSourceVisibility", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetVidPnSourceVisibility), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiCommitVidPn", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCommitVidPn), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiUpdateActiveVidPnPresentPath", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiUpdateActiveVidPnPresentPath), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiRecommendMonitorModes", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiRecommendMonitorModes), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiRecommendVidPnTopology", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiRecommendVidPnTopology), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiGetScanLine", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiGetScanLine), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiStopCapture", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiStopCapture), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiControlInterrupt", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiControlInterrupt), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiCreateOverlay", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCreateOverlay), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiDestroyDevice", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiDestroyDevice), DXGKDDI_INTERFACE_VERSION_VISTA, REQUIRED },
    { "DxgkDdiOpenAllocation", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiOpenAllocation), DXGKDDI_INTERFACE_VERSION_VISTA, DRIVEN },
    { "DxgkDdiCloseAllocation", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCloseAllocation), DXGKDDI_INTERFACE_VERSION_VISTA, DRIVEN },
    { "DxgkDdiRender", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiRender), DXGKDDI_INTERFACE_VERSION_VISTA, REQUIRED },
    { "DxgkDdiPresent", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiPresent), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiUpdateOverlay", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiUpdateOverlay), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiFlipOverlay", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiFlipOverlay), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiDestroyOverlay", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiDestroyOverlay), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiCreateContext", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCreateContext), DXGKDDI_INTERFACE_VERSION_VISTA, REQUIRED },
    { "DxgkDdiDestroyContext", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiDestroyContext), DXGKDDI_INTERFACE_VERSION_VISTA, REQUIRED },
    { "DxgkDdiLinkDevice", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiLinkDevice), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiSetDisplayPrivateDriverFormat", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetDisplayPrivateDriverFormat), DXGKDDI_INTERFACE_VERSION_VISTA, UNDRIVEN },
    { "DxgkDdiDescribePageTable", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiDescribePageTable), DXGKDDI_INTERFACE_VERSION_WIN7, UNDRIVEN },
    { "DxgkDdiUpdatePageTable", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiUpdatePageTable), DXGKDDI_INTERFACE_VERSION_WIN7, UNDRIVEN },
    { "DxgkDdiUpdatePageDirectory", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiUpdatePageDirectory), DXGKDDI_INTERFACE_VERSION_WIN7, UNDRIVEN },
    { "DxgkDdiMovePageDirectory", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiMovePageDirectory), DXGKDDI_INTERFACE_VERSION_WIN7, UNDRIVEN },
    { "DxgkDdiSubmitRender", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSubmitRender), DXGKDDI_INTERFACE_VERSION_WIN7, UNDRIVEN },
    { "DxgkDdiCreateAllocation2", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCreateAllocation2), DXGKDDI_INTERFACE_VERSION_WIN7, UNDRIVEN },
    { "DxgkDdiRenderKm", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiRenderKm), DXGKDDI_INTERFACE_VERSION_WIN7, UNDRIVEN },
    { "Reserved", offsetof(DRIVER_INITIALIZATION_DATA, Reserved), DXGKDDI_INTERFACE_VERSION_WIN7, UNDRIVEN },
    { "DxgkDdiQueryVidPnHWCapability", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiQueryVidPnHWCapability), DXGKDDI_INTERFACE_VERSION_WIN7, UNDRIVEN },
    { "DxgkDdiSetPowerComponentFState", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetPowerComponentFState), DXGKDDI_INTERFACE_VERSION_WIN8, UNDRIVEN },
    { "DxgkDdiQueryDependentEngineGroup", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiQueryDependentEngineGroup), DXGKDDI_INTERFACE_VERSION_WIN8, UNDRIVEN },
    { "DxgkDdiQueryEngineStatus", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiQueryEngineStatus), DXGKDDI_INTERFACE_VERSION_WIN8, UNDRIVEN },
    { "DxgkDdiResetEngine", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiResetEngine), DXGKDDI_INTERFACE_VERSION_WIN8, DRIVEN }, /* page_fault.c: the engine reset after a page fault */
    { "DxgkDdiStopDeviceAndReleasePostDisplayOwnership", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiStopDeviceAndReleasePostDisplayOwnership), DXGKDDI_INTERFACE_VERSION_WIN8, UNDRIVEN },
    { "DxgkDdiSystemDisplayEnable", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSystemDisplayEnable), DXGKDDI_INTERFACE_VERSION_WIN8, UNDRIVEN },
    { "DxgkDdiSystemDisplayWrite", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSystemDisplayWrite), DXGKDDI_INTERFACE_VERSION_WIN8, UNDRIVEN },
    { "DxgkDdiCancelCommand", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCancelCommand), DXGKDDI_INTERFACE_VERSION_WIN8, DRIVEN },
    { "DxgkDdiGetChildContainerId", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiGetChildContainerId), DXGKDDI_INTERFACE_VERSION_WIN8, UNDRIVEN },
    { "DxgkDdiPowerRuntimeControlRequest", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiPowerRuntimeControlRequest), DXGKDDI_INTERFACE_VERSION_WIN8, UNDRIVEN },
    { "DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay), DXGKDDI_INTERFACE_VERSION_WIN8, UNDRIVEN },
    { "DxgkDdiNotifySurpriseRemoval", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiNotifySurpriseRemoval), DXGKDDI_INTERFACE_VERSION_WIN8, UNDRIVEN },
    { "DxgkDdiGetNodeMetadata", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiGetNodeMetadata), DXGKDDI_INTERFACE_VERSION_WDDM1_3, UNDRIVEN },
    { "DxgkDdiSetPowerPState", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetPowerPState), DXGKDDI_INTERFACE_VERSION_WDDM1_3, UNDRIVEN },
    { "DxgkDdiControlInterrupt2", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiControlInterrupt2), DXGKDDI_INTERFACE_VERSION_WDDM1_3, UNDRIVEN },
    { "DxgkDdiCheckMultiPlaneOverlaySupport", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCheckMultiPlaneOverlaySupport), DXGKDDI_INTERFACE_VERSION_WDDM1_3, UNDRIVEN },
    { "DxgkDdiCalibrateGpuClock", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCalibrateGpuClock), DXGKDDI_INTERFACE_VERSION_WDDM1_3, UNDRIVEN },
    { "DxgkDdiFormatHistoryBuffer", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiFormatHistoryBuffer), DXGKDDI_INTERFACE_VERSION_WDDM1_3, UNDRIVEN },
    { "DxgkDdiRenderGdi", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiRenderGdi), DXGKDDI_INTERFACE_VERSION_WDDM2_0, UNDRIVEN },
    { "DxgkDdiSubmitCommandVirtual", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSubmitCommandVirtual), DXGKDDI_INTERFACE_VERSION_WDDM2_0, DRIVEN }, /* gpuva_context.c: virtual contexts */
    { "DxgkDdiSetRootPageTable", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetRootPageTable), DXGKDDI_INTERFACE_VERSION_WDDM2_0, DRIVEN }, /* gpuva_context.c: virtual contexts */
    { "DxgkDdiGetRootPageTableSize", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiGetRootPageTableSize), DXGKDDI_INTERFACE_VERSION_WDDM2_0, DRIVEN }, /* root_size.c: a 2-level tree's root */
    { "DxgkDdiMapCpuHostAperture", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiMapCpuHostAperture), DXGKDDI_INTERFACE_VERSION_WDDM2_0, UNDRIVEN },
    { "DxgkDdiUnmapCpuHostAperture", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiUnmapCpuHostAperture), DXGKDDI_INTERFACE_VERSION_WDDM2_0, UNDRIVEN },
    { "DxgkDdiCheckMultiPlaneOverlaySupport2", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCheckMultiPlaneOverlaySupport2), DXGKDDI_INTERFACE_VERSION_WDDM2_0, UNDRIVEN },
    { "DxgkDdiCreateProcess", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCreateProcess), DXGKDDI_INTERFACE_VERSION_WDDM2_0, DRIVEN }, /* gpuva.c: a GpuMmu driver's address spaces */
    { "DxgkDdiDestroyProcess", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiDestroyProcess), DXGKDDI_INTERFACE_VERSION_WDDM2_0, DRIVEN },
    { "DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay2", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay2), DXGKDDI_INTERFACE_VERSION_WDDM2_0, UNDRIVEN },
    { "Reserved1", offsetof(DRIVER_INITIALIZATION_DATA, Reserved1), DXGKDDI_INTERFACE_VERSION_WDDM2_0, UNDRIVEN },
    { "Reserved2", offsetof(DRIVER_INITIALIZATION_DATA, Reserved2), DXGKDDI_INTERFACE_VERSION_WDDM2_0, UNDRIVEN },
    { "DxgkDdiPowerRuntimeSetDeviceHandle", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiPowerRuntimeSetDeviceHandle), DXGKDDI_INTERFACE_VERSION_WDDM2_0, UNDRIVEN },
    { "DxgkDdiSetStablePowerState", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetStablePowerState), DXGKDDI_INTERFACE_VERSION_WDDM2_0, UNDRIVEN },
    { "DxgkDdiSetVideoProtectedRegion", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetVideoProtectedRegion), DXGKDDI_INTERFACE_VERSION_WDDM2_0, UNDRIVEN },
    { "DxgkDdiCheckMultiPlaneOverlaySupport3", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCheckMultiPlaneOverlaySupport3), DXGKDDI_INTERFACE_VERSION_WDDM2_1, UNDRIVEN },
    { "DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay3", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay3), DXGKDDI_INTERFACE_VERSION_WDDM2_1, UNDRIVEN },
    { "DxgkDdiPostMultiPlaneOverlayPresent", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiPostMultiPlaneOverlayPresent), DXGKDDI_INTERFACE_VERSION_WDDM2_1, UNDRIVEN },
    { "DxgkDdiValidateUpdateAllocationProperty", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiValidateUpdateAllocationProperty), DXGKDDI_INTERFACE_VERSION_WDDM2_1, UNDRIVEN },
    { "DxgkDdiControlModeBehavior", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiControlModeBehavior), DXGKDDI_INTERFACE_VERSION_WDDM2_1, UNDRIVEN },
    { "DxgkDdiUpdateMonitorLinkInfo", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiUpdateMonitorLinkInfo), DXGKDDI_INTERFACE_VERSION_WDDM2_1, UNDRIVEN },
    { "DxgkDdiCreateHwContext", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCreateHwContext), DXGKDDI_INTERFACE_VERSION_WDDM2_2, UNDRIVEN },
    { "DxgkDdiDestroyHwContext", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiDestroyHwContext), DXGKDDI_INTERFACE_VERSION_WDDM2_2, UNDRIVEN },
    { "DxgkDdiCreateHwQueue", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCreateHwQueue), DXGKDDI_INTERFACE_VERSION_WDDM2_2, UNDRIVEN },
    { "DxgkDdiDestroyHwQueue", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiDestroyHwQueue), DXGKDDI_INTERFACE_VERSION_WDDM2_2, UNDRIVEN },
    { "DxgkDdiSubmitCommandToHwQueue", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSubmitCommandToHwQueue), DXGKDDI_INTERFACE_VERSION_WDDM2_2, UNDRIVEN },
    { "DxgkDdiSwitchToHwContextList", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSwitchToHwContextList), DXGKDDI_INTERFACE_VERSION_WDDM2_2, UNDRIVEN },
    { "DxgkDdiResetHwEngine", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiResetHwEngine), DXGKDDI_INTERFACE_VERSION_WDDM2_2, UNDRIVEN },
    { "DxgkDdiCreatePeriodicFrameNotification", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCreatePeriodicFrameNotification), DXGKDDI_INTERFACE_VERSION_WDDM2_2, UNDRIVEN },
    { "DxgkDdiDestroyPeriodicFrameNotification", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiDestroyPeriodicFrameNotification), DXGKDDI_INTERFACE_VERSION_WDDM2_2, UNDRIVEN },
    { "DxgkDdiSetTimingsFromVidPn", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetTimingsFromVidPn), DXGKDDI_INTERFACE_VERSION_WDDM2_2, UNDRIVEN },
    { "DxgkDdiSetTargetGamma", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetTargetGamma), DXGKDDI_INTERFACE_VERSION_WDDM2_2, UNDRIVEN },
    { "DxgkDdiSetTargetContentType", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetTargetContentType), DXGKDDI_INTERFACE_VERSION_WDDM2_2, UNDRIVEN },
    { "DxgkDdiSetTargetAnalogCopyProtection", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetTargetAnalogCopyProtection), DXGKDDI_INTERFACE_VERSION_WDDM2_2, UNDRIVEN },
    { "DxgkDdiSetTargetAdjustedColorimetry", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetTargetAdjustedColorimetry), DXGKDDI_INTERFACE_VERSION_WDDM2_2, UNDRIVEN },
    { "DxgkDdiDisplayDetectControl", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiDisplayDetectControl), DXGKDDI_INTERFACE_VERSION_WDDM2_2, UNDRIVEN },
    { "DxgkDdiQueryConnectionChange", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiQueryConnectionChange), DXGKDDI_INTERFACE_VERSION_WDDM2_2, UNDRIVEN },
    { "DxgkDdiExchangePreStartInfo", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiExchangePreStartInfo), DXGKDDI_INTERFACE_VERSION_WDDM2_2, UNDRIVEN },
    { "DxgkDdiGetMultiPlaneOverlayCaps", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiGetMultiPlaneOverlayCaps), DXGKDDI_INTERFACE_VERSION_WDDM2_2, UNDRIVEN },
    { "DxgkDdiGetPostCompositionCaps", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiGetPostCompositionCaps), DXGKDDI_INTERFACE_VERSION_WDDM2_2, UNDRIVEN },
    { "DxgkDdiUpdateHwContextState", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiUpdateHwContextState), DXGKDDI_INTERFACE_VERSION_WDDM2_3, UNDRIVEN },
    { "DxgkDdiCreateProtectedSession", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCreateProtectedSession), DXGKDDI_INTERFACE_VERSION_WDDM2_3, UNDRIVEN },
    { "DxgkDdiDestroyProtectedSession", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiDestroyProtectedSession), DXGKDDI_INTERFACE_VERSION_WDDM2_3, UNDRIVEN },
};

#define MEMBER_COUNT (sizeof(members) / sizeof(members[0]))

/* The versions the kit takes: WDDM 1.3 to 2.3 (docs/writing-a-driver.md,
 * "What the kit gives your driver"). A later Version is read as 2.3, the
 * last table the kit knows (it has no member past it to read). */
#define OLDEST_SUPPORTED DXGKDDI_INTERFACE_VERSION_WDDM1_3

size_t wk_dxgk_table_size(ULONG version)
{
    if (version < DXGKDDI_INTERFACE_VERSION_VISTA)
        return 0;
    for (size_t i = 0; i < MEMBER_COUNT; i++)
        if (members[i].since > version)
            return members[i].offset;
    return sizeof(DRIVER_INITIALIZATION_DATA);
}

/* Above every DXGKDDI_INTERFACE_VERSION value: they grow by 0x1000 a WDDM
 * release (facts 1.2: WDDM 2.3 is 0x8001), so the releases since stay far
 * below it; a Version past it is garbage (an uninitialized table), not a
 * newer interface, whose members the kit would read as a 2.3 table. */
#define NO_INTERFACE_VERSION_ABOVE 0x1FFFFu

int wk_dxgk_version_supported(ULONG version, char *why, size_t size)
{
    if (version > NO_INTERFACE_VERSION_ABOVE) {
        if (why && size)
            snprintf(why, size,
                     "DRIVER_INITIALIZATION_DATA.Version 0x%x is no DXGKDDI_INTERFACE_VERSION (they are below 0x%x): "
                     "the table handed to DxgkInitialize was not filled in (a driver built with these headers "
                     "says DXGKDDI_INTERFACE_VERSION)",
                     (unsigned)version, NO_INTERFACE_VERSION_ABOVE + 1);
        return 0;
    }
    if (version >= OLDEST_SUPPORTED)
        return 1;
    if (why && size)
        snprintf(why, size,
                 "DRIVER_INITIALIZATION_DATA.Version 0x%x: the kit takes the interface versions of WDDM 1.3 (0x%x) "
                 "to 2.3 (0x%x); a driver built with these headers says DXGKDDI_INTERFACE_VERSION",
                 (unsigned)version, (unsigned)OLDEST_SUPPORTED, (unsigned)DXGKDDI_INTERFACE_VERSION_WDDM2_3);
    return 0;
}

void wk_dxgk_table_copy(DRIVER_INITIALIZATION_DATA *to, const DRIVER_INITIALIZATION_DATA *from)
{
    memset(to, 0, sizeof(*to));
    memcpy(to, from, wk_dxgk_table_size(from->Version));
}

uint32_t wk_dxgk_undriven(const DRIVER_INITIALIZATION_DATA *t, const char **names, uint32_t max)
{
    size_t size = wk_dxgk_table_size(t->Version);
    uint32_t n = 0;
    for (size_t i = 0; i < MEMBER_COUNT && members[i].offset < size; i++) {
        const void *p = NULL;
        memcpy(&p, (const char *)t + members[i].offset, sizeof(p));
        if (p && members[i].role == UNDRIVEN && strncmp(members[i].name, "Reserved", 8) != 0) {
            if (n < max)
                names[n] = members[i].name;
            n++;
        }
    }
    return n;
}

/* The member's pointer, NULL when the table's version lacks it. */
static const void *member_value(const DRIVER_INITIALIZATION_DATA *t, size_t i)
{
    const void *p = NULL;
    if (members[i].offset < wk_dxgk_table_size(t->Version))
        memcpy(&p, (const char *)t + members[i].offset, sizeof(p));
    return p;
}

int wk_dxgk_has_context_caps(ULONG version)
{
    return version >= DXGKDDI_INTERFACE_VERSION_WDDM2_0;
}

int wk_dxgk_patch_left_to_contexts(const DRIVER_INITIALIZATION_DATA *t)
{
    return t->DxgkDdiPatch == NULL && wk_dxgk_has_context_caps(t->Version);
}

/* Whether member i is one the table alone says a driver must fill. */
static int required_by_table(const DRIVER_INITIALIZATION_DATA *t, size_t i)
{
    return members[i].role == REQUIRED || (members[i].role == PATCHING && !wk_dxgk_has_context_caps(t->Version));
}

uint32_t wk_dxgk_missing_required(const DRIVER_INITIALIZATION_DATA *t, const char **names, uint32_t max)
{
    uint32_t n = 0;
    for (size_t i = 0; i < MEMBER_COUNT; i++) {
        if (!required_by_table(t, i) || member_value(t, i))
            continue;
        /* Submitting a command buffer: "DxgkDdiRender or DxgkDdiRenderKm". */
        if (strcmp(members[i].name, "DxgkDdiRender") == 0 && t->DxgkDdiRenderKm &&
            offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiRenderKm) < wk_dxgk_table_size(t->Version))
            continue;
        if (n < max)
            names[n] = members[i].name;
        n++;
    }
    return n;
}
