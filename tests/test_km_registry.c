/* SPDX-License-Identifier: MIT */
/*
 * test_km_registry.c - km.h's registry reads (kmregistry.h) against a
 * services table of the test's own: ZwOpenKey, ZwQueryValueKey in its three
 * classes and its buffer rules, ZwClose of key handles, and
 * RtlQueryRegistryValues with DIRECT, routines, defaults, REQUIRED, SUBKEY,
 * TYPECHECK and OPTIONAL. The kit's own answers (the case's `registry:`
 * map) are tested end to end by tests/driver_build/registry_reader.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "wddmkit/km.h"

#define SERVICE "\\Registry\\Machine\\System\\CurrentControlSet\\Services\\demo"

/* The test's registry: a DWORD and a string in the service key, a QWORD
 * and a binary in its subkey Parameters. */
struct fake_value {
    const char *key, *name;
    uint32_t type, size;
    uint8_t data[32];
};

static const struct fake_value values[] = {
    { SERVICE, "Level", REG_DWORD, 4, { 7, 0, 0, 0 } },
    { SERVICE, "Mode", REG_SZ, 10, { 'f', 0, 'a', 0, 's', 0, 't', 0, 0, 0 } },
    { SERVICE "\\Parameters", "Heap", REG_QWORD, 8, { 0, 0, 0, 0, 1, 0, 0, 0 } },
    { SERVICE "\\Parameters", "Table", REG_BINARY, 3, { 0xAA, 0xBB, 0xCC } },
};

static int narrow_equal(const uint16_t *w, size_t n, const char *s)
{
    if (strlen(s) != n)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char a = (char)w[i], b = s[i];
        if (a >= 'a' && a <= 'z')
            a = (char)(a - 32);
        if (b >= 'a' && b <= 'z')
            b = (char)(b - 32);
        if (a != b)
            return 0;
    }
    return 1;
}

static int fake_query(const uint16_t *key, size_t key_chars, const uint16_t *name, size_t name_chars, uint32_t *type,
                      void *data, uint32_t cap, uint32_t *size)
{
    if (!name)
        return narrow_equal(key, key_chars, SERVICE) || narrow_equal(key, key_chars, SERVICE "\\Parameters");
    for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
        const struct fake_value *v = &values[i];
        if (narrow_equal(key, key_chars, v->key) && narrow_equal(name, name_chars, v->name)) {
            *type = v->type;
            *size = v->size;
            memcpy(data, v->data, v->size < cap ? v->size : cap);
            return 1;
        }
    }
    return 0;
}

static const WK_KM_SERVICES fake_services = {
    .Size = sizeof(WK_KM_SERVICES),
    .QueryRegistry = fake_query,
};

/* A UNICODE_STRING over a literal, widened from ASCII. */
struct wide {
    WCHAR text[160];
    UNICODE_STRING s;
};

static PUNICODE_STRING wide(struct wide *w, const char *ascii)
{
    size_t n = strlen(ascii);
    for (size_t i = 0; i <= n; i++)
        w->text[i] = (WCHAR)ascii[i];
    w->s.Buffer = w->text;
    w->s.Length = (USHORT)(n * sizeof(WCHAR));
    w->s.MaximumLength = (USHORT)((n + 1) * sizeof(WCHAR));
    return &w->s;
}

static HANDLE open_key(const char *path, HANDLE root, NTSTATUS *st)
{
    struct wide w;
    OBJECT_ATTRIBUTES oa;
    HANDLE h = NULL;
    InitializeObjectAttributes(&oa, wide(&w, path), 0, root, NULL);
    *st = ZwOpenKey(&h, KEY_READ, &oa);
    return h;
}

static int setup(void **state)
{
    (void)state;
    wk_km_services = &fake_services;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    wk_km_services = NULL;
    return 0;
}

static void test_open_and_close(void **state)
{
    NTSTATUS st;
    (void)state;
    HANDLE k = open_key(SERVICE, NULL, &st);
    assert_int_equal(st, STATUS_SUCCESS);
    HANDLE p = open_key("Parameters", k, &st); /* relative to an open key */
    assert_int_equal(st, STATUS_SUCCESS);
    assert_null(open_key("Nothing", k, &st));
    assert_int_equal(st, STATUS_OBJECT_NAME_NOT_FOUND);
    assert_null(open_key("\\Registry\\Machine\\Software", NULL, &st));
    assert_int_equal(st, STATUS_OBJECT_NAME_NOT_FOUND);
    assert_int_equal(ZwClose(p), STATUS_SUCCESS);
    assert_int_equal(ZwClose(k), STATUS_SUCCESS);
    assert_null(open_key("Parameters", k, &st)); /* a closed root */
    assert_int_equal(st, STATUS_INVALID_HANDLE);
}

