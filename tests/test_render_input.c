/* SPDX-License-Identifier: MIT */
/*
 * test_render_input.c - fuzz_render inputs as step programs
 * (fuzz/inputs/render_input.c) and the render step's new fields in the
 * YAML loader/writer and the binary codec.
 *
 * Why: a promoted fuzz_render regression is only worth something if the
 * program makes exactly the Render call the harness made. So the harness
 * itself (harnesses/fuzz_render.c, with fuzz/driver/fixture.c, linked in) and
 * the interpreter running the converted program are both observed at
 * wk_vidmm_render (the linker's --wrap): command buffer, allocation list
 * (which fixture allocation, write flag), user patch-location list (every
 * byte), the pre-patch flag and the context's kind must all be equal. A
 * field the conversion dropped or mangled fails here.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "conformance.h"
#include "fuzz.h"
#include "harness.h"

/* ------------------------------------------------------------------ */
/* What reaches wk_vidmm_render                                         */
/* ------------------------------------------------------------------ */

struct seen_entry {
    int null;
    uint64_t size;               /* which fixture allocation: size and segment */
    uint32_t segment;
    int write;
};

struct seen {
    uint32_t calls;
    uint32_t context;
    uint32_t command_length;
    uint8_t command[WK_RENDER_MAX_COMMAND];
    uint32_t list_length;
    struct seen_entry list[WK_RENDER_MAX_LIST];
    uint32_t patch_length;
    int patch_null;
    D3DDDI_PATCHLOCATIONLIST patch[WK_RENDER_MAX_PATCH];
    int no_prepatch_info;
};

static struct seen *recording;

wk_status __real_wk_vidmm_render(struct wk_vidmm *vm, const struct wk_vidmm_render *args,
                                 struct wk_vidmm_render_result *result);
wk_status __wrap_wk_vidmm_render(struct wk_vidmm *vm, const struct wk_vidmm_render *args,
                                 struct wk_vidmm_render_result *result);

static void record(struct wk_vidmm *vm, const struct wk_vidmm_render *a, struct seen *s)
{
    memset(s, 0, sizeof(*s));
    s->calls = 1;
    s->context = a->context;
    s->command_length = a->command_length;
    if (a->command_length <= sizeof(s->command) && a->command_length)
        memcpy(s->command, a->command, a->command_length);
    s->list_length = a->list_length;
    for (uint32_t i = 0; i < a->list_length && i < WK_RENDER_MAX_LIST; i++) {
        struct wk_vidmm_allocation_state st;
        memset(&st, 0, sizeof(st));
        s->list[i].null = a->list[i].allocation == 0;
        if (!s->list[i].null && wk_vidmm_allocation_state(vm, a->list[i].allocation, &st) == WK_OK) {
            s->list[i].size = st.size;
            s->list[i].segment = st.segment_id;
        }
        s->list[i].write = a->list[i].write;
    }
    s->patch_length = a->patch_in_length;
    s->patch_null = a->patch_in == NULL;
    if (a->patch_in && a->patch_in_length <= WK_RENDER_MAX_PATCH)
        memcpy(s->patch, a->patch_in, a->patch_in_length * sizeof(s->patch[0]));
    s->no_prepatch_info = a->no_prepatch_info;
}

wk_status __wrap_wk_vidmm_render(struct wk_vidmm *vm, const struct wk_vidmm_render *args,
                                 struct wk_vidmm_render_result *result)
{
    if (recording && !recording->calls)
        record(vm, args, recording);
    return __real_wk_vidmm_render(vm, args, result);
}

