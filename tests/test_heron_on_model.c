/* SPDX-License-Identifier: MIT */
/*
 * tests/test_heron_on_model.c - the Heron binding on the kit's own memory
 * system (wk_gpu_mem and wk_gpu_mem_ops of wddmkit/gpu.h), the one the
 * kit will hand it: the model takes Heron's memory description, every
 * packet lands where the host reads it back (wk_gpu_read), the GART
 * packets write entries and TLB lines as the model keeps them (a stale
 * line until GART_INVALIDATE, GART_CLEAR counted as an unmap), a ring in
 * the model's system memory walks, the kit's runner (wk_gpu_exec_processor)
 * takes its fences, faults and budget, and 20,000 seeded random buffers
 * (WK_TEST_SEED) run through that runner never misbehave by its judgement.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "gpu_test_util.h"
#include "heron_test_util.h"

struct model {
    struct wk_gpu *gpu;
    void *self;
    uint64_t fences;
};

static int spend_all(const struct wk_exec *x, uint64_t commands, uint64_t bytes)
{
    (void)x;
    (void)commands;
    (void)bytes;
    return 0;
}

static void count_fence(const struct wk_exec *x, uint64_t addr, uint64_t value)
{
    (void)addr;
    (void)value;
    ((struct model *)x->kit)->fences++;
}

static const struct wk_exec_ops model_exec_ops = { .size = sizeof model_exec_ops, .spend = spend_all,
                                                   .fence = count_fence };

static int setup(void **state)
{
    struct model *m = test_malloc(sizeof *m);
    char why[160] = "";
    memset(m, 0, sizeof *m);
    assert_int_equal(wk_gpu_check_desc(&heron_memory, why, sizeof why), WK_OK);
    assert_int_equal(wk_gpu_create(&heron_memory, &m->gpu, why, sizeof why), WK_OK);
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

static int run(struct model *m, const uint8_t *bytes, uint64_t start, uint64_t end, struct wk_exec_fault *f)
{
    struct wk_exec x = { .mem = wk_gpu_mem(m->gpu), .mem_ops = wk_gpu_mem_ops(), .ops = &model_exec_ops,
                         .buffer_addr = HT_SYS, .start = start, .end = end, .bytes = bytes, .kit = m };
    return wk_binding.processor->exec(m->self, &x, f);
}

static void test_the_model_takes_herons_memory(void **state)
{
    struct model *m = *state;
    const struct wk_gpu_desc *d = wk_gpu_description(m->gpu);
    assert_true(wk_gpu_segments_equal(d, &heron_memory)); /* budgets: the model fills in its defaults */
    assert_int_equal(d->sysmem_first_pfn, HERON_SYSMEM_FIRST_PFN);
    assert_int_equal(d->sysmem_pages, HERON_SYSMEM_PAGES);
    assert_ptr_equal(wk_gpu_mem_ops()->layout(wk_gpu_mem(m->gpu)), d);
}

