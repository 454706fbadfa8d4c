/* SPDX-License-Identifier: MIT */
/*
 * test_prog_mutator.c - the structure-aware mutator (fuzz/mutator/prog_mutator.c,
 * its AFL++ entry points compiled in) keeps programs valid: every output
 * decodes to a program within the limits that encodes back to the same
 * bytes, and the render step's user patch-location list, 32-entry lists
 * and long raw command buffers survive mutation and get mutated.
 *
 * Why: fuzz_prog's inputs are only as good as the mutator's outputs; an
 * output the codec reads as another program than the mutator meant wastes
 * the engine's time, and a field the mutator never touches is never fuzzed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "conformance.h"

void *afl_custom_init(void *afl, unsigned int seed);
size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf, uint8_t *add_buf,
                       size_t add_buf_size, size_t max_size);
void afl_custom_deinit(void *data);

#define MAX_INPUT (1u << 16)

/* A program whose render step uses every wide field. */
static size_t wide_input(uint8_t *buf, size_t cap)
{
    static struct wk_prog p;
    wk_prog_init(&p);
    wk_prog_add_step(&p, WK_STEP_CREATE_DEVICE);
    wk_prog_add_step(&p, WK_STEP_CREATE_CONTEXT)->flags = 0x2;
    wk_prog_add_step(&p, WK_STEP_CREATE_ALLOCATION)->alloc.size = 4096;
    struct wk_step *s = wk_prog_add_step(&p, WK_STEP_RENDER);
    struct wk_prog_render *r = s->render = calloc(1, sizeof(*r));
    assert_non_null(r);
    r->list_length = WK_PROG_MAX_LIST;
    for (uint32_t i = 0; i < r->list_length; i++)
        r->list_alloc[i] = i % 2;
    r->patch_length = 3;
    for (uint32_t i = 0; i < r->patch_length; i++)
        r->patch[i] = (struct wk_prog_patch_location){ i, 1, 2, 3, 4 * i, 5, 0x80 };
    r->raw = 1;
    r->raw_length = 3000;
    for (uint32_t i = 0; i < r->raw_length; i++)
        r->raw_bytes[i] = (uint8_t)(i * 31);
    size_t n = wk_prog_encode(&p, buf, cap);
    assert_true(n <= cap);
    wk_prog_free(&p);
    return n;
}

static void assert_valid(const uint8_t *out, size_t n)
{
    static struct wk_prog p, q;
    static uint8_t a[MAX_INPUT], b[MAX_INPUT];
    wk_prog_decode(out, n, &p);
    for (uint32_t i = 0; i < p.step_count; i++) {
        const struct wk_prog_render *r = p.steps[i].render;
        assert_true(p.steps[i].kind < WK_STEP_KIND_COUNT);
        if (!r)
            continue;
        assert_true(r->list_length <= WK_PROG_MAX_LIST);
        assert_true(r->patch_length <= WK_PROG_MAX_USER_PATCHES);
        assert_true(r->raw_length <= WK_PROG_MAX_COMMAND);
        for (uint32_t k = 0; k < r->patch_length; k++)
            assert_true(r->patch[k].slot_id <= 0xFFFFFF && r->patch[k].reserved <= 0xFF);
    }
    size_t na = wk_prog_encode(&p, a, sizeof(a));
    wk_prog_decode(a, na, &q);
    size_t nb = wk_prog_encode(&q, b, sizeof(b));
    assert_int_equal(na, nb);
    assert_memory_equal(a, b, na);
    wk_prog_free(&p);
    wk_prog_free(&q);
}

/* How the render step's user patch list of an output differs from the input's. */
static int user_patches_changed(const uint8_t *in, size_t in_n, const uint8_t *out, size_t out_n)
{
    static struct wk_prog p, q;
    wk_prog_decode(in, in_n, &p);
    wk_prog_decode(out, out_n, &q);
    const struct wk_prog_render *a = p.step_count ? p.steps[p.step_count - 1].render : NULL;
    const struct wk_prog_render *b = q.step_count ? q.steps[q.step_count - 1].render : NULL;
    int changed = a && b && (a->patch_length != b->patch_length ||
                             memcmp(a->patch, b->patch, a->patch_length * sizeof(a->patch[0])) != 0);
    wk_prog_free(&p);
    wk_prog_free(&q);
    return changed;
}

