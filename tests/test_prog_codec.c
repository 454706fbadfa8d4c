/* SPDX-License-Identifier: MIT */
/*
 * test_prog_codec.c - the binary program form: every spec of the repo
 * round-trips (decode(encode(p)) re-encodes to the same bytes and runs to
 * the same verdict), and arbitrary bytes always decode to a program that
 * runs without crashing the kit.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance.h"

static uint64_t rng_next(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 17;
}

/* Every spec of the repository (free with unload_specs). */
static void load_specs(struct wk_spec_set *set, struct wk_diag *d)
{
    wk_spec_set_init(set);
    wk_diag_init(d, 10);
    assert_int_equal(wk_spec_load_dir(set, WK_SPECS_DIR, d), WK_OK);
    assert_true(set->count > 0);
}

static void unload_specs(struct wk_spec_set *set, struct wk_diag *d)
{
    wk_spec_set_free(set);
    wk_diag_free(d);
}

/* The first adapter or rewrite field of q that differs from p's, NULL when
 * none: what a case runs on must survive the binary form (a seed, a crash
 * file, a promoted regression replay the case's adapter, not the
 * reference one). */
static const char *adapter_difference(const struct wk_prog *p, const struct wk_prog *q)
{
    const struct wk_vidmm_config *a = &p->vidmm, *b = &q->vidmm;
    if (p->gpu.segment_count != q->gpu.segment_count)
        return "segment count";
    for (uint32_t i = 0; i < p->gpu.segment_count; i++) {
        const struct wk_gpu_segment_desc *x = &p->gpu.segments[i], *y = &q->gpu.segments[i];
        if (x->kind != y->kind || x->base != y->base || x->size != y->size || x->bank_count != y->bank_count)
            return "a segment";
        if (p->segment_roles[i] != q->segment_roles[i])
            return "a segment's roles";
        for (uint32_t e = 0; e + 1 < x->bank_count; e++)
            if (x->bank_ends[e] != y->bank_ends[e])
                return "a bank end";
    }
    if (p->gpu.sysmem_first_pfn != q->gpu.sysmem_first_pfn || p->gpu.sysmem_pages != q->gpu.sysmem_pages)
        return "system memory";
    if (a->paging_buffer_size != b->paging_buffer_size || a->transfer_chunk != b->transfer_chunk ||
        a->split_submissions != b->split_submissions ||
        (a->query_segment_version == 4) != (b->query_segment_version == 4)) /* 0 and 3 both mean 3 */
        return "paging knobs";
    if (a->max_passes != b->max_passes || a->ddi_timeout_ms != b->ddi_timeout_ms || a->seed != b->seed)
        return "max_passes, ddi_timeout_ms or seed";
    if (a->first_fence != b->first_fence)
        return "first fence id";
    if (p->has_rewrite && (p->rewrite.param != q->rewrite.param || p->rewrite.call != q->rewrite.call))
        return "the rewrite's call or parameter";
    return NULL;
}

static void test_specs_round_trip(void **state)
{
    (void)state;
    struct wk_spec_set set;
    struct wk_diag d;
    load_specs(&set, &d);
    static uint8_t a[1 << 16], b[1 << 16];
    static struct wk_prog q;
    for (uint32_t i = 0; i < set.count; i++) {
        const struct wk_prog *p = set.progs[i];
        size_t na = wk_prog_encode(p, a, sizeof(a));
        assert_true(na > 0 && na <= sizeof(a));
        wk_prog_decode(a, na, &q);
        size_t nb = wk_prog_encode(&q, b, sizeof(b));
        if (na != nb || memcmp(a, b, na) != 0)
            fail_msg("%s: the decoded program re-encodes differently (%zu vs %zu bytes)", p->id, na, nb);
        if (q.step_count != p->step_count || q.has_rewrite != p->has_rewrite || strcmp(q.trips, p->trips) != 0)
            fail_msg("%s: steps %u/%u rewrite %d/%d trips '%s'/'%s'", p->id, q.step_count, p->step_count,
                     q.has_rewrite, p->has_rewrite, q.trips, p->trips);
        const char *lost = adapter_difference(p, &q);
        if (lost)
            fail_msg("%s: the decoded program's %s differs from the case's", p->id, lost);
        for (uint32_t k = 0; k < p->step_count; k++)
            if (q.steps[k].process != p->steps[k].process || q.steps[k].kind != p->steps[k].kind ||
                q.steps[k].fault != p->steps[k].fault)
                fail_msg("%s: step %u's kind, process or fault changed (%u/%u, process %u/%u, fault %u/%u)", p->id, k,
                         q.steps[k].kind, p->steps[k].kind, q.steps[k].process, p->steps[k].process,
                         q.steps[k].fault, p->steps[k].fault);
        wk_prog_free(&q);
    }
    unload_specs(&set, &d);
}

