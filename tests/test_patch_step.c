/* SPDX-License-Identifier: MIT */
/*
 * test_patch_step.c - the `patch` step (DxgkDdiPatch called directly):
 *
 *   - the loader's diagnostics for bad patch steps, compared in full with
 *     their file:line:column (a bad field, a wrong type, values out of
 *     range, keys that exclude each other, DMA entries out of order);
 *   - YAML round trips: programs with patch steps written by
 *     wk_prog_write_yaml load back to the same program, DMA content of up
 *     to 64 KiB included;
 *   - the binary codec: decode(encode(p)) == p, truncated and random
 *     inputs decode to valid payloads; the reserved bits above SlotId
 *     travel behind a flag bit that steps without them never set, so the
 *     committed corpus files keep their bytes;
 *   - the interpreter: the reference driver passes, buggy_patch_offset.so
 *     trips PATCH-CONFINE-001, overlapping judged slots and missing objects
 *     are refused with their statuses, and the driver's Patch sees each
 *     entry's reserved bits as the step sets them;
 *   - fuzz_patch inputs as programs: every seed of corpus/fuzz_patch/seeds
 *     converts, converts back to the same program (not once a location
 *     sets reserved bits, which that format cannot hold), and passes on
 *     the reference as it does through the harness.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

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
#include "reference.h"

#ifndef WK_SOURCE_DIR
#define WK_SOURCE_DIR "."
#endif

/* ------------------------------------------------------------------ */
/* Helpers                                                              */
/* ------------------------------------------------------------------ */

static uint64_t rng(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 17;
}

/* The messages of loading `yaml` as t.yaml, joined by newlines. */
static int load_messages(const char *yaml, char *out, size_t size, struct wk_spec_set *set)
{
    struct wk_diag d;
    wk_spec_set_init(set);
    wk_diag_init(&d, 16);
    wk_status st = wk_spec_load_buffer(set, "t.yaml", (const uint8_t *)yaml, strlen(yaml), &d);
    size_t at = 0;
    out[0] = '\0';
    for (uint32_t i = 0; i < d.count && at < size; i++)
        at += (size_t)snprintf(out + at, size - at, "%s%s", i ? "\n" : "", d.messages[i]);
    int errors = (int)d.errors;
    wk_diag_free(&d);
    return st == WK_OK && errors == 0 ? 0 : errors;
}

/* Loading must report exactly `want` (one error) and load nothing. */
static void expect_error(const char *yaml, const char *want)
{
    char seen[4096];
    struct wk_spec_set set;
    int errors = load_messages(yaml, seen, sizeof(seen), &set);
    if (errors != 1 || strcmp(seen, want) != 0 || set.count != 0)
        fail_msg("expected exactly one error:\n    %s\nsaw %d:\n    %s", want, errors, seen);
    wk_spec_set_free(&set);
}

/* A case whose patch step is on line 9 (`      - patch: ` then its flow mapping at column 16). */
#define CASE(patch)                                                                                \
    "area: t\ncases:\n  - id: t.a\n    describe: x\n    steps:\n      - create_device\n"           \
    "      - create_allocation: {as: a, size: 4KiB}\n      - create_context\n      - patch: " patch "\n"

/* ------------------------------------------------------------------ */
/* Loader diagnostics                                                   */
/* ------------------------------------------------------------------ */