static void test_query_value_classes(void **state)
{
    NTSTATUS st;
    struct wide w;
    ULONG need = 0;
    union {
        KEY_VALUE_PARTIAL_INFORMATION partial;
        KEY_VALUE_FULL_INFORMATION full;
        KEY_VALUE_BASIC_INFORMATION basic;
        UCHAR bytes[128];
    } out;
    (void)state;
    HANDLE k = open_key(SERVICE, NULL, &st);
    assert_int_equal(st, STATUS_SUCCESS);

    st = ZwQueryValueKey(k, wide(&w, "level"), KeyValuePartialInformation, &out, sizeof(out), &need);
    assert_int_equal(st, STATUS_SUCCESS); /* names match without regard to case */
    assert_int_equal(need, offsetof(KEY_VALUE_PARTIAL_INFORMATION, Data) + 4);
    assert_int_equal(out.partial.Type, REG_DWORD);
    assert_int_equal(out.partial.DataLength, 4);
    assert_int_equal(out.partial.Data[0], 7);

    memset(&out, 0xEE, sizeof(out));
    st = ZwQueryValueKey(k, wide(&w, "Mode"), KeyValuePartialInformation, &out, 14, &need);
    assert_int_equal(st, STATUS_BUFFER_OVERFLOW); /* the fixed part fits, the data does not */
    assert_int_equal(need, 12 + 10);
    assert_int_equal(out.partial.DataLength, 10);
    st = ZwQueryValueKey(k, wide(&w, "Mode"), KeyValuePartialInformation, &out, 8, &need);
    assert_int_equal(st, STATUS_BUFFER_TOO_SMALL);
    assert_int_equal(need, 12 + 10);

    st = ZwQueryValueKey(k, wide(&w, "Mode"), KeyValueFullInformation, &out, sizeof(out), &need);
    assert_int_equal(st, STATUS_SUCCESS);
    assert_int_equal(out.full.Type, REG_SZ);
    assert_int_equal(out.full.NameLength, 8);
    assert_int_equal(out.full.DataLength, 10);
    assert_int_equal(out.full.DataOffset % 8, 0);
    assert_memory_equal(out.bytes + out.full.DataOffset, values[1].data, 10);
    assert_int_equal(need, out.full.DataOffset + 10);

    st = ZwQueryValueKey(k, wide(&w, "Mode"), KeyValueBasicInformation, &out, sizeof(out), &need);
    assert_int_equal(st, STATUS_SUCCESS);
    assert_int_equal(out.basic.NameLength, 8);
    assert_int_equal(out.basic.Name[0], 'M');

    st = ZwQueryValueKey(k, wide(&w, "Absent"), KeyValuePartialInformation, &out, sizeof(out), &need);
    assert_int_equal(st, STATUS_OBJECT_NAME_NOT_FOUND);
    assert_int_equal(ZwClose(k), STATUS_SUCCESS);
    st = ZwQueryValueKey(k, wide(&w, "Level"), KeyValuePartialInformation, &out, sizeof(out), &need);
    assert_int_equal(st, STATUS_INVALID_HANDLE);
}

/* A query routine that records what it was given. */
struct seen {
    int calls;
    ULONG type, length;
    UCHAR data[16];
};

static NTSTATUS record(PWSTR name, ULONG type, PVOID data, ULONG length, PVOID context, PVOID entry)
{
    struct seen *s = (struct seen *)entry;
    (void)name;
    (void)context;
    s->calls++;
    s->type = type;
    s->length = length;
    memcpy(s->data, data, length < sizeof(s->data) ? length : sizeof(s->data));
    return STATUS_SUCCESS;
}

