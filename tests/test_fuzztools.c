/* SPDX-License-Identifier: MIT */
/*
 * test_fuzztools.c - crash reproduction and regressions (issue "Fuzzing",
 * section 2): the program -> YAML writer (conformance/prog/prog_yaml.c) and the
 * `wddmkit prog dump | repro | minimize | promote | triage` commands
 * (fuzz/crash/), run as a user runs them, against the
 * planted-bug drivers of examples/drivers/.
 *
 * Why these tests: a promoted regression is only worth something if the
 * YAML says exactly what the program does (every spec of the repository
 * round-trips byte for byte, and generated programs too), if the reduction
 * keeps the finding and drops the rest, and if the files promote writes
 * fail on the buggy driver and pass on the reference.
 *
 * `test_fuzztools --write-inputs DIR` writes the hand-made programs that
 * examples/drivers/README.md promotes into corpus/fuzz_prog/regressions/
 * and specs/regressions/.
 */
#define _GNU_SOURCE /* mkdtemp, nftw, open_memstream, setenv */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "conformance.h"
#include "crash/crash_internal.h" /* wk_crash_anchor_steps */
#include "fuzz.h" /* wk_fuzz_signature */

/* ------------------------------------------------------------------ */
/* Helpers: temporary folders, files, running wddmkit                   */
/* ------------------------------------------------------------------ */

static char tmp_root[256];

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

static int setup_tmp(void **state)
{
    (void)state;
    const char *base = getenv("TMPDIR");
    snprintf(tmp_root, sizeof(tmp_root), "%s/wk-fuzztools-XXXXXX", base && *base ? base : "/tmp");
    return mkdtemp(tmp_root) ? 0 : -1;
}

