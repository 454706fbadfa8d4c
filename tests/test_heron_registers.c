/* SPDX-License-Identifier: MIT */
/*
 * tests/test_heron_registers.c - Heron's register model
 * (examples/gpus/heron/registers.c): the register file as the driver
 * reads and writes it, the ring walk the kit drives (next, exec, done),
 * completion, fault and interrupt latching, and rings or descriptors a
 * driver got wrong, none of which may crash or loop.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "gpu_test_util.h"
#include "heron_test_util.h"

#define RING (HT_SYS + 0x10000) /* the ring's bus address: high dword 3 */

static int setup(void **state)
{
    struct ht_gpu *g = test_malloc(sizeof *g);
    ht_gpu_init(g);
    *state = g;
    return 0;
}

static int teardown(void **state)
{
    ht_gpu_fini(*state);
    test_free(*state);
    return 0;
}

static uint32_t rd(struct ht_gpu *g, uint64_t offset)
{
    return wk_binding.registers->read32(g->self, HERON_BAR_REGISTERS, offset);
}

static void wr(struct ht_gpu *g, uint64_t offset, uint32_t value)
{
    wk_binding.registers->write32(g->self, HERON_BAR_REGISTERS, offset, value);
}

/* What the driver's StartDevice writes (driver.c). */
static void start_ring(struct ht_gpu *g, uint64_t base, uint32_t entries)
{
    wr(g, HERON_REG_ENGINE_RESET, 1);
    wr(g, HERON_REG_RING_BASE_LO, (uint32_t)base);
    wr(g, HERON_REG_RING_BASE_HI, (uint32_t)(base >> 32));
    wr(g, HERON_REG_RING_ENTRIES, entries);
    wr(g, HERON_REG_RING_WPTR, 0);
    wr(g, HERON_REG_INT_ACK, HERON_INT_ALL);
    wr(g, HERON_REG_INT_ENABLE, HERON_INT_ALL);
}

/* A descriptor as SubmitCommand writes it (submit.c). */
static void put_entry(struct ht_gpu *g, uint32_t index, uint64_t dma, uint32_t length, uint32_t fence,
                      uint32_t flags)
{
    HERON_RING_ENTRY e;
    memset(&e, 0, sizeof e);
    e.DmaAddress = dma;
    e.DmaLength = length;
    e.FenceId = fence;
    e.Flags = flags;
    assert_int_equal(fake_mem_write(g->mem, RING + index * sizeof e, &e, sizeof e), 0);
}

static int next(struct ht_gpu *g, struct wk_submission *s)
{
    return wk_binding.registers->next(g->self, s);
}

static void done(struct ht_gpu *g, const struct wk_submission *s, const struct wk_exec_fault *f)
{
    wk_binding.registers->done(g->self, s, f);
}

static int irq(struct ht_gpu *g)
{
    return wk_binding.registers->irq_pending(g->self);
}