static void test_random_bytes_decode_and_run(void **state)
{
    (void)state;
    uint64_t seed = 12345;
    static uint8_t buf[512];
    static struct wk_prog p;
    for (int round = 0; round < 200; round++) {
        size_t n = rng_next(&seed) % sizeof(buf);
        for (size_t i = 0; i < n; i++)
            buf[i] = (uint8_t)rng_next(&seed);
        buf[0] = 1; /* a plausible header keeps the rest meaningful */
        wk_prog_decode(buf, n, &p);
        assert_true(p.step_count <= WK_PROG_MAX_STEPS);
        p.vidmm.ddi_timeout_ms = 200;
        struct wk_case_result r;
        wk_prog_run(&p, NULL, &r);
        assert_true(r.verdict < WK_VERDICT_COUNT);
        wk_prog_free(&p);
    }
}

static void test_empty_input(void **state)
{
    (void)state;
    static struct wk_prog p;
    wk_prog_decode(NULL, 0, &p);
    assert_int_equal(p.step_count, 0);
    assert_false(p.has_rewrite);
    assert_int_equal(wk_prog_encode(&p, NULL, 0), 14u);
    wk_prog_free(&p);
}

/* Steps past the program are all zero: what wk_prog_decode_again relies on. */
static int tail_is_zero(const struct wk_prog *p)
{
    const uint8_t *b = (const uint8_t *)&p->steps[p->step_count];
    const uint8_t *end = (const uint8_t *)&p->steps[WK_PROG_MAX_STEPS];
    for (; b < end; b++)
        if (*b)
            return 0;
    return 1;
}

/* Whether two decoded programs are the same: the same bytes field by field
 * (header, steps, origin), with pointers compared by what they point at. */
static void assert_same_program(const struct wk_prog *x, const struct wk_prog *y)
{
    static uint8_t a[1 << 16], b[1 << 16];
    size_t na = wk_prog_encode(x, a, sizeof(a)), nb = wk_prog_encode(y, b, sizeof(b));
    assert_int_equal(na, nb);
    assert_memory_equal(a, b, na);
    assert_memory_equal(x->id, y->id, offsetof(struct wk_prog, gpu) - offsetof(struct wk_prog, id));
    assert_ptr_equal(x->gpu.segments, x->segments);
    assert_ptr_equal(y->gpu.segments, y->segments);
    for (uint32_t i = 0; i < 8; i++)
        assert_int_equal(x->segments[i].bank_ends ? x->segments[i].bank_ends - x->bank_ends[i] : -1,
                         y->segments[i].bank_ends ? y->segments[i].bank_ends - y->bank_ends[i] : -1);
    assert_memory_equal(&x->vidmm, &y->vidmm, sizeof(x->vidmm));
    assert_int_equal(x->has_rewrite, y->has_rewrite);
    assert_memory_equal(&x->rewrite, &y->rewrite, sizeof(x->rewrite));
    assert_int_equal(x->step_count, y->step_count);
    for (uint32_t i = 0; i < x->step_count; i++) {
        struct wk_step s = x->steps[i], t = y->steps[i];
        assert_int_equal(!s.render, !t.render);
        assert_int_equal(!s.patch, !t.patch);
        s.render = t.render = NULL;
        s.patch = t.patch = NULL;
        assert_memory_equal(&s, &t, sizeof(s));
    }
    assert_memory_equal(x->file, y->file, sizeof(x->file));
    assert_int_equal(x->line, y->line);
    assert_true(tail_is_zero(x));
    assert_true(tail_is_zero(y));
}