static int teardown_tmp(void **state)
{
    (void)state;
    unsetenv("WK_PROMOTE_ROOT");
    unsetenv("WK_REPLAY_DIR");
    return nftw(tmp_root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void tmp_path(char *out, size_t size, const char *name)
{
    snprintf(out, size, "%s/%s", tmp_root, name);
}

static void write_bytes(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static void save_prog(const struct wk_prog *p, const char *path)
{
    static uint8_t buf[1 << 16];
    size_t n = wk_prog_encode(p, buf, sizeof(buf));
    assert_true(n > 0 && n <= sizeof(buf));
    write_bytes(path, buf, n);
}

static struct wk_prog *read_prog(const char *path)
{
    static uint8_t buf[1 << 16];
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t n = fread(buf, 1, sizeof(buf), f);
    fclose(f);
    struct wk_prog *p = malloc(sizeof(*p));
    assert_non_null(p);
    wk_prog_decode(buf, n, p);
    return p;
}

static void free_prog(struct wk_prog *p)
{
    wk_prog_free(p);
    free(p);
}

/* Runs `wddmkit ARGS` (a shell command line); its output in out, its exit code returned. */
static int wddmkit(char *out, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int wddmkit(char *out, size_t size, const char *fmt, ...)
{
    char args[4096], cmd[4600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof(args), fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof(cmd), "'%s' %s 2>&1", WK_WDDMKIT, args);
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    size_t n = fread(out, 1, size - 1, f);
    out[n] = '\0';
    while (fread(args, 1, sizeof(args), f) > 0) /* the rest, unread */
        ;
    int status = pclose(f);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void expect_output(const char *out, const char *needle)
{
    if (!strstr(out, needle))
        fail_msg("expected '%s' in:\n%s", needle, out);
}

/* ------------------------------------------------------------------ */
/* Hand-made programs                                                   */
/* ------------------------------------------------------------------ */

static struct wk_prog *new_prog(void)
{
    struct wk_prog *p = malloc(sizeof(*p));
    assert_non_null(p);
    wk_prog_init(p);
    snprintf(p->id, sizeof(p->id), "test.program");
    snprintf(p->area, sizeof(p->area), "test");
    snprintf(p->describe, sizeof(p->describe), "A hand-made program.");
    return p;
}

static void expect_rc(int got, int want);

static struct wk_step *add(struct wk_prog *p, enum wk_step_kind kind)
{
    assert_true(p->step_count < WK_PROG_MAX_STEPS);
    struct wk_step *s = &p->steps[p->step_count++];
    memset(s, 0, sizeof(*s));
    s->kind = kind;
    return s;
}

static void add_allocation(struct wk_prog *p, uint32_t device, uint64_t size)
{
    struct wk_step *s = add(p, WK_STEP_CREATE_ALLOCATION);
    s->alloc.device = device;
    s->alloc.size = size;
}

/* A render on context 0 whose WRITE32 names list entry 1 of a 1-entry list. */
static void add_bad_index_render(struct wk_prog *p, uint32_t alloc)
{
    struct wk_step *s = add(p, WK_STEP_RENDER);
    s->render = calloc(1, sizeof(*s->render));
    assert_non_null(s->render);
    s->render->list_length = 1;
    s->render->list_alloc[0] = alloc + 1;
    s->render->record_count = 1;
    s->render->records[0].op = WK_USER_OP_WRITE32;
    s->render->records[0].dst.list_index = 1; /* past the list */
    s->render->records[0].value = 0xDEAD;
}

/* The render bug's finding among steps that have nothing to do with it:
 * what minimize must strip (padding) or what promote starts from. */
static struct wk_prog *render_index_program(int padding)
{
    struct wk_prog *p = new_prog();
    add(p, WK_STEP_CREATE_DEVICE);
    if (padding) {
        add(p, WK_STEP_CREATE_DEVICE)->flags = 2;           /* device1, GDI */
        add_allocation(p, 1, 8192);                         /* alloc0 */
    }
    add(p, WK_STEP_CREATE_CONTEXT);                         /* context0 on device0 */
    add_allocation(p, 0, 4096);                             /* the listed one */
    if (padding) {
        struct wk_step *f = add(p, WK_STEP_FILL);
        f->allocation = 0;
        f->value = 0x11111111;
        add(p, WK_STEP_WAIT_IDLE);
    }
    add_bad_index_render(p, padding ? 1 : 0);
    if (padding) {
        add(p, WK_STEP_EVICT)->allocation = 0;
        struct wk_step *c = add(p, WK_STEP_EXPECT_PATTERN);
        c->allocation = 0;
        c->value = 0x11111111;
    }
    return p;
}

/* The padded render finding with what a fuzzer's input carries besides:
 * a counter check (calibration drops it: fuzz_prog compares no counters)
 * and an allocation of 0 bytes, which the reference driver refuses with a
 * [driver] line on every run that reaches it. */
static struct wk_prog *noisy_render_program(void)
{
    struct wk_prog *p = render_index_program(1);
    struct wk_step *s = add(p, WK_STEP_EXPECT_STATS);
    s->stat = WK_STAT_EVICTIONS;
    s->max = 99;
    s->has_max = 1;
    add_allocation(p, 0, 0);
    return p;
}

/* A FILL that takes several passes: 512 KiB through a 32-byte paging buffer. */
static struct wk_prog *paging_restart_program(void)
{
    struct wk_prog *p = new_prog();
    p->vidmm.paging_buffer_size = 32;
    add(p, WK_STEP_CREATE_DEVICE);
    add_allocation(p, 0, 512 * 1024);
    add(p, WK_STEP_PAGE_IN)->allocation = 0;
    return p;
}

/* Passes everywhere. */
static struct wk_prog *plain_program(void)
{
    struct wk_prog *p = new_prog();
    add(p, WK_STEP_CREATE_DEVICE);
    add_allocation(p, 0, 8192);
    struct wk_step *f = add(p, WK_STEP_FILL);
    f->value = 0x5A5A5A5A;
    return p;
}

/* ------------------------------------------------------------------ */
/* YAML writer                                                          */
/* ------------------------------------------------------------------ */

/* Writes p as YAML (in memory), loads it back; the loaded set has 1 case. */
static char *to_yaml(const struct wk_prog *p, size_t *len)
{
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    assert_non_null(f);
    int st = wk_prog_write_yaml(p, NULL, NULL, NULL, f);
    fclose(f);
    if (st != 0) {
        free(text);
        return NULL;
    }
    return text;
}

static void load_one(const char *text, size_t len, struct wk_spec_set *set)
{
    struct wk_diag d;
    wk_diag_init(&d, 10);
    wk_spec_set_init(set);
    wk_status st = wk_spec_load_buffer(set, "written.yaml", (const uint8_t *)text, len, &d);
    if (st != WK_OK || set->count != 1) {
        wk_diag_print(&d, stderr);
        fail_msg("the written YAML does not load:\n%s", text);
    }
    wk_diag_free(&d);
}

static void expect_same_program(const struct wk_prog *a, const struct wk_prog *b, const char *text)
{
    static uint8_t ea[1 << 16], eb[1 << 16];
    size_t na = wk_prog_encode(a, ea, sizeof(ea)), nb = wk_prog_encode(b, eb, sizeof(eb));
    if (na != nb || memcmp(ea, eb, na) != 0)
        fail_msg("%s: re-loaded program encodes differently (%zu vs %zu bytes):\n%s", a->id, na, nb, text);
    assert_string_equal(a->id, b->id);
    assert_string_equal(a->describe, b->describe);
    assert_int_equal(a->cover_count, b->cover_count);
    for (uint32_t i = 0; i < a->cover_count; i++)
        assert_string_equal(a->covers[i], b->covers[i]);
    assert_int_equal(a->requires, b->requires);
    assert_int_equal(a->gpu.segment_count, b->gpu.segment_count);
    for (uint32_t i = 0; i < a->gpu.segment_count; i++) {
        assert_int_equal(a->segments[i].base, b->segments[i].base);
        assert_int_equal(a->segments[i].size, b->segments[i].size);
        assert_int_equal(a->segments[i].bank_count, b->segments[i].bank_count);
    }
    assert_int_equal(a->gpu.sysmem_pages, b->gpu.sysmem_pages);
    assert_int_equal(a->gpu.sysmem_first_pfn, b->gpu.sysmem_first_pfn);
    assert_memory_equal(&a->vidmm.paging_buffer_size, &b->vidmm.paging_buffer_size, sizeof(uint32_t));
    assert_int_equal(a->vidmm.max_passes, b->vidmm.max_passes);
    assert_int_equal(a->vidmm.ddi_timeout_ms, b->vidmm.ddi_timeout_ms);
    assert_int_equal(a->vidmm.seed, b->vidmm.seed);
    assert_int_equal(a->vidmm.transfer_chunk, b->vidmm.transfer_chunk);
}

/* Every case of every spec of the repository: written, loaded, the same. */
static void test_yaml_round_trip_specs(void **state)
{
    (void)state;
    struct wk_spec_set set;
    struct wk_diag d;
    wk_spec_set_init(&set);
    wk_diag_init(&d, 10);
    assert_int_equal(wk_spec_load_dir(&set, WK_SOURCE_DIR "/specs", &d), WK_OK);
    assert_true(set.count > 100);
    for (uint32_t i = 0; i < set.count; i++) {
        size_t len = 0;
        char *text = to_yaml(set.progs[i], &len);
        if (!text) {
            char why[256];
            int32_t first = 0;
            wk_prog_yaml_check(set.progs[i], &first, why, sizeof(why));
            fail_msg("%s: not written: %s", set.progs[i]->id, why);
        }
        struct wk_spec_set back;
        load_one(text, len, &back);
        expect_same_program(set.progs[i], back.progs[0], text);
        wk_spec_set_free(&back);
        free(text);
    }
    wk_spec_set_free(&set);
    wk_diag_free(&d);
}

static uint64_t rng(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 17;
}

static void random_render(struct wk_prog *p, struct wk_step *s, uint32_t allocs, uint64_t *seed)
{
    struct wk_prog_render *r = calloc(1, sizeof(*r));
    assert_non_null(r);
    s->render = r;
    r->list_length = allocs ? 1 + (uint32_t)(rng(seed) % 4) : 0;
    for (uint32_t i = 0; i < r->list_length; i++) {
        r->list_alloc[i] = rng(seed) % 5 ? 1 + (uint32_t)(rng(seed) % allocs) : 0;
        r->list_write[i] = r->list_alloc[i] ? (uint8_t)(rng(seed) & 1) : 0;
    }
    r->no_prepatch_info = (int)(rng(seed) & 1);
    r->record_count = r->list_length ? (uint32_t)(rng(seed) % 4) : 0;
    for (uint32_t i = 0; i < r->record_count; i++) {
        struct wk_prog_record *c = &r->records[i];
        c->op = (uint32_t)(rng(seed) % WK_USER_OP_COUNT);
        if (c->op == WK_USER_OP_NOP)
            continue;
        c->dst = (struct wk_prog_ref){ (uint32_t)(rng(seed) % r->list_length), (uint32_t)(rng(seed) % 8192) };
        if (c->op == WK_USER_OP_COPY || c->op == WK_USER_OP_BLIT)
            c->src = (struct wk_prog_ref){ (uint32_t)(rng(seed) % r->list_length), (uint32_t)(rng(seed) % 8192) };
        c->size = c->op == WK_USER_OP_COPY || c->op == WK_USER_OP_FILL ? 1 + (uint32_t)(rng(seed) % 4096) : 0;
        c->value = c->op == WK_USER_OP_FILL || c->op == WK_USER_OP_WRITE32 ? (uint32_t)rng(seed) : 0;
        if (c->op == WK_USER_OP_BLIT) {
            c->width = 1 + (uint32_t)(rng(seed) % 64);
            c->height = 1 + (uint32_t)(rng(seed) % 8);
            c->src_pitch = (uint32_t)(rng(seed) % 128);
            c->dst_pitch = (uint32_t)(rng(seed) % 128);
        }
    }
    (void)p;
}

/* A patch payload the loader can express: entries naming allocations or
 * NULL, resident or with their own SegmentId/PhysicalAddress, ranges in
 * order, DMA content with zero runs (trimmed, as every producer keeps it). */
static struct wk_prog_patch *random_patch(uint32_t context, uint32_t nallocs, uint64_t *seed)
{
    uint32_t dma = rng(seed) % 3 ? (uint32_t)(rng(seed) % 3000) : 0;
    struct wk_prog_patch *g = wk_prog_patch_new(dma);
    assert_non_null(g);
    g->context = context;
    g->list_length = (uint32_t)(rng(seed) % (WK_PROG_MAX_PATCH_LIST + 1));
    for (uint32_t i = 0; i < g->list_length; i++) {
        struct wk_prog_patch_entry *e = &g->list[i];
        e->allocation = nallocs && rng(seed) % 4 ? 1 + (uint32_t)(rng(seed) % nallocs) : 0;
        e->write = (int)(rng(seed) & 1);
        e->resident = e->allocation && (rng(seed) & 1);
        e->segment_id = e->resident ? 0 : (uint32_t)(rng(seed) % 32);
        e->address = e->resident ? 0 : rng(seed);
    }
    g->patch_length = (uint32_t)(rng(seed) % (WK_PROG_MAX_PATCHES + 1));
    for (uint32_t i = 0; i < g->patch_length; i++) {
        struct wk_prog_patch_location *l = &g->patch[i];
        l->allocation_index = (uint32_t)(rng(seed) % 20);
        l->patch_offset = (uint32_t)rng(seed);
        l->allocation_offset = rng(seed) & 1 ? (uint32_t)rng(seed) : 0;
        l->slot_id = (uint32_t)(rng(seed) & 0xFFFFFF);
        l->split_offset = (uint32_t)(rng(seed) % 4096);
        l->driver_id = (uint32_t)rng(seed);
    }
    g->end = (uint32_t)rng(seed);
    g->start = (uint32_t)(rng(seed) % ((uint64_t)g->end + 1));
    g->patch_start = (uint32_t)(rng(seed) % (g->patch_length + 1));
    g->patch_count = (uint32_t)(rng(seed) % (g->patch_length - g->patch_start + 1));
    for (uint32_t i = 0; i < dma; i++)
        g->dma[i] = (i / 64) % 3 == 1 ? 0 : (uint8_t)rng(seed); /* zero runs: left out of the YAML */
    wk_prog_patch_trim(g);
    return g;
}

/* One random step the loader can express, objects named by index. */
static void random_step(struct wk_prog *p, uint32_t *n, uint64_t *seed)
{
    struct wk_step *s = add(p, (enum wk_step_kind)(rng(seed) % WK_STEP_KIND_COUNT));
    s->expect_status = rng(seed) % 4 ? WK_OK : WK_E_NOT_FOUND;
    int k = s->kind == WK_STEP_CREATE_DEVICE ? 0 : s->kind == WK_STEP_CREATE_CONTEXT ? 1
          : s->kind == WK_STEP_CREATE_ALLOCATION ? 2 : -1;
    if (k < 0 && s->kind != WK_STEP_WAIT_IDLE && s->kind != WK_STEP_HOLD && s->kind != WK_STEP_CANCEL &&
        s->kind != WK_STEP_EXPECT_STATS && !(n[0] && n[1] && n[2])) {
        p->step_count--; /* needs objects not there yet */
        return;
    }
    if (k >= 0 && s->expect_status == WK_OK)
        n[k]++;
    if (k == 1 || k == 2) {
        if (!n[0]) {
            p->step_count--;
            n[k] -= s->expect_status == WK_OK;
            return;
        }
        s->device = (uint32_t)(rng(seed) % n[0]);
        s->alloc.device = s->device;
        s->alloc.size = 1 + rng(seed) % (1u << 20);
        s->alloc.alignment = rng(seed) & 1 ? 1u << (rng(seed) % 16) : 0;
        s->alloc.preferred = rng(seed) & 1 ? 1u | (2u << 6) : 2u | (1u << 5);
        s->alloc.hinted_bank = (s->alloc.preferred & 0x1F) == 2 ? 3u | (1u << 7) : 0;
        s->alloc.flags = (uint32_t)(rng(seed) & 0x7FFFF);
        s->alloc.priority = (uint32_t)rng(seed);
    }
    if (k == 0 || k == 1)
        s->flags = (uint32_t)(rng(seed) & 3);
    s->context = n[1] ? (uint32_t)(rng(seed) % n[1]) : 0;
    s->allocation = n[2] ? (uint32_t)(rng(seed) % n[2]) : 0;
    s->device = k < 0 && n[0] ? (uint32_t)(rng(seed) % n[0]) : s->device;
    switch (s->kind) {
    case WK_STEP_FILL: s->value = (uint32_t)rng(seed); break;
    case WK_STEP_RELOCATE: s->segment = 1 + (uint32_t)(rng(seed) % 2); break;
    case WK_STEP_WRITE: case WK_STEP_EXPECT_BYTES:
        s->offset = rng(seed) % 4096;
        s->length = 1 + (uint32_t)(rng(seed) % WK_PROG_MAX_BYTES);
        for (uint32_t i = 0; i < s->length; i++)
            s->data[i] = (uint8_t)rng(seed);
        break;
    case WK_STEP_TOUCH_PHYSICAL: case WK_STEP_SIGNAL_FENCE:
        s->relative = (int)(rng(seed) & 1);
        s->segment = s->relative ? 0 : 1 + (uint32_t)(rng(seed) % 3);
        s->allocation = s->relative ? s->allocation : 0;
        s->offset = rng(seed) % 4096;
        s->write = s->kind == WK_STEP_TOUCH_PHYSICAL ? (int)(rng(seed) & 1) : 0;
        s->value = s->kind == WK_STEP_SIGNAL_FENCE ? rng(seed) : 0;
        s->address = s->kind == WK_STEP_SIGNAL_FENCE && !s->relative ? rng(seed) : 0;
        s->segment = s->kind == WK_STEP_SIGNAL_FENCE ? 0 : s->segment;
        s->offset = s->kind == WK_STEP_SIGNAL_FENCE && !s->relative ? 0 : s->offset;
        break;
    case WK_STEP_RENDER: random_render(p, s, n[2], seed); s->render->context = s->context; break;
    case WK_STEP_PATCH: s->patch = random_patch(s->context, n[2], seed); break;
    case WK_STEP_HOLD: s->value = 1 + rng(seed) % 8; break;
    case WK_STEP_CANCEL: s->has_count = (int)(rng(seed) & 1); s->count = s->has_count ? (uint32_t)(rng(seed) % 8) : 0; break;
    case WK_STEP_EXPECT_PATTERN: s->value = (uint32_t)rng(seed); s->offset = rng(seed) % 64; s->size = rng(seed) % 64; break;
    case WK_STEP_EXPECT_DIGEST: s->value = rng(seed); break;
    case WK_STEP_EXPECT_PLACEMENT:
        s->expect_resident = (int)(rng(seed) & 1);
        s->segment = s->expect_resident ? (uint32_t)(rng(seed) % 3) : 0;
        s->has_offset = s->expect_resident && (rng(seed) & 1);
        s->offset = s->has_offset ? (rng(seed) % 256) * 4096 : 0;
        break;
    case WK_STEP_EXPECT_STATS:
        s->stat = (enum wk_prog_stat)(rng(seed) % WK_STAT_COUNT);
        s->ddi = s->stat == WK_STAT_DDI_CALLS ? (enum wk_ddi)(1 + rng(seed) % (WK_DDI_COUNT - 1)) : WK_DDI_NONE;
        s->op = s->stat == WK_STAT_PAGING_OP ? (uint32_t)(rng(seed) % 18) : 0;
        s->min = rng(seed) % 10;
        s->has_max = (int)(rng(seed) & 1);
        s->max = s->has_max ? s->min + rng(seed) % 10 : 0;
        break;
    case WK_STEP_EXPECT_CONTEXT_INFO: s->field = (uint32_t)(rng(seed) % 5); s->value = rng(seed) % 65536; break;
    default: break;
    }
    if (wk_step_is_check(s->kind)) /* checks have no status */
        s->expect_status = WK_OK;
}

/* Generated programs whose records are all expressible round-trip exactly. */
static void test_yaml_round_trip_generated(void **state)
{
    (void)state;
    uint64_t seed = 7;
    int written = 0;
    for (int round = 0; round < 300; round++) {
        struct wk_prog *p = new_prog();
        uint32_t n[3] = { 0, 0, 0 };
        uint32_t steps = 1 + (uint32_t)(rng(&seed) % 40);
        p->vidmm.paging_buffer_size = rng(&seed) & 1 ? 28 + (uint32_t)(rng(&seed) % 4096) : 0;
        p->vidmm.split_submissions = (int)(rng(&seed) & 1);
        for (uint32_t i = 0; i < steps; i++)
            random_step(p, n, &seed);
        size_t len = 0;
        char *text = to_yaml(p, &len);
        char why[256] = "";
        int32_t first = 0;
        int problems = wk_prog_yaml_check(p, &first, why, sizeof(why));
        assert_int_equal(problems == 0, text != NULL);
        if (text) {
            struct wk_spec_set back;
            load_one(text, len, &back);
            expect_same_program(p, back.progs[0], text);
            wk_spec_set_free(&back);
            written++;
        }
        free(text);
        free_prog(p);
    }
    assert_true(written > 200);
}

/* Records the loader refuses become the raw command buffer they encode. */
static void test_yaml_raw_fallback(void **state)
{
    (void)state;
    struct wk_prog *p = render_index_program(0);
    p->steps[3].expect_status = WK_E_DRIVER_FAILED;
    size_t len = 0;
    char *text = to_yaml(p, &len);
    assert_non_null(text);
    expect_output(text, "raw: \"574b4342 01000000 01000000 00000000 03000000 18000000 01000000 00000000 adde0000");
    expect_output(text, "status: driver_failed");
    struct wk_spec_set back;
    load_one(text, len, &back);
    const struct wk_prog *q = back.progs[0];
    assert_int_equal(q->steps[3].render->raw, 1);
    assert_int_equal(q->steps[3].render->raw_length, 16 + 24);
    struct wk_case_result a, b; /* the same bytes reach the driver: the same result */
    wk_prog_run(p, NULL, &a);
    wk_prog_run(q, NULL, &b);
    assert_int_equal(a.verdict, WK_VERDICT_PASS);
    assert_int_equal(b.verdict, WK_VERDICT_PASS);
    assert_memory_equal(&a.stats.ddi_calls, &b.stats.ddi_calls, sizeof(a.stats.ddi_calls));
    wk_spec_set_free(&back);
    free(text);
    free_prog(p);
}

/* What YAML cannot say is reported by step, and nothing is written. */
static void test_yaml_refuses(void **state)
{
    (void)state;
    struct wk_prog *p = plain_program();
    p->steps[2].allocation = 5; /* no such allocation */
    char why[256];
    int32_t first = -2;
    assert_int_equal(wk_prog_yaml_check(p, &first, why, sizeof(why)), 1);
    assert_int_equal(first, 2);
    expect_output(why, "names allocation 5, which no earlier step creates");
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_int_equal(wk_prog_write_yaml(p, NULL, NULL, NULL, f), -1);
    fclose(f);
    assert_int_equal(len, 0);
    free(text);
    p->steps[2].allocation = 0; /* fixed, but the id is not of the area */
    f = open_memstream(&text, &len);
    assert_int_equal(wk_prog_write_yaml(p, "regressions", "other.x", "d", f), -1);
    fclose(f);
    free(text);
    free_prog(p);
}

/* Decoded byte strings: written exactly when they can be, loaded back, and
 * writing the loaded program gives the same text. */
static void test_yaml_decoded_inputs(void **state)
{
    (void)state;
    uint64_t seed = 99;
    static uint8_t buf[600];
    int written = 0;
    for (int round = 0; round < 400; round++) {
        size_t n = rng(&seed) % sizeof(buf);
        for (size_t i = 0; i < n; i++)
            buf[i] = (uint8_t)(rng(&seed) % 3 ? rng(&seed) % 4 : rng(&seed));
        buf[0] = 1;
        struct wk_prog *p = malloc(sizeof(*p));
        assert_non_null(p);
        wk_prog_decode(buf, n, p);
        snprintf(p->describe, sizeof(p->describe), "A decoded input.");
        size_t len = 0, len2 = 0;
        char *text = to_yaml(p, &len);
        if (text) {
            struct wk_spec_set back;
            load_one(text, len, &back);
            char *again = to_yaml(back.progs[0], &len2);
            assert_non_null(again);
            assert_string_equal(text, again);
            free(again);
            wk_spec_set_free(&back);
            written++;
        }
        free(text);
        free_prog(p);
    }
    assert_true(written > 0);
}

/* An adapter the loader would refuse is not written, with the reason; a
 * custom one it takes is written and loads back the same (a decoded fuzz
 * input carries any adapter: prog_codec.c's adapter block). */
static void test_yaml_adapter_written_only_when_it_loads(void **state)
{
    (void)state;
    struct wk_prog *p = plain_program();
    p->segments[0].size = 64 << 10;              /* eviction-residency.yaml's segment 1 */
    p->vidmm.seed = 7;
    p->vidmm.max_passes = 12;
    size_t len = 0;
    char *text = to_yaml(p, &len);
    assert_non_null(text);
    struct wk_spec_set back;
    load_one(text, len, &back);
    expect_same_program(p, back.progs[0], text);
    wk_spec_set_free(&back);
    free(text);

    char why[256] = "";
    int32_t first = 0;
    p->segments[1].base = p->segments[0].base + 0x8000; /* overlaps segment 1 */
    assert_true(wk_prog_yaml_check(p, &first, why, sizeof(why)) > 0);
    assert_non_null(strstr(why, "the GPU model refuses the adapter"));
    assert_null(to_yaml(p, &len));

    p->segments[1].base = 0x400000;
    p->bank_ends[1][1] = p->bank_ends[1][0];            /* not increasing */
    assert_true(wk_prog_yaml_check(p, &first, why, sizeof(why)) > 0);
    assert_non_null(strstr(why, "segment 2: bank end 2"));
    free_prog(p);
}

/* ------------------------------------------------------------------ */
/* The commands                                                         */
/* ------------------------------------------------------------------ */

static char out[1 << 16];

static void test_prog_dump(void **state)
{
    (void)state;
    char path[512];
    tmp_path(path, sizeof(path), "dump.bin");
    struct wk_prog *p = plain_program();
    save_prog(p, path);
    assert_int_equal(wddmkit(out, sizeof(out), "prog dump '%s'", path), 0);
    expect_output(out, "bytes, 3 steps");
    expect_output(out, "fill                   alloc0 value=0x5a5a5a5a");
    assert_int_equal(wddmkit(out, sizeof(out), "prog dump '%s/none.bin'", tmp_root), 2);
    assert_int_equal(wddmkit(out, sizeof(out), "prog list '%s'", path), 2);
    free_prog(p);
}

/* Each harness's input decoded as that harness reads it: the path names
 * the harness, or --harness does. A fuzz_paging file was decoded as a
 * fuzz_prog program (an unrelated adapter, 0 steps). */
static void test_prog_dump_by_harness(void **state)
{
    (void)state;
    assert_int_equal(wddmkit(out, sizeof(out), "prog dump '%s/corpus/fuzz_paging/regressions/buggy-paging-restart-paging.bin'",
                             WK_SOURCE_DIR), 0);
    expect_output(out, "a fuzz_paging input: the program the harness runs, 3 steps");
    expect_output(out, "special_lock_transfer  alloc0");
    expect_output(out, "paging buffer 48,");
    assert_int_equal(wddmkit(out, sizeof(out), "prog dump '%s/corpus/fuzz_render/regressions/buggy-render-index-render.bin'",
                             WK_SOURCE_DIR), 0);
    expect_output(out, "a fuzz_render input");
    expect_output(out, "decoded input (the program that makes the same call)");
    assert_int_equal(wddmkit(out, sizeof(out), "prog dump '%s/corpus/fuzz_gpu_decode/seeds/all-commands.bin'", WK_SOURCE_DIR), 0);
    expect_output(out, "FILL dst=0x110000 bytes=8192");

    char path[512];
    tmp_path(path, sizeof(path), "paging-input.bin");
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    static const uint8_t paging[] = { 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09 };
    assert_int_equal(fwrite(paging, 1, sizeof(paging), f), sizeof(paging));
    fclose(f);
    assert_int_equal(wddmkit(out, sizeof(out), "prog dump '%s' --harness fuzz_paging", path), 0);
    expect_output(out, "a fuzz_paging input: the program the harness runs");
    assert_null(strstr(out, "the path names no harness"));
    assert_int_equal(wddmkit(out, sizeof(out), "prog dump '%s'", path), 0); /* the path says nothing: said so */
    expect_output(out, "the path names no harness (corpus/<harness>/ or <harness>-<engine>/): read as a fuzz_prog input");
    assert_int_equal(wddmkit(out, sizeof(out), "prog dump '%s' --harness fuzz_elf", path), 2);
    expect_output(out, "not 'fuzz_elf'");
    assert_int_equal(wddmkit(out, sizeof(out), "prog dump '%s' --harness", path), 2);
    expect_output(out, "wddmkit prog dump: option '--harness' needs a value");
}

static void test_repro(void **state)
{
    (void)state;
    char path[512];
    tmp_path(path, sizeof(path), "render.bin");
    struct wk_prog *p = render_index_program(1);
    save_prog(p, path);
    assert_int_equal(wddmkit(out, sizeof(out), "repro '%s' --driver '%s' --runs 20", path, WK_BUGGY_RENDER), 1);
    expect_output(out, "result: fail (exit 1)");
    expect_output(out, "signature: MEM-GUARD-001 in DxgkDdiRender");
    expect_output(out, "deterministic: 20/20 identical");
    expect_output(out, "calibrated on the reference driver");
    /* another driver than the reference: the harness's differential judges */
    expect_output(out, "judged by: fuzz_prog_replay");
    expect_output(out, "program (as calibrated on the reference driver, for reading; the finding's step numbers are the input's own");
    assert_int_equal(wddmkit(out, sizeof(out), "repro '%s' --runs 3", path), 0);
    expect_output(out, "program (as run):");
    expect_output(out, "result: pass (exit 0)");
    expect_output(out, "deterministic: 3/3 identical");
    /* as written: the render expects OK, the reference refuses the index */
    assert_int_equal(wddmkit(out, sizeof(out), "repro '%s' --no-calibrate", path), 1);
    expect_output(out, "render: expected status WK_OK, returned WK_E_DRIVER_FAILED");
    assert_int_equal(wddmkit(out, sizeof(out), "repro '%s' --runs 0", path), 2);
    assert_int_equal(wddmkit(out, sizeof(out), "repro '%s' --frobnicate", path), 2);
    assert_int_equal(wddmkit(out, sizeof(out), "repro '%s/none.bin'", tmp_root), 2);
    free_prog(p);
}

/* A stand-in <harness>_replay in tmp_root: a shell script (its body). */
static void stand_in_replay(const char *harness, const char *body)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/%s_replay", tmp_root, harness);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("#!/bin/sh\n", f);
    fputs(body, f);
    fclose(f);
    chmod(path, 0755);
}

/* A replay binary that behaves as told by the name of its input. */
static void fake_replay(const char *harness)
{
    stand_in_replay(harness,
          "case \"$1\" in\n"
          "*finding*) echo \"fuzz_patch: FINDING: violation\" >&2;\n"
          "           echo \"fuzz_patch:   violation in DxgkDdiPatch: PATCH-CONFINE-001: DxgkDdiPatch: x\" >&2;\n"
          "           kill -ABRT $$ ;;\n"
          "*segv*) kill -SEGV $$ ;;\n"
          "*hang*) sleep 30 ;;\n"
          "*driver*) test \"$WK_DRIVER\" = /some/driver.so || exit 1 ;;\n"
          "esac\nexit 0\n");
}

static void test_repro_replay_harness(void **state)
{
    (void)state;
    fake_replay("fuzz_patch");
    setenv("WK_REPLAY_DIR", tmp_root, 1);
    static const char *const names[] = { "finding.bin", "segv.bin", "hang.bin", "driver.bin", "fine.bin" };
    char path[512];
    for (int i = 0; i < 5; i++) {
        tmp_path(path, sizeof(path), names[i]);
        write_bytes(path, "x", 1);
    }
    tmp_path(path, sizeof(path), "finding.bin");
    assert_int_equal(wddmkit(out, sizeof(out), "repro '%s' --harness fuzz_patch --runs 2", path), 1);
    expect_output(out, "signature: PATCH-CONFINE-001 in DxgkDdiPatch");
    tmp_path(path, sizeof(path), "segv.bin");
    assert_int_equal(wddmkit(out, sizeof(out), "repro '%s' --harness fuzz_patch", path), 3);
    expect_output(out, "signature: SIGSEGV");
    tmp_path(path, sizeof(path), "hang.bin");
    assert_int_equal(wddmkit(out, sizeof(out), "repro '%s' --harness fuzz_patch --timeout 1", path), 4);
    tmp_path(path, sizeof(path), "driver.bin");
    assert_int_equal(wddmkit(out, sizeof(out), "repro '%s' --harness fuzz_patch --driver /some/driver.so", path), 0);
    tmp_path(path, sizeof(path), "fine.bin");
    assert_int_equal(wddmkit(out, sizeof(out), "repro '%s' --harness fuzz_render", path), 2);
    expect_output(out, "no replay binary for fuzz_render");
    unsetenv("WK_REPLAY_DIR");
}

/* A misspelt --harness is a usage error naming the harnesses, for every
 * command that takes one: it used to read "no replay binary for
 * fuzz_rendr ... build the fuzz targets", and triage exited 0 with "error
 * no replay binary" rows. A folder whose files could not be run is not
 * triaged: exit 2. */
static void test_unknown_harness(void **state)
{
    (void)state;
    char path[700], dir[512];
    tmp_path(path, sizeof(path), "input.bin");
    write_bytes(path, "x", 1);
    /* Each command line: the words before the input's path, what follows
     * the path (triage takes its folder), and the words after. */
    static const char *const commands[][3] = {
        { "repro", "", "--harness fuzz_rendr" },       { "minimize", "", "--harness fuzz_rendr" },
        { "triage", "/..", "--harness fuzz_rendr" },   { "promote", "", "--harness fuzz_rendr --driver x.so" },
        { "coverage --harness fuzz_rendr", "", "" },
    };
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
        assert_int_equal(wddmkit(out, sizeof(out), "%s '%s%s' %s", commands[i][0], path, commands[i][1],
                                 commands[i][2]), 2);
        expect_output(out, "unknown harness 'fuzz_rendr' (did you mean 'fuzz_render'? one of: fuzz_gpu_decode, ");
        if (strstr(out, "no replay binary"))
            fail_msg("%s: blames a missing replay binary:\n%s", commands[i][0], out);
    }
    tmp_path(dir, sizeof(dir), "unrunnable");
    assert_int_equal(mkdir(dir, 0755), 0);
    snprintf(path, sizeof(path), "%s/a.bin", dir);
    write_bytes(path, "x", 1);
    setenv("WK_REPLAY_DIR", dir, 1); /* no replay binary there */
    assert_int_equal(wddmkit(out, sizeof(out), "triage '%s' --harness fuzz_render", dir), 2);
    expect_output(out, "1 file(s) could not be run");
    unsetenv("WK_REPLAY_DIR");
}

/* A program whose adapter the GPU model refuses says why: the answer ended
 * at "the adapter starts: WK_E_INVALID_ARGUMENT: " (wk_vidmm_create leaves
 * no adapter to ask for its last error). */
static void test_repro_explains_a_refused_adapter(void **state)
{
    (void)state;
    char path[512];
    tmp_path(path, sizeof(path), "refused-adapter.bin");
    struct wk_prog *p = plain_program();
    p->segments[1].base = p->segments[0].base + 0x8000; /* overlaps segment 1 */
    save_prog(p, path);
    assert_int_equal(wddmkit(out, sizeof(out), "repro '%s' --harness fuzz_prog", path), 2);
    expect_output(out, "the adapter starts: WK_E_INVALID_ARGUMENT: the GPU model refuses the adapter description: ");
    expect_output(out, "overlap");
    free_prog(p);
}

/* wk_bytes_keep_fn for the unit test: the bytes hold "BOOM". */
static int holds_boom(void *user, const uint8_t *data, size_t n)
{
    ++*(int *)user;
    for (size_t i = 0; i + 4 <= n; i++)
        if (memcmp(data + i, "BOOM", 4) == 0)
            return 1;
    return 0;
}

/* wk_bytes_keep_fn: eight bytes with "XY" in them. */
static int eight_with_xy(void *user, const uint8_t *data, size_t n)
{
    (void)user;
    return n == 8 && memmem(data, n, "XY", 2) != NULL;
}

/* ddmin_bytes.c: lines go first, then bytes, down to the property's
 * core; zeroing keeps the words the property needs. */
static void test_ddmin_bytes(void **state)
{
    (void)state;
    uint8_t text[] = "cases:\n  - id: a\n    steps: [x]\n  - id: BOOM\n    describe: long text\n";
    int calls = 0;
    size_t n = wk_ddmin_bytes(text, sizeof(text) - 1, 1, holds_boom, &calls);
    assert_int_equal(n, strlen("  - id: BOOM\n"));
    assert_memory_equal(text, "  - id: BOOM\n", n);
    n = wk_ddmin_bytes(text, n, 0, holds_boom, &calls);
    assert_int_equal(n, 4);
    assert_memory_equal(text, "BOOM", 4);
    assert_true(calls < 200);
    uint8_t words[8] = { 'a', 'b', 'c', 'd', 'e', 'X', 'Y', 'f' };
    wk_ddmin_zero_words(words, 8, eight_with_xy, NULL);
    assert_memory_equal(words, "\0\0\0\0eXYf", 8);
    uint8_t none[1];
    assert_int_equal(wk_ddmin_bytes(none, 0, 0, holds_boom, &calls), 0);
}

/* `wddmkit minimize` on inputs of a byte harness: each candidate replayed
 * (a stand-in replay binary that finds "BOOM" in a fuzz_spec input), the
 * signature kept, YAML lines then bytes removed; a passing input is
 * refused. */
static void test_minimize_bytes(void **state)
{
    (void)state;
    char path[512], min[600];
    stand_in_replay("fuzz_spec",
                    "if grep -q BOOM \"$1\"; then echo \"fuzz_spec: FINDING: the loader broke\" >&2; kill -ABRT $$; fi\n"
                    "exit 0\n");
    setenv("WK_REPLAY_DIR", tmp_root, 1);
    tmp_path(path, sizeof(path), "crash-spec.yaml");
    static const char text[] = "cases:\n  - id: a\n    steps: [x]\n  - id: xBOOMx\n    describe: long\n";
    write_bytes(path, text, strlen(text));
    snprintf(min, sizeof(min), "%s.min", path);
    assert_int_equal(wddmkit(out, sizeof(out), "minimize '%s' --harness fuzz_spec", path), 0);
    expect_output(out, "signature: fail: finding: the loader broke");
    expect_output(out, "minimized: 66 -> 4 bytes");
    FILE *f = fopen(min, "rb");
    assert_non_null(f);
    char got[16] = { 0 };
    assert_int_equal(fread(got, 1, sizeof(got), f), 4);
    fclose(f);
    assert_memory_equal(got, "BOOM", 4);
    snprintf(min, sizeof(min), "%s.min.try", path);
    assert_int_not_equal(access(min, F_OK), 0); /* the scratch file is gone */
    tmp_path(path, sizeof(path), "fine.yaml");
    write_bytes(path, "cases: []\n", 10);
    assert_int_equal(wddmkit(out, sizeof(out), "minimize '%s' --harness fuzz_spec", path), 1);
    expect_output(out, "no finding to keep");
    unsetenv("WK_REPLAY_DIR");
}

/* A sanitizer report names addresses that change from run to run (ASLR,
 * the stack): the signature masks them, so `minimize` still sees the same
 * bug in a smaller input (before, every candidate looked like another bug
 * and a 639-byte fuzz_hostile input stayed 639 bytes). ASan's signature
 * names the first function of its stack that is not an interceptor. */
static void test_minimize_masks_addresses(void **state)
{
    (void)state;
    char path[512];
    stand_in_replay("fuzz_hostile",
          "if grep -q UB \"$1\"; then\n"
          "  echo \"prog_run.c:45:22: runtime error: member access within misaligned address 0x$$ab for type 'T'\" >&2\n"
          "  exit 1\n"
          "fi\n"
          "if grep -q HEAP \"$1\"; then\n"
          "  echo \"==$$==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x60$$ at pc 0x55$$\" >&2\n"
          "  echo \"READ of size 952 at 0x60$$ thread T0\" >&2\n"
          "  echo \"    #0 0x55$$ in __asan_memcpy (/x/fuzz_hostile+0x16a1e6)\" >&2\n"
          "  echo \"    #1 0x55$$ in read_banks /x/segments.c:210:5\" >&2\n"
          "  echo \"SUMMARY: AddressSanitizer: heap-buffer-overflow (/x/fuzz_hostile+0x16a1e6) in __asan_memcpy\" >&2\n"
          "  exit 1\n"
          "fi\n"
          "if grep -q LEAK \"$1\"; then\n"
          "  echo \"==$$==ERROR: LeakSanitizer: detected memory leaks\" >&2\n"
          "  echo \"Direct leak of 40 byte(s) in 1 object(s) allocated from:\" >&2\n"
          "  echo \"    #0 0x55$$ in malloc (/x/fuzz_hostile+0xd349e)\" >&2\n"
          "  echo \"    #1 0x55$$ in do_allocation_step /x/prog_run.c:278:73\" >&2\n"
          "  echo \"fuzz_hostile: FINDING: the kit leaked memory in this input\" >&2\n"
          "  exit 1\n"
          "fi\n"
          "exit 0\n");
    setenv("WK_REPLAY_DIR", tmp_root, 1);
    tmp_path(path, sizeof(path), "crash-ub.bin");
    write_bytes(path, "0123456789UB0123456789", 22);
    assert_int_equal(wddmkit(out, sizeof(out), "minimize '%s' --harness fuzz_hostile", path), 0);
    expect_output(out, "misaligned address 0x? for type 'T'");
    expect_output(out, "minimized: 22 -> 2 bytes");
    tmp_path(path, sizeof(path), "crash-heap.bin");
    write_bytes(path, "abcHEAPdef", 10);
    assert_int_equal(wddmkit(out, sizeof(out), "repro '%s' --harness fuzz_hostile", path), 3);
    expect_output(out, "signature: exit: AddressSanitizer: heap-buffer-overflow in read_banks");
    /* fuzz_hostile's leak finding (fuzz/gate/leak_gate.h): where the leaked
     * block was allocated, past the allocator's frame. */
    tmp_path(path, sizeof(path), "crash-leak.bin");
    write_bytes(path, "abcLEAKdef", 10);
    assert_int_equal(wddmkit(out, sizeof(out), "repro '%s' --harness fuzz_hostile", path), 1);
    expect_output(out, "signature: finding: the kit leaked memory in this input: LeakSanitizer: leak allocated in "
                       "do_allocation_step");
    unsetenv("WK_REPLAY_DIR");
}

/* repro runs a fuzz_prog input as the harness does (its budget of
 * allocation bytes, WK_FUZZ_PROG_BYTES, and its paging-buffer bounds): a
 * program of 1.5 MiB keeps every allocation (the view once cut at 1 MiB
 * while the harness ran 2 MiB, so a finding past 1 MiB did not replay),
 * and its multipass bound is the harness's default. */
static void test_repro_folds_as_the_harness(void **state)
{
    (void)state;
    char path[512];
    tmp_path(path, sizeof(path), "large.bin");
    struct wk_prog *p = new_prog();
    add(p, WK_STEP_CREATE_DEVICE);
    add_allocation(p, 0, 768u << 10);
    add_allocation(p, 0, 768u << 10);
    p->vidmm.paging_buffer_size = 1u << 20;
    p->vidmm.max_passes = 3;
    save_prog(p, path);
    assert_int_equal(wddmkit(out, sizeof(out), "repro '%s' --harness fuzz_prog", path), 0);
    expect_output(out, ", 3 steps in the input; paging buffer lowered to 65535 bytes; multipass bound back to the "
                       "default; 5 after calibration");
    if (strstr(out, "left out"))
        fail_msg("an allocation under the harness's budget was left out:\n%s", out);
    p->steps[2].alloc.size = 2u << 20;
    save_prog(p, path);
    assert_int_equal(wddmkit(out, sizeof(out), "repro '%s' --harness fuzz_prog", path), 0);
    expect_output(out, "; 1 allocation(s) past the 2 MiB cap left out");
    free_prog(p);
}

/* repro prints what the input means after the runs: a fuzz_patch input
 * as the program that makes the same call, a fuzz_gpu_decode input as the
 * model's disassembly, a fuzz_spec input as its numbered text; when the
 * input cannot be decoded (the driver does not start), a note, and the
 * exit code is still the runs' (3: a driver that does not start is a
 * finding); 2, an error, for a driver that does not even load (the replay
 * binary says so before any input; it used to abort, a "crash" of a
 * driver that never ran). */
static void test_repro_prints_decoded_input(void **state)
{
    (void)state;
    assert_int_equal(wddmkit(out, sizeof(out), "repro '%s/corpus/fuzz_patch/regressions/buggy-patch-offset.bin'",
                             WK_SOURCE_DIR), 0);
    expect_output(out, "decoded input (the program that makes the same call):");
    expect_output(out, "16: [contract] patch                  context=0 range=[0x0,0x100)");
    assert_int_equal(wddmkit(out, sizeof(out), "repro '%s/corpus/fuzz_gpu_decode/seeds/all-commands.bin'",
                             WK_SOURCE_DIR), 0);
    expect_output(out, "decoded input (240 bytes, the GPU model's disassembly):");
    expect_output(out, "  0x0004: FILL dst=0x110000 bytes=8192 pattern=0xa5a5f00d");
    assert_int_equal(wddmkit(out, sizeof(out), "repro '%s/corpus/fuzz_spec/seeds/invalid-anchor-alias.yaml'",
                             WK_SOURCE_DIR), 0);
    expect_output(out, "     3 |   - id: *a");
    char path[512];
    tmp_path(path, sizeof(path), "binary.yaml");
    write_bytes(path, "a: \x01\n\xff", 6);
    assert_int_equal(wddmkit(out, sizeof(out), "repro '%s' --harness fuzz_spec", path), 0);
    expect_output(out, "     1 | a: \\x01\n     2 | \\xff");
    assert_int_equal(wddmkit(out, sizeof(out), "repro '%s/corpus/fuzz_render/regressions/buggy-render-index-render.bin' "
                                               "--driver '%s'", WK_SOURCE_DIR, WK_ENTRY_FAILS), 3);
    expect_output(out, "decoded input: unavailable (the reason is on stderr)");
    assert_int_equal(wddmkit(out, sizeof(out), "repro '%s/corpus/fuzz_render/regressions/buggy-render-index-render.bin' "
                                               "--driver /nonexistent/driver.so", WK_SOURCE_DIR), 2);
    expect_output(out, "result: error (exit 2)");
    expect_output(out, "the replay binary could not run: fuzz_driver: cannot load the driver under test");
}

static void test_minimize(void **state)
{
    (void)state;
    char path[512], min[512];
    tmp_path(path, sizeof(path), "padded.bin");
    tmp_path(min, sizeof(min), "padded.small");
    struct wk_prog *p = render_index_program(1);
    save_prog(p, path);
    assert_int_equal(wddmkit(out, sizeof(out), "minimize '%s' -o '%s' --driver '%s'", path, min, WK_BUGGY_RENDER), 0);
    expect_output(out, "signature: fail: MEM-GUARD-001 in DxgkDdiRender");
    struct wk_prog *q = read_prog(min);
    if (q->step_count != 3 || q->steps[0].kind != WK_STEP_CREATE_DEVICE || q->steps[1].kind != WK_STEP_CREATE_CONTEXT ||
        q->steps[2].kind != WK_STEP_RENDER)
        fail_msg("not reduced to device, context, render:\n%s", out);
    assert_int_equal(q->steps[2].expect_status, WK_E_DRIVER_FAILED);
    assert_int_equal(wddmkit(out, sizeof(out), "repro '%s' --driver '%s'", min, WK_BUGGY_RENDER), 1);
    expect_output(out, "signature: MEM-GUARD-001 in DxgkDdiRender");
    assert_int_equal(wddmkit(out, sizeof(out), "repro '%s'", min), 0);
    /* a passing input has nothing to keep */
    assert_int_equal(wddmkit(out, sizeof(out), "minimize '%s' -o '%s'", path, min), 1);
    free_prog(q);
    free_prog(p);
}

/* repro, minimize and promote count one input's steps in the same terms:
 * the input's own (prog dump's count), then the calibrated program's with
 * every reason it differs, and minimize and promote reduce from the
 * latter. An outside user read "238 steps" (repro), "196 -> 18 steps"
 * (minimize) and "24 -> 15 steps" (promote of the 18-step result) as three
 * counts of one thing. Here: 12 steps, of which the counter check goes and
 * two end digests come, 13; minimized to 3, which calibrate to themselves. */
static void test_step_counts_agree(void **state)
{
    (void)state;
    char path[512], min[512];
    tmp_path(path, sizeof(path), "noisy.bin");
    tmp_path(min, sizeof(min), "noisy.small");
    struct wk_prog *p = noisy_render_program();
    save_prog(p, path);
    static const char calibrated[] = "12 steps in the input; 13 after calibration on the reference driver: 1 checks "
                                     "dropped, 2 end digests added, 2 statuses set to its answers";
    expect_rc(wddmkit(out, sizeof(out), "prog dump '%s'", path), 0);
    expect_output(out, "bytes, 12 steps");
    expect_rc(wddmkit(out, sizeof(out), "repro '%s' --harness fuzz_prog --driver '%s'", path, WK_BUGGY_RENDER), 1);
    expect_output(out, calibrated);
    expect_rc(wddmkit(out, sizeof(out), "minimize '%s' --harness fuzz_prog -o '%s' --driver '%s'", path, min,
                      WK_BUGGY_RENDER), 0);
    expect_output(out, calibrated);
    expect_output(out, "minimized: 13 -> 3 steps, ");
    expect_output(out, " bytes encoded, of the calibrated program (");
    char root[512];
    tmp_path(root, sizeof(root), "counts-root"); /* test_promote's root stays its own */
    assert_int_equal(mkdir(root, 0755), 0);
    setenv("WK_PROMOTE_ROOT", root, 1);
    expect_rc(wddmkit(out, sizeof(out), "promote '%s' --harness fuzz_prog --driver '%s' --name t-counts", min,
                      WK_BUGGY_RENDER), 0);
    expect_output(out, "3 steps in the input; 3 after calibration on the reference driver: 0 checks dropped, 0 end "
                       "digests added, 0 statuses set to its answers");
    expect_output(out, "minimized: 3 -> 3 steps, ");
    free_prog(p);
}

/* Occurrences of needle in text. */
static unsigned count_of(const char *text, const char *needle)
{
    unsigned n = 0;
    for (const char *at = strstr(text, needle); at; at = strstr(at + 1, needle))
        n++;
    return n;
}

/* `line` is in out at most once for each driver whose runs printed it,
 * and where it came again, with its counts. */
static void expect_folded(const char *line, unsigned most)
{
    unsigned n = count_of(out, line), counted = 0;
    if (n == 0 || n > most)
        fail_msg("'%s' %u times, wanted 1 to %u:\n%s", line, n, most, out);
    for (const char *at = strstr(out, line); at; at = strstr(at + 1, line)) {
        char rest[80] = "";
        sscanf(at + strlen(line), "%79[^\n]", rest);
        counted += strncmp(rest, " (repeated in ", 14) == 0 || (rest[0] == ' ' && strstr(rest, " times in "));
    }
    if (!counted)
        fail_msg("'%s' came in several runs but is printed without its counts:\n%s", line, out);
}

/* minimize and promote rerun the input for each candidate: the drivers'
 * lines come once each at the end, under the driver whose runs printed
 * them, with how often they came, not once per run (an outside user's
 * minimize printed one line 19 times); none is lost. repro, one run,
 * prints them as they come. */
static void test_driver_lines_folded(void **state)
{
    (void)state;
    char path[512], min[512], root[512];
    tmp_path(path, sizeof(path), "lines.bin");
    tmp_path(min, sizeof(min), "lines.small");
    struct wk_prog *p = noisy_render_program();
    save_prog(p, path);
    static const char line[] = "[driver] refdriver: CreateAllocation: allocation 0 rejected (0xc000000d)";
    expect_rc(wddmkit(out, sizeof(out), "repro '%s' --harness fuzz_prog --driver '%s'", path, WK_BUGGY_RENDER), 1);
    expect_output(out, "[driver] refdriver: CreateAllocation: allocation 0 rejected (0xc000000d)\n");
    assert_null(strstr(out, "what the drivers printed"));
    expect_rc(wddmkit(out, sizeof(out), "minimize '%s' --harness fuzz_prog -o '%s' --driver '%s'", path, min,
                      WK_BUGGY_RENDER), 0);
    expect_output(out, "wddmkit minimize: what the drivers printed over ");
    expect_output(out, "\non the reference driver, ");
    expect_folded(line, 2);
    tmp_path(root, sizeof(root), "lines-root");
    assert_int_equal(mkdir(root, 0755), 0);
    setenv("WK_PROMOTE_ROOT", root, 1);
    expect_rc(wddmkit(out, sizeof(out), "promote '%s' --harness fuzz_prog --driver '%s' --name t-lines", path,
                      WK_BUGGY_RENDER), 0);
    expect_output(out, "wddmkit promote: what the drivers printed over ");
    expect_folded(line, 2);
    free_prog(p);
}

static void test_triage(void **state)
{
    (void)state;
    char dir[512], path[600];
    tmp_path(dir, sizeof(dir), "crashes");
    assert_int_equal(mkdir(dir, 0755), 0);
    struct wk_prog *a = render_index_program(1), *b = render_index_program(0), *c = plain_program();
    snprintf(path, sizeof(path), "%s/a-padded", dir);
    save_prog(a, path);
    snprintf(path, sizeof(path), "%s/b-small", dir);
    save_prog(b, path);
    snprintf(path, sizeof(path), "%s/c-plain", dir);
    save_prog(c, path);
    snprintf(path, sizeof(path), "%s/README.md", dir);
    write_bytes(path, "notes", 5);
    assert_int_equal(wddmkit(out, sizeof(out), "triage '%s' --driver '%s'", dir, WK_BUGGY_RENDER), 0);
    expect_output(out, "3 files, 2 signatures");
    char line[700];
    snprintf(line, sizeof(line), "     2  fail    MEM-GUARD-001 in DxgkDdiRender  [smallest: %s/b-small,", dir);
    expect_output(out, line);
    snprintf(line, sizeof(line), "     1  pass    pass  [smallest: %s/c-plain,", dir);
    expect_output(out, line);
    expect_output(out, "note: 1 file(s) ran without a finding here, as a corpus"); /* a crash that passes is explained */
    assert_int_equal(wddmkit(out, sizeof(out), "triage '%s/none'", dir), 2);
    free_prog(a);
    free_prog(b);
    free_prog(c);
}

/* Random files are untrusted input: the tools answer, the kit never dies. */
static void test_triage_random_files(void **state)
{
    (void)state;
    char dir[512], path[600];
    tmp_path(dir, sizeof(dir), "random");
    assert_int_equal(mkdir(dir, 0755), 0);
    uint64_t seed = 3;
    for (int i = 0; i < 24; i++) {
        uint8_t buf[300];
        size_t n = rng(&seed) % sizeof(buf);
        for (size_t k = 0; k < n; k++)
            buf[k] = (uint8_t)(rng(&seed) % 3 ? rng(&seed) % 6 : rng(&seed));
        snprintf(path, sizeof(path), "%s/r%02d", dir, i);
        write_bytes(path, buf, n);
    }
    assert_int_equal(wddmkit(out, sizeof(out), "triage '%s'", dir), 0);
    expect_output(out, "24 files");
    if (strstr(out, " crash ") || strstr(out, " timeout ") || strstr(out, " fail "))
        fail_msg("the reference driver must pass every calibrated program:\n%s", out);
}

/* The one case of specs/regressions/NAME.yaml under the promote root,
 * loaded into set (freed by the caller with d). */
static const struct wk_prog *load_promoted_case(const char *name, struct wk_spec_set *set, struct wk_diag *d)
{
    char file[700];
    snprintf(file, sizeof(file), "%s/specs/regressions/%s.yaml", tmp_root, name);
    wk_spec_set_init(set);
    wk_diag_init(d, 10);
    assert_int_equal(wk_spec_load_file(set, file, d), WK_OK);
    assert_int_equal(set->count, 1);
    return set->progs[0];
}

static void test_promote(void **state)
{
    (void)state;
    char path[512], file[700];
    tmp_path(path, sizeof(path), "found.bin");
    struct wk_prog *p = render_index_program(1);
    save_prog(p, path);
    setenv("WK_PROMOTE_ROOT", tmp_root, 1);
    assert_int_equal(wddmkit(out, sizeof(out), "promote '%s' --driver '%s' --name t-render", path, WK_BUGGY_RENDER), 0);
    expect_output(out, "verified: the YAML case fails on");
    /* the seeds of the root follow its specs: the new case's are there */
    expect_output(out, "seeds: ");
    snprintf(file, sizeof(file), "%s/corpus/fuzz_prog/seeds/regressions.t-render.bin", tmp_root);
    assert_int_equal(access(file, R_OK), 0);
    assert_int_equal(wddmkit(out, sizeof(out), "corpus seed --check --specs '%s/specs' --out '%s/corpus'", tmp_root,
                             tmp_root), 0);
    /* the input: a program that still fails there and passes here */
    snprintf(file, sizeof(file), "%s/corpus/fuzz_prog/regressions/t-render.bin", tmp_root);
    assert_int_equal(wddmkit(out, sizeof(out), "repro '%s' --driver '%s'", file, WK_BUGGY_RENDER), 1);
    expect_output(out, "signature: MEM-GUARD-001 in DxgkDdiRender");
    assert_int_equal(wddmkit(out, sizeof(out), "repro '%s'", file), 0);
    /* the case: loads, names the rule, fails there, passes here */
    snprintf(file, sizeof(file), "%s/specs/regressions/t-render.yaml", tmp_root);
    struct wk_spec_set set;
    struct wk_diag d;
    const struct wk_prog *q = load_promoted_case("t-render", &set, &d);
    assert_string_equal(q->id, "regressions.t-render");
    assert_string_equal(q->area, "regressions");
    assert_int_equal(q->cover_count, 1);
    assert_string_equal(q->covers[0], "MEM-GUARD-001");
    expect_output(q->describe, "Regression: MEM-GUARD-001 in DxgkDdiRender; promoted from found.bin");
    struct wk_case_result r;
    wk_prog_run(q, NULL, &r); /* the buggy driver only in a child: it dies with its objects */
    assert_int_equal(r.verdict, WK_VERDICT_PASS);
    assert_int_equal(wddmkit(out, sizeof(out), "conform '%s'", file), 0);
    assert_int_equal(wddmkit(out, sizeof(out), "conform --driver '%s' '%s'", WK_BUGGY_RENDER, file), 1);
    expect_output(out, "rule:     MEM-GUARD-001");
    wk_spec_set_free(&set);
    wk_diag_free(&d);
    /* promoting again changes nothing; refusals */
    assert_int_equal(wddmkit(out, sizeof(out), "promote '%s' --driver '%s' --name t-render", path, WK_BUGGY_RENDER), 0);
    expect_output(out, "unchanged");
    assert_int_equal(wddmkit(out, sizeof(out), "promote '%s' --driver '%s'", path, WK_BUGGY_PAGING), 1);
    expect_output(out, "passes on");
    assert_int_equal(wddmkit(out, sizeof(out), "promote '%s'", path), 2);
    assert_int_equal(wddmkit(out, sizeof(out), "promote '%s' --driver x --name Bad_Name", path), 2);
    free_prog(p);
}

/* A fence at an absolute GPU address writes wherever the memory manager
 * placed things, which another correct driver does elsewhere: promote
 * anchors it to the allocation whose bytes it hit on the reference (the
 * case then writes the same bytes on every driver). The anchors: the
 * allocation and offset that held each absolute target on the reference,
 * none for free memory or for other steps. */
static void test_absolute_steps_anchor_to_allocations(void **state)
{
    (void)state;
    struct wk_prog *p = new_prog();
    add(p, WK_STEP_CREATE_DEVICE);
    struct wk_step *a = add(p, WK_STEP_CREATE_ALLOCATION);
    a->alloc.size = 8192;
    a->alloc.preferred = 1; /* segment 1: placed at 0x101000 on the reference */
    add(p, WK_STEP_FILL)->value = 0xCCCCCCCC;
    struct wk_step *in = add(p, WK_STEP_SIGNAL_FENCE);
    in->address = 0x101008; /* byte 8 of allocation 0 */
    in->value = 1;
    struct wk_step *past = add(p, WK_STEP_SIGNAL_FENCE); /* relative, past the end: byte 8 of nothing */
    past->relative = 1;
    past->offset = 0x3000;
    past->value = 2;
    struct wk_step *touch = add(p, WK_STEP_TOUCH_PHYSICAL); /* segment 1, byte 0x1ff0 of allocation 0 */
    touch->segment = 1;
    touch->offset = 0x2ff0;
    struct wk_step *free_mem = add(p, WK_STEP_SIGNAL_FENCE);
    free_mem->address = 0x1f0000;
    free_mem->value = 3;
    for (uint32_t i = 0; i < p->step_count; i++)
        p->steps[i].expect_status = WK_OK;
    static int32_t anchor[WK_PROG_MAX_STEPS];
    static uint64_t offset[WK_PROG_MAX_STEPS];
    struct wk_crash_options o = { .timeout_ms = 20000 };
    assert_int_equal(wk_crash_anchor_steps(p, &o, anchor, offset), 0);
    for (uint32_t i = 0; i < 3; i++)
        assert_int_equal(anchor[i], -1); /* not placement-bound */
    assert_int_equal(anchor[3], 0);
    assert_int_equal(offset[3], 8);
    assert_true(wk_crash_placement_bound(p, past));
    assert_int_equal(anchor[4], -1);
    assert_int_equal(anchor[5], 0);
    assert_int_equal(offset[5], 0x1ff0);
    assert_int_equal(anchor[6], -1);
    free_prog(p);
}

#ifdef WK_PLANTED_FENCE_LOW
/* The finding of a driver that stores a monitored fence's low dword only
 * needs the fence, not where it lands: promoted, it keeps its absolute
 * address (no check of bytes follows it, so no other driver's placement
 * can be blamed), and the case fails there and passes on the reference. */
static void test_promote_keeps_an_absolute_fence_nothing_reads(void **state)
{
    (void)state;
    char path[512];
    tmp_path(path, sizeof(path), "fence.bin");
    struct wk_prog *p = new_prog();
    add(p, WK_STEP_CREATE_DEVICE);
    struct wk_step *a = add(p, WK_STEP_CREATE_ALLOCATION);
    a->alloc.size = 8192;
    a->alloc.preferred = 1;
    add(p, WK_STEP_FILL)->value = 0xCCCCCCCC;
    struct wk_step *fence = add(p, WK_STEP_SIGNAL_FENCE);
    fence->address = 0x101008;
    fence->value = 0x1122334455667788ull;
    save_prog(p, path);
    setenv("WK_PROMOTE_ROOT", tmp_root, 1);
    expect_rc(wddmkit(out, sizeof(out), "promote '%s' --driver '%s' --name t-fence", path, WK_PLANTED_FENCE_LOW), 0);
    expect_output(out, "verified: the YAML case fails on");
    struct wk_spec_set set;
    struct wk_diag d;
    const struct wk_prog *q = load_promoted_case("t-fence", &set, &d);
    for (uint32_t i = 0; i < q->step_count; i++)
        assert_false(wk_step_is_check(q->steps[i].kind) && q->steps[i].kind != WK_STEP_EXPECT_STATS);
    wk_spec_set_free(&set);
    wk_diag_free(&d);
    free_prog(p);
}
#endif

/* Counts the *.bin files of a folder. */
static int count_bins(const char *dir)
{
    int n = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));)
        n += strlen(e->d_name) > 4 && strcmp(e->d_name + strlen(e->d_name) - 4, ".bin") == 0;
    if (d)
        closedir(d);
    return n;
}