static void test_register_file(void **state)
{
    struct ht_gpu *g = *state;
    assert_int_equal(rd(g, HERON_REG_CHIP_ID), HERON_CHIP_ID_HR2);
    start_ring(g, RING, HERON_RING_ENTRIES);
    assert_int_equal(rd(g, HERON_REG_RING_BASE_LO), (uint32_t)RING);
    assert_int_equal(rd(g, HERON_REG_RING_BASE_HI), (uint32_t)(RING >> 32));
    assert_int_equal(rd(g, HERON_REG_RING_ENTRIES), HERON_RING_ENTRIES);
    assert_int_equal(rd(g, HERON_REG_INT_ENABLE), HERON_INT_ALL);
    wr(g, HERON_REG_INT_ENABLE, 0xFFFFFFFF); /* only the bits Heron has */
    assert_int_equal(rd(g, HERON_REG_INT_ENABLE), HERON_INT_ALL);
    /* Read-only registers ignore writes; holes, unaligned offsets, offsets
     * past the window and other BARs read 0. */
    wr(g, HERON_REG_RING_RPTR, 5);
    wr(g, HERON_REG_FENCE_COMPLETED, 5);
    wr(g, HERON_REG_CHIP_ID, 5);
    assert_int_equal(rd(g, HERON_REG_RING_RPTR), 0);
    assert_int_equal(rd(g, HERON_REG_FENCE_COMPLETED), 0);
    assert_int_equal(rd(g, HERON_REG_CHIP_ID), HERON_CHIP_ID_HR2);
    assert_int_equal(rd(g, 0x0100), 0);
    assert_int_equal(rd(g, HERON_REG_CHIP_ID + 2), 0);
    assert_int_equal(rd(g, HERON_MMIO_SIZE), 0);
    assert_int_equal(wk_binding.registers->read32(g->self, HERON_BAR_LOCAL_MEMORY, HERON_REG_CHIP_ID), 0);
    wk_binding.registers->write32(g->self, 7, HERON_REG_RING_ENTRIES, 1);
    assert_int_equal(rd(g, HERON_REG_RING_ENTRIES), HERON_RING_ENTRIES);
}

/* Three submissions: run in order, each completion latched. */
static void test_ring_walk_and_latching(void **state)
{
    struct ht_gpu *g = *state;
    struct wk_submission s;
    struct wk_exec_fault fault = { .cls = WK_FAULT_MEMORY };

    start_ring(g, RING, HERON_RING_ENTRIES);
    assert_int_equal(next(g, &s), 0); /* idle */
    put_entry(g, 0, HT_SYS + 0x100, 64, 11, HERON_RING_FLAG_INTERRUPT);
    put_entry(g, 1, HT_SYS + 0x200, 32, 12, HERON_RING_FLAG_PAGING);
    put_entry(g, 2, HT_SYS + 0x300, 16, 13, HERON_RING_FLAG_INTERRUPT);
    wr(g, HERON_REG_RING_WPTR, 3);

    assert_int_equal(next(g, &s), 1);
    assert_int_equal(s.buffer_addr, HT_SYS + 0x100);
    assert_int_equal(s.start, 0);
    assert_int_equal(s.end, 64);
    assert_int_equal(s.flags, 0);
    assert_int_equal(s.tag, 11);
    assert_int_equal(next(g, &s), 1); /* not retired yet: the same one */
    assert_int_equal(s.tag, 11);
    done(g, &s, NULL);
    assert_int_equal(rd(g, HERON_REG_RING_RPTR), 1);
    assert_int_equal(rd(g, HERON_REG_FENCE_COMPLETED), 11);
    assert_int_equal(rd(g, HERON_REG_INT_STATUS), HERON_INT_FENCE);
    assert_true(irq(g));
    wr(g, HERON_REG_INT_ACK, HERON_INT_FENCE);
    assert_false(irq(g));

    assert_int_equal(next(g, &s), 1);
    assert_int_equal(s.flags, WK_EXEC_PAGING);
    assert_int_equal(s.tag, 12);
    done(g, &s, NULL); /* no HERON_RING_FLAG_INTERRUPT: completion without an interrupt */
    assert_int_equal(rd(g, HERON_REG_FENCE_COMPLETED), 12);
    assert_int_equal(rd(g, HERON_REG_INT_STATUS), 0);
    assert_false(irq(g));

    assert_int_equal(next(g, &s), 1);
    done(g, &s, &fault); /* it faulted: FAULT_FENCE and INT_FAULT, the CP moves on */
    assert_int_equal(rd(g, HERON_REG_FAULT_FENCE), 13);
    assert_int_equal(rd(g, HERON_REG_FENCE_COMPLETED), 13);
    assert_int_equal(rd(g, HERON_REG_INT_STATUS), HERON_INT_FAULT);
    assert_true(irq(g));
    assert_int_equal(next(g, &s), 0);
    done(g, &s, NULL); /* nothing in flight: ignored */
    assert_int_equal(rd(g, HERON_REG_RING_RPTR), 3);
}