static void test_parse_errors(void **state)
{
    (void)state;
    expect_error(CASE("{list: [{allocation: a}]}"),
                 "t.yaml:9:16: case 't.a': step 3 (patch): missing required key 'end'");
    expect_error(CASE("{end: 16, patches: [{allocation_index: 0, patch_offset: 8, slot: 1}]}"),
                 "t.yaml:9:75: case 't.a': step 3 (patch): patches[0]: unknown key 'slot' (expected one of: "
                 "allocation_index, patch_offset, allocation_offset, slot_id, split_offset, driver_id, reserved)");
    expect_error(CASE("{end: 16, patches: [{allocation_index: 0, patch_offset: 8, reserved: 0x100}]}"),
                 "t.yaml:9:85: case 't.a': step 3 (patch): patches[0]: key 'reserved': expected an integer in 0..255, saw '0x100'");
    expect_error(CASE("{end: 16, patches: [{allocation_index: 0, patch_offset: 8}, {allocation_index: 0, patch_offset: 16, reserved: -1}]}"),
                 "t.yaml:9:126: case 't.a': step 3 (patch): patches[1]: key 'reserved': expected an integer in 0..255, saw '-1'");
    expect_error(CASE("{end: \"16\"}"),
                 "t.yaml:9:22: case 't.a': step 3 (patch): key 'end': expected a size (a number with an optional unit B, KiB, MiB or GiB), saw \"16\"");
    expect_error(CASE("{end: 16, list: {allocation: a}}"),
                 "t.yaml:9:32: case 't.a': step 3 (patch): key 'list': expected a sequence, saw a mapping");
    expect_error(CASE("{end: 16, list: [{allocation: a, segment: 32}]}"),
                 "t.yaml:9:58: case 't.a': step 3 (patch): list[0]: key 'segment': expected an integer in 0..31, saw '32'");
    expect_error(CASE("{end: 16, patches: [{allocation_index: 0, patch_offset: 8, slot_id: 0x1000000}]}"),
                 "t.yaml:9:84: case 't.a': step 3 (patch): patches[0]: key 'slot_id': expected an integer in 0..16777215, saw '0x1000000'");
    expect_error(CASE("{end: 16, start: 32}"),
                 "t.yaml:9:33: case 't.a': step 3 (patch): key 'start': expected a size in 0..16, saw '32'");
    expect_error(CASE("{end: 16, patches: [{allocation_index: 0, patch_offset: 8}], patch_count: 2}"),
                 "t.yaml:9:90: case 't.a': step 3 (patch): key 'patch_count': expected an integer in 0..1, saw '2'");
    expect_error(CASE("{end: 16, list: [{allocation: a, null: true}]}"),
                 "t.yaml:9:34: case 't.a': step 3 (patch): list[0]: keys 'allocation' and 'null' exclude each other");
    expect_error(CASE("{end: 16, list: [{allocation: a, resident: true, address: 0}]}"),
                 "t.yaml:9:65: case 't.a': step 3 (patch): list[0]: key 'address': not with resident: true");
    expect_error(CASE("{end: 16, list: [{allocation: b}]}"),
                 "t.yaml:9:46: case 't.a': step 3 (patch): list[0]: key 'allocation': expected the name of an allocation "
                 "created by an earlier step, saw 'b'");
    expect_error(CASE("{end: 16, dma: [{offset: 8, bytes: \"01 02\"}, {offset: 9, bytes: \"03\"}]}"),
                 "t.yaml:9:70: case 't.a': step 3 (patch): dma[1]: key 'offset': expected at least 0xa (entries in order, not overlapping), saw '9'");
    expect_error(CASE("{end: 16, dma: [{offset: 0xFFFF, bytes: \"01 02\"}]}"),
                 "t.yaml:9:32: case 't.a': step 3 (patch): dma[0]: key 'bytes': 2 bytes at 0xffff end past the 65536 bytes a patch step sets");
    expect_error(CASE("{end: 16, dma: [{offset: 0, bytes: \"0g\"}]}"),
                 "t.yaml:9:51: case 't.a': step 3 (patch): dma[0]: key 'bytes': expected hex bytes (pairs of hex "
                 "digits, spaces allowed between bytes), saw \"0g\"");
}

/* ------------------------------------------------------------------ */
/* Programs with patch steps                                            */
/* ------------------------------------------------------------------ */

static struct wk_prog *new_prog(void)
{
    struct wk_prog *p = malloc(sizeof(*p));
    assert_non_null(p);
    wk_prog_init(p);
    snprintf(p->id, sizeof(p->id), "t.patch");
    snprintf(p->area, sizeof(p->area), "t");
    snprintf(p->describe, sizeof(p->describe), "patch step");
    return p;
}

