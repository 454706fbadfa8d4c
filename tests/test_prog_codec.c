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

#include "conform.h"
#include "spec.h"

static uint64_t rng_next(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 17;
}

static void test_specs_round_trip(void **state)
{
    (void)state;
    struct wk_spec_set set;
    struct wk_diag d;
    wk_spec_set_init(&set);
    wk_diag_init(&d, 10);
    assert_int_equal(wk_spec_load_dir(&set, WK_SPECS_DIR, &d), WK_OK);
    assert_true(set.count > 0);
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
        wk_prog_free(&q);
    }
    wk_spec_set_free(&set);
    wk_diag_free(&d);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_specs_round_trip),
        cmocka_unit_test(test_random_bytes_decode_and_run),
        cmocka_unit_test(test_empty_input),
    };
    return cmocka_run_group_tests_name("prog_codec", tests, NULL, NULL);
}