static void test_packets_land_in_the_model(void **state)
{
    struct model *m = *state;
    struct ht_buf b = { .used = 0 };
    struct wk_exec_fault f;
    uint8_t seen[64], want[64];
    const uint64_t pfns[2] = { HT_SYS_PFN + 10, HT_SYS_PFN + 11 };

    ht_fill(&b, HT_LOCAL + 0x100, 64, 0x11223344);
    ht_copy(&b, HT_LOCAL + 0x100, HT_HIDDEN + 0x40, 64);
    ht_gart_write(&b, HERON_SEGMENT_GART, 4, 2, pfns);
    ht_gart_invalidate(&b, HERON_SEGMENT_GART);
    ht_fill(&b, HT_GART + 5 * 4096, 8, 0xA5A5A5A5);
    ht_fence_write(&b, HT_SYS + 0x80, 0x0102030405060708ull);
    ht_cache_flush(&b, HT_HIDDEN, HERON_CACHE_FLUSH_WRITE_BACK);
    ht_nop(&b);
    assert_int_equal(run(m, b.bytes, 0, b.used, &f), 0);

    for (int i = 0; i < 64; i++) {
        want[i] = (uint8_t)(0x11223344u >> (8 * (i % 4)));
    }
    assert_int_equal(wk_gpu_read(m->gpu, HT_HIDDEN + 0x40, seen, 64), WK_OK);
    assert_memory_equal(seen, want, 64);
    assert_int_equal(wk_gpu_read(m->gpu, (HT_SYS_PFN + 11) * 4096, seen, 8), WK_OK);
    assert_memory_equal(seen, "\xA5\xA5\xA5\xA5\xA5\xA5\xA5\xA5", 8);
    assert_int_equal(wk_gpu_read(m->gpu, HT_SYS + 0x80, seen, 8), WK_OK);
    assert_memory_equal(seen, "\x08\x07\x06\x05\x04\x03\x02\x01", 8);
    assert_int_equal(m->fences, 1);

    struct wk_gpu_counters c;
    wk_gpu_get_counters(m->gpu, &c);
    assert_int_equal(c.bytes_filled, 64 + 8);
    assert_int_equal(c.bytes_copied, 64);
    assert_int_equal(c.gart_pages_mapped, 2);
    assert_int_equal(c.tlb_flushes, 1);
}

/* GART_WRITE leaves the TLB stale until GART_INVALIDATE; GART_CLEAR
 * points pages at the dummy frame, counted as an unmap. */
static void test_gart_as_the_model_keeps_it(void **state)
{
    struct model *m = *state;
    struct ht_buf b = { .used = 0 };
    struct wk_exec_fault f;
    const uint64_t pfns[3] = { HT_SYS_PFN + 1, HT_SYS_PFN + 2, HT_SYS_PFN + 3 };
    int valid, stale;
    uint64_t pfn;

    ht_gart_write(&b, HERON_SEGMENT_GART, 0, 3, pfns);
    assert_int_equal(run(m, b.bytes, 0, b.used, &f), 0);
    assert_int_equal(wk_gpu_gart_get(m->gpu, HERON_SEGMENT_GART, 1, &valid, &pfn, &stale), WK_OK);
    assert_true(valid);
    assert_int_equal(pfn, HT_SYS_PFN + 2);
    assert_true(stale);

    b.used = 0;
    ht_gart_invalidate(&b, HERON_SEGMENT_GART);
    ht_gart_clear(&b, HERON_SEGMENT_GART, 1, 2, HT_SYS_PFN + 50);
    ht_gart_invalidate(&b, HERON_SEGMENT_GART);
    assert_int_equal(run(m, b.bytes, 0, b.used, &f), 0);
    for (uint64_t page = 1; page <= 2; page++) {
        assert_int_equal(wk_gpu_gart_get(m->gpu, HERON_SEGMENT_GART, page, &valid, &pfn, &stale), WK_OK);
        assert_true(valid);
        assert_int_equal(pfn, HT_SYS_PFN + 50);
        assert_false(stale);
    }
    struct wk_gpu_counters c;
    wk_gpu_get_counters(m->gpu, &c);
    assert_int_equal(c.gart_pages_unmapped, 2);
}

static void test_memory_fault_on_the_model(void **state)
{
    struct model *m = *state;
    struct ht_buf b = { .used = 0 };
    struct wk_exec_fault f;

    ht_nop(&b);
    uint32_t at = ht_copy(&b, HT_GART, HT_LOCAL, 16); /* an unmapped aperture page */
    assert_int_equal(run(m, b.bytes, 0, b.used, &f), 1);
    assert_int_equal(f.cls, WK_FAULT_MEMORY);
    assert_int_equal(f.offset, at);
    assert_int_equal(f.mem_reason, WK_GPU_FAULT_UNMAPPED_APERTURE);
    assert_int_equal(f.fault_addr, HT_GART);
}

