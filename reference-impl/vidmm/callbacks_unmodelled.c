/* SPDX-License-Identifier: MIT */
/*
 * callbacks_unmodelled.c - the DXGKRNL_INTERFACE callbacks the kit does not
 * model: every one answers, none is NULL, and each call is counted
 * (wk_vidmm_stats.unmodelled_calls, listed in the summary and by
 * --coverage) so a driver that leans on one is seen doing so.
 *
 * An answer is what "not available" is for its return type: NTSTATUS
 * STATUS_NOT_SUPPORTED, VOID nothing, a pointer NULL, BOOLEAN FALSE, a
 * handle or address 0. Two callbacks whose answer a driver cannot do
 * without are modelled here instead: SynchronizeExecution runs the routine
 * at once (the kit delivers interrupts at its own points, never while the
 * driver runs, so nothing can interrupt it) and QueueDpc asks for the
 * driver's DPC as NotifyDpc does. GetHandleData answers for an allocation's
 * handle (openalloc.c). Signatures: include/wddmkit/dispmprt.h.
 */
#include "internal.h"

/* The callbacks below, in their order: wk_vidmm_unmodelled_callback. */
static const char *const names[WK_VIDMM_UNMODELLED_CALLBACKS] = {
    "DxgkCbEvalAcpiMethod",
    "DxgkCbIndicateChildStatus",
    "DxgkCbMapMemory",
    "DxgkCbQueryServices",
    "DxgkCbUnmapMemory",
    "DxgkCbIsDevicePresent",
    "DxgkCbGetHandleData",
    "DxgkCbGetHandleParent",
    "DxgkCbEnumHandleChildren",
    "DxgkCbQueryVidPnInterface",
    "DxgkCbQueryMonitorInterface",
    "DxgkCbGetCaptureAddress",
    "DxgkCbLogEtwEvent",
    "DxgkCbExcludeAdapterAccess",
    "DxgkCbSetPowerComponentActive",
    "DxgkCbSetPowerComponentIdle",
    "DxgkCbAcquirePostDisplayOwnership",
    "DxgkCbPowerRuntimeControlRequest",
    "DxgkCbSetPowerComponentLatency",
    "DxgkCbSetPowerComponentResidency",
    "DxgkCbCompleteFStateTransition",
    "DxgkCbCompletePStateTransition",
    "DxgkCbReserveGpuVirtualAddressRange",
    "DxgkCbAcquireHandleData",
    "DxgkCbReleaseHandleData",
    "DxgkCbHardwareContentProtectionTeardown",
    "DxgkCbMultiPlaneOverlayDisabled",
    "DxgkCbMitigatedRangeUpdate",
    "DxgkCbInvalidateHwContext",
    "DxgkCbIndicateConnectorChange",
    "DxgkCbUnblockUEFIFrameBufferRanges",
    "DxgkCbAcquirePostDisplayOwnership2",
    "DxgkCbSetProtectedSessionStatus",
};

const char *wk_vidmm_unmodelled_callback(uint32_t index)
{
    return index < WK_VIDMM_UNMODELLED_CALLBACKS ? names[index] : NULL;
}

/* Counts a call, on the adapter named by its handle, else on the adapter
 * whose DDI is running (a callback without one is called from a DDI). */
static void unmodelled(HANDLE hAdapter, uint32_t index)
{
    struct wk_vidmm *vm = hAdapter ? callbacks_vm(hAdapter) : call_current_vm();
    if (vm && index < WK_VIDMM_UNMODELLED_CALLBACKS)
        vm->stats.unmodelled_calls[index]++;
}