static void test_outputs_stay_programs(void **state)
{
    (void)state;
    static uint8_t in[MAX_INPUT], buf[MAX_INPUT];
    size_t n = wide_input(in, sizeof(in));
    void *m = afl_custom_init(NULL, 7);
    assert_non_null(m);
    uint32_t patch_edits = 0;
    for (int k = 0; k < 3000; k++) {
        memcpy(buf, in, n);
        uint8_t *out = NULL;
        size_t got = afl_custom_fuzz(m, buf, n, &out, NULL, 0, sizeof(buf));
        assert_non_null(out);
        assert_true(got <= sizeof(buf));
        assert_valid(out, got);
        patch_edits += (uint32_t)user_patches_changed(in, n, out, got);
    }
    afl_custom_deinit(m);
    if (patch_edits <= 10) /* the user patch list is fuzzed, not only carried */
        fail_msg("%u of 3000 outputs changed the user patch list", patch_edits);
}

/* Outputs fed back as inputs, with random bytes mixed in. */
static void test_chains_and_noise(void **state)
{
    (void)state;
    static uint8_t buf[MAX_INPUT];
    size_t n = wide_input(buf, sizeof(buf));
    void *m = afl_custom_init(NULL, 11);
    uint64_t x = 0x2545F4914F6CDD1Dull;
    for (int k = 0; k < 2000; k++) {
        if (k % 50 == 49) { /* a few random bytes, as the engine's havoc would leave */
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            buf[x % (n ? n : 1)] ^= (uint8_t)x;
        }
        uint8_t *out = NULL;
        n = afl_custom_fuzz(m, buf, n, &out, NULL, 0, 8192);
        assert_true(n <= 8192);
        assert_valid(out, n);
        memmove(buf, out, n);
    }
    afl_custom_deinit(m);
}

/* The adapter is mutated too: some outputs take the splice partner's
 * adapter (its 64 KiB segment 1 and seed), some a shrunk segment 1, and
 * every one is still a program that encodes back to itself. */
static void test_adapter_mutations(void **state)
{
    (void)state;
    static uint8_t in[MAX_INPUT], partner[MAX_INPUT], buf[MAX_INPUT];
    static struct wk_prog p;
    size_t n = wide_input(in, sizeof(in));
    wk_prog_init(&p);
    wk_prog_add_step(&p, WK_STEP_CREATE_DEVICE);
    p.segments[0].size = 64u << 10;
    p.vidmm.seed = 7;
    size_t pn = wk_prog_encode(&p, partner, sizeof(partner));
    void *m = afl_custom_init(NULL, 5);
    uint32_t adopted = 0, shrunk = 0;
    for (int k = 0; k < 3000; k++) {
        memcpy(buf, in, n);
        uint8_t *out = NULL;
        size_t got = afl_custom_fuzz(m, buf, n, &out, partner, pn, sizeof(buf));
        assert_valid(out, got);
        wk_prog_decode(out, got, &p);
        adopted += p.gpu.segments[0].size == (64u << 10) && p.vidmm.seed == 7;
        shrunk += p.gpu.segments[0].size < (1u << 20) && p.vidmm.seed == 0;
        wk_prog_free(&p);
    }
    afl_custom_deinit(m);
    if (adopted < 10 || shrunk < 10)
        fail_msg("of 3000 outputs, %u took the partner's adapter and %u a smaller segment 1", adopted, shrunk);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_outputs_stay_programs),
        cmocka_unit_test(test_chains_and_noise),
        cmocka_unit_test(test_adapter_mutations),
    };
    return cmocka_run_group_tests_name("prog_mutator", tests, NULL, NULL);
}