static struct wk_step *add(struct wk_prog *p, enum wk_step_kind kind)
{
    struct wk_step *s = &p->steps[p->step_count++];
    memset(s, 0, sizeof(*s));
    s->kind = kind;
    return s;
}

/* Device, context, one paged-in 4 KiB allocation in segment 1, then a patch
 * step with room for `dma` bytes (returned). */
static struct wk_prog_patch *patch_prog(struct wk_prog *p, uint32_t dma)
{
    add(p, WK_STEP_CREATE_DEVICE);
    add(p, WK_STEP_CREATE_CONTEXT);
    struct wk_step *a = add(p, WK_STEP_CREATE_ALLOCATION);
    a->alloc.size = 4096;
    a->alloc.preferred = 1;
    add(p, WK_STEP_PAGE_IN);
    struct wk_step *s = add(p, WK_STEP_PATCH);
    s->patch = wk_prog_patch_new(dma);
    assert_non_null(s->patch);
    return s->patch;
}

/* A random payload the loader can express (see test_fuzztools.c too). */
static void randomize(struct wk_prog_patch *g, uint64_t *seed)
{
    g->list_length = (uint32_t)(rng(seed) % (WK_PROG_MAX_PATCH_LIST + 1));
    for (uint32_t i = 0; i < g->list_length; i++) {
        struct wk_prog_patch_entry *e = &g->list[i];
        e->allocation = (uint32_t)(rng(seed) % 2);
        e->write = (int)(rng(seed) & 1);
        e->resident = e->allocation && (rng(seed) & 1);
        e->segment_id = e->resident ? 0 : (uint32_t)(rng(seed) % 32);
        e->address = e->resident ? 0 : rng(seed) << 20;
    }
    g->patch_length = (uint32_t)(rng(seed) % (WK_PROG_MAX_PATCHES + 1));
    int reserved = (int)(rng(seed) & 1); /* half the payloads set the bits above SlotId, half leave them 0 */
    for (uint32_t i = 0; i < g->patch_length; i++)
        g->patch[i] = (struct wk_prog_patch_location){ (uint32_t)(rng(seed) % 20), (uint32_t)(rng(seed) & 0xFFFFFF),
                                                       (uint32_t)rng(seed), (uint32_t)rng(seed), (uint32_t)rng(seed),
                                                       (uint32_t)rng(seed),
                                                       reserved && rng(seed) % 3 ? (uint32_t)(rng(seed) & 0xFF) : 0 };
    g->end = (uint32_t)rng(seed);
    g->start = (uint32_t)(rng(seed) % ((uint64_t)g->end + 1));
    g->patch_start = (uint32_t)(rng(seed) % (g->patch_length + 1));
    g->patch_count = (uint32_t)(rng(seed) % (g->patch_length - g->patch_start + 1));
    for (uint32_t i = 0; i < g->dma_length; i++)
        g->dma[i] = (i / 700) % 2 ? 0 : (uint8_t)rng(seed);
    wk_prog_patch_trim(g);
}

static uint8_t *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static uint8_t buf[1 << 20];
    *n = fread(buf, 1, sizeof(buf), f);
    fclose(f);
    return buf;
}

static size_t encode(const struct wk_prog *p, uint8_t **out)
{
    size_t n = wk_prog_encode(p, NULL, 0);
    *out = malloc(n);
    assert_non_null(*out);
    assert_int_equal(wk_prog_encode(p, *out, n), n);
    return n;
}

static void assert_same_program(const struct wk_prog *a, const struct wk_prog *b)
{
    uint8_t *x, *y;
    size_t nx = encode(a, &x), ny = encode(b, &y);
    if (nx != ny || memcmp(x, y, nx) != 0)
        fail_msg("the programs differ (%zu vs %zu encoded bytes)", nx, ny);
    free(x);
    free(y);
}