/* `wddmkit corpus seed`: the repository's specs give its committed seeds
 * byte for byte; --check names what is missing, stale or orphaned; bad
 * arguments and bad specs are refused with where. */
static void test_corpus_seed(void **state)
{
    (void)state;
    char dir[700], file[900], committed[900];
    tmp_path(dir, sizeof(dir), "seeded");
    assert_int_equal(wddmkit(out, sizeof(out), "corpus seed --specs '%s/specs' --out '%s'", WK_SOURCE_DIR, dir), 0);
    expect_output(out, "seed files written under");
    static const char *const harnesses[] = { "fuzz_prog", "fuzz_render", "fuzz_patch", "fuzz_paging" };
    for (int h = 0; h < 4; h++) {
        snprintf(file, sizeof(file), "%s/%s/seeds", dir, harnesses[h]);
        snprintf(committed, sizeof(committed), "%s/corpus/%s/seeds", WK_SOURCE_DIR, harnesses[h]);
        assert_true(count_bins(file) > 0);
        assert_int_equal(count_bins(file), count_bins(committed));
    }
    assert_int_equal(wddmkit(out, sizeof(out), "corpus seed --check --specs '%s/specs' --out '%s'", WK_SOURCE_DIR, dir),
                     0);
    /* one stale, one missing, one orphaned */
    snprintf(file, sizeof(file), "%s/fuzz_prog/seeds/smoke.aperture.bin", dir);
    assert_int_equal(access(file, R_OK), 0);
    write_bytes(file, "\x01", 1);
    snprintf(file, sizeof(file), "%s/fuzz_paging/seeds/smoke.custom-adapter.bin", dir);
    assert_int_equal(remove(file), 0);
    snprintf(file, sizeof(file), "%s/fuzz_patch/seeds/no-such-case.bin", dir);
    write_bytes(file, "x", 1);
    assert_int_equal(wddmkit(out, sizeof(out), "corpus seed --check --specs '%s/specs' --out '%s'", WK_SOURCE_DIR, dir),
                     1);
    expect_output(out, "fuzz_prog/seeds/smoke.aperture.bin: differs from what the specs give");
    expect_output(out, "fuzz_paging/seeds/smoke.custom-adapter.bin: missing (a spec gives it)");
    expect_output(out, "fuzz_patch/seeds/no-such-case.bin: no spec gives it");
    expect_output(out, "3 seed files out of date");
    /* refusals: exit 2, saying what and where */
    assert_int_equal(wddmkit(out, sizeof(out), "corpus seed --frobnicate"), 2);
    expect_output(out, "wddmkit corpus seed: unknown option '--frobnicate'");
    assert_int_equal(wddmkit(out, sizeof(out), "corpus seed --out"), 2);
    assert_int_equal(wddmkit(out, sizeof(out), "corpus plant"), 2);
    assert_int_equal(wddmkit(out, sizeof(out), "corpus seed --specs '%s/no-such-folder'", dir), 2);
    expect_output(out, "not a folder");
    tmp_path(dir, sizeof(dir), "badspecs");
    assert_int_equal(mkdir(dir, 0777), 0);
    snprintf(file, sizeof(file), "%s/bad.yaml", dir);
    static const char bad[] = "cases:\n  - id: x\n    steps: [ {create_device: 7 ]\n";
    write_bytes(file, bad, strlen(bad));
    assert_int_equal(wddmkit(out, sizeof(out), "corpus seed --specs '%s' --out '%s/o'", dir, dir), 2);
    expect_output(out, "bad.yaml:3:32: YAML syntax error");
}

