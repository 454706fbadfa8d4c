/* SPDX-License-Identifier: MIT */
/*
 * tests/test_othergpu_on_model.c - the OtherGPU binding on the kit's own
 * memory system (wk_gpu_mem and wk_gpu_mem_ops of wddmkit/gpu.h), the one
 * the kit hands it, through the kit's runner (wk_gpu_exec_processor): the
 * model takes OtherGPU's memory description, records land where the host
 * reads them back (wk_gpu_read), MAP and UNMAP count as the model counts
 * them and the TLB stays stale until GART_FLUSH, a FENCE becomes the
 * model's last fence, a fault goes to the model's fault log, and 20,000
 * seeded random buffers never misbehave by the runner's judgement.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "othergpu_test_util.h"

struct model {
    struct wk_gpu *gpu;
    void *self;
};

static int setup(void **state)
{
    struct model *m = test_malloc(sizeof *m);
    char why[160] = "";
    memset(m, 0, sizeof *m);
    assert_int_equal(wk_gpu_check_desc(&og_memory, why, sizeof why), WK_OK);
    assert_int_equal(wk_gpu_create(&og_memory, &m->gpu, why, sizeof why), WK_OK);
    struct wk_binding_host host = { .size = sizeof host, .abi = WK_BINDING_ABI_VERSION,
                                    .mem = wk_gpu_mem(m->gpu), .mem_ops = wk_gpu_mem_ops() };
    m->self = wk_binding.create(&host);
    assert_non_null(m->self);
    *state = m;
    return 0;
}

static int teardown(void **state)
{
    struct model *m = *state;
    wk_binding.destroy(m->self);
    wk_gpu_destroy(m->gpu);
    test_free(m);
    return 0;
}

static wk_status run(struct model *m, const struct ogt_buf *b, struct wk_exec_fault *f, uint32_t *misbehaved)
{
    return wk_gpu_exec_processor(m->gpu, wk_binding.processor, m->self, OGT_SYS, 0, b->used, b->bytes, 0, 1, f,
                                 misbehaved);
}

static void test_records_land_in_the_models_memory(void **state)
{
    struct model *m = *state;
    struct ogt_buf b = { .used = 0 };
    struct wk_exec_fault f;
    uint32_t misbehaved = 0;
    uint8_t seen[64];
    ogt_fill(&b, OGT_VRAM + 0x100, 64, 0x44332211u);
    ogt_copy(&b, OGT_VRAM + 0x100, OGT_SYS + 0x40, 64);
    ogt_fence(&b, OGT_SYS, 77);
    assert_int_equal(run(m, &b, &f, &misbehaved), WK_OK);
    assert_int_equal(misbehaved, WK_EXEC_MISBEHAVED_NONE);
    assert_int_equal(wk_gpu_read(m->gpu, OGT_SYS + 0x40, seen, sizeof seen), WK_OK);
    for (size_t i = 0; i < sizeof seen; i++) {
        assert_int_equal(seen[i], (uint8_t)(0x44332211u >> (8 * (i % 4))));
    }
    assert_int_equal(wk_gpu_last_fence(m->gpu), 77);
    struct wk_gpu_counters c;
    wk_gpu_get_counters(m->gpu, &c);
    assert_int_equal(c.bytes_filled, 64);
    assert_int_equal(c.bytes_copied, 64);
}

static void test_gart_as_the_model_keeps_it(void **state)
{
    struct model *m = *state;
    struct ogt_buf b = { .used = 0 };
    struct wk_exec_fault f;
    int valid = 0, stale = 0;
    uint64_t pfn = 0;
    ogt_page(&b, OG_MAP_PAGE, OG_SEGMENT_GART, 3, OGT_SYS + 0x5000);
    assert_int_equal(run(m, &b, &f, NULL), WK_OK);
    assert_int_equal(wk_gpu_gart_get(m->gpu, OG_SEGMENT_GART, 3, &valid, &pfn, &stale), WK_OK);
    assert_true(valid);
    assert_int_equal(pfn, OGT_SYS_PFN + 5);
    assert_true(stale);
    b.used = 0;
    ogt_record(&b, OG_GART_FLUSH, 0, 0, OG_SEGMENT_GART);
    ogt_page(&b, OG_UNMAP_PAGE, OG_SEGMENT_GART, 3, OGT_SYS + 0x9000);
    ogt_record(&b, OG_GART_FLUSH, 0, 0, OG_SEGMENT_GART);
    assert_int_equal(run(m, &b, &f, NULL), WK_OK);
    assert_int_equal(wk_gpu_gart_get(m->gpu, OG_SEGMENT_GART, 3, &valid, &pfn, &stale), WK_OK);
    assert_int_equal(pfn, OGT_SYS_PFN + 9);
    assert_false(stale);
    struct wk_gpu_counters c;
    wk_gpu_get_counters(m->gpu, &c);
    assert_int_equal(c.gart_pages_mapped, 1);
    assert_int_equal(c.gart_pages_unmapped, 1);
}

/* A fault is logged by the model with the record's offset. */
static void test_a_fault_reaches_the_log(void **state)
{
    struct model *m = *state;
    struct ogt_buf b = { .used = 0 };
    struct wk_exec_fault f;
    struct wk_gpu_fault log[4];
    uint64_t total = 0;
    ogt_record(&b, OG_NOP, 0, 0, 0);
    ogt_fill(&b, OGT_HOLE, 16, 1);
    assert_int_equal(run(m, &b, &f, NULL), WK_E_GPU_FAULT);
    assert_int_equal(wk_gpu_faults(m->gpu, log, 4, &total), 1);
    assert_int_equal(log[0].offset, 32);
    assert_int_equal(log[0].fault_addr, OGT_HOLE);
}

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void test_random_buffers_never_misbehave(void **state)
{
    struct model *m = *state;
    const char *env = getenv("WK_TEST_SEED");
    uint64_t s = env ? strtoull(env, NULL, 0) | 1 : 0xD1B54A32D192ED03ull;
    static const uint64_t bases[] = { OGT_VRAM, OGT_GART, OGT_SYS, OGT_HOLE };
    uint64_t ran_to_end = 0;
    for (int n = 0; n < 20000; n++) {
        struct ogt_buf b = { .used = 0 };
        struct wk_exec_fault f;
        uint32_t misbehaved = 0;
        uint32_t records = 1 + (uint32_t)(rng_next(&s) % 10);
        for (uint32_t i = 0; i < records; i++) {
            uint32_t op = (uint32_t)(rng_next(&s) % 12);
            uint64_t address = bases[rng_next(&s) % 4] + (rng_next(&s) % 0x10000) * (rng_next(&s) % 2 ? 4096 : 1);
            uint32_t c = (uint32_t)(rng_next(&s) % 0x2000);
            if (op == OG_MAP_PAGE || op == OG_UNMAP_PAGE || op == OG_GART_FLUSH) {
                c = (uint32_t)(rng_next(&s) % 3) << (op == OG_GART_FLUSH ? 0 : 24) | (uint32_t)(rng_next(&s) % 2100);
            }
            /* Mostly with its pair's first half, so that most records act. */
            if (rng_next(&s) % 4 != 0) {
                if (op == OG_COPY) {
                    ogt_addr_record(&b, OG_SRC, bases[rng_next(&s) % 3] + (rng_next(&s) % 0x8000), 0);
                } else if (op == OG_FILL) {
                    ogt_record(&b, OG_PATTERN, (uint32_t)rng_next(&s), 0, 0);
                } else if (op == OG_FENCE) {
                    ogt_record(&b, OG_FENCE_VALUE, (uint32_t)rng_next(&s), (uint32_t)rng_next(&s), 0);
                }
            }
            ogt_addr_record(&b, op, address, c);
        }
        wk_status st = run(m, &b, &f, &misbehaved);
        assert_true(st == WK_OK || st == WK_E_GPU_FAULT);
        ran_to_end += st == WK_OK;
        assert_int_equal(misbehaved, WK_EXEC_MISBEHAVED_NONE);
        if (n % 1000 == 999) {
            wk_gpu_reset(m->gpu);
            wk_binding.reset(m->self);
        }
    }
    assert_true(ran_to_end > 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_records_land_in_the_models_memory, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gart_as_the_model_keeps_it, setup, teardown),
        cmocka_unit_test_setup_teardown(test_a_fault_reaches_the_log, setup, teardown),
        cmocka_unit_test_setup_teardown(test_random_buffers_never_misbehave, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
