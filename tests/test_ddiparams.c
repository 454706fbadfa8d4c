/* SPDX-License-Identifier: MIT */
/*
 * test_ddiparams.c - the WDK's parameter type names (ddiparams.h) give
 * every DDI of DRIVER_INITIALIZATION_DATA exactly its type: each function
 * below is declared the WDK way (IN_CONST_HANDLE, INOUT_PDXGKARG_RENDER,
 * IN_CONST_PDXGKARG_PATCH ...) and assigned to its member, which does not
 * compile (-Werror) when a name denotes another type. Compiled as C11 here
 * and as C++17 by test_ddiparams_cxx.cpp, where a mismatch is an error in
 * any case. Generated from the DDI types of dispmprt.h and driver.h, one
 * function per member that has a type of its own, but for the two DDIs that
 * take an argument struct by value which the kit declares without its
 * layout (DxgkDdiControlInterrupt2, DxgkDdiSetTargetAdjustedColorimetry):
 * a function cannot be defined on an incomplete parameter type.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#ifdef __cplusplus
extern "C" {
#endif
#include <cmocka.h>
#ifdef __cplusplus
}
#endif

#include "wddmkit/driver.h"

static NTSTATUS APIENTRY WdkAddDevice(IN_CONST_PDEVICE_OBJECT a0, OUT_PPVOID a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkStartDevice(IN_CONST_PVOID a0, INOUT_PDXGK_START_INFO a1, INOUT_PDXGKRNL_INTERFACE a2, INOUT_PULONG a3, INOUT_PULONG a4)
{
    (void)a0; (void)a1; (void)a2; (void)a3; (void)a4; return 0;
}

static NTSTATUS APIENTRY WdkStopDevice(IN_CONST_PVOID a0)
{
    (void)a0; return 0;
}

static NTSTATUS APIENTRY WdkRemoveDevice(IN_CONST_PVOID a0)
{
    (void)a0; return 0;
}

static NTSTATUS APIENTRY WdkDispatchIoRequest(IN_CONST_PVOID a0, IN_ULONG a1, INOUT_PVIDEO_REQUEST_PACKET a2)
{
    (void)a0; (void)a1; (void)a2; return 0;
}

static BOOLEAN APIENTRY WdkInterruptRoutine(IN_CONST_PVOID a0, IN_ULONG a1)
{
    (void)a0; (void)a1; return 0;
}

static VOID APIENTRY WdkDpcRoutine(IN_CONST_PVOID a0)
{
    (void)a0; 
}

static NTSTATUS APIENTRY WdkQueryChildRelations(IN_CONST_PVOID a0, INOUT_PDXGK_CHILD_DESCRIPTOR a1, IN_ULONG a2)
{
    (void)a0; (void)a1; (void)a2; return 0;
}

static NTSTATUS APIENTRY WdkQueryChildStatus(IN_CONST_PVOID a0, INOUT_PDXGK_CHILD_STATUS a1, IN_BOOLEAN a2)
{
    (void)a0; (void)a1; (void)a2; return 0;
}

static NTSTATUS APIENTRY WdkQueryDeviceDescriptor(IN_CONST_PVOID a0, IN_ULONG a1, INOUT_PDXGK_DEVICE_DESCRIPTOR a2)
{
    (void)a0; (void)a1; (void)a2; return 0;
}

static NTSTATUS APIENTRY WdkSetPowerState(IN_CONST_PVOID a0, IN_ULONG a1, IN_DEVICE_POWER_STATE a2, IN_POWER_ACTION a3)
{
    (void)a0; (void)a1; (void)a2; (void)a3; return 0;
}

static NTSTATUS APIENTRY WdkNotifyAcpiEvent(IN_CONST_PVOID a0, IN_DXGK_EVENT_TYPE a1, IN_ULONG a2, IN_PVOID a3, IN_PULONG a4)
{
    (void)a0; (void)a1; (void)a2; (void)a3; (void)a4; return 0;
}

static VOID APIENTRY WdkResetDevice(IN_CONST_PVOID a0)
{
    (void)a0; 
}

static VOID APIENTRY WdkUnload(VOID)
{
}

static NTSTATUS APIENTRY WdkQueryInterface(IN_CONST_PVOID a0, INOUT_PQUERY_INTERFACE a1)
{
    (void)a0; (void)a1; return 0;
}

static VOID APIENTRY WdkControlEtwLogging(IN_BOOLEAN a0, IN_ULONG a1, IN_UCHAR a2)
{
    (void)a0; (void)a1; (void)a2; 
}

static NTSTATUS APIENTRY WdkQueryAdapterInfo(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_QUERYADAPTERINFO a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkCreateDevice(IN_CONST_HANDLE a0, INOUT_PDXGKARG_CREATEDEVICE a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkCreateAllocation(IN_CONST_HANDLE a0, INOUT_PDXGKARG_CREATEALLOCATION a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkDestroyAllocation(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_DESTROYALLOCATION a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkDescribeAllocation(IN_CONST_HANDLE a0, INOUT_PDXGKARG_DESCRIBEALLOCATION a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkGetStandardAllocationDriverData(IN_CONST_HANDLE a0, INOUT_PDXGKARG_GETSTANDARDALLOCATIONDRIVERDATA a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkAcquireSwizzlingRange(IN_CONST_HANDLE a0, INOUT_PDXGKARG_ACQUIRESWIZZLINGRANGE a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkReleaseSwizzlingRange(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_RELEASESWIZZLINGRANGE a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkPatch(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_PATCH a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkSubmitCommand(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_SUBMITCOMMAND a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkPreemptCommand(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_PREEMPTCOMMAND a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkBuildPagingBuffer(IN_CONST_HANDLE a0, INOUT_PDXGKARG_BUILDPAGINGBUFFER a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkSetPalette(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_SETPALETTE a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkSetPointerPosition(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_SETPOINTERPOSITION a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkSetPointerShape(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_SETPOINTERSHAPE a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkResetFromTimeout(IN_CONST_HANDLE a0)
{
    (void)a0; return 0;
}

static NTSTATUS APIENTRY WdkRestartFromTimeout(IN_CONST_HANDLE a0)
{
    (void)a0; return 0;
}

static NTSTATUS APIENTRY WdkEscape(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_ESCAPE a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkCollectDbgInfo(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_COLLECTDBGINFO a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkQueryCurrentFence(IN_CONST_HANDLE a0, INOUT_PDXGKARG_QUERYCURRENTFENCE a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkIsSupportedVidPn(IN_CONST_HANDLE a0, INOUT_PDXGKARG_ISSUPPORTEDVIDPN a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkRecommendFunctionalVidPn(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_RECOMMENDFUNCTIONALVIDPN_CONST a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkEnumVidPnCofuncModality(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_ENUMVIDPNCOFUNCMODALITY_CONST a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkSetVidPnSourceAddress(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_SETVIDPNSOURCEADDRESS a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkSetVidPnSourceVisibility(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_SETVIDPNSOURCEVISIBILITY a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkCommitVidPn(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_COMMITVIDPN_CONST a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkUpdateActiveVidPnPresentPath(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_UPDATEACTIVEVIDPNPRESENTPATH_CONST a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkRecommendMonitorModes(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_RECOMMENDMONITORMODES_CONST a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkRecommendVidPnTopology(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_RECOMMENDVIDPNTOPOLOGY_CONST a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkGetScanLine(IN_CONST_HANDLE a0, INOUT_PDXGKARG_GETSCANLINE a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkStopCapture(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_STOPCAPTURE a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkControlInterrupt(IN_CONST_HANDLE a0, IN_CONST_DXGK_INTERRUPT_TYPE a1, IN_BOOLEAN a2)
{
    (void)a0; (void)a1; (void)a2; return 0;
}

static NTSTATUS APIENTRY WdkCreateOverlay(IN_CONST_HANDLE a0, INOUT_PDXGKARG_CREATEOVERLAY a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkDestroyDevice(IN_CONST_HANDLE a0)
{
    (void)a0; return 0;
}

static NTSTATUS APIENTRY WdkOpenAllocation(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_OPENALLOCATION a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkCloseAllocation(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_CLOSEALLOCATION a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkRender(IN_CONST_HANDLE a0, INOUT_PDXGKARG_RENDER a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkPresent(IN_CONST_HANDLE a0, INOUT_PDXGKARG_PRESENT a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkUpdateOverlay(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_UPDATEOVERLAY a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkFlipOverlay(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_FLIPOVERLAY a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkDestroyOverlay(IN_CONST_HANDLE a0)
{
    (void)a0; return 0;
}

static NTSTATUS APIENTRY WdkCreateContext(IN_CONST_HANDLE a0, INOUT_PDXGKARG_CREATECONTEXT a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkDestroyContext(IN_CONST_HANDLE a0)
{
    (void)a0; return 0;
}

static NTSTATUS APIENTRY WdkLinkDevice(IN_CONST_PDEVICE_OBJECT a0, IN_CONST_PVOID a1, INOUT_PLINKED_DEVICE a2)
{
    (void)a0; (void)a1; (void)a2; return 0;
}

static NTSTATUS APIENTRY WdkSetDisplayPrivateDriverFormat(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_SETDISPLAYPRIVATEDRIVERFORMAT a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkRenderKm(IN_CONST_HANDLE a0, INOUT_PDXGKARG_RENDER a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkQueryVidPnHWCapability(IN_CONST_HANDLE a0, INOUT_PDXGKARG_QUERYVIDPNHWCAPABILITY a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkQueryDependentEngineGroup(IN_CONST_HANDLE a0, INOUT_PDXGKARG_QUERYDEPENDENTENGINEGROUP a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkQueryEngineStatus(IN_CONST_HANDLE a0, INOUT_PDXGKARG_QUERYENGINESTATUS a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkResetEngine(IN_CONST_HANDLE a0, INOUT_PDXGKARG_RESETENGINE a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkStopDeviceAndReleasePostDisplayOwnership(IN_PVOID a0, IN_D3DDDI_VIDEO_PRESENT_TARGET_ID a1, INOUT_PDXGK_DISPLAY_INFORMATION a2)
{
    (void)a0; (void)a1; (void)a2; return 0;
}

static NTSTATUS APIENTRY WdkSystemDisplayEnable(IN_PVOID a0, IN_D3DDDI_VIDEO_PRESENT_TARGET_ID a1, INOUT_PDXGKARG_SYSTEM_DISPLAY_ENABLE_FLAGS a2, INOUT_PUINT a3, INOUT_PUINT a4, INOUT_PD3DDDIFORMAT a5)
{
    (void)a0; (void)a1; (void)a2; (void)a3; (void)a4; (void)a5; return 0;
}

static VOID APIENTRY WdkSystemDisplayWrite(IN_PVOID a0, IN_PVOID a1, IN_UINT a2, IN_UINT a3, IN_UINT a4, IN_UINT a5, IN_UINT a6)
{
    (void)a0; (void)a1; (void)a2; (void)a3; (void)a4; (void)a5; (void)a6; 
}

static NTSTATUS APIENTRY WdkCancelCommand(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_CANCELCOMMAND a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkGetChildContainerId(IN_PVOID a0, IN_ULONG a1, INOUT_PDXGK_CHILD_CONTAINER_ID a2)
{
    (void)a0; (void)a1; (void)a2; return 0;
}

static NTSTATUS APIENTRY WdkSetVidPnSourceAddressWithMultiPlaneOverlay(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkNotifySurpriseRemoval(IN_PVOID a0, IN_DXGK_SURPRISE_REMOVAL_TYPE a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkGetNodeMetadata(IN_CONST_HANDLE a0, IN_UINT a1, INOUT_PDXGKARG_GETNODEMETADATA a2)
{
    (void)a0; (void)a1; (void)a2; return 0;
}

static NTSTATUS APIENTRY WdkCheckMultiPlaneOverlaySupport(IN_CONST_HANDLE a0, INOUT_PDXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkCalibrateGpuClock(IN_CONST_HANDLE a0, IN_UINT32 a1, IN_UINT32 a2, INOUT_PDXGKARG_CALIBRATEGPUCLOCK a3)
{
    (void)a0; (void)a1; (void)a2; (void)a3; return 0;
}

static NTSTATUS APIENTRY WdkFormatHistoryBuffer(IN_CONST_HANDLE a0, INOUT_PDXGKARG_FORMATHISTORYBUFFER a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkRenderGdi(IN_CONST_HANDLE a0, INOUT_PDXGKARG_RENDERGDI a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkSubmitCommandVirtual(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_SUBMITCOMMANDVIRTUAL a1)
{
    (void)a0; (void)a1; return 0;
}

static VOID APIENTRY WdkSetRootPageTable(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_SETROOTPAGETABLE a1)
{
    (void)a0; (void)a1; 
}

static SIZE_T APIENTRY WdkGetRootPageTableSize(IN_CONST_HANDLE a0, INOUT_PDXGKARG_GETROOTPAGETABLESIZE a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkMapCpuHostAperture(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_MAPCPUHOSTAPERTURE a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkUnmapCpuHostAperture(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_UNMAPCPUHOSTAPERTURE a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkCheckMultiPlaneOverlaySupport2(IN_CONST_HANDLE a0, INOUT_PDXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT2 a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkCreateProcess(IN_CONST_HANDLE a0, INOUT_PDXGKARG_CREATEPROCESS a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkDestroyProcess(IN_CONST_HANDLE a0, IN_CONST_HANDLE a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkSetVidPnSourceAddressWithMultiPlaneOverlay2(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY2 a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkPowerRuntimeSetDeviceHandle(IN_CONST_HANDLE a0, IN_HANDLE a1)
{
    (void)a0; (void)a1; return 0;
}

static VOID APIENTRY WdkSetStablePowerState(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_SETSTABLEPOWERSTATE a1)
{
    (void)a0; (void)a1; 
}

static NTSTATUS APIENTRY WdkSetVideoProtectedRegion(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_SETVIDEOPROTECTEDREGION a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkCheckMultiPlaneOverlaySupport3(IN_CONST_HANDLE a0, INOUT_PDXGKARG_CHECKMULTIPLANEOVERLAYSUPPORT3 a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkSetVidPnSourceAddressWithMultiPlaneOverlay3(IN_CONST_HANDLE a0, INOUT_PDXGKARG_SETVIDPNSOURCEADDRESSWITHMULTIPLANEOVERLAY3 a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkPostMultiPlaneOverlayPresent(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_POSTMULTIPLANEOVERLAYPRESENT a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkValidateUpdateAllocationProperty(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_VALIDATEUPDATEALLOCPROPERTY a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkControlModeBehavior(IN_CONST_HANDLE a0, INOUT_PDXGKARG_CONTROLMODEBEHAVIOR a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkUpdateMonitorLinkInfo(IN_CONST_HANDLE a0, INOUT_PDXGKARG_UPDATEMONITORLINKINFO a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkCreateHwContext(IN_CONST_HANDLE a0, INOUT_PDXGKARG_CREATEHWCONTEXT a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkDestroyHwContext(IN_CONST_HANDLE a0)
{
    (void)a0; return 0;
}

static NTSTATUS APIENTRY WdkCreateHwQueue(IN_CONST_HANDLE a0, INOUT_PDXGKARG_CREATEHWQUEUE a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkDestroyHwQueue(IN_CONST_HANDLE a0)
{
    (void)a0; return 0;
}

static NTSTATUS APIENTRY WdkSubmitCommandToHwQueue(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_SUBMITCOMMANDTOHWQUEUE a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkSwitchToHwContextList(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_SWITCHTOHWCONTEXTLIST a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkResetHwEngine(IN_CONST_HANDLE a0, INOUT_PDXGKARG_RESETHWENGINE a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkCreatePeriodicFrameNotification(INOUT_PDXGKARG_CREATEPERIODICFRAMENOTIFICATION a0)
{
    (void)a0; return 0;
}

static NTSTATUS APIENTRY WdkDestroyPeriodicFrameNotification(IN_CONST_PDXGKARG_DESTROYPERIODICFRAMENOTIFICATION a0)
{
    (void)a0; return 0;
}

static NTSTATUS APIENTRY WdkSetTimingsFromVidPn(IN_CONST_HANDLE a0, INOUT_PDXGKARG_SETTIMINGSFROMVIDPN a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkSetTargetGamma(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_SETTARGETGAMMA a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkSetTargetContentType(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_SETTARGETCONTENTTYPE a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkSetTargetAnalogCopyProtection(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_SETTARGETANALOGCOPYPROTECTION a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkDisplayDetectControl(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_DISPLAYDETECTCONTROL a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkQueryConnectionChange(IN_CONST_HANDLE a0, INOUT_PDXGKARG_QUERYCONNECTIONCHANGE a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkExchangePreStartInfo(IN_CONST_HANDLE a0, INOUT_PDXGK_PRE_START_INFO a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkGetMultiPlaneOverlayCaps(IN_CONST_HANDLE a0, INOUT_PDXGKARG_GETMULTIPLANEOVERLAYCAPS a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkGetPostCompositionCaps(IN_CONST_HANDLE a0, INOUT_PDXGKARG_GETPOSTCOMPOSITIONCAPS a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkUpdateHwContextState(IN_CONST_HANDLE a0, IN_CONST_PDXGKARG_UPDATEHWCONTEXTSTATE a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkCreateProtectedSession(IN_CONST_HANDLE a0, INOUT_PDXGKARG_CREATEPROTECTEDSESSION a1)
{
    (void)a0; (void)a1; return 0;
}

static NTSTATUS APIENTRY WdkDestroyProtectedSession(IN_CONST_HANDLE a0, IN_CONST_HANDLE a1)
{
    (void)a0; (void)a1; return 0;
}

/* Fills every member that has a DDI type with the function above. */
static unsigned fill_table(DRIVER_INITIALIZATION_DATA *t)
{
    t->DxgkDdiAddDevice = WdkAddDevice;
    t->DxgkDdiStartDevice = WdkStartDevice;
    t->DxgkDdiStopDevice = WdkStopDevice;
    t->DxgkDdiRemoveDevice = WdkRemoveDevice;
    t->DxgkDdiDispatchIoRequest = WdkDispatchIoRequest;
    t->DxgkDdiInterruptRoutine = WdkInterruptRoutine;
    t->DxgkDdiDpcRoutine = WdkDpcRoutine;
    t->DxgkDdiQueryChildRelations = WdkQueryChildRelations;
    t->DxgkDdiQueryChildStatus = WdkQueryChildStatus;
    t->DxgkDdiQueryDeviceDescriptor = WdkQueryDeviceDescriptor;
    t->DxgkDdiSetPowerState = WdkSetPowerState;
    t->DxgkDdiNotifyAcpiEvent = WdkNotifyAcpiEvent;
    t->DxgkDdiResetDevice = WdkResetDevice;
    t->DxgkDdiUnload = WdkUnload;
    t->DxgkDdiQueryInterface = WdkQueryInterface;
    t->DxgkDdiControlEtwLogging = WdkControlEtwLogging;
    t->DxgkDdiQueryAdapterInfo = WdkQueryAdapterInfo;
    t->DxgkDdiCreateDevice = WdkCreateDevice;
    t->DxgkDdiCreateAllocation = WdkCreateAllocation;
    t->DxgkDdiDestroyAllocation = WdkDestroyAllocation;
    t->DxgkDdiDescribeAllocation = WdkDescribeAllocation;
    t->DxgkDdiGetStandardAllocationDriverData = WdkGetStandardAllocationDriverData;
    t->DxgkDdiAcquireSwizzlingRange = WdkAcquireSwizzlingRange;
    t->DxgkDdiReleaseSwizzlingRange = WdkReleaseSwizzlingRange;
    t->DxgkDdiPatch = WdkPatch;
    t->DxgkDdiSubmitCommand = WdkSubmitCommand;
    t->DxgkDdiPreemptCommand = WdkPreemptCommand;
    t->DxgkDdiBuildPagingBuffer = WdkBuildPagingBuffer;
    t->DxgkDdiSetPalette = WdkSetPalette;
    t->DxgkDdiSetPointerPosition = WdkSetPointerPosition;
    t->DxgkDdiSetPointerShape = WdkSetPointerShape;
    t->DxgkDdiResetFromTimeout = WdkResetFromTimeout;
    t->DxgkDdiRestartFromTimeout = WdkRestartFromTimeout;
    t->DxgkDdiEscape = WdkEscape;
    t->DxgkDdiCollectDbgInfo = WdkCollectDbgInfo;
    t->DxgkDdiQueryCurrentFence = WdkQueryCurrentFence;
    t->DxgkDdiIsSupportedVidPn = WdkIsSupportedVidPn;
    t->DxgkDdiRecommendFunctionalVidPn = WdkRecommendFunctionalVidPn;
    t->DxgkDdiEnumVidPnCofuncModality = WdkEnumVidPnCofuncModality;
    t->DxgkDdiSetVidPnSourceAddress = WdkSetVidPnSourceAddress;
    t->DxgkDdiSetVidPnSourceVisibility = WdkSetVidPnSourceVisibility;
    t->DxgkDdiCommitVidPn = WdkCommitVidPn;
    t->DxgkDdiUpdateActiveVidPnPresentPath = WdkUpdateActiveVidPnPresentPath;
    t->DxgkDdiRecommendMonitorModes = WdkRecommendMonitorModes;
    t->DxgkDdiRecommendVidPnTopology = WdkRecommendVidPnTopology;
    t->DxgkDdiGetScanLine = WdkGetScanLine;
    t->DxgkDdiStopCapture = WdkStopCapture;
    t->DxgkDdiControlInterrupt = WdkControlInterrupt;
    t->DxgkDdiCreateOverlay = WdkCreateOverlay;
    t->DxgkDdiDestroyDevice = WdkDestroyDevice;
    t->DxgkDdiOpenAllocation = WdkOpenAllocation;
    t->DxgkDdiCloseAllocation = WdkCloseAllocation;
    t->DxgkDdiRender = WdkRender;
    t->DxgkDdiPresent = WdkPresent;
    t->DxgkDdiUpdateOverlay = WdkUpdateOverlay;
    t->DxgkDdiFlipOverlay = WdkFlipOverlay;
    t->DxgkDdiDestroyOverlay = WdkDestroyOverlay;
    t->DxgkDdiCreateContext = WdkCreateContext;
    t->DxgkDdiDestroyContext = WdkDestroyContext;
    t->DxgkDdiLinkDevice = WdkLinkDevice;
    t->DxgkDdiSetDisplayPrivateDriverFormat = WdkSetDisplayPrivateDriverFormat;
    t->DxgkDdiRenderKm = WdkRenderKm;
    t->DxgkDdiQueryVidPnHWCapability = WdkQueryVidPnHWCapability;
    t->DxgkDdiQueryDependentEngineGroup = WdkQueryDependentEngineGroup;
    t->DxgkDdiQueryEngineStatus = WdkQueryEngineStatus;
    t->DxgkDdiResetEngine = WdkResetEngine;
    t->DxgkDdiStopDeviceAndReleasePostDisplayOwnership = WdkStopDeviceAndReleasePostDisplayOwnership;
    t->DxgkDdiSystemDisplayEnable = WdkSystemDisplayEnable;
    t->DxgkDdiSystemDisplayWrite = WdkSystemDisplayWrite;
    t->DxgkDdiCancelCommand = WdkCancelCommand;
    t->DxgkDdiGetChildContainerId = WdkGetChildContainerId;
    t->DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay = WdkSetVidPnSourceAddressWithMultiPlaneOverlay;
    t->DxgkDdiNotifySurpriseRemoval = WdkNotifySurpriseRemoval;
    t->DxgkDdiGetNodeMetadata = WdkGetNodeMetadata;
    t->DxgkDdiCheckMultiPlaneOverlaySupport = WdkCheckMultiPlaneOverlaySupport;
    t->DxgkDdiCalibrateGpuClock = WdkCalibrateGpuClock;
    t->DxgkDdiFormatHistoryBuffer = WdkFormatHistoryBuffer;
    t->DxgkDdiRenderGdi = WdkRenderGdi;
    t->DxgkDdiSubmitCommandVirtual = WdkSubmitCommandVirtual;
    t->DxgkDdiSetRootPageTable = WdkSetRootPageTable;
    t->DxgkDdiGetRootPageTableSize = WdkGetRootPageTableSize;
    t->DxgkDdiMapCpuHostAperture = WdkMapCpuHostAperture;
    t->DxgkDdiUnmapCpuHostAperture = WdkUnmapCpuHostAperture;
    t->DxgkDdiCheckMultiPlaneOverlaySupport2 = WdkCheckMultiPlaneOverlaySupport2;
    t->DxgkDdiCreateProcess = WdkCreateProcess;
    t->DxgkDdiDestroyProcess = WdkDestroyProcess;
    t->DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay2 = WdkSetVidPnSourceAddressWithMultiPlaneOverlay2;
    t->DxgkDdiPowerRuntimeSetDeviceHandle = WdkPowerRuntimeSetDeviceHandle;
    t->DxgkDdiSetStablePowerState = WdkSetStablePowerState;
    t->DxgkDdiSetVideoProtectedRegion = WdkSetVideoProtectedRegion;
    t->DxgkDdiCheckMultiPlaneOverlaySupport3 = WdkCheckMultiPlaneOverlaySupport3;
    t->DxgkDdiSetVidPnSourceAddressWithMultiPlaneOverlay3 = WdkSetVidPnSourceAddressWithMultiPlaneOverlay3;
    t->DxgkDdiPostMultiPlaneOverlayPresent = WdkPostMultiPlaneOverlayPresent;
    t->DxgkDdiValidateUpdateAllocationProperty = WdkValidateUpdateAllocationProperty;
    t->DxgkDdiControlModeBehavior = WdkControlModeBehavior;
    t->DxgkDdiUpdateMonitorLinkInfo = WdkUpdateMonitorLinkInfo;
    t->DxgkDdiCreateHwContext = WdkCreateHwContext;
    t->DxgkDdiDestroyHwContext = WdkDestroyHwContext;
    t->DxgkDdiCreateHwQueue = WdkCreateHwQueue;
    t->DxgkDdiDestroyHwQueue = WdkDestroyHwQueue;
    t->DxgkDdiSubmitCommandToHwQueue = WdkSubmitCommandToHwQueue;
    t->DxgkDdiSwitchToHwContextList = WdkSwitchToHwContextList;
    t->DxgkDdiResetHwEngine = WdkResetHwEngine;
    t->DxgkDdiCreatePeriodicFrameNotification = WdkCreatePeriodicFrameNotification;
    t->DxgkDdiDestroyPeriodicFrameNotification = WdkDestroyPeriodicFrameNotification;
    t->DxgkDdiSetTimingsFromVidPn = WdkSetTimingsFromVidPn;
    t->DxgkDdiSetTargetGamma = WdkSetTargetGamma;
    t->DxgkDdiSetTargetContentType = WdkSetTargetContentType;
    t->DxgkDdiSetTargetAnalogCopyProtection = WdkSetTargetAnalogCopyProtection;
    t->DxgkDdiDisplayDetectControl = WdkDisplayDetectControl;
    t->DxgkDdiQueryConnectionChange = WdkQueryConnectionChange;
    t->DxgkDdiExchangePreStartInfo = WdkExchangePreStartInfo;
    t->DxgkDdiGetMultiPlaneOverlayCaps = WdkGetMultiPlaneOverlayCaps;
    t->DxgkDdiGetPostCompositionCaps = WdkGetPostCompositionCaps;
    t->DxgkDdiUpdateHwContextState = WdkUpdateHwContextState;
    t->DxgkDdiCreateProtectedSession = WdkCreateProtectedSession;
    t->DxgkDdiDestroyProtectedSession = WdkDestroyProtectedSession;
    return 117u;
}

static void test_every_ddi_takes_its_wdk_signature(void **state)
{
    DRIVER_INITIALIZATION_DATA t;
    (void)state;
    memset(&t, 0, sizeof(t));
    assert_int_equal(fill_table(&t), 117u);
    assert_ptr_equal((void *)(uintptr_t)t.DxgkDdiRender, (void *)(uintptr_t)WdkRender);
    assert_ptr_equal((void *)(uintptr_t)t.DxgkDdiPatch, (void *)(uintptr_t)WdkPatch);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_ddi_takes_its_wdk_signature),
    };
    return cmocka_run_group_tests_name("ddiparams", tests, NULL, NULL);
}
