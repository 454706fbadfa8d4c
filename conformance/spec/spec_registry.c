/* SPDX-License-Identifier: MIT */
/*
 * spec_registry.c - what a case says of the machine around the adapter: its
 * `registry:` map, the values the kit answers the driver's registry reads
 * with (km.h: ZwQueryValueKey, RtlQueryRegistryValues), under the service
 * key it names in DriverEntry's RegistryPath (docs/spec-format.md, "Registry
 * values"); and its `pci_config:`, the adapter's PCI configuration space
 * (DxgkCbReadDeviceSpace), hex bytes laid over the kit's default from
 * offset 0.
 *
 *   registry:
 *     EnableWidgets: 1                 # REG_DWORD (a number up to 0xffffffff)
 *     Parameters\HeapSize: 0x100000000 # REG_QWORD (larger), in subkey Parameters
 *     Mode: fast                       # REG_SZ (any other scalar; quote "12" for a string)
 *     Table: {binary: "00 01 02"}      # REG_BINARY; also {dword: n}, {qword: n}, {sz: text}
 */
#include <stdio.h>
#include <string.h>

#include "spec_internal.h"

#define REG_SZ 1u
#define REG_BINARY 3u
#define REG_DWORD 4u
#define REG_QWORD 11u

/* A value name: printable ASCII (the kit matches names by it), no
 * backslash at either end, no empty subkey. */
static int good_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || s[0] == '\\' || s[n - 1] == '\\' || strstr(s, "\\\\"))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] < 0x20 || s[i] > 0x7E)
            return 0;
    return 1;
}

static int set_number(struct wk_spec_ctx *c, const struct wk_ynode *n, const char *what, uint32_t type,
                      struct wk_vidmm_registry_value *v)
{
    uint64_t x;
    uint64_t hi = type == REG_DWORD ? UINT32_MAX : UINT64_MAX;
    if (spec_u64(c, n, what, 0, hi, &x) < 0)
        return -1;
    if (type == 0)
        type = x > UINT32_MAX ? REG_QWORD : REG_DWORD;
    v->type = type;
    v->size = type == REG_DWORD ? 4 : 8;
    for (uint32_t i = 0; i < v->size; i++) /* little-endian, as Windows stores them */
        v->data[i] = (uint8_t)(x >> (8 * i));
    return 1;
}

/* REG_SZ: UTF-16LE with its terminator, from printable ASCII. */
static int set_string(struct wk_spec_ctx *c, const struct wk_ynode *n, const char *what,
                      struct wk_vidmm_registry_value *v)
{
    char text[WK_VIDMM_REGISTRY_DATA_MAX / 2];
    if (spec_string(c, n, what, text, sizeof(text)) < 0)
        return -1;
    size_t len = strlen(text);
    v->type = REG_SZ;
    v->size = (uint32_t)(len + 1) * 2;
    memset(v->data, 0, v->size);
    for (size_t i = 0; i < len; i++)
        v->data[2 * i] = (uint8_t)text[i];
    return 1;
}

/* {dword|qword|sz|binary: value}. */
static int set_typed(struct wk_spec_ctx *c, const struct wk_ynode *m, const char *what,
                     struct wk_vidmm_registry_value *v)
{
    static const char *const keys[] = { "dword", "qword", "sz", "binary", NULL };
    if (m->count != 1) {
        spec_error(c, m, "%s: expected one of dword, qword, sz or binary, saw %u keys", what, m->count);
        return -1;
    }
    if (spec_check_keys(c, m, keys, NULL) > 0)
        return -1;
    const struct wk_ynode *val;
    if ((val = wk_ymap_get(m, "dword")))
        return set_number(c, val, what, REG_DWORD, v);
    if ((val = wk_ymap_get(m, "qword")))
        return set_number(c, val, what, REG_QWORD, v);
    if ((val = wk_ymap_get(m, "sz")))
        return set_string(c, val, what, v);
    val = wk_ymap_get(m, "binary");
    v->type = REG_BINARY;
    return spec_hex(c, val, what, v->data, WK_VIDMM_REGISTRY_DATA_MAX, &v->size);
}

static int load_value(struct wk_spec_ctx *c, const struct wk_ynode *key, const struct wk_ynode *val,
                      struct wk_vidmm_registry_value *v)
{
    char what[160];
    if (spec_string(c, key, "key 'registry': a value name", v->name, sizeof(v->name)) < 0)
        return -1;
    if (!good_name(v->name)) {
        spec_error(c, key, "key 'registry': expected a value name ('Name' or 'Subkey\\Name', printable ASCII), saw '%s'",
                   v->name);
        return -1;
    }
    snprintf(what, sizeof(what), "key 'registry': value '%s'", v->name);
    if (val->kind == WK_Y_MAPPING)
        return set_typed(c, val, what, v);
    if (val->kind == WK_Y_SCALAR && val->plain && val->length && val->text[0] >= '0' && val->text[0] <= '9') {
        snprintf(what, sizeof(what), "key 'registry': value '%s' (a number; quote it for a string)", v->name);
        return set_number(c, val, what, 0, v);
    }
    return set_string(c, val, what, v);
}

void spec_load_registry(struct wk_spec_ctx *c, const struct wk_ynode *m)
{
    struct wk_vidmm_registry *r = &c->p->registry;
    if (spec_map(c, m, "key 'registry'") < 0)
        return;
    r->count = 0;
    for (const struct wk_ynode *k = m->child; k && k->next; k = k->next->next) {
        if (r->count == WK_VIDMM_REGISTRY_MAX) {
            spec_error(c, k, "key 'registry': at most %u values", WK_VIDMM_REGISTRY_MAX);
            return;
        }
        struct wk_vidmm_registry_value *v = &r->values[r->count];
        memset(v, 0, sizeof(*v));
        if (load_value(c, k, k->next, v) == 1)
            r->count++;
    }
}

void spec_load_pci_config(struct wk_spec_ctx *c, const struct wk_ynode *n)
{
    struct wk_prog *p = c->p;
    uint8_t bytes[WK_VIDMM_PCI_CONFIG_SIZE];
    uint32_t length = 0;
    if (spec_hex(c, n, "key 'pci_config'", bytes, sizeof(bytes), &length) < 0)
        return;
    wk_vidmm_default_pci_config(p->pci_config);
    memcpy(p->pci_config, bytes, length);
    p->has_pci_config = 1;
}
