/* SPDX-License-Identifier: MIT */
/*
 * refwrap.h - how each planted-bug driver of examples/drivers/ is built:
 * the reference driver with ONE DDI replaced.
 *
 * Why a wrapper and not a copy: a planted bug must be the only difference
 * from a correct driver, so that whatever the kit reports is that bug. The
 * reference driver (linked in as wk_refdriver_static, whose DriverEntry is
 * wk_refdriver_DriverEntry) is asked for its DDI table through a stand-in
 * DRIVER_OBJECT whose wk_initialize copies the table instead of handing it
 * to the kit; the wrapper's own DriverEntry then replaces one member and
 * hands the table to the kit through the real DriverObject (DxgkInitialize),
 * exactly as any miniport does (wk_wrap_initialize).
 *
 * The copied table is the module's only global state: written by
 * DriverEntry, identical on every load, read by the replaced DDI to reach
 * the reference implementation it wraps.
 */
#ifndef WK_EXAMPLES_REFWRAP_H
#define WK_EXAMPLES_REFWRAP_H

#include "wddmkit/driver.h"
#include "refdriver/refdriver_entry.h"

/* The wrapped reference driver writes the GPU model's command set. */
WK_DRIVER_TARGETS_GPU_MODEL;

static DRIVER_INITIALIZATION_DATA wk_wrap_reference;

static NTSTATUS wk_wrap_capture(PDRIVER_OBJECT self, PUNICODE_STRING registry_path,
                                const DRIVER_INITIALIZATION_DATA *init, ULONG driver_abi)
{
    (void)self;
    (void)registry_path;
    (void)driver_abi; /* the reference driver is compiled with these very headers */
    if (!init)
        return STATUS_INVALID_PARAMETER;
    wk_wrap_reference = *init;
    return STATUS_SUCCESS;
}

/* The reference driver's DDI table, copied into *init. */
static inline NTSTATUS wk_wrap_reference_table(PUNICODE_STRING registry_path, DRIVER_INITIALIZATION_DATA *init)
{
    DRIVER_OBJECT stand_in = { WK_DRIVER_OBJECT_MAGIC, NULL, NULL, wk_wrap_capture, NULL };
    NTSTATUS st = wk_refdriver_DriverEntry(&stand_in, registry_path);
    if (NT_SUCCESS(st))
        *init = wk_wrap_reference;
    return st;
}

/* What a wrapper's DriverEntry does: the reference driver's table, with
 * the members `replace` changes, handed to the kit (DxgkInitialize). */
static inline NTSTATUS wk_wrap_initialize(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath,
                                          void (*replace)(DRIVER_INITIALIZATION_DATA *init))
{
    DRIVER_INITIALIZATION_DATA init;
    NTSTATUS st = wk_wrap_reference_table(RegistryPath, &init);
    if (!NT_SUCCESS(st))
        return st;
    replace(&init);
    return DxgkInitialize(DriverObject, RegistryPath, &init);
}

#endif