/* Writes p as YAML and loads it back (the caller frees the set). */
static const struct wk_prog *yaml_round_trip(const struct wk_prog *p, struct wk_spec_set *set)
{
    char *text = NULL, seen[4096];
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    assert_int_equal(wk_prog_write_yaml(p, NULL, NULL, NULL, f), 0);
    assert_int_equal(fclose(f), 0);
    int errors = load_messages(text, seen, sizeof(seen), set);
    if (errors || set->count != 1)
        fail_msg("the YAML written does not load back: %s\n%s", seen, text);
    free(text);
    return set->progs[0];
}

static void test_yaml_round_trip(void **state)
{
    (void)state;
    uint64_t seed = 99;
    for (int round = 0; round < 200; round++) {
        struct wk_prog *p = new_prog();
        uint32_t dma = round == 0 ? WK_PROG_MAX_DMA : round % 3 ? (uint32_t)(rng(&seed) % 5000) : 0;
        struct wk_prog_patch *g = patch_prog(p, dma);
        randomize(g, &seed);
        if (round == 0) /* the largest content: every byte non-zero, 64 entries of 1 KiB */
            for (uint32_t i = 0; i < WK_PROG_MAX_DMA; i++)
                g->dma[i] = (uint8_t)(1 + i % 255);
        g->dma_length = round == 0 ? WK_PROG_MAX_DMA : g->dma_length;
        p->steps[p->step_count - 1].expect_status = round % 4 ? WK_OK : WK_E_INVALID_ARGUMENT;
        struct wk_spec_set set;
        assert_same_program(p, yaml_round_trip(p, &set));
        wk_spec_set_free(&set);
        wk_prog_free(p);
        free(p);
    }
}

/* A patch step's reserved bits are written as `reserved` (only where not
 * 0) and load back; patch steps without them write no such key. */
static void test_yaml_reserved(void **state)
{
    (void)state;
    struct wk_prog *p = new_prog();
    struct wk_prog_patch *g = patch_prog(p, 4);
    memcpy(g->dma, "\x11\x22\x33\x44", 4);
    g->patch_length = 2;
    g->patch[0] = (struct wk_prog_patch_location){ .allocation_index = 0, .patch_offset = 8, .reserved = 0x80 };
    g->patch[1] = (struct wk_prog_patch_location){ .allocation_index = 1, .patch_offset = 16, .slot_id = 3 };
    g->end = 32;
    g->patch_count = 2;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    assert_int_equal(wk_prog_write_yaml(p, NULL, NULL, NULL, f), 0);
    assert_int_equal(fclose(f), 0);
    assert_non_null(strstr(text, "{allocation_index: 0, patch_offset: 0x8, reserved: 0x80}"));
    assert_non_null(strstr(text, "{allocation_index: 1, patch_offset: 0x10, slot_id: 3}"));
    free(text);
    struct wk_spec_set set;
    const struct wk_prog *q = yaml_round_trip(p, &set);
    assert_int_equal(q->steps[4].patch->patch[0].reserved, 0x80);
    assert_int_equal(q->steps[4].patch->patch[1].reserved, 0);
    assert_same_program(p, q);
    wk_spec_set_free(&set);
    wk_prog_free(p);
    free(p);
}