static NTSTATUS cb_synchronize_execution(HANDLE DeviceHandle, PKSYNCHRONIZE_ROUTINE SynchronizeRoutine,
                                         PVOID Context, ULONG MessageNumber, PBOOLEAN ReturnValue)
{
    (void)MessageNumber;
    struct wk_vidmm *vm = callbacks_vm(DeviceHandle);
    if (!vm || !SynchronizeRoutine)
        return STATUS_INVALID_PARAMETER;
    /* The routine runs synchronized with the interrupt, at the device's
     * IRQL (DxgkCbNotifyInterrupt may be called there: INTR-IRQL-001; what
     * may not run at that IRQL is the KM-IRQL rules'). */
    vm->sync_depth++;
    const unsigned char irql = km_irql_enter(vm, KM_DEVICE_IRQL);
    BOOLEAN r = SynchronizeRoutine(Context);
    km_irql_leave(vm, irql);
    vm->sync_depth--;
    if (ReturnValue)
        *ReturnValue = r;
    return STATUS_SUCCESS;
}

static BOOLEAN cb_queue_dpc(HANDLE DeviceHandle)
{
    struct wk_vidmm *vm = callbacks_vm(DeviceHandle);
    if (!vm)
        return 0; /* FALSE */
    vm->dpc_requested = 1;
    return 1; /* TRUE */
}

static NTSTATUS cb_eval_acpi_method(HANDLE DeviceHandle, ULONG DeviceUid, PACPI_EVAL_INPUT_BUFFER_COMPLEX AcpiInputBuffer, ULONG AcpiInputSize, PACPI_EVAL_OUTPUT_BUFFER AcpiOutputBuffer, ULONG AcpiOutputSize)
{
    (void)DeviceUid;
    (void)AcpiInputBuffer;
    (void)AcpiInputSize;
    (void)AcpiOutputBuffer;
    (void)AcpiOutputSize;
    unmodelled(DeviceHandle, 0); /* DxgkCbEvalAcpiMethod */
    return STATUS_NOT_SUPPORTED;
}

static NTSTATUS cb_indicate_child_status(HANDLE DeviceHandle, PDXGK_CHILD_STATUS ChildStatus)
{
    (void)ChildStatus;
    unmodelled(DeviceHandle, 1); /* DxgkCbIndicateChildStatus */
    return STATUS_NOT_SUPPORTED;
}

static NTSTATUS cb_map_memory(HANDLE DeviceHandle, PHYSICAL_ADDRESS TranslatedAddress, ULONG Length, BOOLEAN InIoSpace, BOOLEAN MapToUserMode, MEMORY_CACHING_TYPE CacheType, PVOID *VirtualAddress)
{
    (void)TranslatedAddress;
    (void)Length;
    (void)InIoSpace;
    (void)MapToUserMode;
    (void)CacheType;
    (void)VirtualAddress;
    unmodelled(DeviceHandle, 2); /* DxgkCbMapMemory */
    return STATUS_NOT_SUPPORTED;
}

static NTSTATUS cb_query_services(HANDLE DeviceHandle, DXGK_SERVICES ServicesType, PINTERFACE Interface)
{
    (void)ServicesType;
    (void)Interface;
    unmodelled(DeviceHandle, 3); /* DxgkCbQueryServices */
    return STATUS_NOT_SUPPORTED;
}

static NTSTATUS cb_unmap_memory(HANDLE DeviceHandle, PVOID VirtualAddress)
{
    (void)VirtualAddress;
    unmodelled(DeviceHandle, 4); /* DxgkCbUnmapMemory */
    return STATUS_NOT_SUPPORTED;
}

static NTSTATUS cb_is_device_present(HANDLE DeviceHandle, PPCI_DEVICE_PRESENCE_PARAMETERS DevicePresenceParameters, PBOOLEAN DevicePresent)
{
    (void)DevicePresenceParameters;
    (void)DevicePresent;
    unmodelled(DeviceHandle, 5); /* DxgkCbIsDevicePresent */
    return STATUS_NOT_SUPPORTED;
}

/* An allocation's handle resolves (openalloc.c: a driver's
 * DxgkDdiOpenAllocation finds its allocation so); any other handle, a
 * resource's included, is counted and answered NULL. */
static VOID * cb_gethandledata(const DXGKARGCB_GETHANDLEDATA *unnamedParam1)
{
    void *data = allocation_handle_data(call_current_vm(), unnamedParam1);
    if (!data)
        unmodelled(NULL, 6); /* DxgkCbGetHandleData */
    return data;
}

