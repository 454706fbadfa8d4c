/* SPDX-License-Identifier: MIT */
/*
 * test_vidmm_queue.c - fences of buffers in flight (reference-impl/vidmm/
 * queue.c and callbacks.c's fence_complete, internal to wk_vidmm), on a
 * bare adapter record:
 *   - a DMA completion report names "the latest completed DMA buffer"
 *     (facts §5.12 N5): it completes every earlier submission of its node
 *     and none of another node's, and a later report of one of those is a
 *     fence no longer pending (INTR-FENCE-001);
 *   - a report of a buffer the GPU has not run (by its doorbell) is
 *     SUBMIT-FENCE-001;
 *   - how many queued buffers the GPU runs before the kit plays its
 *     interrupt: all outside a drain, one with `each`, else the node's run
 *     at the head (held ones are not on the GPU), and every node's on a
 *     binding whose engines keep their completions apart.
 * The whole flow (a queue step, a driver's interrupt routine) is in
 * specs/submit-fence.yaml's queued cases and their planted twins
 * (tests/driver_build_tests.cmake).
 */
#define _GNU_SOURCE /* sigjmp_buf in internal.h */

#include <setjmp.h>
#include <string.h>

#include "internal.h" /* before cmocka.h, whose fail() macro would rename internal.h's fail */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

static struct wk_vidmm vm;

/* Pending submissions with these fences, nodes and held flags, in order. */
static void pend(const uint32_t *fences, const uint32_t *nodes, const int *held, uint32_t n)
{
    memset(&vm, 0, sizeof(vm));
    vm.cfg.no_model = 1; /* no GPU to ask which buffers ran: the doorbell check stays out */
    for (uint32_t i = 0; i < n; i++) {
        vm.pending[i].fence = fences[i];
        vm.pending[i].node = nodes[i];
        vm.pending[i].held = held ? held[i] : 0;
    }
    vm.npending = n;
}

static int is_pending(uint32_t fence)
{
    for (uint32_t i = 0; i < vm.npending; i++)
        if (vm.pending[i].fence == fence)
            return 1;
    return 0;
}

static void test_latest_completes_earlier_of_its_node(void **state)
{
    (void)state;
    const uint32_t fences[] = { 1, 2, 3, 4, 5 }, nodes[] = { 0, 1, 0, 1, 0 };
    pend(fences, nodes, NULL, 5);
    fence_complete(&vm, 3, 0, 0); /* node 0's latest so far: 1 with it */
    assert_int_equal(vm.violation_total, 0);
    assert_false(is_pending(1));
    assert_false(is_pending(3));
    assert_true(is_pending(2) && is_pending(4) && is_pending(5)); /* node 1's stay, and node 0's later one */
    assert_int_equal(vm.stats.fences_completed, 2);
    assert_int_equal(vm.last_completed, 3);
    fence_complete(&vm, 4, 1, 0);
    assert_int_equal(vm.violation_total, 0);
    assert_int_equal(vm.npending, 1);
    fence_reported(&vm, 1, 0, 0, "faulted"); /* completed with 3: no longer pending */
    assert_int_equal(vm.violation_total, 1);
    assert_string_equal(vm.violations[0].rule, "INTR-FENCE-001");
    assert_non_null(strstr(vm.violations[0].message, "fence 1 reported faulted, but the report of fence 3, a later one "
                                                     "of its node, completed it already"));
    fence_complete(&vm, 2, 1, 0); /* completed with 4, a report ago */
    assert_non_null(strstr(vm.violations[1].message, "fence 2 reported complete, but the report of fence 4"));
    fence_complete(&vm, 99, 0, 0); /* never submitted */
    assert_non_null(strstr(vm.violations[2].message, "fence 99 reported complete, but no such fence is pending"));
}

