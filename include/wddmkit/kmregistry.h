/* SPDX-License-Identifier: MIT */
/*
 * wddmkit/kmregistry.h - registry reads (added): ZwOpenKey, ZwQueryValueKey
 * and RtlQueryRegistryValues, answered by the kit.
 *
 * A miniport reads its settings under the service key DriverEntry's
 * RegistryPath names (and subkeys such as "Parameters"). The kit names
 * \Registry\Machine\System\CurrentControlSet\Services\wddmkit and answers
 * every read under it from the case's `registry:` map (docs/spec-format.md,
 * "Registry values"): a value there exists, any other does not, and a
 * subkey exists when a value lives in it. Keys outside the service key do
 * not exist. Nothing can be written (no ZwSetValueKey, no ZwCreateKey).
 * With no kit (kmservices.h) the registry has no keys at all.
 *
 * Included at the end of kmthread.h, whose handles ZwClose closes along with
 * these; include km.h.
 */
#ifndef WDDMKIT_KMREGISTRY_H
#define WDDMKIT_KMREGISTRY_H

#include "wddmkit/km.h"
#include "wddmkit/kmthread.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Value types. */
#define REG_NONE 0u
#define REG_SZ 1u
#define REG_EXPAND_SZ 2u
#define REG_BINARY 3u
#define REG_DWORD 4u
#define REG_MULTI_SZ 7u
#define REG_QWORD 11u

typedef ULONG ACCESS_MASK;
#ifndef KEY_QUERY_VALUE
#define KEY_QUERY_VALUE 0x0001u
#define KEY_ENUMERATE_SUB_KEYS 0x0008u
#define KEY_NOTIFY 0x0010u
#define KEY_READ 0x20019u
#define KEY_ALL_ACCESS 0xF003Fu
#endif

#ifndef STATUS_OBJECT_NAME_NOT_FOUND
#define STATUS_OBJECT_NAME_NOT_FOUND WK_NTSTATUS(0xC0000034u)
#endif
#ifndef STATUS_BUFFER_OVERFLOW
#define STATUS_BUFFER_OVERFLOW WK_NTSTATUS(0x80000005u)
#endif
#ifndef STATUS_BUFFER_TOO_SMALL
#define STATUS_BUFFER_TOO_SMALL WK_NTSTATUS(0xC0000023u)
#endif
#ifndef STATUS_INVALID_HANDLE
#define STATUS_INVALID_HANDLE WK_NTSTATUS(0xC0000008u)
#endif

typedef enum _KEY_VALUE_INFORMATION_CLASS {
    KeyValueBasicInformation = 0,
    KeyValueFullInformation = 1,
    KeyValuePartialInformation = 2
} KEY_VALUE_INFORMATION_CLASS;

typedef struct _KEY_VALUE_BASIC_INFORMATION {
    ULONG TitleIndex;
    ULONG Type;
    ULONG NameLength; /* bytes */
    WCHAR Name[1];
} KEY_VALUE_BASIC_INFORMATION, *PKEY_VALUE_BASIC_INFORMATION;

typedef struct _KEY_VALUE_FULL_INFORMATION {
    ULONG TitleIndex;
    ULONG Type;
    ULONG DataOffset; /* bytes from the start of the structure */
    ULONG DataLength;
    ULONG NameLength; /* bytes */
    WCHAR Name[1];
} KEY_VALUE_FULL_INFORMATION, *PKEY_VALUE_FULL_INFORMATION;

typedef struct _KEY_VALUE_PARTIAL_INFORMATION {
    ULONG TitleIndex;
    ULONG Type;
    ULONG DataLength;
    UCHAR Data[1];
} KEY_VALUE_PARTIAL_INFORMATION, *PKEY_VALUE_PARTIAL_INFORMATION;

/* ------------------------------------------------------------------------ */
/* Key objects and their handles                                             */
/* ------------------------------------------------------------------------ */

#define WK_KM_MAX_KEYS 64
#define WK_KM_KEY_PATH_CHARS 512
#define WK_KM_KEY_HANDLE_BASE 0xFFFFFFFF40000000ull /* apart from kmthread.h's handles */

typedef struct wk_km_key {
    ULONG chars;
    WCHAR path[WK_KM_KEY_PATH_CHARS];
} wk_km_key;

/* The module's open keys: a slot is NULL when free; its generation goes up
 * at each close so a stale handle never names a reused slot. */