static D3DKMT_HANDLE cb_gethandleparent(D3DKMT_HANDLE hAllocation)
{
    (void)hAllocation;
    unmodelled(NULL, 7); /* DxgkCbGetHandleParent */
    return 0;
}

static D3DKMT_HANDLE cb_enumhandlechildren(const DXGKARGCB_ENUMHANDLECHILDREN *unnamedParam1)
{
    (void)unnamedParam1;
    unmodelled(NULL, 8); /* DxgkCbEnumHandleChildren */
    return 0;
}

static NTSTATUS cb_queryvidpninterface(const D3DKMDT_HVIDPN hVidPn, const DXGK_VIDPN_INTERFACE_VERSION VidPnInterfaceVersion, const DXGK_VIDPN_INTERFACE **ppVidPnInterface)
{
    (void)hVidPn;
    (void)VidPnInterfaceVersion;
    (void)ppVidPnInterface;
    unmodelled(NULL, 9); /* DxgkCbQueryVidPnInterface */
    return STATUS_NOT_SUPPORTED;
}

static NTSTATUS cb_querymonitorinterface(const HANDLE hAdapter, const DXGK_MONITOR_INTERFACE_VERSION MonitorInterfaceVersion, const DXGK_MONITOR_INTERFACE **ppMonitorInterface)
{
    (void)MonitorInterfaceVersion;
    (void)ppMonitorInterface;
    unmodelled(hAdapter, 10); /* DxgkCbQueryMonitorInterface */
    return STATUS_NOT_SUPPORTED;
}

static NTSTATUS cb_getcaptureaddress(DXGKARGCB_GETCAPTUREADDRESS *unnamedParam1)
{
    (void)unnamedParam1;
    unmodelled(NULL, 11); /* DxgkCbGetCaptureAddress */
    return STATUS_NOT_SUPPORTED;
}

static VOID cb_log_etw_event(const LPCGUID EventGuid, UCHAR Type, USHORT EventBufferSize, PVOID EventBuffer)
{
    (void)EventGuid;
    (void)Type;
    (void)EventBufferSize;
    (void)EventBuffer;
    unmodelled(NULL, 12); /* DxgkCbLogEtwEvent */
}

static NTSTATUS cb_exclude_adapter_access(HANDLE DeviceHandle, ULONG Attributes, DXGKDDI_PROTECTED_CALLBACK DxgkProtectedCallback, PVOID ProtectedCallbackContext)
{
    (void)Attributes;
    (void)DxgkProtectedCallback;
    (void)ProtectedCallbackContext;
    unmodelled(DeviceHandle, 13); /* DxgkCbExcludeAdapterAccess */
    return STATUS_NOT_SUPPORTED;
}

static VOID cb_setpowercomponentactive(const HANDLE hAdapter, UINT ComponentIndex)
{
    (void)ComponentIndex;
    unmodelled(hAdapter, 14); /* DxgkCbSetPowerComponentActive */
}

static VOID cb_setpowercomponentidle(const HANDLE hAdapter, UINT ComponentIndex)
{
    (void)ComponentIndex;
    unmodelled(hAdapter, 15); /* DxgkCbSetPowerComponentIdle */
}

static NTSTATUS cb_acquire_post_display_ownership(HANDLE DeviceHandle, PDXGK_DISPLAY_INFORMATION DisplayInfo)
{
    (void)DisplayInfo;
    unmodelled(DeviceHandle, 16); /* DxgkCbAcquirePostDisplayOwnership */
    return STATUS_NOT_SUPPORTED;
}

static NTSTATUS cb_powerruntimecontrolrequest(const HANDLE hAdapter, LPCGUID PowerControlCode, PVOID InBuffer, SIZE_T InBufferSize, PVOID OutBuffer, SIZE_T OutBufferSize, PSIZE_T BytesReturned)
{
    (void)PowerControlCode;
    (void)InBuffer;
    (void)InBufferSize;
    (void)OutBuffer;
    (void)OutBufferSize;
    (void)BytesReturned;
    unmodelled(hAdapter, 17); /* DxgkCbPowerRuntimeControlRequest */
    return STATUS_NOT_SUPPORTED;
}