static void test_held_ones_are_not_completed(void **state)
{
    (void)state;
    const uint32_t fences[] = { 1, 2, 3 }, nodes[] = { 0, 0, 0 };
    const int held[] = { 0, 1, 0 };
    pend(fences, nodes, held, 3);
    fence_complete(&vm, 3, 0, 0); /* 2 never reached the driver: it stays in the software queue */
    assert_int_equal(vm.violation_total, 0);
    assert_int_equal(vm.npending, 1);
    assert_int_equal(vm.pending[0].fence, 2);
}

static void test_report_before_run(void **state)
{
    (void)state;
    struct wk_gpu *gpu = NULL;
    char why[128];
    assert_int_equal(wk_gpu_create(wk_gpu_reference_desc(), &gpu, why, sizeof(why)), WK_OK);
    const uint32_t fences[] = { 7, 8 }, nodes[] = { 0, 0 };
    pend(fences, nodes, NULL, 2);
    vm.cfg.no_model = 0;
    vm.gpu = gpu;
    vm.pending[0].doorbell = 1; /* each SubmitCommand rang one: doorbells 1 and 2 */
    vm.pending[1].doorbell = 2;
    wk_gpu_mmio_write32(gpu, WK_GPU_REG_RING_LENGTH, 0); /* two empty submissions */
    wk_gpu_mmio_write32(gpu, WK_GPU_REG_DOORBELL, 1);
    wk_gpu_mmio_write32(gpu, WK_GPU_REG_DOORBELL, 1);
    assert_int_equal(wk_gpu_run(gpu, 1), 1); /* the GPU ran the first only */
    fence_complete(&vm, 8, 0, 0);
    assert_int_equal(vm.violation_total, 1);
    assert_string_equal(vm.violations[0].rule, "SUBMIT-FENCE-001");
    assert_non_null(strstr(vm.violations[0].message, "fence 8 reported complete before the GPU ran its buffer: the "
                                                     "GPU has run 1 of the 2 buffers rung so far"));
    pend(fences, nodes, NULL, 2);
    vm.cfg.no_model = 0;
    vm.gpu = gpu;
    vm.pending[1].doorbell = 2;
    assert_int_equal(wk_gpu_run(gpu, 1), 1); /* now both ran */
    fence_complete(&vm, 8, 0, 0);
    assert_int_equal(vm.violation_total, 0);
    assert_int_equal(vm.npending, 0);
    wk_gpu_destroy(gpu);
}

static const struct wk_registers_ops no_registers; /* only its presence is read */
static struct wk_binding binding;

static void test_run_limit(void **state)
{
    (void)state;
    const uint32_t fences[] = { 1, 2, 3, 4, 5 }, nodes[] = { 0, 0, 1, 1, 0 };
    const int held[] = { 1, 0, 0, 0, 0 };
    pend(fences, nodes, held, 5);
    assert_int_equal(queue_run_limit(&vm), 0); /* outside a drain: the whole queue */
    vm.queue.draining = 1;
    assert_int_equal(queue_run_limit(&vm), 1); /* the held one is not on the GPU: node 0's run is fence 2 */
    vm.pending[0].held = 0;
    assert_int_equal(queue_run_limit(&vm), 2);
    vm.queue.each = 1;
    assert_int_equal(queue_run_limit(&vm), 1);
    vm.queue.each = 0;
    binding.registers = &no_registers;
    vm.binding = &binding;
    vm.bself = &binding; /* an adapter of the binding's */
    assert_int_equal(queue_run_limit(&vm), 2); /* a binding that keeps one completion state: by node */
    binding.flags = WK_BINDING_ENGINES_APART;
    assert_int_equal(queue_run_limit(&vm), 0); /* engines that report apart: every node's, one interrupt */
    binding.flags = 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_latest_completes_earlier_of_its_node),
        cmocka_unit_test(test_held_ones_are_not_completed),
        cmocka_unit_test(test_report_before_run),
        cmocka_unit_test(test_run_limit),
    };
    return cmocka_run_group_tests_name("vidmm_queue", tests, NULL, NULL);
}
