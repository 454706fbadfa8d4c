/* SPDX-License-Identifier: MIT */
/*
 * gcc_asan.c - the reference driver behind a wrapper that GCC compiles with
 * -fsanitize=address,undefined (tests/gcc_asan_driver.sh builds it: CMake's
 * compiler may be clang). GCC links such a module to its shared ASan
 * runtime (libasan.so.N in DT_NEEDED), which ends the process that loads
 * it unless it came first: `wddmkit driver check` must say so and how to
 * run it, and conform must run it with the runtime preloaded.
 *
 * The wrapper changes nothing (examples/drivers/refwrap.h): every case
 * that passes on the reference driver passes on it.
 */
#include "refwrap.h"

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath);

static void keep_every_ddi(DRIVER_INITIALIZATION_DATA *init)
{
    (void)init;
}

WK_DRIVER_EXPORT NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    return wk_wrap_initialize(DriverObject, RegistryPath, keep_every_ddi);
}