static VOID cb_setpowercomponentlatency(const HANDLE hAdapter, UINT ComponentIndex, ULONGLONG Latency)
{
    (void)ComponentIndex;
    (void)Latency;
    unmodelled(hAdapter, 18); /* DxgkCbSetPowerComponentLatency */
}

static VOID cb_setpowercomponentresidency(const HANDLE hAdapter, UINT ComponentIndex, ULONGLONG Residency)
{
    (void)ComponentIndex;
    (void)Residency;
    unmodelled(hAdapter, 19); /* DxgkCbSetPowerComponentResidency */
}

static VOID cb_completefstatetransition(const HANDLE hAdapter, UINT ComponentIndex)
{
    (void)ComponentIndex;
    unmodelled(hAdapter, 20); /* DxgkCbCompleteFStateTransition */
}

static VOID cb_completepstatetransition(const HANDLE hAdapter, UINT ComponentIndex, UINT CompletedPState)
{
    (void)ComponentIndex;
    (void)CompletedPState;
    unmodelled(hAdapter, 21); /* DxgkCbCompletePStateTransition */
}

static NTSTATUS cb_reservegpuvirtualaddressrange(const HANDLE hAdapter, DXGKARGCB_RESERVEGPUVIRTUALADDRESSRANGE *pArgs)
{
    (void)pArgs;
    unmodelled(hAdapter, 22); /* DxgkCbReserveGpuVirtualAddressRange */
    return STATUS_NOT_SUPPORTED;
}

static VOID * cb_acquirehandledata(const DXGKARGCB_GETHANDLEDATA *unnamedParam1, PDXGKARG_RELEASE_HANDLE unnamedParam2)
{
    (void)unnamedParam1;
    (void)unnamedParam2;
    unmodelled(NULL, 23); /* DxgkCbAcquireHandleData */
    return NULL;
}

static VOID cb_releasehandledata(const DXGKARGCB_RELEASEHANDLEDATA unnamedParam1)
{
    (void)unnamedParam1;
    unmodelled(NULL, 24); /* DxgkCbReleaseHandleData */
}

static VOID cb_hardwarecontentprotectionteardown(const HANDLE hAdapter, UINT Flags)
{
    (void)Flags;
    unmodelled(hAdapter, 25); /* DxgkCbHardwareContentProtectionTeardown */
}

static VOID cb_multiplaneoverlaydisabled(const HANDLE hAdapter, UINT VidPnSourceId)
{
    (void)VidPnSourceId;
    unmodelled(hAdapter, 26); /* DxgkCbMultiPlaneOverlayDisabled */
}

static VOID cb_dxgkcb_mitigatedrangeupdate(const HANDLE hAdapter, ULONG VirtualFunctionIndex)
{
    (void)VirtualFunctionIndex;
    unmodelled(hAdapter, 27); /* DxgkCbMitigatedRangeUpdate */
}

static NTSTATUS cb_invalidatehwcontext(const DXGKARGCB_INVALIDATEHWCONTEXT *unnamedParam1)
{
    (void)unnamedParam1;
    unmodelled(NULL, 28); /* DxgkCbInvalidateHwContext */
    return STATUS_NOT_SUPPORTED;
}

static NTSTATUS cb_indicate_connector_change(const HANDLE hAdapter)
{
    unmodelled(hAdapter, 29); /* DxgkCbIndicateConnectorChange */
    return STATUS_NOT_SUPPORTED;
}

static NTSTATUS cb_unblockuefiframebufferranges(const HANDLE hAdapter, const DXGK_SEGMENTMEMORYSTATE *pSegmentMemoryState)
{
    (void)pSegmentMemoryState;
    unmodelled(hAdapter, 30); /* DxgkCbUnblockUEFIFrameBufferRanges */
    return STATUS_NOT_SUPPORTED;
}