static void assert_same_call(const struct seen *h, const struct seen *p, const char *what)
{
    if (h->calls != 1 || h->calls != p->calls)
        fail_msg("%s: Render called %u times by the harness, %u by the program", what, h->calls, p->calls);
    if (h->command_length != p->command_length || memcmp(h->command, p->command, h->command_length) != 0)
        fail_msg("%s: command buffers differ (%u and %u bytes)", what, h->command_length, p->command_length);
    if (h->list_length != p->list_length)
        fail_msg("%s: allocation lists of %u and %u entries", what, h->list_length, p->list_length);
    for (uint32_t i = 0; i < h->list_length; i++)
        if (h->list[i].null != p->list[i].null || h->list[i].size != p->list[i].size ||
            h->list[i].segment != p->list[i].segment || h->list[i].write != p->list[i].write)
            fail_msg("%s: list entry %u differs (null %d/%d, size %llu/%llu, segment %u/%u, write %d/%d)", what, i,
                     h->list[i].null, p->list[i].null, (unsigned long long)h->list[i].size,
                     (unsigned long long)p->list[i].size, h->list[i].segment, p->list[i].segment, h->list[i].write,
                     p->list[i].write);
    if (h->patch_length != p->patch_length || h->patch_null != p->patch_null ||
        memcmp(h->patch, p->patch, h->patch_length * sizeof(h->patch[0])) != 0)
        fail_msg("%s: user patch lists differ (%u and %u entries)", what, h->patch_length, p->patch_length);
    if (h->no_prepatch_info != p->no_prepatch_info)
        fail_msg("%s: no_prepatch_info %d and %d", what, h->no_prepatch_info, p->no_prepatch_info);
}

/* ------------------------------------------------------------------ */
/* The harness and the program, side by side                            */
/* ------------------------------------------------------------------ */

static struct wk_render_target target_of(const struct wk_fuzz_fixture *f)
{
    struct wk_render_target t;
    memset(&t, 0, sizeof(t));
    t.info = f->info;
    t.gdi = f->gdi_context != 0;
    t.gdi_info = f->gdi_info;
    return t;
}

/* Runs one input through the harness and as a program; compares. */
static void check_input(const uint8_t *data, size_t size, const char *what)
{
    static struct seen by_harness, by_program;
    static struct wk_prog p;
    static struct wk_case_result r;
    struct wk_fuzz_fixture *f = wk_fuzz_fixture("fuzz_render");
    assert_non_null(f);
    struct wk_render_target t = target_of(f);
    struct wk_render_input in;
    wk_render_parse(data, size, &in);
    int gdi = (in.flags & WK_RENDER_GDI) && t.gdi;

    recording = &by_harness;
    by_harness.calls = 0;
    LLVMFuzzerTestOneInput(data, size);
    assert_int_equal(by_harness.context, gdi ? f->gdi_context : f->context);

    assert_int_equal(wk_render_input_to_prog(data, size, &t, &p), 0);
    assert_int_equal(p.steps[1].flags, gdi ? 0x2u : 0u); /* the context of the kind the harness used */
    recording = &by_program;
    by_program.calls = 0;
    struct wk_run_options o = { .driver = NULL };
    wk_prog_run(&p, &o, &r);
    recording = NULL;
    assert_same_call(&by_harness, &by_program, what);
    wk_prog_free(&p);
}

/* Every field of the format at a value other than its default. */
static size_t every_field(uint8_t *b)
{
    size_t n = 0;
    b[n++] = WK_RENDER_NO_PREPATCH | WK_RENDER_GDI;
    b[n++] = 3;                  /* list entries */
    b[n++] = 2;                  /* user patch entries */
    b[n++] = 0;
    b[n++] = 1;                  /* slot 1, read */
    b[n++] = 6 | WK_RENDER_WRITE; /* slot 6, written */
    b[n++] = 0;                  /* a NULL entry */
    for (uint32_t e = 0; e < 2; e++)
        for (uint32_t k = 0; k < WK_RENDER_PATCH_ENTRY; k++)
            b[n++] = (uint8_t)(0x11 * (k + 1) + e); /* reserved byte (7) included */
    static const uint8_t cmd[] = { 'W', 'K', 'C', 'B', 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0,
                                   3, 0, 0, 0, 24, 0, 0, 0, 1, 0, 0, 0, 8, 0, 0, 0, 0xEF, 0xBE, 0xAD, 0xDE,
                                   0, 0, 0, 0 };
    memcpy(b + n, cmd, sizeof(cmd));
    return n + sizeof(cmd);
}