/* The ring the driver keeps in system memory, walked through the model. */
static void test_ring_in_the_models_memory(void **state)
{
    struct model *m = *state;
    const struct wk_registers_ops *r = wk_binding.registers;
    HERON_RING_ENTRY e;
    struct wk_submission s;
    const uint64_t ring = HT_SYS + 0x20000;

    memset(&e, 0, sizeof e);
    e.DmaAddress = HT_SYS + 0x1000;
    e.DmaLength = 24;
    e.FenceId = 7;
    e.Flags = HERON_RING_FLAG_INTERRUPT | HERON_RING_FLAG_PAGING;
    assert_int_equal(wk_gpu_write(m->gpu, ring, &e, sizeof e), WK_OK);
    r->write32(m->self, HERON_BAR_REGISTERS, HERON_REG_RING_BASE_LO, (uint32_t)ring);
    r->write32(m->self, HERON_BAR_REGISTERS, HERON_REG_RING_BASE_HI, (uint32_t)(ring >> 32));
    r->write32(m->self, HERON_BAR_REGISTERS, HERON_REG_RING_ENTRIES, HERON_RING_ENTRIES);
    r->write32(m->self, HERON_BAR_REGISTERS, HERON_REG_INT_ENABLE, HERON_INT_ALL);
    r->write32(m->self, HERON_BAR_REGISTERS, HERON_REG_RING_WPTR, 1);
    assert_int_equal(r->next(m->self, &s), 1);
    assert_int_equal(s.buffer_addr, HT_SYS + 0x1000);
    assert_int_equal(s.end, 24);
    assert_int_equal(s.flags, WK_EXEC_PAGING);
    r->done(m->self, &s, NULL);
    assert_true(r->irq_pending(m->self));
    assert_int_equal(r->read32(m->self, HERON_BAR_REGISTERS, HERON_REG_FENCE_COMPLETED), 7);
}

static void test_random_buffers_on_the_model(void **state)
{
    struct model *m = *state;
    uint64_t rng = tu_seed(0x4E2040D3ull);
    uint8_t buf[256];

    for (int i = 0; i < 20000; i++) {
        struct ht_buf b = { .used = 0 };
        while (b.used < sizeof buf - 64 && tu_rand(&rng) % 6 != 0) {
            uint64_t base = (uint64_t[]){ HT_LOCAL, HT_HIDDEN, HT_GART, HT_SYS, HT_HOLE }[tu_rand(&rng) % 5];
            uint64_t addr = base + tu_rand(&rng) % (1u << 16);
            uint32_t bytes = (uint32_t)(tu_rand(&rng) % 4096);
            uint64_t pfn = HT_SYS_PFN + tu_rand(&rng) % 20000;
            switch (tu_rand(&rng) % 7) {
            case 0: ht_fill(&b, addr, bytes, (uint32_t)tu_rand(&rng)); break;
            case 1: ht_copy(&b, addr, base + tu_rand(&rng) % (1u << 16), bytes); break;
            case 2: ht_gart_write(&b, 3, (uint32_t)(tu_rand(&rng) % 9000), 1, &pfn); break;
            case 3: ht_gart_clear(&b, 3, (uint32_t)(tu_rand(&rng) % 9000), (uint32_t)(tu_rand(&rng) % 300), pfn); break;
            case 4: ht_gart_invalidate(&b, (uint32_t)(tu_rand(&rng) % 4)); break;
            case 5: ht_fence_write(&b, addr, tu_rand(&rng)); break;
            default: ht_dword(&b, (uint32_t)tu_rand(&rng)); break;
            }
        }
        memcpy(buf, b.bytes, b.used);
        struct wk_exec_fault f;
        uint32_t misbehaved = 0;
        /* As the kit runs a binding's buffer: it judges the answer first. */
        wk_status st = wk_gpu_exec_processor(m->gpu, wk_binding.processor, m->self, HT_SYS, 0, b.used, buf,
                                             0, (uint32_t)i, &f, &misbehaved);
        assert_int_equal(misbehaved, WK_EXEC_MISBEHAVED_NONE);
        assert_true(st == WK_OK ? f.cls == WK_FAULT_NONE
                                : st == WK_E_GPU_FAULT && f.cls >= WK_FAULT_DECODE && f.cls <= WK_FAULT_MEMORY);
        if (i % 500 == 499) {
            wk_gpu_reset(m->gpu);
            wk_binding.reset(m->self);
        }
    }
}