static NTSTATUS cb_acquire_post_display_ownership2(HANDLE DeviceHandle, PDXGK_DISPLAY_INFORMATION DisplayInfo, PDXGK_DISPLAY_OWNERSHIP_FLAGS Flags)
{
    (void)DisplayInfo;
    (void)Flags;
    unmodelled(DeviceHandle, 31); /* DxgkCbAcquirePostDisplayOwnership2 */
    return STATUS_NOT_SUPPORTED;
}

static NTSTATUS cb_setprotectedsessionstatus(const DXGKARGCB_PROTECTEDSESSIONSTATUS *pProtectedSessionStatus)
{
    (void)pProtectedSessionStatus;
    unmodelled(NULL, 32); /* DxgkCbSetProtectedSessionStatus */
    return STATUS_NOT_SUPPORTED;
}

void callbacks_fill_unmodelled(DXGKRNL_INTERFACE *iface)
{
    iface->DxgkCbSynchronizeExecution = cb_synchronize_execution;
    iface->DxgkCbQueueDpc = cb_queue_dpc;
    iface->DxgkCbEvalAcpiMethod = cb_eval_acpi_method;
    iface->DxgkCbIndicateChildStatus = cb_indicate_child_status;
    iface->DxgkCbMapMemory = cb_map_memory;
    iface->DxgkCbQueryServices = cb_query_services;
    iface->DxgkCbUnmapMemory = cb_unmap_memory;
    iface->DxgkCbIsDevicePresent = cb_is_device_present;
    iface->DxgkCbGetHandleData = cb_gethandledata;
    iface->DxgkCbGetHandleParent = cb_gethandleparent;
    iface->DxgkCbEnumHandleChildren = cb_enumhandlechildren;
    iface->DxgkCbQueryVidPnInterface = cb_queryvidpninterface;
    iface->DxgkCbQueryMonitorInterface = cb_querymonitorinterface;
    iface->DxgkCbGetCaptureAddress = cb_getcaptureaddress;
    iface->DxgkCbLogEtwEvent = cb_log_etw_event;
    iface->DxgkCbExcludeAdapterAccess = cb_exclude_adapter_access;
    iface->DxgkCbSetPowerComponentActive = cb_setpowercomponentactive;
    iface->DxgkCbSetPowerComponentIdle = cb_setpowercomponentidle;
    iface->DxgkCbAcquirePostDisplayOwnership = cb_acquire_post_display_ownership;
    iface->DxgkCbPowerRuntimeControlRequest = cb_powerruntimecontrolrequest;
    iface->DxgkCbSetPowerComponentLatency = cb_setpowercomponentlatency;
    iface->DxgkCbSetPowerComponentResidency = cb_setpowercomponentresidency;
    iface->DxgkCbCompleteFStateTransition = cb_completefstatetransition;
    iface->DxgkCbCompletePStateTransition = cb_completepstatetransition;
    iface->DxgkCbReserveGpuVirtualAddressRange = cb_reservegpuvirtualaddressrange;
    iface->DxgkCbAcquireHandleData = cb_acquirehandledata;
    iface->DxgkCbReleaseHandleData = cb_releasehandledata;
    iface->DxgkCbHardwareContentProtectionTeardown = cb_hardwarecontentprotectionteardown;
    iface->DxgkCbMultiPlaneOverlayDisabled = cb_multiplaneoverlaydisabled;
    iface->DxgkCbMitigatedRangeUpdate = cb_dxgkcb_mitigatedrangeupdate;
    iface->DxgkCbInvalidateHwContext = cb_invalidatehwcontext;
    iface->DxgkCbIndicateConnectorChange = cb_indicate_connector_change;
    iface->DxgkCbUnblockUEFIFrameBufferRanges = cb_unblockuefiframebufferranges;
    iface->DxgkCbAcquirePostDisplayOwnership2 = cb_acquire_post_display_ownership2;
    iface->DxgkCbSetProtectedSessionStatus = cb_setprotectedsessionstatus;
}