static void test_enable_gates_the_line(void **state)
{
    struct ht_gpu *g = *state;
    struct wk_submission s;

    start_ring(g, RING, 4);
    wr(g, HERON_REG_INT_ENABLE, 0);
    for (uint32_t i = 0; i < 6; i++) { /* wraps at 4 entries */
        put_entry(g, i % 4, HT_SYS, 0, 100 + i, HERON_RING_FLAG_INTERRUPT);
        wr(g, HERON_REG_RING_WPTR, (i + 1) % 4);
        assert_int_equal(next(g, &s), 1);
        assert_int_equal(s.tag, 100 + i);
        done(g, &s, NULL);
        assert_int_equal(next(g, &s), 0);
    }
    assert_int_equal(rd(g, HERON_REG_RING_RPTR), 2);
    assert_int_equal(rd(g, HERON_REG_INT_STATUS), HERON_INT_FENCE); /* latched */
    assert_false(irq(g));                                           /* but not on the line */
    wr(g, HERON_REG_INT_ENABLE, HERON_INT_FENCE);
    assert_true(irq(g));
}

/* A descriptor with reserved bits, or whose buffer wraps the address
 * space, runs nothing and faults. */
static void test_garbage_descriptor_faults(void **state)
{
    struct ht_gpu *g = *state;
    struct wk_submission s;
    HERON_RING_ENTRY e;

    start_ring(g, RING, 8);
    put_entry(g, 0, HT_SYS, 64, 21, 0x80);
    put_entry(g, 1, UINT64_MAX - 8, 64, 22, 0);
    put_entry(g, 2, HT_SYS, 64, 23, 0);
    memset(&e, 0, sizeof e);
    e.Reserved[1] = 1;
    e.FenceId = 24;
    assert_int_equal(fake_mem_write(g->mem, RING + 3 * sizeof e, &e, sizeof e), 0);
    wr(g, HERON_REG_RING_WPTR, 4);
    for (uint32_t tag = 21; tag <= 24; tag++) {
        assert_int_equal(next(g, &s), 1);
        assert_int_equal(s.tag, tag);
        assert_int_equal(s.end, tag == 23 ? 64 : 0);
        done(g, &s, NULL);
        assert_int_equal(rd(g, HERON_REG_INT_STATUS) & HERON_INT_FAULT, tag == 23 ? 0 : HERON_INT_FAULT);
        if (tag != 23) {
            assert_int_equal(rd(g, HERON_REG_FAULT_FENCE), tag);
        }
        wr(g, HERON_REG_INT_ACK, HERON_INT_ALL);
    }
}

/* Rings the engine cannot walk leave it idle. */
static void test_bad_rings_are_idle(void **state)
{
    struct ht_gpu *g = *state;
    struct wk_submission s;

    start_ring(g, HT_HOLE, 8); /* no memory there */
    wr(g, HERON_REG_RING_WPTR, 1);
    assert_int_equal(next(g, &s), 0);
    assert_int_equal(g->logs, 1);
    assert_non_null(strstr(g->last_log, "unreadable"));
    assert_int_equal(next(g, &s), 0);
    assert_int_equal(g->logs, 1); /* said once per doorbell */
    wr(g, HERON_REG_RING_WPTR, 2);
    assert_int_equal(next(g, &s), 0);
    assert_int_equal(g->logs, 2);

    start_ring(g, RING, 8);
    wr(g, HERON_REG_RING_WPTR, 8); /* outside the ring */
    assert_int_equal(next(g, &s), 0);
    start_ring(g, RING, 0);       /* a ring of no entries */
    wr(g, HERON_REG_RING_WPTR, 1);
    assert_int_equal(next(g, &s), 0);
    start_ring(g, UINT64_MAX - 16, 8); /* the descriptor address wraps */
    wr(g, HERON_REG_RING_WPTR, 3);
    assert_int_equal(next(g, &s), 0);
}