/* wk_prog_decode_again into one program, inputs long and short in turn
 * (each spec, the empty input, the spec cut short, bytes that stop inside
 * a step), gives what wk_prog_decode gives into a fresh one. */
static void test_decode_again_matches_decode(void **state)
{
    (void)state;
    struct wk_spec_set set;
    struct wk_diag d;
    load_specs(&set, &d);
    static uint8_t a[1 << 16];
    static struct wk_prog again, fresh;
    uint64_t seed = 99;
    for (uint32_t i = 0; i < set.count; i++) {
        size_t na = wk_prog_encode(set.progs[i], a, sizeof(a));
        size_t cuts[3] = { na, 0, rng_next(&seed) % (na + 1) };
        for (int c = 0; c < 3; c++) {
            wk_prog_decode_again(a, cuts[c], &again);
            memset(&fresh, 0xA5, sizeof(fresh)); /* wk_prog_decode owes nothing to what was there */
            wk_prog_decode(a, cuts[c], &fresh);
            assert_same_program(&again, &fresh);
            wk_prog_free(&fresh);
            wk_prog_free(&again);
        }
    }
    unload_specs(&set, &d);
}

/* Version 2: 31 segments and their roles survive the binary form. */
static void test_roles_and_31_segments_round_trip(void **state)
{
    (void)state;
    static struct wk_prog p, q;
    static uint8_t a[1 << 12], b[1 << 12];
    wk_prog_init(&p);
    p.gpu.segment_count = WK_PROG_MAX_SEGMENTS;
    for (uint32_t i = 0; i < WK_PROG_MAX_SEGMENTS; i++) {
        p.segments[i].kind = i % 3 == 2 ? WK_GPU_SEGMENT_APERTURE : WK_GPU_SEGMENT_MEMORY;
        p.segments[i].base = (uint64_t)(i + 1) << 32;
        p.segments[i].size = 64 * 1024;
        p.segments[i].bank_count = i % 3 == 1 ? 2 : 0;
        p.bank_ends[i][0] = 32 * 1024;
        p.segment_roles[i] = i % 3 == 1 ? WK_ROLE_BANKED | WK_ROLE_CPU_VISIBLE : i % 3 == 0 ? WK_ROLE_CPU_VISIBLE : 0;
    }
    size_t n = wk_prog_encode(&p, a, sizeof(a));
    assert_true(n > 0 && n < sizeof(a));
    assert_int_equal(a[0], 5); /* the current version */
    wk_prog_decode(a, n, &q);
    const char *diff = adapter_difference(&p, &q);
    if (diff)
        fail_msg("after decode: %s differs", diff);
    assert_int_equal(wk_prog_encode(&q, b, sizeof(b)), n);
    assert_memory_equal(a, b, n);

    /* Roles the loader would refuse are folded away: on an aperture, and
     * `banked` of a segment without banks. */
    p.segment_roles[2] = WK_ROLE_CPU_VISIBLE;
    p.segment_roles[0] = WK_ROLE_BANKED | 0x80u;
    n = wk_prog_encode(&p, a, sizeof(a));
    wk_prog_decode(a, n, &q);
    assert_int_equal(q.segment_roles[2], 0);
    assert_int_equal(q.segment_roles[0], 0);
    wk_prog_free(&q);
}

/* A version-1 file (every file written before version 2; any first byte
 * but 2) decodes as it always did: at most 8 segments, no role byte. */
