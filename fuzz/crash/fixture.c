/* SPDX-License-Identifier: MIT */
/*
 * fixture.c - fuzz_patch and fuzz_render inputs as programs. A fuzz_patch
 * input is not a program, but the Patch call it makes is one
 * (patch_input.c: the harness's fixture and a `patch` step, folded for the
 * driver's context); a fuzz_render input is the program of its Render call
 * (render_input.c: the fixture with a context of the kind it renders on,
 * and a `render` step whose status is the reference's). minimize and
 * promote reduce that last step and write it back in the harness's format.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crash/crash_internal.h"
#include "reference.h"

struct ctxinfo {
    int ok;
    struct wk_render_target t;   /* the plain context's info, and the GDI context's */
    struct wk_vidmm_patch_slots slots; /* the GPU's patch slots, which fuzz_patch folds by */
    char why[320];
};

/* Child: the DXGK_CONTEXTINFO of a plain context on the driver (NULL: the
 * reference), which fuzz_patch folds its ranges by, and of a GDI context
 * when the driver makes one (fuzz_render's fixture renders there for
 * inputs that ask, fuzz/driver/fixture.c). */
static void ctxinfo_child(const void *arg, int fd)
{
    const char *driver = arg;
    static struct ctxinfo c;
    struct wk_vidmm_config cfg;
    struct wk_vidmm *vm = NULL;
    uint32_t dev = 0, ctx = 0, gdi = 0;
    memset(&cfg, 0, sizeof(cfg));
    memset(&c, 0, sizeof(c));
    /* The driver's binding, as the harness brings it up (a driver whose
     * registers the binding models starts only with it). */
    const char *binding = driver ? wk_crash_binding_of(driver) : NULL;
    if (binding && wk_vidmm_binding_open(binding, &cfg.binding, c.why, sizeof(c.why)) != WK_OK) {
        wk_write_all(fd, &c, sizeof(c));
        return;
    }
    wk_status st = wk_vidmm_create(&cfg, &vm);
    if (st == WK_OK)
        st = driver ? wk_vidmm_load(vm, driver) : wk_vidmm_attach(vm, wk_refdriver_DriverEntry);
    if (st == WK_OK)
        st = wk_vidmm_start(vm);
    if (st == WK_OK)
        st = wk_vidmm_create_device(vm, 0, &dev);
    if (st == WK_OK)
        st = wk_vidmm_create_context(vm, dev, 0, &ctx);
    if (st == WK_OK)
        st = wk_vidmm_context_info(vm, ctx, &c.t.info);
    if (st == WK_OK)
        wk_vidmm_patch_slots(vm, &c.slots);
    c.ok = st == WK_OK;
    c.t.gdi = c.ok && wk_vidmm_create_context(vm, dev, 0x2 /* GdiContext */, &gdi) == WK_OK &&
              wk_vidmm_context_info(vm, gdi, &c.t.gdi_info) == WK_OK;
    if (!c.ok)
        snprintf(c.why, sizeof(c.why), "%s: %.280s", wk_status_name(st), vm ? wk_vidmm_last_error(vm) : "");
    wk_vidmm_destroy(vm);
    wk_write_all(fd, &c, sizeof(c));
}

static const struct fixture_harness fixture_harnesses[] = {
    { "fuzz_patch", wk_patch_input_from_prog, wk_crash_minimize_patch_step },
    { "fuzz_render", wk_render_input_from_prog, wk_crash_minimize_render_step },
};

const struct fixture_harness *wk_crash_fixture_harness_of(const char *harness)
{
    for (size_t i = 0; i < sizeof(fixture_harnesses) / sizeof(fixture_harnesses[0]); i++)
        if (strcmp(fixture_harnesses[i].name, harness) == 0)
            return &fixture_harnesses[i];
    return NULL;
}

static int to_prog(const struct fixture_harness *h, const uint8_t *data, size_t size, const struct ctxinfo *c,
                   struct wk_prog *p)
{
    if (strcmp(h->name, "fuzz_patch") == 0)
        return wk_patch_input_to_prog(data, size, &c->t.info, &c->slots, p);
    return wk_render_input_to_prog(data, size, &c->t, p);
}

static void describe_input(const struct fixture_harness *h, const struct wk_prog *p, size_t bytes,
                           const struct ctxinfo *c)
{
    const struct wk_step *s = &p->steps[p->step_count - 1];
    if (s->patch)
        printf("input: %s: fuzz_patch input, %zu bytes, as a program: the harness's fixture and one patch step "
               "(DMA buffer %u bytes, patch list %u entries)\n", h->name, bytes, c->t.info.DmaBufferSize,
               c->t.info.PatchLocationListSize);
    else
        printf("input: %s: fuzz_render input, %zu bytes, as a program: the harness's fixture (%s context) and one "
               "render step (list %u entries, user patch list %u entries, command buffer %u bytes)\n", h->name,
               bytes, p->steps[1].flags & 0x2 ? "a GDI" : "a plain", s->render->list_length, s->render->patch_length,
               s->render->raw_length);
}
/* A fuzz_patch or fuzz_render file as the program that makes its call,
 * folded for the context of --driver (else the reference); NULL after
 * printing why. */
struct wk_prog *wk_crash_load_fixture_input(const struct wk_crash_options *o, const struct fixture_harness *h, size_t *bytes)
{
    static struct ctxinfo c;
    struct outcome out;
    wk_crash_run_child(ctxinfo_child, o->driver, o->driver, o->timeout_ms, &c, sizeof(c), &out);
    if (!out.answered || !c.ok) {
        fprintf(stderr, "wddmkit: %s: cannot read the DXGK_CONTEXTINFO %s folds by: %s\n",
                o->driver ? o->driver : "the reference driver", h->name,
                out.answered ? c.why : "the driver did not start");
        return NULL;
    }
    uint8_t *data = NULL;
    if (wk_crash_read_file(o->path, PROG_FILE_LIMIT, &data, bytes) != WK_OK)
        return NULL;
    struct wk_prog *p = malloc(sizeof(*p));
    if (!p || to_prog(h, data, *bytes, &c, p) != 0) {
        fprintf(stderr, "wddmkit: %s: out of memory\n", o->path);
        free(p);
        p = NULL;
    }
    free(data);
    if (p && p->steps[p->step_count - 1].render)
        wk_crash_expect_reference_status(p, o);
    if (p)
        describe_input(h, p, *bytes, &c);
    return p;
}

/* The minimized program back in the harness's format (malloc'd), or NULL. */
uint8_t *wk_crash_input_bytes(const struct fixture_harness *h, const struct wk_prog *p, size_t *n)
{
    uint8_t *data = NULL;
    char why[200];
    if (h->from_prog(p, &data, n, why, sizeof(why)) != 0)
        fprintf(stderr, "wddmkit: the minimized program has no %s form: %s\n", h->name, why);
    return data;
}
