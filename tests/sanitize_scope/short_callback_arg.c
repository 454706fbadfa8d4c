/* SPDX-License-Identifier: MIT */
/*
 * short_callback_arg.c - a driver under test that hands a kernel callback
 * an argument smaller than its struct: DxgkDdiCreateDevice calls
 * DxgkCbNotifyInterrupt with a 4-byte pool block where a whole
 * DXGKARGCB_NOTIFY_INTERRUPT_DATA belongs.
 *
 * Why: the kit's callbacks read what the driver passes, so the code behind
 * them stays sanitized when only drivers are (WK_SANITIZE_SCOPE=driver,
 * cmake/WkSanitizers.cmake); tests/sanitize_scope.sh expects ASan to report
 * the read in the kit's cb_notify_interrupt. The interface is the one
 * DxgkDdiStartDevice hands over, kept by the wrapper.
 */
#include "refwrap.h"
#include "wddmkit/km.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

#define TAG 0x74726873u /* "shrt" */

static DXGKRNL_INTERFACE kernel;

static NTSTATUS keeping_start_device(VOID *const MiniportDeviceContext, DXGK_START_INFO *DxgkStartInfo,
                                     DXGKRNL_INTERFACE *DxgkInterface, ULONG *NumberOfVideoPresentSources,
                                     ULONG *NumberOfChildren)
{
    if (DxgkInterface)
        kernel = *DxgkInterface;
    return wk_wrap_reference.DxgkDdiStartDevice(MiniportDeviceContext, DxgkStartInfo, DxgkInterface,
                                                NumberOfVideoPresentSources, NumberOfChildren);
}

static NTSTATUS short_arg_create_device(const HANDLE hAdapter, DXGKARG_CREATEDEVICE *pCreateDevice)
{
    ULONG *type_only = ExAllocatePoolWithTag(NonPagedPoolNx, sizeof(ULONG), TAG);
    if (type_only && kernel.DxgkCbNotifyInterrupt) {
        *type_only = DXGK_INTERRUPT_DMA_COMPLETED;
        /* BUG: the callback reads a whole DXGKARGCB_NOTIFY_INTERRUPT_DATA. */
        kernel.DxgkCbNotifyInterrupt(kernel.DeviceHandle, (const DXGKARGCB_NOTIFY_INTERRUPT_DATA *)type_only);
    }
    if (type_only)
        ExFreePoolWithTag(type_only, TAG);
    return wk_wrap_reference.DxgkDdiCreateDevice(hAdapter, pCreateDevice);
}

/* The DDIs this driver replaces: one keeps the callbacks, one misuses one. */
static void plant_short_argument(DRIVER_INITIALIZATION_DATA *init)
{
    init->DxgkDdiStartDevice = keeping_start_device;
    init->DxgkDdiCreateDevice = short_arg_create_device;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, plant_short_argument);
}