static void test_version_1_decodes_as_before(void **state)
{
    (void)state;
    static struct wk_prog q;
    uint8_t v1[128];
    size_t n = 0;
    v1[n++] = 1;     /* version */
    v1[n++] = 4;     /* knobs: an adapter block follows */
    memset(v1 + n, 0, 10);
    n += 10;         /* paging buffer, chunk, mutation, call, param */
    v1[n++] = 0;     /* trips */
    memset(v1 + n, 0, 24);
    n += 24;         /* paging buffer, param high, max passes, timeout, seed */
    uint64_t pfn = 0x10000;
    memcpy(v1 + n, &pfn, 8);
    n += 8;
    uint32_t pages = 256;
    memcpy(v1 + n, &pages, 4);
    n += 4;
    v1[n++] = 2;     /* two segments */
    for (uint32_t i = 0; i < 2; i++) {
        uint64_t base = (uint64_t)(i + 1) << 32, size = 1u << 20;
        v1[n++] = (uint8_t)i; /* memory, then aperture */
        memcpy(v1 + n, &base, 8);
        n += 8;
        memcpy(v1 + n, &size, 8);
        n += 8;
        v1[n++] = 0; /* no banks */
    }
    v1[n++] = 1;     /* one step: kind 27, which version 1 reads as 27 mod 27 = create_device */
    v1[n++] = 27;
    v1[n++] = 0;     /* status ok */
    v1[n++] = 0;     /* flags */
    wk_prog_decode(v1, n, &q);
    assert_int_equal(q.step_count, 1);
    assert_int_equal(q.steps[0].kind, WK_STEP_CREATE_DEVICE);
    assert_int_equal(q.gpu.segment_count, 2);
    assert_int_equal(q.segments[1].kind, WK_GPU_SEGMENT_APERTURE);
    assert_true(q.segments[1].base == 2ull << 32);
    assert_int_equal(q.segment_roles[0], 0);
    v1[0] = 0x37;    /* a fuzzer's byte: still version 1 */
    wk_prog_decode(v1, n, &q);
    assert_int_equal(q.segments[1].kind, WK_GPU_SEGMENT_APERTURE);
    assert_true(q.segments[1].base == 2ull << 32);
}

/* A version-2 file (before processes, steps up to expect_va) decodes as
 * it always did: no process byte after a device or va step, and a kind
 * byte reduced modulo the 33 kinds it knew. */
static void test_version_2_decodes_as_before(void **state)
{
    (void)state;
    static struct wk_prog q;
    uint8_t v2[64];
    size_t n = 0;
    v2[n++] = 2;     /* version */
    v2[n++] = 0;     /* knobs: the reference adapter */
    memset(v2 + n, 0, 11);
    n += 11;         /* paging buffer, chunk, mutation, call, param, trips */
    v2[n++] = 3;     /* three steps */
    v2[n++] = 33;    /* 33 mod 33: create_device (in version 4: end_process) */
    v2[n++] = 0;     /* status ok */
    v2[n++] = 2;     /* flags: gdi; no process byte */
    v2[n++] = WK_STEP_VA_UNMAP;
    v2[n++] = 0;
    uint64_t va = 0x40000000;
    memcpy(v2 + n, &va, 8);
    n += 8;
    uint32_t size = 0x1000;
    memcpy(v2 + n, &size, 4);
    n += 4;          /* no process byte */
    v2[n++] = WK_STEP_WAIT_IDLE;
    v2[n++] = 0;
    wk_prog_decode(v2, n, &q);
    assert_int_equal(q.step_count, 3);
    assert_int_equal(q.steps[0].kind, WK_STEP_CREATE_DEVICE);
    assert_int_equal(q.steps[0].flags, 2);
    assert_int_equal(q.steps[0].process, 0);
    assert_int_equal(q.steps[1].kind, WK_STEP_VA_UNMAP);
    assert_int_equal(q.steps[1].address, 0x40000000u);
    assert_int_equal(q.steps[1].size, 0x1000);
    assert_int_equal(q.steps[1].process, 0);
    assert_int_equal(q.steps[2].kind, WK_STEP_WAIT_IDLE);
    wk_prog_free(&q);
}

/* A version-3 file's kind byte is taken modulo the 33 kinds it knew:
 * 33 is create_device there, end_process in version 4. */