static void test_codec_round_trip(void **state)
{
    (void)state;
    uint64_t seed = 5;
    static struct wk_prog q;
    for (int round = 0; round < 200; round++) {
        struct wk_prog *p = new_prog();
        randomize(patch_prog(p, round == 0 ? WK_PROG_MAX_DMA : (uint32_t)(rng(&seed) % 3000)), &seed);
        uint8_t *bytes;
        size_t n = encode(p, &bytes);
        wk_prog_decode(bytes, n, &q);
        assert_int_equal(q.step_count, p->step_count);
        assert_same_program(p, &q);
        const struct wk_prog_patch *a = p->steps[4].patch, *b = q.steps[4].patch;
        assert_int_equal(a->dma_length, b->dma_length);
        assert_memory_equal(a->dma, b->dma, a->dma_length);
        wk_prog_free(&q);
        for (size_t cut = 0; cut < n; cut += 1 + n / 16) { /* every prefix decodes to valid payloads */
            wk_prog_decode(bytes, cut, &q);
            for (uint32_t i = 0; i < q.step_count; i++) {
                const struct wk_prog_patch *g = q.steps[i].patch;
                if (q.steps[i].kind != WK_STEP_PATCH)
                    continue;
                assert_non_null(g);
                assert_true(g->list_length <= WK_PROG_MAX_PATCH_LIST && g->patch_length <= WK_PROG_MAX_PATCHES);
                assert_true(g->patch_start <= g->patch_length && g->patch_count <= g->patch_length - g->patch_start);
                assert_true(g->dma_length <= WK_PROG_MAX_DMA && (!g->dma_length || g->dma[g->dma_length - 1]));
            }
            wk_prog_free(&q);
        }
        free(bytes);
        wk_prog_free(p);
        free(p);
    }
}

/* One entry naming the resident allocation, one slot inside [0, 16) and
 * one outside it: a correct Patch writes the first only. */
static struct wk_prog *outside_range(void)
{
    struct wk_prog *p = new_prog();
    struct wk_prog_patch *g = patch_prog(p, 4);
    memcpy(g->dma, "\x11\x22\x33\x44", 4);
    g->list_length = 1;
    g->list[0] = (struct wk_prog_patch_entry){ 1, 0, 1, 0, 0 };
    g->patch_length = 2;
    g->patch[0].patch_offset = 8;
    g->patch[1].patch_offset = 64;
    g->end = 16;
    g->patch_count = 2;
    return p;
}

/* The stored form of a patch step without reserved bits is what it was
 * before they existed: both fuzz_prog seeds with patch steps re-encode
 * to their committed bytes. With reserved bits, bit 7 of the location
 * count is set and one byte follows each location; decode gives them back. */
static void test_codec_reserved(void **state)
{
    (void)state;
    static const char *const stored[] = { "smoke.patch-direct.bin", "regressions.buggy-patch-offset.bin" };
    static struct wk_prog q;
    for (size_t k = 0; k < sizeof(stored) / sizeof(stored[0]); k++) {
        char path[1024];
        size_t n = 0;
        snprintf(path, sizeof(path), "%s/corpus/fuzz_prog/seeds/%s", WK_SOURCE_DIR, stored[k]);
        const uint8_t *data = read_all(path, &n);
        wk_prog_decode(data, n, &q);
        uint8_t *again;
        size_t m = encode(&q, &again);
        if (m != n || memcmp(again, data, n) != 0)
            fail_msg("%s: re-encodes to %zu bytes, not its %zu committed ones", stored[k], m, n);
        free(again);
        wk_prog_free(&q);
    }
    struct wk_prog *p = outside_range();
    uint8_t *plain, *wide;
    size_t np = encode(p, &plain);
    struct wk_prog_patch *g = p->steps[4].patch;
    g->patch[1].reserved = 0xA5;
    size_t nw = encode(p, &wide);
    assert_int_equal(nw, np + g->patch_length); /* one byte per location */
    size_t at = 0;
    while (at < np && plain[at] == wide[at])
        at++;
    assert_int_equal(plain[at], g->patch_length);           /* the count, flag clear... */
    assert_int_equal(wide[at], 0x80u | g->patch_length);    /* ...and set */
    wk_prog_decode(wide, nw, &q);
    assert_int_equal(q.steps[4].patch->patch[0].reserved, 0);
    assert_int_equal(q.steps[4].patch->patch[1].reserved, 0xA5);
    assert_same_program(p, &q);
    wk_prog_free(&q);
    free(plain);
    free(wide);
    wk_prog_free(p);
    free(p);
}

/* ------------------------------------------------------------------ */
/* Running                                                              */
/* ------------------------------------------------------------------ */

