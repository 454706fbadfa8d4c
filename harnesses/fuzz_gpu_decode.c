/* SPDX-License-Identifier: MIT */
/*
 * fuzz_gpu_decode.c - arbitrary bytes as a DMA buffer through the GPU
 * model's disassembler, validator and executor.
 *
 * One source, three builds (fuzz/CMakeLists.txt): libFuzzer, AFL++ and the
 * plain replay binary. The input is stored in segment 1 of the reference
 * adapter and executed by address, so fetching is exercised too; half the
 * aperture is mapped first so that aperture paths, stale TLB lines and
 * unmapped pages are all reachable.
 *
 * Invariants (a violation aborts, which every engine reports as a crash):
 *   - nothing crashes, leaks or loops (budgets are small);
 *   - a buffer the validator accepts faults at depth 0 only for a reason
 *     that depends on state (docs/gpu-model.md, "Static validation");
 *   - a buffer the validator rejects faults at run time at the same offset
 *     with the same reason, unless an earlier command faulted first;
 *   - reset returns every host page: the next input starts from nothing.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "wddmkit/gpu.h"

#include "harness.h"

#define MAX_INPUT (64u << 10)
#define DMA_ADDR 0x100000ull /* segment 1 of the reference adapter */

static void sink(void *user, const char *line)
{
    if (!line[0])
        abort();
    ++*(uint64_t *)user;
}

static struct wk_gpu *harness_gpu(void)
{
    static struct wk_gpu *gpu; /* one model per process, reset per input */
    if (gpu)
        return gpu;
    struct wk_gpu_desc d = *wk_gpu_reference_desc();
    d.max_commands = 4096;
    d.max_bytes_moved = 1u << 20;
    d.max_dma_length = MAX_INPUT;
    d.max_resident_pages = 1024;
    char why[256];
    if (wk_gpu_create(&d, &gpu, why, sizeof(why)) != WK_OK) {
        fprintf(stderr, "fuzz_gpu_decode: cannot build the adapter: %s\n", why);
        abort();
    }
    return gpu;
}

static int state_dependent(enum wk_gpu_fault_reason r)
{
    return r == WK_GPU_FAULT_UNMAPPED_APERTURE || r == WK_GPU_FAULT_CALL_DEPTH ||
           r == WK_GPU_FAULT_BUDGET || r == WK_GPU_FAULT_MEMORY_LIMIT;
}

/* Compares the executor's outcome with the validator's verdict on the same
 * bytes; CALL targets (depth > 0) are outside what the validator sees. */
static void check_against_validator(wk_status vst, const struct wk_gpu_fault *vf, wk_status xst,
                                    const struct wk_gpu_fault *xf)
{
    if (xst == WK_OK) {
        if (vst != WK_OK)
            abort(); /* ran cleanly over a command the validator rejected */
        return;
    }
    if (xf->depth > 0)
        return;
    if (vst != WK_OK && xf->offset > vf->offset)
        abort(); /* ran past a command the validator rejected */
    if (state_dependent(xf->reason))
        return;
    if (vst == WK_OK || xf->offset < vf->offset || xf->reason != vf->reason)
        abort(); /* a static fault the validator did not predict */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct wk_gpu *gpu = harness_gpu();
    if (size > MAX_INPUT)
        return 0;
    wk_gpu_reset(gpu);
    if (wk_gpu_resident_pages(gpu) != 0)
        abort();
    if (wk_gpu_gart_set_range(gpu, 3, 0, 32, 0x10000) != WK_OK) /* map half the aperture */
        abort();

    uint64_t lines = 0;
    wk_gpu_disasm(data, size, sink, &lines);
    struct wk_gpu_fault vf, xf;
    wk_status vst = wk_gpu_validate(gpu, data, size, &vf);
    if (wk_gpu_write(gpu, DMA_ADDR, data, size) != WK_OK)
        abort();
    wk_status xst = wk_gpu_exec(gpu, DMA_ADDR, size, &xf);
    check_against_validator(vst, &vf, xst, &xf);
    return 0;
}
