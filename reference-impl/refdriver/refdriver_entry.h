/* SPDX-License-Identifier: MIT */
/*
 * wddmkit/refdriver.h - the reference driver, linked into a harness.
 *
 * The reference driver (reference-impl/refdriver, docs/refdriver.md) is a
 * complete, correct miniport for the kit's GPU model. It is built twice:
 * as a loadable module whose only export is DriverEntry (wk_refdriver.so),
 * and as the static library wk_refdriver_static, where DriverEntry is
 * renamed to the symbol below so that several drivers can share a process.
 * Hand it to the kit as any DriverEntry: it fills DRIVER_INITIALIZATION_DATA
 * and calls DxgkInitialize on the DRIVER_OBJECT it is given.
 */
#ifndef WDDMKIT_REFDRIVER_H
#define WDDMKIT_REFDRIVER_H

#include "wddmkit/driver.h"

#ifdef __cplusplus
extern "C" {
#endif

NTSTATUS wk_refdriver_DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

#ifdef __cplusplus
}
#endif

#endif /* WDDMKIT_REFDRIVER_H */