static void run(const struct wk_prog *p, const char *driver, struct wk_case_result *r)
{
    struct wk_run_options o = { .driver = driver };
    wk_prog_run(p, &o, r);
}

static void test_reference_and_buggy(void **state)
{
    (void)state;
    struct wk_case_result r;
    struct wk_prog *p = outside_range();
    run(p, NULL, &r);
    if (r.verdict != WK_VERDICT_PASS)
        fail_msg("reference: %s at step %d: %s / %s", wk_verdict_name(r.verdict), r.failed_step, r.expected, r.seen);
#ifdef WK_BUGGY_PATCH
    run(p, WK_BUGGY_PATCH, &r);
    assert_int_equal(r.verdict, WK_VERDICT_FAIL);
    assert_string_equal(r.rule, "PATCH-CONFINE-001");
    assert_int_equal(r.failed_step, 4);
#endif
    wk_prog_free(p);
    free(p);
}

/* What the driver's Patch was handed: each entry's Value word (SlotId and
 * the reserved bits above it), seen by a rewriter after the call. */
struct seen_patch {
    uint32_t calls, count;
    UINT value[WK_PROG_MAX_PATCHES];
};

static void note_patch(void *user, enum wk_ddi ddi, void *args, NTSTATUS *status)
{
    (void)status;
    struct seen_patch *s = user;
    const DXGKARG_PATCH *a = args;
    if (ddi != WK_DDI_PATCH || a->Flags.Paging)
        return;
    s->calls++;
    s->count = a->PatchLocationListSize < WK_PROG_MAX_PATCHES ? a->PatchLocationListSize : WK_PROG_MAX_PATCHES;
    for (uint32_t i = 0; i < s->count; i++)
        s->value[i] = a->pPatchLocationList[i].Value;
}

/* The step's reserved bits reach the driver's Patch in bits 24..31 of each
 * entry's Value, as render's do (the kit does not clean them), and the
 * reference, which ignores them, still passes. */
static void test_patch_sees_reserved(void **state)
{
    (void)state;
    struct wk_prog *p = outside_range();
    struct wk_prog_patch *g = p->steps[4].patch;
    g->patch[0].slot_id = 0x123456;
    g->patch[0].reserved = 0xA5;
    g->patch[1].reserved = 0x01;
    struct wk_vidmm_config cfg;
    memset(&cfg, 0, sizeof(cfg));
    struct wk_vidmm *vm = NULL;
    assert_int_equal(wk_vidmm_create(&cfg, &vm), WK_OK);
    assert_int_equal(wk_vidmm_attach(vm, wk_refdriver_DriverEntry), WK_OK);
    assert_int_equal(wk_vidmm_start(vm), WK_OK);
    static struct wk_prog_exec x;
    static struct wk_case_result r;
    struct seen_patch seen;
    memset(&seen, 0, sizeof(seen));
    wk_vidmm_set_rewriter(vm, note_patch, &seen);
    wk_prog_exec_init(&x, p, vm, &r);
    for (uint32_t i = 0; i < p->step_count; i++) {
        int failed = 0;
        assert_int_equal(wk_prog_exec_step(&x, &p->steps[i], &failed), WK_OK);
        assert_false(failed);
    }
    wk_vidmm_destroy(vm);
    assert_int_equal(seen.calls, 1);
    assert_int_equal(seen.count, 2);
    assert_int_equal(seen.value[0], 0xA5123456u);
    assert_int_equal(seen.value[1], 0x01000000u);
    run(p, NULL, &r);
    if (r.verdict != WK_VERDICT_PASS)
        fail_msg("reference: %s at step %d: %s / %s", wk_verdict_name(r.verdict), r.failed_step, r.expected, r.seen);
    wk_prog_free(p);
    free(p);
}