typedef struct wk_km_key_table {
    LONG lock;
    wk_km_key *slot[WK_KM_MAX_KEYS];
    ULONG generation[WK_KM_MAX_KEYS];
} wk_km_key_table;

extern wk_km_key_table wk_km_keys;
__attribute__((weak, visibility("hidden"))) wk_km_key_table wk_km_keys;

static inline void wk_km_keys_lock(void)
{
    while (__atomic_exchange_n(&wk_km_keys.lock, 1, __ATOMIC_ACQUIRE))
        sched_yield();
}

static inline void wk_km_keys_unlock(void)
{
    __atomic_store_n(&wk_km_keys.lock, 0, __ATOMIC_RELEASE);
}

/* The slot a key handle names, or -1 (under the lock). */
static inline int wk_km_key_index_locked(HANDLE h)
{
    ULONG64 v = (ULONG64)(uintptr_t)h;
    ULONG index = (ULONG)(v & 0xFFu), generation = (ULONG)(v >> 8) & 0xFFFFu;
    if ((v & 0xFFFFFFFFC0000000ull) != WK_KM_KEY_HANDLE_BASE || index >= WK_KM_MAX_KEYS ||
        !wk_km_keys.slot[index] || (wk_km_keys.generation[index] & 0xFFFFu) != generation)
        return -1;
    return (int)index;
}

/* Copies the path a key handle names into out; FALSE when it names none. */
static inline BOOLEAN wk_km_key_path(HANDLE h, wk_km_key *out)
{
    int i;
    wk_km_keys_lock();
    i = wk_km_key_index_locked(h);
    if (i >= 0)
        *out = *wk_km_keys.slot[i];
    wk_km_keys_unlock();
    return i >= 0;
}

/* ZwClose's part for key handles (kmthread.h): 1 when h was an open key. */
static inline int wk_km_key_close(HANDLE h)
{
    wk_km_key *k = NULL;
    int i;
    wk_km_keys_lock();
    i = wk_km_key_index_locked(h);
    if (i >= 0) {
        k = wk_km_keys.slot[i];
        wk_km_keys.slot[i] = NULL;
        wk_km_keys.generation[i]++;
    }
    wk_km_keys_unlock();
    free(k);
    return i >= 0;
}

static inline HANDLE wk_km_key_open(const wk_km_key *path)
{
    wk_km_key *k = (wk_km_key *)malloc(sizeof *k);
    HANDLE h = NULL;
    ULONG i;
    if (!k)
        return NULL;
    *k = *path;
    wk_km_keys_lock();
    for (i = 0; i < WK_KM_MAX_KEYS && !h; i++)
        if (!wk_km_keys.slot[i]) {
            wk_km_keys.slot[i] = k;
            h = (HANDLE)(uintptr_t)(WK_KM_KEY_HANDLE_BASE | (ULONG64)(wk_km_keys.generation[i] & 0xFFFFu) << 8 | i);
        }
    wk_km_keys_unlock();
    if (!h)
        free(k);
    return h;
}

/* Appends chars of text (UTF-16) to a key path, a backslash first when
 * `separate`; FALSE when it does not fit. Trailing backslashes are dropped. */
static inline BOOLEAN wk_km_key_append(wk_km_key *k, const WCHAR *text, ULONG chars, int separate)
{
    while (chars && text[chars - 1] == '\\')
        chars--;
    if (k->chars + chars + 1 > WK_KM_KEY_PATH_CHARS)
        return FALSE;
    if (separate && chars && k->chars && k->path[k->chars - 1] != '\\' && text[0] != '\\')
        k->path[k->chars++] = '\\';
    memcpy(k->path + k->chars, text, chars * sizeof(WCHAR));
    k->chars += chars;
    return TRUE;
}

static inline ULONG wk_km_wcslen(const WCHAR *s)
{
    ULONG n = 0;
    while (s && s[n])
        n++;
    return n;
}

/* Whether the key exists, asking the kit (no kit: no key exists). */
static inline BOOLEAN wk_km_key_exists(const wk_km_key *k)
{
    return WK_KM_SERVICE(QueryRegistry) &&
           wk_km_services->QueryRegistry((const uint16_t *)k->path, k->chars, NULL, 0, NULL, NULL, 0, NULL);
}

/* The value `name` of key k: TRUE with its type and size (bytes), and the
 * first min(size, cap) bytes in data. */
