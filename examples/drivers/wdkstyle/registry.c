/* SPDX-License-Identifier: MIT */
/*++

Module Name:

    registry.c

Abstract:

    The driver settings, read once in DriverEntry from the Parameters
    subkey of the service key (DriverEntry's RegistryPath):

        DebugLevel          REG_DWORD   DPFLTR_*_LEVEL, default DPFLTR_ERROR_LEVEL
        EnableCancel        REG_DWORD   0 or 1, default 1 (CancelCommandAware)
        DmaBufferSize       REG_DWORD   bytes, page multiple, 4 KiB..256 KiB, default 16 KiB
        PagingBufferSize    REG_DWORD   the same range, default 16 KiB

    The first three go through one RtlQueryRegistryValues table (two
    RTL_QUERY_REGISTRY_DIRECT entries and a QueryRoutine that range-checks);
    PagingBufferSize through ZwOpenKey and ZwQueryValueKey. A value that is
    absent, of another type or out of range leaves its default.

Environment:

    Kernel mode only, PASSIVE_LEVEL.

--*/

#include "heron.h"

#define HERON_PARAMETERS_KEY    L"Parameters"

static RTL_QUERY_REGISTRY_ROUTINE HeronBufferSizeRoutine;
static BOOLEAN HeronBufferSizeIsValid(_In_ ULONG Bytes);
static VOID HeronReadPagingBufferSize(_In_ PUNICODE_STRING RegistryPath, _Inout_ PHERON_SETTINGS Settings);

#pragma alloc_text(INIT, HeronReadSettings)
#pragma alloc_text(INIT, HeronBufferSizeRoutine)
#pragma alloc_text(INIT, HeronBufferSizeIsValid)
#pragma alloc_text(INIT, HeronReadPagingBufferSize)

static
BOOLEAN
HeronBufferSizeIsValid(
    _In_ ULONG Bytes
    )
{
    PAGED_CODE();

    return Bytes >= HERON_MIN_BUFFER_SIZE && Bytes <= HERON_MAX_BUFFER_SIZE && (Bytes % HERON_PAGE_SIZE) == 0;
}

//
// DmaBufferSize: a REG_DWORD in range, else the default stays.
//
_Use_decl_annotations_
static
NTSTATUS
HeronBufferSizeRoutine(
    PWSTR ValueName,
    ULONG ValueType,
    PVOID ValueData,
    ULONG ValueLength,
    PVOID Context,
    PVOID EntryContext
    )
{
    ULONG Bytes;

    PAGED_CODE();
    UNREFERENCED_PARAMETER(ValueName);
    UNREFERENCED_PARAMETER(Context);

    if (ValueType != REG_DWORD || ValueLength != sizeof(ULONG) || ValueData == NULL) {
        HeronTrace(DPFLTR_WARNING_LEVEL, "heron: DmaBufferSize is not a REG_DWORD; default kept\n");
        return STATUS_SUCCESS;
    }

    RtlCopyMemory(&Bytes, ValueData, sizeof(Bytes));
    if (!HeronBufferSizeIsValid(Bytes)) {
        HeronTrace(DPFLTR_WARNING_LEVEL, "heron: DmaBufferSize 0x%x out of range; default kept\n", Bytes);
        return STATUS_SUCCESS;
    }

    *(PULONG)EntryContext = Bytes;
    return STATUS_SUCCESS;
}

//
// PagingBufferSize, the Zw way.
//
static
VOID
HeronReadPagingBufferSize(
    _In_ PUNICODE_STRING RegistryPath,
    _Inout_ PHERON_SETTINGS Settings
    )
{
    OBJECT_ATTRIBUTES Attributes;
    UNICODE_STRING ParametersName = RTL_CONSTANT_STRING(HERON_PARAMETERS_KEY);
    UNICODE_STRING ValueName = RTL_CONSTANT_STRING(L"PagingBufferSize");
    HANDLE ServiceKey = NULL;
    HANDLE ParametersKey = NULL;
    UCHAR Buffer[sizeof(KEY_VALUE_PARTIAL_INFORMATION) + sizeof(ULONG)];
    PKEY_VALUE_PARTIAL_INFORMATION Information = (PKEY_VALUE_PARTIAL_INFORMATION)Buffer;
    ULONG ResultLength = 0;
    ULONG Bytes;
    NTSTATUS Status;

    PAGED_CODE();

    InitializeObjectAttributes(&Attributes, RegistryPath, OBJ_KERNEL_HANDLE | OBJ_CASE_INSENSITIVE, NULL, NULL);
    Status = ZwOpenKey(&ServiceKey, KEY_READ, &Attributes);
    if (!NT_SUCCESS(Status)) {
        return;
    }

    InitializeObjectAttributes(&Attributes, &ParametersName, OBJ_KERNEL_HANDLE | OBJ_CASE_INSENSITIVE,
                               ServiceKey, NULL);
    Status = ZwOpenKey(&ParametersKey, KEY_READ, &Attributes);
    ZwClose(ServiceKey);
    if (!NT_SUCCESS(Status)) {
        return;
    }

    Status = ZwQueryValueKey(ParametersKey, &ValueName, KeyValuePartialInformation, Information,
                             sizeof(Buffer), &ResultLength);
    ZwClose(ParametersKey);

    if (!NT_SUCCESS(Status)) {
        return;     // absent (or longer than a DWORD): the default stays
    }
    if (Information->Type != REG_DWORD || Information->DataLength != sizeof(ULONG)) {
        HeronTrace(DPFLTR_WARNING_LEVEL, "heron: PagingBufferSize is not a REG_DWORD; default kept\n");
        return;
    }

    RtlCopyMemory(&Bytes, Information->Data, sizeof(Bytes));
    if (!HeronBufferSizeIsValid(Bytes)) {
        HeronTrace(DPFLTR_WARNING_LEVEL, "heron: PagingBufferSize 0x%x out of range; default kept\n", Bytes);
        return;
    }
    Settings->PagingBufferSize = Bytes;
}