/* The paging bug: a FILL in a small paging buffer never ends. */
static void test_paging_bug(void **state)
{
    (void)state;
    char path[512];
    tmp_path(path, sizeof(path), "paging.bin");
    struct wk_prog *p = paging_restart_program();
    save_prog(p, path);
    assert_int_equal(wddmkit(out, sizeof(out), "repro '%s' --driver '%s' --runs 2", path, WK_BUGGY_PAGING), 1);
    expect_output(out, "signature: PAGING-PROGRESS-001 in DxgkDdiBuildPagingBuffer");
    expect_output(out, "deterministic: 2/2 identical");
    assert_int_equal(wddmkit(out, sizeof(out), "repro '%s'", path), 0);
    free_prog(p);
}

/* A fuzz_paging finding promoted without --name: the harness's own input
 * goes to corpus/fuzz_paging/regressions/ under the name the YAML case
 * gets (the rule and a hash of the minimized program), not a name of its
 * own. */
static void test_promote_paging_input_named_like_its_case(void **state)
{
    (void)state;
    char yaml_dir[600], file[900], name[256] = "";
    setenv("WK_PROMOTE_ROOT", tmp_root, 1);
    assert_int_equal(wddmkit(out, sizeof(out),
                             "promote '%s/corpus/fuzz_paging/regressions/buggy-paging-restart-paging.bin' "
                             "--harness fuzz_paging --driver '%s'",
                             WK_SOURCE_DIR, WK_BUGGY_PAGING),
                     0);
    expect_output(out, "verified: the YAML case fails on");
    snprintf(yaml_dir, sizeof(yaml_dir), "%s/specs/regressions", tmp_root);
    DIR *d = opendir(yaml_dir);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n > 5 && strncmp(e->d_name, "paging-progress-001-", 20) == 0 && strcmp(e->d_name + n - 5, ".yaml") == 0)
            snprintf(name, sizeof(name), "%.*s", (int)(n - 5), e->d_name);
    }
    closedir(d);
    if (!name[0])
        fail_msg("no paging-progress-001-*.yaml in %s:\n%s", yaml_dir, out);
    snprintf(file, sizeof(file), "%s/corpus/fuzz_paging/regressions/%s.bin", tmp_root, name);
    assert_int_equal(access(file, R_OK), 0);
    assert_int_equal(wddmkit(out, sizeof(out), "repro '%s' --harness fuzz_paging --driver '%s'", file, WK_BUGGY_PAGING),
                     1);
    unsetenv("WK_PROMOTE_ROOT");
}