static inline BOOLEAN wk_km_value(const wk_km_key *k, const WCHAR *name, ULONG name_chars, ULONG *type, void *data,
                                  ULONG cap, ULONG *size)
{
    uint32_t t = 0, n = 0;
    if (!WK_KM_SERVICE(QueryRegistry) ||
        !wk_km_services->QueryRegistry((const uint16_t *)k->path, k->chars, (const uint16_t *)name, name_chars, &t,
                                      data, cap, &n))
        return FALSE;
    *type = t;
    *size = n;
    return TRUE;
}

/* ------------------------------------------------------------------------ */
/* ZwOpenKey, ZwQueryValueKey                                                */
/* ------------------------------------------------------------------------ */

/*
 * Opens the key ObjectAttributes names: an absolute path in ObjectName, or
 * one relative to the open key RootDirectory. STATUS_OBJECT_NAME_NOT_FOUND
 * when it does not exist (see the header comment), STATUS_INVALID_HANDLE
 * for a RootDirectory that is no open key, STATUS_INSUFFICIENT_RESOURCES
 * past WK_KM_MAX_KEYS open keys. DesiredAccess is accepted: everything is
 * readable and nothing writable. Close the handle with ZwClose. Requires
 * PASSIVE_LEVEL.
 */
static inline NTSTATUS ZwOpenKey(PHANDLE KeyHandle, ACCESS_MASK DesiredAccess, POBJECT_ATTRIBUTES ObjectAttributes)
{
    wk_km_key k;
    (void)DesiredAccess;
    wk_km_require_irql(PASSIVE_LEVEL, "ZwOpenKey", "");
    if (!KeyHandle || !ObjectAttributes || !ObjectAttributes->ObjectName)
        return STATUS_INVALID_PARAMETER;
    *KeyHandle = NULL;
    k.chars = 0;
    if (ObjectAttributes->RootDirectory && !wk_km_key_path(ObjectAttributes->RootDirectory, &k))
        return STATUS_INVALID_HANDLE;
    if (!wk_km_key_append(&k, ObjectAttributes->ObjectName->Buffer,
                          ObjectAttributes->ObjectName->Length / (ULONG)sizeof(WCHAR), 1))
        return STATUS_OBJECT_NAME_NOT_FOUND;
    if (!wk_km_key_exists(&k))
        return STATUS_OBJECT_NAME_NOT_FOUND;
    *KeyHandle = wk_km_key_open(&k);
    return *KeyHandle ? STATUS_SUCCESS : STATUS_INSUFFICIENT_RESOURCES;
}

/* Up to this many bytes of a value are read (the kit's own limit is 256). */
#define WK_KM_VALUE_MAX 4096u

/* Fills the information class the caller asked for; *ResultLength is the
 * bytes the whole answer needs. */
static inline NTSTATUS wk_km_fill_value(KEY_VALUE_INFORMATION_CLASS cls, const WCHAR *name, ULONG name_chars,
                                        ULONG type, const UCHAR *data, ULONG size, PVOID out, ULONG Length,
                                        PULONG ResultLength)
{
    ULONG head, need, name_bytes = name_chars * (ULONG)sizeof(WCHAR), data_at = 0;
    UCHAR *o = (UCHAR *)out;
    if (cls == KeyValuePartialInformation) {
        head = (ULONG)offsetof(KEY_VALUE_PARTIAL_INFORMATION, Data);
        need = head + size;
    } else if (cls == KeyValueFullInformation) {
        head = (ULONG)offsetof(KEY_VALUE_FULL_INFORMATION, Name);
        data_at = (head + name_bytes + 7u) & ~7u; /* the data starts aligned */
        need = data_at + size;
    } else if (cls == KeyValueBasicInformation) {
        head = (ULONG)offsetof(KEY_VALUE_BASIC_INFORMATION, Name);
        need = head + name_bytes;
    } else {
        return STATUS_INVALID_PARAMETER;
    }
    *ResultLength = need;
    if (Length < head || !out)
        return STATUS_BUFFER_TOO_SMALL;
    if (cls == KeyValuePartialInformation) {
        KEY_VALUE_PARTIAL_INFORMATION h = {0, type, size, {0}};
        memcpy(o, &h, head);
        if (Length >= need)
            memcpy(o + head, data, size);
    } else if (cls == KeyValueFullInformation) {
        KEY_VALUE_FULL_INFORMATION h = {0, type, data_at, size, name_bytes, {0}};
        memcpy(o, &h, head);
        if (Length >= need) {
            memcpy(o + head, name, name_bytes);
            memcpy(o + data_at, data, size);
        }
    } else {
        KEY_VALUE_BASIC_INFORMATION h = {0, type, name_bytes, {0}};
        memcpy(o, &h, head);
        if (Length >= need)
            memcpy(o + head, name, name_bytes);
    }
    return Length >= need ? STATUS_SUCCESS : STATUS_BUFFER_OVERFLOW;
}