_Use_decl_annotations_
VOID
HeronReadSettings(
    PUNICODE_STRING RegistryPath,
    PHERON_SETTINGS Settings
    )
{
    RTL_QUERY_REGISTRY_TABLE QueryTable[5];
    ULONG DefaultDebugLevel = DPFLTR_ERROR_LEVEL;
    ULONG DefaultEnableCancel = 1;
    ULONG DebugLevel = DefaultDebugLevel;
    ULONG EnableCancel = DefaultEnableCancel;
    NTSTATUS Status;

    PAGED_CODE();

    Settings->DmaBufferSize = HERON_DEFAULT_DMA_BUFFER_SIZE;
    Settings->PagingBufferSize = HERON_DEFAULT_PAGING_BUFFER_SIZE;
    Settings->DebugLevel = DefaultDebugLevel;
    Settings->EnableCancel = DefaultEnableCancel;

    RtlZeroMemory(QueryTable, sizeof(QueryTable));

    QueryTable[0].Flags = RTL_QUERY_REGISTRY_SUBKEY;
    QueryTable[0].Name = (PWSTR)HERON_PARAMETERS_KEY;

    QueryTable[1].Flags = RTL_QUERY_REGISTRY_DIRECT | RTL_QUERY_REGISTRY_TYPECHECK;
    QueryTable[1].Name = (PWSTR)L"DebugLevel";
    QueryTable[1].EntryContext = &DebugLevel;
    QueryTable[1].DefaultType = (REG_DWORD << RTL_QUERY_REGISTRY_TYPECHECK_SHIFT) | REG_DWORD;
    QueryTable[1].DefaultData = &DefaultDebugLevel;
    QueryTable[1].DefaultLength = sizeof(ULONG);

    QueryTable[2].Flags = RTL_QUERY_REGISTRY_DIRECT | RTL_QUERY_REGISTRY_TYPECHECK;
    QueryTable[2].Name = (PWSTR)L"EnableCancel";
    QueryTable[2].EntryContext = &EnableCancel;
    QueryTable[2].DefaultType = (REG_DWORD << RTL_QUERY_REGISTRY_TYPECHECK_SHIFT) | REG_DWORD;
    QueryTable[2].DefaultData = &DefaultEnableCancel;
    QueryTable[2].DefaultLength = sizeof(ULONG);

    QueryTable[3].QueryRoutine = HeronBufferSizeRoutine;
    QueryTable[3].Name = (PWSTR)L"DmaBufferSize";
    QueryTable[3].EntryContext = &Settings->DmaBufferSize;
    QueryTable[3].DefaultType = REG_NONE;   // absent: the routine is not called

    //
    // QueryTable[4] stays zero: the end of the table.
    //
    Status = RtlQueryRegistryValues(RTL_REGISTRY_ABSOLUTE | RTL_REGISTRY_OPTIONAL, RegistryPath->Buffer,
                                    QueryTable, NULL, NULL);
    if (NT_SUCCESS(Status)) {
        Settings->DebugLevel = DebugLevel <= DPFLTR_INFO_LEVEL ? DebugLevel : DefaultDebugLevel;
        Settings->EnableCancel = EnableCancel != 0 ? 1 : 0;
    } else {
        //
        // No Parameters subkey, or a value of the wrong type: defaults.
        //
        Settings->DmaBufferSize = HERON_DEFAULT_DMA_BUFFER_SIZE;
        HeronTrace(DPFLTR_TRACE_LEVEL, "heron: no usable Parameters (0x%08x): defaults\n", (unsigned)Status);
    }

    HeronReadPagingBufferSize(RegistryPath, Settings);
}
