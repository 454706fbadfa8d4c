/* SPDX-License-Identifier: MIT */
/*
 * registry_reader.c - the reference driver behind a DriverEntry that reads
 * its settings the way miniports do, before DxgkInitialize: "Level" (a
 * DWORD) through RtlQueryRegistryValues on its RegistryPath, and
 * "Parameters\Mode" (a string) through ZwOpenKey and ZwQueryValueKey. It
 * starts only when Level is 7 and Mode is "fast" (STATUS_UNSUCCESSFUL
 * otherwise), so a case with the `registry:` map tests/data/specs/registry.yaml
 * gives passes and one without fails at DriverEntry: the kit's answers
 * reach a loaded module before its DxgkInitialize (kmservices.h,
 * wk_km_set_services).
 */
#include "refwrap.h"
#include "wddmkit/km.h"

WK_DRIVER_EXPORT DRIVER_INITIALIZE DriverEntry;

static void keep_table(DRIVER_INITIALIZATION_DATA *init)
{
    (void)init;
}

static ULONG read_level(PUNICODE_STRING RegistryPath)
{
    WCHAR name[] = { 'L', 'e', 'v', 'e', 'l', 0 };
    WCHAR path[256];
    ULONG level = 0, none = 0;
    USHORT chars = RegistryPath->Length / sizeof(WCHAR);
    if (chars >= 256)
        return 0;
    memcpy(path, RegistryPath->Buffer, chars * sizeof(WCHAR));
    path[chars] = 0;
    RTL_QUERY_REGISTRY_TABLE table[2];
    memset(table, 0, sizeof(table));
    table[0].Flags = RTL_QUERY_REGISTRY_DIRECT;
    table[0].Name = name;
    table[0].EntryContext = &level;
    table[0].DefaultType = REG_DWORD;
    table[0].DefaultData = &none;
    table[0].DefaultLength = sizeof(none);
    if (!NT_SUCCESS(RtlQueryRegistryValues(RTL_REGISTRY_ABSOLUTE, path, table, NULL, NULL)))
        return 0;
    return level;
}

/* Whether Parameters\Mode reads "fast". */
static BOOLEAN mode_is_fast(PUNICODE_STRING RegistryPath)
{
    WCHAR params[] = { 'P', 'a', 'r', 'a', 'm', 'e', 't', 'e', 'r', 's' }, mode[] = { 'M', 'o', 'd', 'e' };
    UNICODE_STRING params_name = { sizeof(params), sizeof(params), params };
    UNICODE_STRING mode_name = { sizeof(mode), sizeof(mode), mode };
    OBJECT_ATTRIBUTES oa;
    HANDLE service = NULL, parameters = NULL;
    union {
        KEY_VALUE_PARTIAL_INFORMATION info;
        UCHAR bytes[64];
    } v;
    ULONG need = 0;
    BOOLEAN fast = FALSE;
    InitializeObjectAttributes(&oa, RegistryPath, OBJ_KERNEL_HANDLE, NULL, NULL);
    if (!NT_SUCCESS(ZwOpenKey(&service, KEY_READ, &oa)))
        return FALSE;
    InitializeObjectAttributes(&oa, &params_name, OBJ_KERNEL_HANDLE, service, NULL);
    if (NT_SUCCESS(ZwOpenKey(&parameters, KEY_READ, &oa))) {
        static const WCHAR want[] = { 'f', 'a', 's', 't', 0 };
        if (NT_SUCCESS(ZwQueryValueKey(parameters, &mode_name, KeyValuePartialInformation, &v, sizeof(v), &need)))
            fast = v.info.Type == REG_SZ && v.info.DataLength == sizeof(want) &&
                   memcmp(v.info.Data, want, sizeof(want)) == 0;
        ZwClose(parameters);
    }
    ZwClose(service);
    return fast;
}

NTSTATUS DriverEntry(PDRIVER_OBJECT DriverObject, PUNICODE_STRING RegistryPath)
{
    if (read_level(RegistryPath) != 7 || !mode_is_fast(RegistryPath))
        return STATUS_UNSUCCESSFUL;
    return wk_wrap_initialize(DriverObject, RegistryPath, keep_table);
}