/*
 * Reads a value of an open key in one of three classes. As on Windows:
 * STATUS_OBJECT_NAME_NOT_FOUND when the value does not exist,
 * STATUS_BUFFER_TOO_SMALL when Length cannot hold the fixed part (nothing
 * written), STATUS_BUFFER_OVERFLOW when it holds that but not the rest (the
 * fixed part written), *ResultLength the bytes needed either way.
 * STATUS_INVALID_HANDLE for a handle that is no open key. PASSIVE_LEVEL.
 */
static inline NTSTATUS ZwQueryValueKey(HANDLE KeyHandle, PUNICODE_STRING ValueName,
                                       KEY_VALUE_INFORMATION_CLASS KeyValueInformationClass,
                                       PVOID KeyValueInformation, ULONG Length, PULONG ResultLength)
{
    static __thread UCHAR data[WK_KM_VALUE_MAX];
    wk_km_key k;
    ULONG type = 0, size = 0, name_chars;
    wk_km_require_irql(PASSIVE_LEVEL, "ZwQueryValueKey", "");
    if (!ResultLength || !ValueName)
        return STATUS_INVALID_PARAMETER;
    *ResultLength = 0;
    if (!wk_km_key_path(KeyHandle, &k))
        return STATUS_INVALID_HANDLE;
    name_chars = ValueName->Length / (ULONG)sizeof(WCHAR);
    if (!wk_km_value(&k, ValueName->Buffer, name_chars, &type, data, sizeof data, &size))
        return STATUS_OBJECT_NAME_NOT_FOUND;
    if (size > sizeof data)
        size = sizeof data;
    return wk_km_fill_value(KeyValueInformationClass, ValueName->Buffer, name_chars, type, data, size,
                            KeyValueInformation, Length, ResultLength);
}

/* ------------------------------------------------------------------------ */
/* RtlQueryRegistryValues                                                    */
/* ------------------------------------------------------------------------ */

#define RTL_REGISTRY_ABSOLUTE 0u
#define RTL_REGISTRY_SERVICES 1u
#define RTL_REGISTRY_CONTROL 2u
#define RTL_REGISTRY_WINDOWS_NT 3u
#define RTL_REGISTRY_DEVICEMAP 4u
#define RTL_REGISTRY_USER 5u
#define RTL_REGISTRY_HANDLE 0x40000000u
#define RTL_REGISTRY_OPTIONAL 0x80000000u

#define RTL_QUERY_REGISTRY_SUBKEY 0x00000001u
#define RTL_QUERY_REGISTRY_TOPKEY 0x00000002u
#define RTL_QUERY_REGISTRY_REQUIRED 0x00000004u
#define RTL_QUERY_REGISTRY_NOVALUE 0x00000008u
#define RTL_QUERY_REGISTRY_NOEXPAND 0x00000010u
#define RTL_QUERY_REGISTRY_DIRECT 0x00000020u
#define RTL_QUERY_REGISTRY_DELETE 0x00000040u
#define RTL_QUERY_REGISTRY_TYPECHECK 0x00000100u
#define RTL_QUERY_REGISTRY_TYPECHECK_SHIFT 24

typedef NTSTATUS RTL_QUERY_REGISTRY_ROUTINE(PWSTR ValueName, ULONG ValueType, PVOID ValueData, ULONG ValueLength,
                                            PVOID Context, PVOID EntryContext);
typedef RTL_QUERY_REGISTRY_ROUTINE *PRTL_QUERY_REGISTRY_ROUTINE;

typedef struct _RTL_QUERY_REGISTRY_TABLE {
    PRTL_QUERY_REGISTRY_ROUTINE QueryRoutine;
    ULONG Flags;
    PWSTR Name;
    PVOID EntryContext;
    ULONG DefaultType;
    PVOID DefaultData;
    ULONG DefaultLength;
} RTL_QUERY_REGISTRY_TABLE, *PRTL_QUERY_REGISTRY_TABLE;