static void test_same_render_as_harness(void **state)
{
    (void)state;
    uint8_t b[WK_RENDER_HEADER + WK_RENDER_MAX_LIST + WK_RENDER_MAX_PATCH * WK_RENDER_PATCH_ENTRY + 64];
    size_t n = every_field(b);
    check_input(b, n, "every field");
    b[0] = 0; /* plain context, pre-patch info */
    check_input(b, n, "plain context");
    check_input(b, 0, "empty input");
    check_input(b, 30, "a patch entry cut short");
    uint8_t big[WK_RENDER_HEADER + WK_RENDER_MAX_COMMAND + 100];
    memset(big, 0, sizeof(big));
    big[1] = WK_RENDER_MAX_LIST; /* folded by the context's AllocationListSize */
    big[2] = WK_RENDER_MAX_PATCH;
    for (size_t i = WK_RENDER_HEADER; i < sizeof(big); i++)
        big[i] = (uint8_t)(i * 7 + 1);
    check_input(big, sizeof(big), "every list and buffer at its largest");
}

/* The committed seeds, and random bytes. */
static void test_seeds_and_noise(void **state)
{
    (void)state;
    const char *dir = WK_SOURCE_DIR "/corpus/fuzz_render/seeds";
    DIR *d = opendir(dir);
    assert_non_null(d);
    static uint8_t buf[1 << 16];
    uint32_t files = 0;
    for (struct dirent *e; (e = readdir(d));) {
        char path[1024];
        if (e->d_name[0] == '.' || files++ % 4 != 0)
            continue;
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        size_t n = fread(buf, 1, sizeof(buf), f);
        fclose(f);
        check_input(buf, n, e->d_name);
    }
    closedir(d);
    assert_true(files > 10);
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (int k = 0; k < 200; k++) {
        size_t n = (size_t)(x % 2000);
        for (size_t i = 0; i < n; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            buf[i] = (uint8_t)x;
        }
        check_input(buf, n, "random bytes");
    }
}

/* input -> program -> bytes -> program: the same program. */
static void test_back_to_bytes(void **state)
{
    (void)state;
    static struct wk_prog p, q;
    static uint8_t a[1 << 16], b[1 << 16];
    struct wk_render_target t;
    memset(&t, 0, sizeof(t));
    t.info.AllocationListSize = 20;
    t.info.PatchLocationListSize = 10;
    t.gdi = 1;
    t.gdi_info = t.info;
    uint8_t in[WK_RENDER_HEADER + WK_RENDER_MAX_LIST + WK_RENDER_MAX_PATCH * WK_RENDER_PATCH_ENTRY + 64];
    size_t n = every_field(in);
    assert_int_equal(wk_render_input_to_prog(in, n, &t, &p), 0);
    uint8_t *data = NULL;
    size_t size = 0;
    char why[200];
    if (wk_render_input_from_prog(&p, &data, &size, why, sizeof(why)) != 0)
        fail_msg("no fuzz_render form: %s", why);
    assert_int_equal(size, n);
    assert_memory_equal(data, in, n);
    assert_int_equal(wk_render_input_to_prog(data, size, &t, &q), 0);
    assert_int_equal(wk_prog_encode(&p, a, sizeof(a)), wk_prog_encode(&q, b, sizeof(b)));
    assert_memory_equal(a, b, wk_prog_encode(&p, NULL, 0));
    free(data);
    p.steps[p.step_count - 1].render->context = 1; /* not the fixture's context */
    assert_int_equal(wk_render_input_from_prog(&p, &data, &size, why, sizeof(why)), -1);
    assert_non_null(strstr(why, "context"));
    p.steps[p.step_count - 1].render->context = 0;
    p.steps[3].kind = WK_STEP_EVICT; /* not the fixture */
    assert_int_equal(wk_render_input_from_prog(&p, &data, &size, why, sizeof(why)), -1);
    assert_non_null(strstr(why, "fixture"));
    wk_prog_free(&p);
    wk_prog_free(&q);
}

/* ------------------------------------------------------------------ */
/* The new render fields in YAML and in the codec                      */
/* ------------------------------------------------------------------ */