static void test_engine_reset_and_power_on(void **state)
{
    struct ht_gpu *g = *state;
    struct wk_submission s;

    start_ring(g, RING, 8);
    put_entry(g, 0, HT_SYS, 4, 31, HERON_RING_FLAG_INTERRUPT);
    wr(g, HERON_REG_RING_WPTR, 2);
    assert_int_equal(next(g, &s), 1);
    done(g, &s, NULL);
    assert_true(irq(g));
    wr(g, HERON_REG_ENGINE_RESET, 1); /* queue and latched events dropped */
    assert_int_equal(rd(g, HERON_REG_RING_RPTR), 0);
    assert_int_equal(rd(g, HERON_REG_RING_WPTR), 0);
    assert_false(irq(g));
    assert_int_equal(rd(g, HERON_REG_FENCE_COMPLETED), 31);
    assert_int_equal(rd(g, HERON_REG_RING_ENTRIES), 8);
    wk_binding.reset(g->self); /* power-on: everything */
    assert_int_equal(rd(g, HERON_REG_FENCE_COMPLETED), 0);
    assert_int_equal(rd(g, HERON_REG_RING_ENTRIES), 0);
    assert_int_equal(rd(g, HERON_REG_INT_ENABLE), 0);
    assert_int_equal(rd(g, HERON_REG_CHIP_ID), HERON_CHIP_ID_HR2);
}

/* Random register writes and descriptors: the kit's loop (while next:
 * done) always ends, within one lap of the ring. */
static void test_random_registers_never_loop(void **state)
{
    struct ht_gpu *g = *state;
    uint64_t rng = tu_seed(0x4E6157ull);
    static const uint32_t regs[] = { HERON_REG_INT_ACK, HERON_REG_INT_ENABLE, HERON_REG_RING_BASE_LO,
                                     HERON_REG_RING_BASE_HI, HERON_REG_RING_ENTRIES, HERON_REG_RING_WPTR,
                                     HERON_REG_ENGINE_RESET };

    start_ring(g, RING, 16);
    for (int i = 0; i < 20000; i++) {
        uint32_t reg = regs[tu_rand(&rng) % 7];
        uint32_t value = (uint32_t)tu_rand(&rng);
        if (reg == HERON_REG_RING_ENTRIES || reg == HERON_REG_RING_WPTR) {
            value %= 20;
        } else if (reg == HERON_REG_RING_BASE_HI) {
            value = tu_rand(&rng) % 4 ? (uint32_t)(RING >> 32) : value;
        } else if (reg == HERON_REG_RING_BASE_LO) {
            value = tu_rand(&rng) % 4 ? (uint32_t)RING : value;
        }
        if (tu_rand(&rng) % 3 == 0) {
            uint8_t junk[32];
            for (int k = 0; k < 32; k++) {
                junk[k] = (uint8_t)tu_rand(&rng);
            }
            (void)fake_mem_write(g->mem, RING + (tu_rand(&rng) % 20) * 32, junk, sizeof junk);
        }
        wr(g, reg, value);
        struct wk_submission s;
        uint32_t laps = 0;
        while (next(g, &s)) {
            assert_true(s.start <= s.end);
            done(g, &s, tu_rand(&rng) % 5 == 0 ? &(struct wk_exec_fault){ .cls = WK_FAULT_DECODE } : NULL);
            assert_true(++laps <= 20);
        }
        (void)irq(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_register_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ring_walk_and_latching, setup, teardown),
        cmocka_unit_test_setup_teardown(test_enable_gates_the_line, setup, teardown),
        cmocka_unit_test_setup_teardown(test_garbage_descriptor_faults, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_rings_are_idle, setup, teardown),
        cmocka_unit_test_setup_teardown(test_engine_reset_and_power_on, setup, teardown),
        cmocka_unit_test_setup_teardown(test_random_registers_never_loop, setup, teardown),
    };
    return cmocka_run_group_tests_name("heron.registers", tests, NULL, NULL);
}