/* The key RelativeTo and Path name (FALSE: a relative root the kit does
 * not model, or a path too long). */
static inline BOOLEAN wk_km_rtl_key(ULONG RelativeTo, PCWSTR Path, wk_km_key *k)
{
    static const char *const roots[] = {
        "", "\\Registry\\Machine\\System\\CurrentControlSet\\Services",
        "\\Registry\\Machine\\System\\CurrentControlSet\\Control",
        "\\Registry\\Machine\\Software\\Microsoft\\Windows NT\\CurrentVersion",
        "\\Registry\\Machine\\Hardware\\DeviceMap",
    };
    ULONG base = RelativeTo & ~(RTL_REGISTRY_HANDLE | RTL_REGISTRY_OPTIONAL), i;
    k->chars = 0;
    if (RelativeTo & RTL_REGISTRY_HANDLE)
        return wk_km_key_path((HANDLE)(uintptr_t)Path, k);
    if (base >= sizeof roots / sizeof roots[0])
        return FALSE;
    for (i = 0; roots[base][i]; i++)
        k->path[k->chars++] = (WCHAR)roots[base][i];
    return wk_km_key_append(k, Path, wk_km_wcslen(Path), 1);
}

/* RTL_QUERY_REGISTRY_DIRECT: the value into EntryContext, by its type
 * (REG_DWORD: a ULONG; REG_QWORD: a ULONG64; REG_SZ and REG_EXPAND_SZ: a
 * UNICODE_STRING, its Buffer allocated from paged pool when NULL, else
 * filled up to MaximumLength; REG_BINARY: EntryContext's first LONG is minus
 * the buffer's size, and the data overwrites it). */
static inline NTSTATUS wk_km_rtl_direct(ULONG type, const UCHAR *data, ULONG size, PVOID EntryContext)
{
    if (!EntryContext)
        return STATUS_INVALID_PARAMETER;
    if (type == REG_DWORD || type == REG_QWORD || type == REG_NONE) {
        memcpy(EntryContext, data, size > 8 ? 8 : size);
        return STATUS_SUCCESS;
    }
    if (type == REG_SZ || type == REG_EXPAND_SZ) {
        PUNICODE_STRING s = (PUNICODE_STRING)EntryContext;
        ULONG chars = size / (ULONG)sizeof(WCHAR);
        while (chars && ((const WCHAR *)(const void *)data)[chars - 1] == 0)
            chars--;
        if (!s->Buffer) {
            s->Buffer = (WCHAR *)ExAllocatePoolWithTag(PagedPool, (chars + 1) * sizeof(WCHAR), 0x67655257u /* 'WReg' */);
            if (!s->Buffer)
                return STATUS_INSUFFICIENT_RESOURCES;
            s->MaximumLength = (USHORT)((chars + 1) * sizeof(WCHAR));
        }
        if ((chars + 1) * sizeof(WCHAR) > s->MaximumLength)
            return STATUS_BUFFER_TOO_SMALL;
        memcpy(s->Buffer, data, chars * sizeof(WCHAR));
        s->Buffer[chars] = 0;
        s->Length = (USHORT)(chars * sizeof(WCHAR));
        return STATUS_SUCCESS;
    }
    if (type == REG_BINARY) {
        LONG room;
        memcpy(&room, EntryContext, sizeof room);
        if (room >= 0 || (ULONG)-room < size)
            return STATUS_BUFFER_TOO_SMALL;
        memcpy(EntryContext, data, size);
        return STATUS_SUCCESS;
    }
    return STATUS_NOT_SUPPORTED;
}

/* One table entry with a name: the value, or the entry's default, to the
 * routine or (DIRECT) into EntryContext. */
