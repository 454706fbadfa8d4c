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

struct member {
    const char *name;
    size_t offset;
    ULONG since; /* the interface version that added it */
    int driven;  /* the kit calls it */
};

static const struct member members[] = {
    { "DxgkDdiAddDevice", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiAddDevice), DXGKDDI_INTERFACE_VERSION_VISTA, 1 },
    { "DxgkDdiStartDevice", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiStartDevice), DXGKDDI_INTERFACE_VERSION_VISTA, 1 },
    { "DxgkDdiStopDevice", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiStopDevice), DXGKDDI_INTERFACE_VERSION_VISTA, 1 },
    { "DxgkDdiRemoveDevice", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiRemoveDevice), DXGKDDI_INTERFACE_VERSION_VISTA, 1 },
    { "DxgkDdiDispatchIoRequest", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiDispatchIoRequest), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiInterruptRoutine", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiInterruptRoutine), DXGKDDI_INTERFACE_VERSION_VISTA, 1 },
    { "DxgkDdiDpcRoutine", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiDpcRoutine), DXGKDDI_INTERFACE_VERSION_VISTA, 1 },
    { "DxgkDdiQueryChildRelations", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiQueryChildRelations), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiQueryChildStatus", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiQueryChildStatus), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiQueryDeviceDescriptor", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiQueryDeviceDescriptor), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiSetPowerState", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetPowerState), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiNotifyAcpiEvent", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiNotifyAcpiEvent), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiResetDevice", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiResetDevice), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiUnload", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiUnload), DXGKDDI_INTERFACE_VERSION_VISTA, 1 },
    { "DxgkDdiQueryInterface", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiQueryInterface), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiControlEtwLogging", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiControlEtwLogging), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiQueryAdapterInfo", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiQueryAdapterInfo), DXGKDDI_INTERFACE_VERSION_VISTA, 1 },
    { "DxgkDdiCreateDevice", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCreateDevice), DXGKDDI_INTERFACE_VERSION_VISTA, 1 },
    { "DxgkDdiCreateAllocation", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCreateAllocation), DXGKDDI_INTERFACE_VERSION_VISTA, 1 },
    { "DxgkDdiDestroyAllocation", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiDestroyAllocation), DXGKDDI_INTERFACE_VERSION_VISTA, 1 },
    { "DxgkDdiDescribeAllocation", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiDescribeAllocation), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiGetStandardAllocationDriverData", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiGetStandardAllocationDriverData), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiAcquireSwizzlingRange", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiAcquireSwizzlingRange), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiReleaseSwizzlingRange", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiReleaseSwizzlingRange), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiPatch", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiPatch), DXGKDDI_INTERFACE_VERSION_VISTA, 1 },
    { "DxgkDdiSubmitCommand", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSubmitCommand), DXGKDDI_INTERFACE_VERSION_VISTA, 1 },
    { "DxgkDdiPreemptCommand", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiPreemptCommand), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiBuildPagingBuffer", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiBuildPagingBuffer), DXGKDDI_INTERFACE_VERSION_VISTA, 1 },
    { "DxgkDdiSetPalette", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetPalette), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiSetPointerPosition", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetPointerPosition), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiSetPointerShape", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetPointerShape), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiResetFromTimeout", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiResetFromTimeout), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiRestartFromTimeout", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiRestartFromTimeout), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiEscape", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiEscape), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiCollectDbgInfo", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCollectDbgInfo), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiQueryCurrentFence", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiQueryCurrentFence), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiIsSupportedVidPn", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiIsSupportedVidPn), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiRecommendFunctionalVidPn", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiRecommendFunctionalVidPn), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiEnumVidPnCofuncModality", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiEnumVidPnCofuncModality), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiSetVidPnSourceAddress", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetVidPnSourceAddress), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiSetVidPnSourceVisibility", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetVidPnSourceVisibility), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiCommitVidPn", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCommitVidPn), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiUpdateActiveVidPnPresentPath", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiUpdateActiveVidPnPresentPath), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiRecommendMonitorModes", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiRecommendMonitorModes), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiRecommendVidPnTopology", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiRecommendVidPnTopology), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiGetScanLine", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiGetScanLine), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiStopCapture", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiStopCapture), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiControlInterrupt", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiControlInterrupt), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiCreateOverlay", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCreateOverlay), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiDestroyDevice", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiDestroyDevice), DXGKDDI_INTERFACE_VERSION_VISTA, 1 },
    { "DxgkDdiOpenAllocation", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiOpenAllocation), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiCloseAllocation", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCloseAllocation), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiRender", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiRender), DXGKDDI_INTERFACE_VERSION_VISTA, 1 },
    { "DxgkDdiPresent", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiPresent), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiUpdateOverlay", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiUpdateOverlay), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiFlipOverlay", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiFlipOverlay), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiDestroyOverlay", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiDestroyOverlay), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiCreateContext", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCreateContext), DXGKDDI_INTERFACE_VERSION_VISTA, 1 },
    { "DxgkDdiDestroyContext", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiDestroyContext), DXGKDDI_INTERFACE_VERSION_VISTA, 1 },
    { "DxgkDdiLinkDevice", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiLinkDevice), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiSetDisplayPrivateDriverFormat", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetDisplayPrivateDriverFormat), DXGKDDI_INTERFACE_VERSION_VISTA, 0 },
    { "DxgkDdiDescribePageTable", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiDescribePageTable), DXGKDDI_INTERFACE_VERSION_WIN7, 0 },
    { "DxgkDdiUpdatePageTable", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiUpdatePageTable), DXGKDDI_INTERFACE_VERSION_WIN7, 0 },
    { "DxgkDdiUpdatePageDirectory", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiUpdatePageDirectory), DXGKDDI_INTERFACE_VERSION_WIN7, 0 },
    { "DxgkDdiMovePageDirectory", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiMovePageDirectory), DXGKDDI_INTERFACE_VERSION_WIN7, 0 },
    { "DxgkDdiSubmitRender", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSubmitRender), DXGKDDI_INTERFACE_VERSION_WIN7, 0 },
    { "DxgkDdiCreateAllocation2", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCreateAllocation2), DXGKDDI_INTERFACE_VERSION_WIN7, 0 },
    { "DxgkDdiRenderKm", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiRenderKm), DXGKDDI_INTERFACE_VERSION_WIN7, 0 },
    { "Reserved", offsetof(DRIVER_INITIALIZATION_DATA, Reserved), DXGKDDI_INTERFACE_VERSION_WIN7, 0 },
    { "DxgkDdiQueryVidPnHWCapability", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiQueryVidPnHWCapability), DXGKDDI_INTERFACE_VERSION_WIN7, 0 },
    { "DxgkDdiSetPowerComponentFState", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetPowerComponentFState), DXGKDDI_INTERFACE_VERSION_WIN8, 0 },
    { "DxgkDdiQueryDependentEngineGroup", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiQueryDependentEngineGroup), DXGKDDI_INTERFACE_VERSION_WIN8, 0 },
    { "DxgkDdiQueryEngineStatus", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiQueryEngineStatus), DXGKDDI_INTERFACE_VERSION_WIN8, 0 },
    { "DxgkDdiResetEngine", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiResetEngine), DXGKDDI_INTERFACE_VERSION_WIN8, 0 },
    { "DxgkDdiStopDeviceAndReleasePostDisplayOwnership", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiStopDeviceAndReleasePostDisplayOwnership), DXGKDDI_INTERFACE_VERSION_WIN8, 0 },
    { "DxgkDdiSystemDisplayEnable", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSystemDisplayEnable), DXGKDDI_INTERFACE_VERSION_WIN8, 0 },
    { "DxgkDdiSystemDisplayWrite", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSystemDisplayWrite), DXGKDDI_INTERFACE_VERSION_WIN8, 0 },
    { "DxgkDdiCancelCommand", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCancelCommand), DXGKDDI_INTERFACE_VERSION_WIN8, 1 },
    { "DxgkDdiGetChildContainerId", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiGetChildContainerId), DXGKDDI_INTERFACE_VERSION_WIN8, 0 },
    { "DxgkDdiPowerRuntimeControlRequest", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiPowerRuntimeControlRequest), DXGKDDI_INTERFACE_VERSION_WIN8, 0 },
    { "DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay), DXGKDDI_INTERFACE_VERSION_WIN8, 0 },
    { "DxgkDdiNotifySurpriseRemoval", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiNotifySurpriseRemoval), DXGKDDI_INTERFACE_VERSION_WIN8, 0 },
    { "DxgkDdiGetNodeMetadata", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiGetNodeMetadata), DXGKDDI_INTERFACE_VERSION_WDDM1_3, 0 },
    { "DxgkDdiSetPowerPState", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetPowerPState), DXGKDDI_INTERFACE_VERSION_WDDM1_3, 0 },
    { "DxgkDdiControlInterrupt2", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiControlInterrupt2), DXGKDDI_INTERFACE_VERSION_WDDM1_3, 0 },
    { "DxgkDdiCheckMultiPlaneOverlaySupport", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCheckMultiPlaneOverlaySupport), DXGKDDI_INTERFACE_VERSION_WDDM1_3, 0 },
    { "DxgkDdiCalibrateGpuClock", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCalibrateGpuClock), DXGKDDI_INTERFACE_VERSION_WDDM1_3, 0 },
    { "DxgkDdiFormatHistoryBuffer", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiFormatHistoryBuffer), DXGKDDI_INTERFACE_VERSION_WDDM1_3, 0 },
    { "DxgkDdiRenderGdi", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiRenderGdi), DXGKDDI_INTERFACE_VERSION_WDDM2_0, 0 },
    { "DxgkDdiSubmitCommandVirtual", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSubmitCommandVirtual), DXGKDDI_INTERFACE_VERSION_WDDM2_0, 0 },
    { "DxgkDdiSetRootPageTable", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetRootPageTable), DXGKDDI_INTERFACE_VERSION_WDDM2_0, 0 },
    { "DxgkDdiGetRootPageTableSize", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiGetRootPageTableSize), DXGKDDI_INTERFACE_VERSION_WDDM2_0, 0 },
    { "DxgkDdiMapCpuHostAperture", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiMapCpuHostAperture), DXGKDDI_INTERFACE_VERSION_WDDM2_0, 0 },
    { "DxgkDdiUnmapCpuHostAperture", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiUnmapCpuHostAperture), DXGKDDI_INTERFACE_VERSION_WDDM2_0, 0 },
    { "DxgkDdiCheckMultiPlaneOverlaySupport2", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCheckMultiPlaneOverlaySupport2), DXGKDDI_INTERFACE_VERSION_WDDM2_0, 0 },
    { "DxgkDdiCreateProcess", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCreateProcess), DXGKDDI_INTERFACE_VERSION_WDDM2_0, 0 },
    { "DxgkDdiDestroyProcess", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiDestroyProcess), DXGKDDI_INTERFACE_VERSION_WDDM2_0, 0 },
    { "DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay2", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay2), DXGKDDI_INTERFACE_VERSION_WDDM2_0, 0 },
    { "Reserved1", offsetof(DRIVER_INITIALIZATION_DATA, Reserved1), DXGKDDI_INTERFACE_VERSION_WDDM2_0, 0 },
    { "Reserved2", offsetof(DRIVER_INITIALIZATION_DATA, Reserved2), DXGKDDI_INTERFACE_VERSION_WDDM2_0, 0 },
    { "DxgkDdiPowerRuntimeSetDeviceHandle", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiPowerRuntimeSetDeviceHandle), DXGKDDI_INTERFACE_VERSION_WDDM2_0, 0 },
    { "DxgkDdiSetStablePowerState", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetStablePowerState), DXGKDDI_INTERFACE_VERSION_WDDM2_0, 0 },
    { "DxgkDdiSetVideoProtectedRegion", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetVideoProtectedRegion), DXGKDDI_INTERFACE_VERSION_WDDM2_0, 0 },
    { "DxgkDdiCheckMultiPlaneOverlaySupport3", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCheckMultiPlaneOverlaySupport3), DXGKDDI_INTERFACE_VERSION_WDDM2_1, 0 },
    { "DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay3", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay3), DXGKDDI_INTERFACE_VERSION_WDDM2_1, 0 },
    { "DxgkDdiPostMultiPlaneOverlayPresent", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiPostMultiPlaneOverlayPresent), DXGKDDI_INTERFACE_VERSION_WDDM2_1, 0 },
    { "DxgkDdiValidateUpdateAllocationProperty", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiValidateUpdateAllocationProperty), DXGKDDI_INTERFACE_VERSION_WDDM2_1, 0 },
    { "DxgkDdiControlModeBehavior", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiControlModeBehavior), DXGKDDI_INTERFACE_VERSION_WDDM2_1, 0 },
    { "DxgkDdiUpdateMonitorLinkInfo", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiUpdateMonitorLinkInfo), DXGKDDI_INTERFACE_VERSION_WDDM2_1, 0 },
    { "DxgkDdiCreateHwContext", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCreateHwContext), DXGKDDI_INTERFACE_VERSION_WDDM2_2, 0 },
    { "DxgkDdiDestroyHwContext", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiDestroyHwContext), DXGKDDI_INTERFACE_VERSION_WDDM2_2, 0 },
    { "DxgkDdiCreateHwQueue", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCreateHwQueue), DXGKDDI_INTERFACE_VERSION_WDDM2_2, 0 },
    { "DxgkDdiDestroyHwQueue", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiDestroyHwQueue), DXGKDDI_INTERFACE_VERSION_WDDM2_2, 0 },
    { "DxgkDdiSubmitCommandToHwQueue", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSubmitCommandToHwQueue), DXGKDDI_INTERFACE_VERSION_WDDM2_2, 0 },
    { "DxgkDdiSwitchToHwContextList", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSwitchToHwContextList), DXGKDDI_INTERFACE_VERSION_WDDM2_2, 0 },
    { "DxgkDdiResetHwEngine", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiResetHwEngine), DXGKDDI_INTERFACE_VERSION_WDDM2_2, 0 },
    { "DxgkDdiCreatePeriodicFrameNotification", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCreatePeriodicFrameNotification), DXGKDDI_INTERFACE_VERSION_WDDM2_2, 0 },
    { "DxgkDdiDestroyPeriodicFrameNotification", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiDestroyPeriodicFrameNotification), DXGKDDI_INTERFACE_VERSION_WDDM2_2, 0 },
    { "DxgkDdiSetTimingsFromVidPn", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetTimingsFromVidPn), DXGKDDI_INTERFACE_VERSION_WDDM2_2, 0 },
    { "DxgkDdiSetTargetGamma", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetTargetGamma), DXGKDDI_INTERFACE_VERSION_WDDM2_2, 0 },
    { "DxgkDdiSetTargetContentType", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetTargetContentType), DXGKDDI_INTERFACE_VERSION_WDDM2_2, 0 },
    { "DxgkDdiSetTargetAnalogCopyProtection", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetTargetAnalogCopyProtection), DXGKDDI_INTERFACE_VERSION_WDDM2_2, 0 },
    { "DxgkDdiSetTargetAdjustedColorimetry", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiSetTargetAdjustedColorimetry), DXGKDDI_INTERFACE_VERSION_WDDM2_2, 0 },
    { "DxgkDdiDisplayDetectControl", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiDisplayDetectControl), DXGKDDI_INTERFACE_VERSION_WDDM2_2, 0 },
    { "DxgkDdiQueryConnectionChange", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiQueryConnectionChange), DXGKDDI_INTERFACE_VERSION_WDDM2_2, 0 },
    { "DxgkDdiExchangePreStartInfo", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiExchangePreStartInfo), DXGKDDI_INTERFACE_VERSION_WDDM2_2, 0 },
    { "DxgkDdiGetMultiPlaneOverlayCaps", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiGetMultiPlaneOverlayCaps), DXGKDDI_INTERFACE_VERSION_WDDM2_2, 0 },
    { "DxgkDdiGetPostCompositionCaps", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiGetPostCompositionCaps), DXGKDDI_INTERFACE_VERSION_WDDM2_2, 0 },
    { "DxgkDdiUpdateHwContextState", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiUpdateHwContextState), DXGKDDI_INTERFACE_VERSION_WDDM2_3, 0 },
    { "DxgkDdiCreateProtectedSession", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiCreateProtectedSession), DXGKDDI_INTERFACE_VERSION_WDDM2_3, 0 },
    { "DxgkDdiDestroyProtectedSession", offsetof(DRIVER_INITIALIZATION_DATA, DxgkDdiDestroyProtectedSession), DXGKDDI_INTERFACE_VERSION_WDDM2_3, 0 },
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
        if (p && !members[i].driven && strncmp(members[i].name, "Reserved", 8) != 0) {
            if (n < max)
                names[n] = members[i].name;
            n++;
        }
    }
    return n;
}