/* A program with every new field: a GDI context, a 32-entry list, user
 * patch locations with every field (reserved too), a 5000-byte raw buffer. */
static void wide_program(struct wk_prog *p)
{
    struct wk_render_target t;
    memset(&t, 0, sizeof(t));
    t.info.AllocationListSize = 64;
    t.info.PatchLocationListSize = 64;
    t.gdi = 1;
    t.gdi_info = t.info;
    static uint8_t in[WK_RENDER_HEADER + WK_RENDER_MAX_LIST + WK_RENDER_MAX_PATCH * WK_RENDER_PATCH_ENTRY + 5000];
    in[0] = WK_RENDER_GDI;
    in[1] = WK_RENDER_MAX_LIST;
    in[2] = WK_RENDER_MAX_PATCH;
    for (size_t i = WK_RENDER_HEADER; i < sizeof(in); i++)
        in[i] = (uint8_t)(i * 13 + 5);
    for (uint32_t i = 0; i < WK_RENDER_MAX_LIST; i++)
        in[WK_RENDER_HEADER + i] = (uint8_t)((i % 8) | (i & 1 ? WK_RENDER_WRITE : 0));
    assert_int_equal(wk_render_input_to_prog(in, sizeof(in), &t, p), 0);
    const struct wk_prog_render *r = p->steps[p->step_count - 1].render;
    assert_int_equal(r->list_length, 32);
    assert_int_equal(r->patch_length, 32);
    assert_int_equal(r->raw_length, 5000);
    assert_true(r->patch[0].reserved != 0);
    p->requires = WK_REQ_RENDER;
}

static size_t encode(const struct wk_prog *p, uint8_t *buf, size_t cap)
{
    size_t n = wk_prog_encode(p, buf, cap);
    assert_true(n <= cap);
    return n;
}

static void test_yaml_round_trip(void **state)
{
    (void)state;
    static struct wk_prog p;
    static uint8_t a[1 << 17], b[1 << 17];
    wide_program(&p);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    assert_int_equal(wk_prog_write_yaml(&p, "fuzz", "fuzz.wide-render", "every new render field", f), 0);
    fclose(f);
    assert_non_null(strstr(text, "reserved: 0x"));
    assert_non_null(strstr(text, "gdi"));
    struct wk_spec_set set;
    struct wk_diag d;
    wk_spec_set_init(&set);
    wk_diag_init(&d, 4);
    if (wk_spec_load_buffer(&set, "wide.yaml", (const uint8_t *)text, len, &d) != WK_OK || set.count != 1) {
        wk_diag_print(&d, stderr);
        fail_msg("the YAML written does not load back:\n%s", text);
    }
    size_t n = encode(&p, a, sizeof(a));
    assert_int_equal(encode(set.progs[0], b, sizeof(b)), n);
    assert_memory_equal(a, b, n);
    wk_spec_set_free(&set);
    wk_diag_free(&d);
    free(text);
    wk_prog_free(&p);
}

static void test_codec_round_trip(void **state)
{
    (void)state;
    static struct wk_prog p, q;
    static uint8_t a[1 << 17], b[1 << 17];
    wide_program(&p);
    size_t n = encode(&p, a, sizeof(a));
    wk_prog_decode(a, n, &q);
    assert_int_equal(encode(&q, b, sizeof(b)), n);
    assert_memory_equal(a, b, n);
    const struct wk_prog_render *r = q.steps[q.step_count - 1].render;
    assert_int_equal(r->patch_length, 32);
    assert_int_equal(r->raw_length, 5000);
    assert_memory_equal(r->patch, p.steps[p.step_count - 1].render->patch, sizeof(r->patch));
    wk_prog_free(&q);
    /* Without the wide bit a render decodes with the old limits (16
     * entries, 512 raw bytes, no user patch list): committed files. */
    static const uint8_t narrow[] = { 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* header */
                                      1, WK_STEP_RENDER, 0, 0, 2 /* raw */, 40, [51] = 0xFF, 0xFF };
    wk_prog_decode(narrow, sizeof(narrow), &q);
    r = q.steps[0].render;
    assert_non_null(r);
    assert_int_equal(r->list_length, 16);
    assert_int_equal(r->patch_length, 0);
    assert_int_equal(r->raw_length, 512);
    wk_prog_free(&q);
    wk_prog_free(&p);
}

