/* SPDX-License-Identifier: MIT */
/*
 * harnesses.h - the fuzz harnesses compiled into a benchmark: each
 * harness source once more with LLVMFuzzerTestOneInput renamed to
 * wk_bench_<harness> (bench/CMakeLists.txt), so one process holds them
 * all (fuzz_speed, fuzz_stability).
 */
#ifndef WK_BENCH_HARNESSES_H
#define WK_BENCH_HARNESSES_H

#include <stddef.h>
#include <stdint.h>

typedef int harness_fn(const uint8_t *data, size_t size);

int wk_bench_fuzz_gpu_decode(const uint8_t *data, size_t size);
int wk_bench_fuzz_patch(const uint8_t *data, size_t size);
int wk_bench_fuzz_render(const uint8_t *data, size_t size);
int wk_bench_fuzz_paging(const uint8_t *data, size_t size);
int wk_bench_fuzz_prog(const uint8_t *data, size_t size);

#endif
