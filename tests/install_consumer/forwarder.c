/* SPDX-License-Identifier: MIT */
/*
 * forwarder.c - a complete driver built against an installed kit: the
 * reference driver (wddmkit::refdriver_static, wddmkit-reference/
 * refdriver/refdriver_entry.h) behind this module's DriverEntry, which the
 * installed wddmkit runs the suite against.
 */
#include "wddmkit/driver.h"
#include "refdriver/refdriver_entry.h"

WK_DRIVER_TARGETS_GPU_MODEL;

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_refdriver_DriverEntry(DriverObject, RegistryPath);
}
