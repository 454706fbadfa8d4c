/* SPDX-License-Identifier: MIT */
/*
 * driver_once.c - one load of a driver for every adapter of a process
 * (vidmm.h, struct wk_vidmm_driver).
 *
 * Why: Windows runs a miniport's DriverEntry once per load of its image,
 * and then DxgkDdiAddDevice for each adapter (facts §1.3). A driver may set
 * global state in DriverEntry (its DDI table, a lock, settings read from
 * the registry) and rightly assume it runs once. A process that builds one
 * adapter after another from the same module (`conform --no-fork`) must
 * therefore not call it again: the module stays mapped (RTLD_NODELETE), so
 * a second call would find the first one's globals, which no real load
 * ever shows a driver.
 *
 * So the first adapter runs DriverEntry as wk_vidmm_load does, with a
 * DRIVER_OBJECT kept here (a driver may keep the pointer for as long as it
 * is loaded, which outlives that adapter), and every later adapter gets the
 * DDI table DriverEntry gave, or its failure again. No adapter calls
 * DxgkDdiUnload: the load ends with the process. What DriverEntry could
 * read that an adapter configures is the registry, so an adapter with
 * another registry cannot share the load (wk_vidmm_driver_mismatch).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"

struct wk_vidmm_driver {
    int entered;                              /* the first adapter came: DriverEntry ran or failed */
    wk_status status;                         /* its outcome (WK_OK: the table below) */
    char error[384];                          /* its message when it failed */
    DRIVER_INITIALIZATION_DATA ddi;           /* the table it handed to DxgkInitialize */
    unsigned char (*set_irql)(unsigned char); /* the module's wk_km_set_irql, or NULL */
    struct wk_vidmm_registry registry;        /* what it could read */
    DRIVER_OBJECT object;                     /* the one it was given */
};

wk_status wk_vidmm_driver_new(struct wk_vidmm_driver **out)
{
    *out = calloc(1, sizeof(**out));
    return *out ? WK_OK : WK_E_NO_MEMORY;
}

void wk_vidmm_driver_free(struct wk_vidmm_driver *d)
{
    free(d);
}

/* The first adapter: DriverEntry, remembered whatever it did. */
static wk_status enter_first(struct wk_vidmm *vm, struct wk_vidmm_driver *d, const char *path,
                             DRIVER_INITIALIZE *entry)
{
    d->entered = 1;
    d->registry = vm->registry;
    wk_status st = path ? vidmm_open_module(vm, path, &entry) : WK_OK;
    if (st == WK_OK)
        st = vidmm_enter(vm, entry, &d->object);
    d->object.wk_owner = NULL; /* a DxgkInitialize after DriverEntry is refused, not given this adapter */
    d->status = st;
    if (st != WK_OK) {
        snprintf(d->error, sizeof(d->error), "%s", wk_vidmm_last_error(vm));
        return st;
    }
    d->ddi = vm->ddi;
    d->set_irql = vm->set_irql;
    vm->driver_shared = 1;
    return WK_OK;
}

/* A later adapter: the module again (its own reference, so that each
 * adapter's dlclose balances its dlopen), the table DriverEntry gave. */
static wk_status share(struct wk_vidmm *vm, const struct wk_vidmm_driver *d, const char *path)
{
    if (d->status != WK_OK)
        return fail(vm, d->status, "%s (DriverEntry runs once per process, and this is how it ended)", d->error);
    if (path) {
        vm->so = wk_vidmm_module_open(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
        if (!vm->so)
            return fail(vm, WK_E_IO, "cannot load driver %s again: %s", path, dlerror());
    } else {
        vidmm_link_in_process(vm);
    }
    vm->ddi = d->ddi;
    vm->have_ddi = 1;
    vm->set_irql = d->set_irql;
    vm->driver_shared = 1;
    return WK_OK;
}

wk_status wk_vidmm_load_once(struct wk_vidmm *vm, struct wk_vidmm_driver *d, const char *path,
                             DRIVER_INITIALIZE *entry)
{
    return d->entered ? share(vm, d, path) : enter_first(vm, d, path, entry);
}

static int same_value(const struct wk_vidmm_registry_value *a, const struct wk_vidmm_registry_value *b)
{
    return strcasecmp(a->name, b->name) == 0 && a->type == b->type && a->size == b->size &&
           a->size <= sizeof(a->data) && memcmp(a->data, b->data, a->size) == 0;
}

/* Whether every value of a is in b (names compared as Windows does,
 * without regard to case). */
static int values_in(const struct wk_vidmm_registry *a, const struct wk_vidmm_registry *b)
{
    for (uint32_t i = 0; i < a->count && i < WK_VIDMM_REGISTRY_MAX; i++) {
        int found = 0;
        for (uint32_t j = 0; j < b->count && j < WK_VIDMM_REGISTRY_MAX && !found; j++)
            found = same_value(&a->values[i], &b->values[j]);
        if (!found)
            return 0;
    }
    return 1;
}

const char *wk_vidmm_driver_mismatch(const struct wk_vidmm_driver *d, const struct wk_vidmm_registry *registry)
{
    static const struct wk_vidmm_registry none;
    if (!d->entered)
        return NULL;
    const struct wk_vidmm_registry *r = registry ? registry : &none;
    if (r->count == d->registry.count && values_in(r, &d->registry) && values_in(&d->registry, r))
        return NULL;
    return "registry differs";
}