static void test_query_table(void **state)
{
    WCHAR level[] = { 'L', 'e', 'v', 'e', 'l', 0 }, mode[] = { 'M', 'o', 'd', 'e', 0 };
    WCHAR params[] = { 'P', 'a', 'r', 'a', 'm', 'e', 't', 'e', 'r', 's', 0 };
    WCHAR heap[] = { 'H', 'e', 'a', 'p', 0 }, table[] = { 'T', 'a', 'b', 'l', 'e', 0 };
    WCHAR absent[] = { 'A', 'b', 's', 'e', 'n', 't', 0 };
    WCHAR path[] = { 'd', 'e', 'm', 'o', 0 };
    ULONG got_level = 0, got_absent = 0, fallback = 42;
    ULONG64 got_heap = 0;
    LONG binary[2] = { -8, 0 };
    UNICODE_STRING got_mode = { 0, 0, NULL };
    struct seen seen;
    (void)state;
    memset(&seen, 0, sizeof(seen));
    RTL_QUERY_REGISTRY_TABLE t[] = {
        { NULL, RTL_QUERY_REGISTRY_DIRECT | RTL_QUERY_REGISTRY_TYPECHECK, level, &got_level,
          REG_DWORD << RTL_QUERY_REGISTRY_TYPECHECK_SHIFT, NULL, 0 },
        { NULL, RTL_QUERY_REGISTRY_DIRECT, mode, &got_mode, REG_NONE, NULL, 0 },
        { NULL, RTL_QUERY_REGISTRY_DIRECT, absent, &got_absent, REG_DWORD, &fallback, sizeof(fallback) },
        { NULL, RTL_QUERY_REGISTRY_SUBKEY, params, NULL, REG_NONE, NULL, 0 },
        { NULL, RTL_QUERY_REGISTRY_DIRECT, heap, &got_heap, REG_NONE, NULL, 0 },
        { NULL, RTL_QUERY_REGISTRY_DIRECT, table, binary, REG_NONE, NULL, 0 },
        { record, 0, table, &seen, REG_NONE, NULL, 0 },
        { NULL, 0, NULL, NULL, 0, NULL, 0 },
    };
    assert_int_equal(RtlQueryRegistryValues(RTL_REGISTRY_SERVICES, path, t, NULL, NULL), STATUS_SUCCESS);
    assert_int_equal(got_level, 7);
    assert_int_equal(got_mode.Length, 8);
    assert_int_equal(got_mode.Buffer[3], 't');
    assert_int_equal(got_mode.Buffer[4], 0);
    ExFreePool(got_mode.Buffer); /* allocated by the routine, as on Windows */
    assert_int_equal(got_absent, 42); /* the default */
    assert_true(got_heap == 0x100000000ull);
    assert_memory_equal(binary, values[3].data, 3);
    assert_int_equal(seen.calls, 1);
    assert_int_equal(seen.type, REG_BINARY);
    assert_int_equal(seen.length, 3);

    RTL_QUERY_REGISTRY_TABLE required[] = {
        { NULL, RTL_QUERY_REGISTRY_DIRECT | RTL_QUERY_REGISTRY_REQUIRED, absent, &got_absent, REG_NONE, NULL, 0 },
        { NULL, 0, NULL, NULL, 0, NULL, 0 },
    };
    assert_int_equal(RtlQueryRegistryValues(RTL_REGISTRY_SERVICES, path, required, NULL, NULL),
                     STATUS_OBJECT_NAME_NOT_FOUND);
    RTL_QUERY_REGISTRY_TABLE wrong_type[] = {
        { NULL, RTL_QUERY_REGISTRY_DIRECT | RTL_QUERY_REGISTRY_TYPECHECK, mode, &got_level,
          REG_DWORD << RTL_QUERY_REGISTRY_TYPECHECK_SHIFT, NULL, 0 },
        { NULL, 0, NULL, NULL, 0, NULL, 0 },
    };
    assert_int_equal(RtlQueryRegistryValues(RTL_REGISTRY_SERVICES, path, wrong_type, NULL, NULL),
                     STATUS_OBJECT_TYPE_MISMATCH);
    WCHAR nowhere[] = { 'n', 'o', 'w', 'h', 'e', 'r', 'e', 0 };
    assert_int_equal(RtlQueryRegistryValues(RTL_REGISTRY_SERVICES, nowhere, t, NULL, NULL),
                     STATUS_OBJECT_NAME_NOT_FOUND);
    assert_int_equal(RtlQueryRegistryValues(RTL_REGISTRY_SERVICES | RTL_REGISTRY_OPTIONAL, nowhere, t, NULL, NULL),
                     STATUS_SUCCESS);
}

/* Without a kit the registry has no keys: a driver's reads fall back to
 * its defaults. */
static void test_no_kit_no_keys(void **state)
{
    NTSTATUS st;
    (void)state;
    wk_km_services = NULL;
    assert_null(open_key(SERVICE, NULL, &st));
    assert_int_equal(st, STATUS_OBJECT_NAME_NOT_FOUND);
    wk_km_services = &fake_services;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_open_and_close),
        cmocka_unit_test(test_query_value_classes),
        cmocka_unit_test(test_query_table),
        cmocka_unit_test(test_no_kit_no_keys),
    };
    return cmocka_run_group_tests_name("km.registry", tests, setup, teardown);
}