static inline NTSTATUS wk_km_rtl_entry(const wk_km_key *key, PRTL_QUERY_REGISTRY_TABLE e, PVOID Context)
{
    static __thread UCHAR data[WK_KM_VALUE_MAX];
    ULONG type = REG_NONE, size = 0, expect = e->DefaultType >> RTL_QUERY_REGISTRY_TYPECHECK_SHIFT;
    const UCHAR *value = data;
    if (!wk_km_value(key, e->Name, wk_km_wcslen(e->Name), &type, data, sizeof data, &size)) {
        ULONG def = e->DefaultType & 0xFFFFFFu;
        if (e->Flags & RTL_QUERY_REGISTRY_REQUIRED)
            return STATUS_OBJECT_NAME_NOT_FOUND;
        if (def == REG_NONE)
            return STATUS_SUCCESS; /* absent, no default: nothing to do */
        type = def;
        value = (const UCHAR *)e->DefaultData;
        size = e->DefaultLength;
        if (!size && (type == REG_SZ || type == REG_EXPAND_SZ) && value)
            size = (wk_km_wcslen((const WCHAR *)e->DefaultData) + 1) * (ULONG)sizeof(WCHAR);
    } else if (size > sizeof data) {
        size = sizeof data;
    }
    if ((e->Flags & RTL_QUERY_REGISTRY_TYPECHECK) && expect != type)
        return STATUS_OBJECT_TYPE_MISMATCH;
    if (e->Flags & RTL_QUERY_REGISTRY_DIRECT)
        return wk_km_rtl_direct(type, value, size, e->EntryContext);
    return e->QueryRoutine(e->Name, type, (PVOID)value, size, Context, e->EntryContext);
}

/*
 * Reads several values of one key through a query table, as the Rtl
 * routine does: per entry, the value to its QueryRoutine or (DIRECT) into
 * EntryContext; the default when absent; REQUIRED makes an absent value
 * STATUS_OBJECT_NAME_NOT_FOUND; SUBKEY moves the following entries into a
 * subkey, TOPKEY back; TYPECHECK compares the type in DefaultType's high
 * byte. RelativeTo: ABSOLUTE, SERVICES, CONTROL, WINDOWS_NT, DEVICEMAP or
 * HANDLE, with OPTIONAL (a missing key is then not an error). Not modelled
 * (STATUS_NOT_SUPPORTED): an entry without a Name that is not NOVALUE (an
 * enumeration of every value), and RTL_QUERY_REGISTRY_DELETE, which writes.
 * PASSIVE_LEVEL.
 */
static inline NTSTATUS RtlQueryRegistryValues(ULONG RelativeTo, PCWSTR Path, PRTL_QUERY_REGISTRY_TABLE QueryTable,
                                              PVOID Context, PVOID Environment)
{
    wk_km_key top, key;
    PRTL_QUERY_REGISTRY_TABLE e;
    (void)Environment;
    wk_km_require_irql(PASSIVE_LEVEL, "RtlQueryRegistryValues", "");
    if (!QueryTable)
        return STATUS_INVALID_PARAMETER;
    if (!wk_km_rtl_key(RelativeTo, Path, &top) || !wk_km_key_exists(&top))
        return (RelativeTo & RTL_REGISTRY_OPTIONAL) ? STATUS_SUCCESS : STATUS_OBJECT_NAME_NOT_FOUND;
    key = top;
    for (e = QueryTable; e->QueryRoutine || e->Name; e++) {
        NTSTATUS st;
        if (e->Flags & RTL_QUERY_REGISTRY_DELETE)
            return STATUS_NOT_SUPPORTED;
        if (e->Flags & RTL_QUERY_REGISTRY_TOPKEY)
            key = top;
        if (e->Flags & RTL_QUERY_REGISTRY_SUBKEY) {
            key = top;
            if (!e->Name || !wk_km_key_append(&key, e->Name, wk_km_wcslen(e->Name), 1) || !wk_km_key_exists(&key))
                return STATUS_OBJECT_NAME_NOT_FOUND;
            if (!e->QueryRoutine)
                continue;
        }
        if (e->Flags & RTL_QUERY_REGISTRY_NOVALUE) {
            st = e->QueryRoutine ? e->QueryRoutine(NULL, REG_NONE, NULL, 0, Context, e->EntryContext)
                                 : STATUS_SUCCESS;
        } else if (!e->Name) {
            return STATUS_NOT_SUPPORTED;
        } else if (!e->QueryRoutine && !(e->Flags & RTL_QUERY_REGISTRY_DIRECT)) {
            return STATUS_INVALID_PARAMETER;
        } else {
            st = wk_km_rtl_entry(&key, e, Context);
        }
        if (!NT_SUCCESS(st))
            return st;
    }
    return STATUS_SUCCESS;
}

#ifdef __cplusplus
}
#endif

#endif /* WDDMKIT_KMREGISTRY_H */