/* The Patch bug: fuzz_patch's kind of input (a list entry outside the
 * submission range), through the kit's Patch check on both drivers. */
static void patch_outside_range(const char *driver, uint64_t *violations, char *rule)
{
    struct wk_vidmm *vm = NULL;
    assert_int_equal(wk_vidmm_create(&(struct wk_vidmm_config){ 0 }, &vm), WK_OK);
    assert_int_equal(wk_vidmm_load(vm, driver), WK_OK);
    assert_int_equal(wk_vidmm_start(vm), WK_OK);
    uint32_t dev = 0, ctx = 0;
    assert_int_equal(wk_vidmm_create_device(vm, 0, &dev), WK_OK);
    assert_int_equal(wk_vidmm_create_context(vm, dev, 0, &ctx), WK_OK);
    uint8_t dma[128];
    memset(dma, 0, sizeof(dma));
    DXGK_ALLOCATIONLIST list[1];
    memset(list, 0, sizeof(list));
    list[0].SegmentId = 1;
    list[0].PhysicalAddress.QuadPart = 0x100000;
    D3DDDI_PATCHLOCATIONLIST patch[1];
    memset(patch, 0, sizeof(patch));
    patch[0].PatchOffset = 64; /* the submission is [0, 16) */
    struct wk_vidmm_patch a = { ctx, dma, sizeof(dma), list, 1, patch, 1, 0, 16, 0, 1 };
    wk_vidmm_patch(vm, &a);
    struct wk_violation v;
    rule[0] = '\0';
    if (wk_vidmm_violations(vm, &v, 1, violations))
        snprintf(rule, 24, "%s", v.rule);
    wk_vidmm_destroy(vm);
}

