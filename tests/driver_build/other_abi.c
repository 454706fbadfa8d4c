/* SPDX-License-Identifier: MIT */
/*
 * other_abi.c - a driver module built against another wddmkit driver ABI
 * (driver.h, WK_DRIVER_ABI_VERSION): with WK_TEST_ABI=1 its DriverEntry
 * calls the driver object's slot where a module of ABI 1 calls
 * DxgkInitialize; with another value, the current slot saying that ABI.
 * `driver check` and conform must refuse it by name, before any case.
 */
#include "wddmkit/driver.h"

DRIVER_INITIALIZE DriverEntry;

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    static DRIVER_INITIALIZATION_DATA init; /* empty: the kit must take nothing from it */
    init.Version = DXGKDDI_INTERFACE_VERSION_WDDM2_3;
    if (WK_TEST_ABI == 1)
        return DriverObject->wk_initialize_abi1(DriverObject, RegistryPath, &init);
    return DriverObject->wk_initialize(DriverObject, RegistryPath, &init, WK_TEST_ABI);
}