/* The kit's runner (wk_gpu_exec_processor): a fence becomes the model's
 * last fence, a fault goes to the model's log, the description's
 * max_commands is the budget Heron stops at. */
static void test_the_kits_runner(void **state)
{
    struct model *m = *state;
    struct ht_buf b = { .used = 0 };
    struct wk_exec_fault f;
    struct wk_gpu_fault logged;
    uint64_t total = 0;
    uint32_t misbehaved = 9;

    ht_fill(&b, HT_LOCAL, 16, 0x01010101);
    ht_fence_write(&b, HT_SYS + 0x10, 77);
    assert_int_equal(wk_gpu_exec_processor(m->gpu, wk_binding.processor, m->self, HT_SYS, 0, b.used, b.bytes, 0,
                                           1, &f, &misbehaved),
                     WK_OK);
    assert_int_equal(misbehaved, WK_EXEC_MISBEHAVED_NONE);
    assert_int_equal(wk_gpu_last_fence(m->gpu), 77);

    uint32_t bad = b.used;
    ht_dword(&b, 0x0000011F); /* an unknown opcode */
    assert_int_equal(wk_gpu_exec_processor(m->gpu, wk_binding.processor, m->self, HT_SYS, 0, b.used, b.bytes, 0,
                                           2, &f, &misbehaved),
                     WK_E_GPU_FAULT);
    assert_int_equal(f.cls, WK_FAULT_DECODE);
    assert_int_equal(f.offset, bad);
    assert_int_equal(wk_gpu_faults(m->gpu, &logged, 1, &total), 1);
    assert_int_equal(logged.offset, bad);

    /* A model whose budget is three commands: the fourth packet stops. */
    struct wk_gpu_desc tight = heron_memory;
    struct wk_gpu *gpu = NULL;
    tight.max_commands = 3;
    assert_int_equal(wk_gpu_create(&tight, &gpu, NULL, 0), WK_OK);
    struct wk_binding_host host = { .size = sizeof host, .abi = WK_BINDING_ABI_VERSION, .mem = wk_gpu_mem(gpu),
                                    .mem_ops = wk_gpu_mem_ops() };
    void *self = wk_binding.create(&host);
    b.used = 0;
    for (int i = 0; i < 5; i++) {
        ht_nop(&b);
    }
    assert_int_equal(wk_gpu_exec_processor(gpu, wk_binding.processor, self, HT_SYS, 0, b.used, b.bytes, 0, 3, &f,
                                           &misbehaved),
                     WK_E_GPU_FAULT);
    assert_int_equal(misbehaved, WK_EXEC_MISBEHAVED_NONE);
    assert_int_equal(f.cls, WK_FAULT_BUDGET);
    assert_int_equal(f.offset, 12);
    wk_binding.destroy(self);
    wk_gpu_destroy(gpu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_the_model_takes_herons_memory, setup, teardown),
        cmocka_unit_test_setup_teardown(test_packets_land_in_the_model, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gart_as_the_model_keeps_it, setup, teardown),
        cmocka_unit_test_setup_teardown(test_memory_fault_on_the_model, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ring_in_the_models_memory, setup, teardown),
        cmocka_unit_test_setup_teardown(test_the_kits_runner, setup, teardown),
        cmocka_unit_test_setup_teardown(test_random_buffers_on_the_model, setup, teardown),
    };
    return cmocka_run_group_tests_name("heron.on_model", tests, NULL, NULL);
}