#ifdef WK_FUZZ_REPLAY_DIR
/* An exit code, with the command's output when it is not the one wanted. */
static void expect_rc(int got, int want)
{
    if (got != want)
        fail_msg("exit %d, wanted %d; output:\n%s", got, want, out);
}

/* `wddmkit promote FOUND --name NAME` of a fuzz_patch or fuzz_render
 * finding: the minimized input is checked through <harness>_replay and the
 * YAML case before writing; then the written input fails on the driver and
 * passes on the reference (repro), and so does the case (conform, naming
 * `rule`, in `profile`: a bare Patch is a stress case, which the contract
 * profile skips). */
static void expect_promoted(const char *found, const char *harness, const char *driver, const char *name,
                            const char *rule, const char *profile)
{
    char file[700], want[128];
    setenv("WK_PROMOTE_ROOT", tmp_root, 1);
    expect_rc(wddmkit(out, sizeof(out), "promote '%s' --driver '%s' --name %s", found, driver, name), 0);
    snprintf(want, sizeof(want), "verified: the minimized input fails through %s_replay", harness);
    expect_output(out, want);
    expect_output(out, "verified: the YAML case fails on");
    snprintf(file, sizeof(file), "%s/corpus/%s/regressions/%s.bin", tmp_root, harness, name);
    expect_rc(wddmkit(out, sizeof(out), "repro '%s' --driver '%s'", file, driver), 1);
    expect_rc(wddmkit(out, sizeof(out), "repro '%s'", file), 0);
    snprintf(file, sizeof(file), "%s/specs/regressions/%s.yaml", tmp_root, name);
    expect_rc(wddmkit(out, sizeof(out), "conform '%s'", file), 0);
    expect_rc(wddmkit(out, sizeof(out), "conform --profile %s --driver '%s' '%s'", profile, driver, file), 1);
    snprintf(want, sizeof(want), "rule:     %s", rule);
    expect_output(out, want);
    unsetenv("WK_PROMOTE_ROOT");
}

