/* SPDX-License-Identifier: MIT */
/*
 * binding.c - the hardware binding the driver under test runs with
 * (binding.h; fuzz_driver.h, "The hardware binding"): WK_BINDING=<module>,
 * else the driver module's own export of wk_binding, else none;
 * WK_BINDING=none refuses it, and so does WK_GPU=none (nothing executes
 * the driver's buffers, as `conform --gpu none` says).
 *
 * Decided and checked once per process, before the first input
 * (LLVMFuzzerInitialize, load.c): a binding the kit refuses (not loadable,
 * no wk_binding, another binding ABI) would refuse every input alike, so
 * the harness says why and exits 2 at start, as `conform` does before any
 * case runs, instead of aborting on every input (which the engines would
 * keep as a crash of whatever input came first). The module stays loaded
 * (wk_vidmm_binding_open opens it RTLD_NODELETE): adapters come and go,
 * the binding's code stays.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wddmkit/binding.h"

#include "internal.h"

/* WK_BINDING as given: NULL unset (the driver's own, if any), "none", or a path. */
static const char *binding_env(void)
{
    const char *e = getenv("WK_BINDING");
    return e && *e ? e : NULL;
}

static int gpu_none(void)
{
    const char *e = getenv("WK_GPU");
    return e && strcmp(e, "none") == 0;
}

/* Refused at start: the same message whatever input would have come first. */
static void refuse(const char *what, const char *why)
{
    fprintf(stderr, "fuzz_driver: cannot fuzz with the hardware binding %s: %s\n", what, why);
    exit(2);
}

/* The binding found (NULL: none) and where from, said once. */
static const struct wk_binding *choose(const char **from)
{
    char why[512] = "";
    const struct wk_binding *b = NULL;
    const char *env = binding_env(), *driver = wk_fuzz_driver_path();
    *from = NULL;
    if ((env && strcmp(env, "none") == 0) || gpu_none())
        return NULL;
    if (env) {
        if (wk_vidmm_binding_open(env, &b, why, sizeof(why)) != WK_OK)
            refuse(env, why);
        *from = env;
        return b;
    }
    if (!driver)
        return NULL;
    wk_status st = wk_vidmm_binding_exported(driver, &b, why, sizeof(why));
    if (st == WK_E_NOT_FOUND)
        return NULL; /* the driver exports none: fuzzed without one */
    if (st != WK_OK)
        refuse(driver, why);
    *from = driver;
    return b;
}

const struct wk_binding *wk_fuzz_dut_binding(void)
{
    struct wk_fuzzdrv_state *s = wk_fuzzdrv_state();
    if (s->binding_decided)
        return s->binding;
    const char *from = NULL;
    s->binding = choose(&from);
    s->binding_decided = 1;
    if (s->binding) {
        char desc[512];
        wk_vidmm_binding_describe(s->binding, desc, sizeof(desc));
        fprintf(stderr, "fuzz_driver: the driver under test runs with the hardware %s, from %s\n", desc,
                from == wk_fuzz_driver_path() ? "the driver module itself" : from);
    }
    return s->binding;
}

int wk_fuzz_dut_binding_executes(void)
{
    const struct wk_binding *b = wk_fuzz_dut_binding();
    return b && b->processor;
}

int wk_fuzz_dut_binding_encodes(void)
{
    const struct wk_binding *b = wk_fuzz_dut_binding();
    return b && b->encoder && b->encoder->render;
}