static void test_refusals(void **state)
{
    (void)state;
    struct wk_case_result r;
    struct wk_prog *p = outside_range();
    struct wk_prog_patch *g = p->steps[4].patch;
    g->patch[1].patch_offset = 12; /* both judged, slots [8, 16) and [12, 20) overlap... */
    g->end = 32;
    p->steps[4].expect_status = WK_E_INVALID_ARGUMENT;
    run(p, NULL, &r);
    assert_int_equal(r.verdict, WK_VERDICT_PASS); /* ...refused before the driver is called */
    g->patch[1].patch_offset = 16;                /* adjacent slots are fine */
    p->steps[4].expect_status = WK_OK;
    run(p, NULL, &r);
    assert_int_equal(r.verdict, WK_VERDICT_PASS);
    g->list[0].allocation = 2; /* no such allocation */
    p->steps[4].expect_status = WK_E_NOT_FOUND;
    run(p, NULL, &r);
    assert_int_equal(r.verdict, WK_VERDICT_PASS);
    g->list[0].allocation = 1;
    g->context = 1; /* no such context */
    run(p, NULL, &r);
    assert_int_equal(r.verdict, WK_VERDICT_PASS);
    g->context = 0;
    g->end = 1u << 20; /* past the reference's 16 KiB DMA buffer */
    p->steps[4].expect_status = WK_E_INVALID_ARGUMENT;
    run(p, NULL, &r);
    assert_int_equal(r.verdict, WK_VERDICT_PASS);
    wk_prog_free(p);
    free(p);
}

/* ------------------------------------------------------------------ */
/* fuzz_patch inputs                                                    */
/* ------------------------------------------------------------------ */

static void test_patch_inputs(void **state)
{
    (void)state;
    const char *dir = WK_SOURCE_DIR "/corpus/fuzz_patch/seeds";
    DIR *d = opendir(dir);
    assert_non_null(d);
    DXGK_CONTEXTINFO info;
    memset(&info, 0, sizeof(info));
    info.DmaBufferSize = 0x4000; /* the reference driver's */
    info.PatchLocationListSize = 256;
    static struct wk_prog p, q;
    uint32_t files = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name), n = 0;
        char path[1024];
        if (len < 5 || strcmp(e->d_name + len - 4, ".bin") != 0)
            continue;
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        const uint8_t *data = read_all(path, &n);
        assert_int_equal(wk_patch_input_to_prog(data, n, &info, NULL, &p), 0);
        uint8_t *back = NULL;
        size_t back_n = 0;
        char why[200];
        if (wk_patch_input_from_prog(&p, &back, &back_n, why, sizeof(why)) != 0)
            fail_msg("%s: no fuzz_patch form: %s", e->d_name, why);
        assert_int_equal(wk_patch_input_to_prog(back, back_n, &info, NULL, &q), 0);
        assert_same_program(&p, &q);
        free(back);
        struct wk_prog_patch *g = p.steps[p.step_count - 1].patch;
        if (g->patch_length) { /* fuzz_patch inputs have no room for the reserved bits above SlotId */
            g->patch[0].reserved = 1;
            assert_int_not_equal(wk_patch_input_from_prog(&p, &back, &back_n, why, sizeof(why)), 0);
            assert_non_null(strstr(why, "reserved"));
            g->patch[0].reserved = 0;
        }
        if (files++ % 8 == 0) { /* the harness passes every seed on the reference: so does the program */
            struct wk_case_result r;
            run(&p, NULL, &r);
            if (r.verdict != WK_VERDICT_PASS)
                fail_msg("%s: %s at step %d: %s / %s", e->d_name, wk_verdict_name(r.verdict), r.failed_step,
                         r.expected, r.seen);
        }
        wk_prog_free(&p);
        wk_prog_free(&q);
    }
    closedir(d);
    assert_true(files > 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_yaml_round_trip),
        cmocka_unit_test(test_yaml_reserved),
        cmocka_unit_test(test_codec_round_trip),
        cmocka_unit_test(test_codec_reserved),
        cmocka_unit_test(test_reference_and_buggy),
        cmocka_unit_test(test_patch_sees_reserved),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_patch_inputs),
    };
    return cmocka_run_group_tests_name("patch_step", tests, NULL, NULL);
}