/* A padded fuzz_patch finding, as `wddmkit fuzz` leaves it (the harness
 * known from the folder's name): minimized back to its one entry, then
 * promoted to a fuzz_patch regression and a YAML case. */
static void patch_minimize_promote(void)
{
    static const uint8_t input[] = {
        2, 3, 16, 0, 0, 0, 0, 3,                         /* 2 list entries, 3 patch entries, [0, 16) */
        1, 1, 0x00, 0x00, 0x10, 0, 0, 0, 0, 0,          /* slot 1's allocation, SegmentId 1, at 0x100000 */
        2, 0x22, 0x00, 0x00, 0x20, 0, 0, 0, 0, 0,       /* slot 2's, SegmentId 2, written */
        1, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0,             /* index 1, PatchOffset 8: inside */
        0, 0, 64, 0, 0, 0, 0, 0, 0, 0, 0, 0,            /* index 0, PatchOffset 64: outside */
        5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,             /* index 5: not in the list */
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, /* DMA */
    };
    char dir[512], path[600], file[700];
    tmp_path(dir, sizeof(dir), "fuzz_patch-libfuzzer");
    assert_int_equal(mkdir(dir, 0777), 0);
    snprintf(path, sizeof(path), "%s/crash-padded", dir);
    write_bytes(path, input, sizeof(input));
    assert_int_equal(wddmkit(out, sizeof(out), "minimize '%s' --driver '%s'", path, WK_BUGGY_PATCH), 0);
    expect_output(out, "minimized: 84 -> 30 bytes: patch locations 3 -> 1, list entries 2 -> 1, DMA 20 -> 0 bytes");
    snprintf(file, sizeof(file), "%s.min", path);
    assert_int_equal(wddmkit(out, sizeof(out), "repro '%s' --harness fuzz_patch --driver '%s'", file, WK_BUGGY_PATCH), 1);
    expect_output(out, "signature: PATCH-CONFINE-001 in DxgkDdiPatch");
    expect_promoted(path, "fuzz_patch", WK_BUGGY_PATCH, "t-patch", "PATCH-CONFINE-001", "stress");
    /* The contract profile skips the bare Patch, saying why. */
    char yaml[700];
    snprintf(yaml, sizeof(yaml), "%s/specs/regressions/t-patch.yaml", tmp_root);
    expect_rc(wddmkit(out, sizeof(out), "conform --driver '%s' '%s'", WK_BUGGY_PATCH, yaml), 0);
    expect_output(out, "a bare DxgkDdiPatch on a buffer and lists no Render of the driver's made");
}
#endif

static void test_patch_bug(void **state)
{
    (void)state;
    uint64_t n = 0;
    char rule[24];
    patch_outside_range(WK_REFDRIVER_SO, &n, rule);
    assert_int_equal(n, 0);
    patch_outside_range(WK_BUGGY_PATCH, &n, rule);
    assert_true(n > 0);
    assert_string_equal(rule, "PATCH-CONFINE-001");
#ifdef WK_FUZZ_REPLAY_DIR
    /* the same through fuzz_patch's replay binary and `wddmkit repro` */
    static const uint8_t input[] = {
        1, 1, 16, 0, 0, 0, 0, 1,                         /* 1 list entry, 1 patch entry, [0, 16), entries [0, 1) */
        1, 1, 0x00, 0x00, 0x10, 0, 0, 0, 0, 0,          /* slot 1's allocation, SegmentId 1, at 0x100000 */
        0, 0, 64, 0, 0, 0, 0, 0, 0, 0, 0, 0,            /* index 0, PatchOffset 64 */
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* the DMA buffer's first bytes */
    };
    char path[512];
    tmp_path(path, sizeof(path), "patch-outside.bin");
    write_bytes(path, input, sizeof(input));
    setenv("WK_REPLAY_DIR", WK_FUZZ_REPLAY_DIR, 1);
    assert_int_equal(wddmkit(out, sizeof(out), "repro '%s' --harness fuzz_patch --driver '%s'", path, WK_BUGGY_PATCH), 1);
    expect_output(out, "signature: PATCH-CONFINE-001 in DxgkDdiPatch");
    assert_int_equal(wddmkit(out, sizeof(out), "repro '%s' --harness fuzz_patch", path), 0);
    patch_minimize_promote();
    unsetenv("WK_REPLAY_DIR");
#endif
}