static void test_version_3_decodes_as_before(void **state)
{
    (void)state;
    static struct wk_prog q;
    uint8_t v3[32], v4[32];
    size_t n = 0;
    v3[n++] = 3;     /* version */
    v3[n++] = 0;     /* knobs: the reference adapter */
    memset(v3 + n, 0, 11);
    n += 11;         /* paging buffer, chunk, mutation, call, param, trips */
    v3[n++] = 1;     /* one step */
    v3[n++] = 33;    /* 33 mod 33: create_device (in version 4: end_process) */
    v3[n++] = 0;     /* status ok */
    v3[n++] = 2;     /* flags: gdi */
    v3[n++] = 1;     /* process 2 */
    wk_prog_decode(v3, n, &q);
    assert_int_equal(q.step_count, 1);
    assert_int_equal(q.steps[0].kind, WK_STEP_CREATE_DEVICE);
    assert_int_equal(q.steps[0].flags, 2);
    assert_int_equal(q.steps[0].process, 1);
    wk_prog_free(&q);
    memcpy(v4, v3, n);
    v4[0] = 4;
    wk_prog_decode(v4, n - 1, &q); /* end_process: its process byte, then nothing */
    assert_int_equal(q.step_count, 1);
    assert_int_equal(q.steps[0].kind, WK_STEP_END_PROCESS);
    assert_int_equal(q.steps[0].process, 2);
    wk_prog_free(&q);
}

/* A version-4 file's kind byte is taken modulo the 34 kinds it knew: 34
 * is create_device there, queue in version 5, whose one byte holds the
 * count (bits 0-6) and interrupts: each (bit 7). */
static void test_version_4_decodes_as_before(void **state)
{
    (void)state;
    static struct wk_prog q;
    uint8_t v4[32], v5[32];
    size_t n = 0;
    v4[n++] = 4;     /* version */
    v4[n++] = 0;     /* knobs: the reference adapter */
    memset(v4 + n, 0, 11);
    n += 11;         /* paging buffer, chunk, mutation, call, param, trips */
    v4[n++] = 1;     /* one step */
    v4[n++] = 34;    /* 34 mod 34: create_device (in version 5: queue) */
    v4[n++] = 0;     /* status ok */
    v4[n++] = 0x83;  /* flags: 0x83 (queue: count 3, each) */
    v4[n++] = 1;     /* process 2 */
    wk_prog_decode(v4, n, &q);
    assert_int_equal(q.step_count, 1);
    assert_int_equal(q.steps[0].kind, WK_STEP_CREATE_DEVICE);
    assert_int_equal(q.steps[0].flags, 0x83);
    assert_int_equal(q.steps[0].process, 1);
    wk_prog_free(&q);
    memcpy(v5, v4, n);
    v5[0] = 5;
    wk_prog_decode(v5, n - 1, &q);
    assert_int_equal(q.step_count, 1);
    assert_int_equal(q.steps[0].kind, WK_STEP_QUEUE);
    assert_int_equal(q.steps[0].value, 3);
    assert_int_equal(q.steps[0].flags, WK_PROG_QUEUE_EACH);
    uint8_t again[64];
    size_t m = wk_prog_encode(&q, again, sizeof(again));
    assert_true(m == n - 1 && memcmp(again, v5, m) == 0); /* the encoding of its decoding */
    wk_prog_free(&q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_specs_round_trip),
        cmocka_unit_test(test_random_bytes_decode_and_run),
        cmocka_unit_test(test_empty_input),
        cmocka_unit_test(test_decode_again_matches_decode),
        cmocka_unit_test(test_roles_and_31_segments_round_trip),
        cmocka_unit_test(test_version_1_decodes_as_before),
        cmocka_unit_test(test_version_2_decodes_as_before),
        cmocka_unit_test(test_version_3_decodes_as_before),
        cmocka_unit_test(test_version_4_decodes_as_before),
    };
    return cmocka_run_group_tests_name("prog_codec", tests, NULL, NULL);
}