/* The loader's messages for the new keys: file:line:column, the key, what
 * it expected and what it saw. */
static void expect_error(const char *steps, const char *want)
{
    static char text[65536];
    snprintf(text, sizeof(text),
             "area: t\ncases:\n  - id: t.a\n    describe: d\n    requires: [render]\n    steps:\n"
             "      - create_device\n      - create_context\n%s",
             steps);
    struct wk_spec_set set;
    struct wk_diag d;
    wk_spec_set_init(&set);
    wk_diag_init(&d, 8);
    wk_status st = wk_spec_load_buffer(&set, "t.yaml", (const uint8_t *)text, strlen(text), &d);
    char *got = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&got, &len);
    wk_diag_print(&d, f);
    fclose(f);
    if (getenv("SHOW"))
        fprintf(stderr, "%s", got);
    if (st == WK_OK || !strstr(got, want))
        fail_msg("expected an error containing\n  %s\nsaw (%s):\n%s", want, wk_status_name(st), got);
    free(got);
    wk_spec_set_free(&set);
    wk_diag_free(&d);
}

static void test_loader_errors(void **state)
{
    (void)state;
    expect_error("      - render: {patches: [{allocation_index: 0, patch_offset: 0, reserved: 256}]}\n",
                 "t.yaml:9:77: case 't.a': step 2 (render): patches[0]: key 'reserved': expected an integer in 0..255, "
                 "saw '256'");
    expect_error("      - render: {patches: [{allocation_index: 0}]}\n", "t.yaml:9:28: case 't.a': step 2 (render): patches[0]: missing required key 'patch_offset'");
    expect_error("      - render: {patches: [{allocation_index: 0, patch_offset: 0, color: 1}]}\n",
                 "t.yaml:9:67: case 't.a': step 2 (render): patches[0]: unknown key 'color' (expected one of: "
                 "allocation_index, patch_offset, allocation_offset, slot_id, split_offset, driver_id, reserved)");
    expect_error("      - render: {patches: 3}\n", "t.yaml:9:27: case 't.a': step 2 (render): key 'patches': expected a sequence, saw '3'");
    expect_error("      - render: {raw: [\"00\", \"zz\"]}\n", "t.yaml:9:30: case 't.a': step 2 (render): key 'raw', entry 1: "
                 "expected hex bytes (pairs of hex digits, spaces allowed between bytes), saw \"zz\"");
    expect_error("      - render: {raw: [\"00\", [1]]}\n", "t.yaml:9:30: case 't.a': step 2 (render): key 'raw', entry "
                 "1: expected hex bytes (pairs of hex digits, spaces allowed between bytes), saw a sequence");
    /* 17 strings of 1 KiB: past 16 KiB in all */
    char steps[40000];
    size_t n = (size_t)snprintf(steps, sizeof(steps), "      - render:\n          raw:\n");
    for (int k = 0; k < 17; k++) {
        n += (size_t)snprintf(steps + n, sizeof(steps) - n, "            - \"");
        for (int i = 0; i < 1024; i++)
            n += (size_t)snprintf(steps + n, sizeof(steps) - n, "ab");
        n += (size_t)snprintf(steps + n, sizeof(steps) - n, "\"\n");
    }
    expect_error(steps, "t.yaml:27:15: case 't.a': step 2 (render): key 'raw': expected at most 16384 bytes in all, saw "
                        "17408 by entry 16");
}

int main(void)
{
    setenv("WK_FUZZ_NO_ABORT", "1", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_render_as_harness),
        cmocka_unit_test(test_seeds_and_noise),
        cmocka_unit_test(test_back_to_bytes),
        cmocka_unit_test(test_yaml_round_trip),
        cmocka_unit_test(test_codec_round_trip),
        cmocka_unit_test(test_loader_errors),
    };
    return cmocka_run_group_tests_name("render_input", tests, NULL, NULL);
}