/* The Render bug as fuzz_render finds it: a padded input (GDI context, a
 * 3-entry list, two user patch locations, a NOP and a WRITE32 at list
 * index 3, one past the list) from a fuzz_render-libfuzzer/ folder, so the
 * harness comes from the path. minimize and promote turn it into a
 * fuzz_render input and a YAML case that fail on buggy_render_index and
 * pass on the reference. */
#ifdef WK_FUZZ_REPLAY_DIR
static void test_render_bug(void **state)
{
    (void)state;
    static const uint8_t input[] = {
        0x02, 3, 2, 0,                                  /* GDI context, 3 list entries, 2 user patch locations */
        1, 2 | 0x80, 0,                                 /* slot 1, slot 2 written, a NULL entry */
        0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, /* index 0, slot 1, PatchOffset 8 */
        1, 0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0, 0, 0x10, 0, 0, 0, 0x20, 0, 0, 0, 0, 0, 0, 0, /* index 1, reserved 0x80 */
        'W', 'K', 'C', 'B', 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, /* header: 2 records */
        0, 0, 0, 0, 8, 0, 0, 0,                         /* NOP */
        3, 0, 0, 0, 24, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0x78, 0x56, 0x34, 0x12, 0, 0, 0, 0, /* WRITE32 [3, 0] */
    };
    char dir[512], path[600], file[700];
    setenv("WK_REPLAY_DIR", WK_FUZZ_REPLAY_DIR, 1);
    tmp_path(dir, sizeof(dir), "fuzz_render-libfuzzer");
    assert_int_equal(mkdir(dir, 0777), 0);
    snprintf(path, sizeof(path), "%s/crash-padded", dir);
    write_bytes(path, input, sizeof(input));
    expect_rc(wddmkit(out, sizeof(out), "repro '%s' --driver '%s'", path, WK_BUGGY_RENDER), 1);
    expect_output(out, "signature: MEM-GUARD-001 in DxgkDdiRender");
    expect_rc(wddmkit(out, sizeof(out), "minimize '%s' --driver '%s'", path, WK_BUGGY_RENDER), 0);
    expect_output(out, "fuzz_render input, 103 bytes, as a program: the harness's fixture (a GDI context) and one render "
                       "step (list 3 entries, user patch list 2 entries, command buffer 48 bytes)");
    expect_output(out, "user patch locations 2 -> 0");
    snprintf(file, sizeof(file), "%s.min", path);
    expect_rc(wddmkit(out, sizeof(out), "repro '%s' --harness fuzz_render --driver '%s'", file, WK_BUGGY_RENDER),
                     1);
    expect_output(out, "signature: MEM-GUARD-001 in DxgkDdiRender");
    expect_promoted(path, "fuzz_render", WK_BUGGY_RENDER, "t-render-input", "MEM-GUARD-001", "contract");
    unsetenv("WK_REPLAY_DIR");
}
#endif

/* The one signature function every tool prints (fuzz_driver.h): the GPU
 * fault class and the signal of a crash the kit caught are part of it, the
 * DDI comes from the violation's message, a sanitizer's class follows. */
static void test_signature_text(void **state)
{
    (void)state;
    char sig[400];
    wk_fuzz_signature(sig, sizeof(sig), "SUBMIT-GPU-001",
                      "SUBMIT-GPU-001: DxgkDdiSubmitCommand: the DMA buffer faulted on the GPU: CROSSES_SEGMENT at +0x0 "
                      "(FILL) (and 1 more: PATCH-VALUE-001)", NULL);
    assert_string_equal(sig, "SUBMIT-GPU-001 (CROSSES_SEGMENT) in DxgkDdiSubmitCommand");
    wk_fuzz_signature(sig, sizeof(sig), "DRV-CRASH-001",
                      "DRV-CRASH-001: DxgkDdiCreateDevice: crashed with signal 6 (Aborted) at address (nil)",
                      "AddressSanitizer: heap-buffer-overflow in f");
    assert_string_equal(sig, "DRV-CRASH-001 (SIGABRT) in DxgkDdiCreateDevice: AddressSanitizer: heap-buffer-overflow in f");
    wk_fuzz_signature(sig, sizeof(sig), "MEM-GUARD-001", "MEM-GUARD-001: DxgkDdiRender: read past the list", "");
    assert_string_equal(sig, "MEM-GUARD-001 in DxgkDdiRender");
    wk_fuzz_signature(sig, sizeof(sig), "KM-POOL-002", "something else entirely", NULL);
    assert_string_equal(sig, "KM-POOL-002 in the kit");
    wk_fuzz_signature(sig, sizeof(sig), NULL, "step 3 (render): the driver under test returned WK_OK\nmore", NULL);
    assert_string_equal(sig, "finding: step 3 (render): the driver under test returned WK_OK");
    assert_true(wk_fuzz_signature_matches("MEM-GUARD-001 in DxgkDdiRender", "MEM-GUARD-001 in DxgkDdiRender"));
    assert_true(wk_fuzz_signature_matches("MEM-GUARD-001 in DxgkDdiRender: AddressSanitizer: x",
                                          "MEM-GUARD-001 in DxgkDdiRender"));
    assert_false(wk_fuzz_signature_matches("MEM-GUARD-001", "MEM-GUARD-001 in DxgkDdiRender"));
    assert_false(wk_fuzz_signature_matches("MEM-GUARD-001 in DxgkDdiRenderX", "MEM-GUARD-001 in DxgkDdiRender"));
}

#ifdef WK_FUZZ_REPLAY_DIR
/* The text after `prefix` in out, up to the end of its line. */
static void line_after(const char *out_text, const char *prefix, char *into, size_t size)
{
    const char *at = strstr(out_text, prefix);
    if (!at)
        fail_msg("expected '%s' in:\n%s", prefix, out_text);
    at += strlen(prefix);
    snprintf(into, size, "%.*s", (int)strcspn(at, "\n"), at);
}

/* repro, triage and minimize of one committed regression give one
 * signature, the signal's class included: repro and triage replay the
 * fuzz_render input (fuzz_render_replay), minimize runs it as the program
 * of its Render call, and repro and triage used to leave the class out
 * ("DRV-CRASH-001 in DxgkDdiRender" beside minimize's "DRV-CRASH-001
 * (SIGSEGV) in DxgkDdiRender"). The driver reads through a NULL table
 * entry for the regression's index (tests/driver_build/render_index_table.c). */
static void test_signature_agrees(void **state)
{
    (void)state;
    static const char want[] = "DRV-CRASH-001 (SIGSEGV) in DxgkDdiRender";
    char input[600], dir[512], copy[700], min[700], sig[3][400];
    setenv("WK_REPLAY_DIR", WK_FUZZ_REPLAY_DIR, 1);
    snprintf(input, sizeof(input), "%s/corpus/fuzz_render/regressions/buggy-render-index-render.bin", WK_SOURCE_DIR);
    expect_rc(wddmkit(out, sizeof(out), "repro '%s' --driver '%s'", input, WK_RENDER_TABLE), 1);
    line_after(out, "\nsignature: ", sig[0], sizeof(sig[0]));
    tmp_path(dir, sizeof(dir), "agree");
    assert_int_equal(mkdir(dir, 0777), 0);
    snprintf(copy, sizeof(copy), "%s/regression.bin", dir);
    snprintf(min, sizeof(min), "%s/regression.min", dir);
    static uint8_t bytes[4096];
    FILE *f = fopen(input, "rb");
    assert_non_null(f);
    size_t got = fread(bytes, 1, sizeof(bytes), f);
    fclose(f);
    write_bytes(copy, bytes, got);
    expect_rc(wddmkit(out, sizeof(out), "triage '%s' --harness fuzz_render --driver '%s'", dir, WK_RENDER_TABLE), 0);
    line_after(out, "     1  fail    ", sig[1], sizeof(sig[1]));
    sig[1][strcspn(sig[1], "[")] = '\0';
    for (size_t n = strlen(sig[1]); n && sig[1][n - 1] == ' '; n--)
        sig[1][n - 1] = '\0';
    expect_rc(wddmkit(out, sizeof(out), "minimize '%s' -o '%s' --harness fuzz_render --driver '%s'", copy, min,
                      WK_RENDER_TABLE), 0);
    line_after(out, "signature: fail: ", sig[2], sizeof(sig[2]));
    const char *tool[] = { "repro", "triage", "minimize" };
    for (int i = 0; i < 3; i++)
        if (strcmp(sig[i], want) != 0)
            fail_msg("%s: signature '%s', expected '%s' (repro '%s', triage '%s', minimize '%s')", tool[i], sig[i], want,
                     sig[0], sig[1], sig[2]);
    unsetenv("WK_REPLAY_DIR");
}
#endif

/* ------------------------------------------------------------------ */
/* main                                                                 */
/* ------------------------------------------------------------------ */

/* The hand-made inputs examples/drivers/README.md promotes. */
static int write_inputs(const char *dir)
{
    char path[1024];
    struct wk_prog *r = render_index_program(1), *g = paging_restart_program();
    snprintf(path, sizeof(path), "%s/buggy-render-index.bin", dir);
    save_prog(r, path);
    snprintf(path, sizeof(path), "%s/buggy-paging-restart.bin", dir);
    save_prog(g, path);
    free_prog(r);
    free_prog(g);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--write-inputs") == 0)
        return write_inputs(argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_yaml_round_trip_specs),
        cmocka_unit_test(test_yaml_round_trip_generated),
        cmocka_unit_test(test_yaml_raw_fallback),
        cmocka_unit_test(test_yaml_refuses),
        cmocka_unit_test(test_yaml_decoded_inputs),
        cmocka_unit_test(test_yaml_adapter_written_only_when_it_loads),
        cmocka_unit_test(test_prog_dump),
        cmocka_unit_test(test_prog_dump_by_harness),
        cmocka_unit_test(test_repro),
        cmocka_unit_test(test_repro_replay_harness),
        cmocka_unit_test(test_unknown_harness),
        cmocka_unit_test(test_repro_explains_a_refused_adapter),
        cmocka_unit_test(test_repro_prints_decoded_input),
        cmocka_unit_test(test_minimize),
        cmocka_unit_test(test_step_counts_agree),
        cmocka_unit_test(test_driver_lines_folded),
        cmocka_unit_test(test_ddmin_bytes),
        cmocka_unit_test(test_minimize_bytes),
        cmocka_unit_test(test_minimize_masks_addresses),
        cmocka_unit_test(test_promote_paging_input_named_like_its_case),
        cmocka_unit_test(test_repro_folds_as_the_harness),
        cmocka_unit_test(test_triage),
        cmocka_unit_test(test_triage_random_files),
        cmocka_unit_test(test_promote),
        cmocka_unit_test(test_absolute_steps_anchor_to_allocations),
#ifdef WK_PLANTED_FENCE_LOW
        cmocka_unit_test(test_promote_keeps_an_absolute_fence_nothing_reads),
#endif
        cmocka_unit_test(test_corpus_seed),
        cmocka_unit_test(test_paging_bug),
        cmocka_unit_test(test_patch_bug),
        cmocka_unit_test(test_signature_text),
#ifdef WK_FUZZ_REPLAY_DIR
        cmocka_unit_test(test_render_bug),
        cmocka_unit_test(test_signature_agrees),
#endif
    };
    return cmocka_run_group_tests(tests, setup_tmp, teardown_tmp);
}
