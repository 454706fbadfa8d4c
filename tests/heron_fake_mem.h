/* SPDX-License-Identifier: MIT */
/*
 * tests/heron_fake_mem.h - a memory system for the Heron binding's tests,
 * written against wddmkit/processor.h alone: struct wk_mem and its
 * wk_mem_ops over plain page arrays.
 *
 * Why a fake: the binding must run on nothing but the interface (a binding
 * is a module of its own and reaches memory only through the table), so a
 * second implementation of the table, small enough to trust by reading,
 * proves that the interface is enough. It keeps the rules the interface
 * states: every access is checked whole before it changes anything, GPU
 * accesses to an aperture go through a TLB that keeps the old translation
 * until gart_flush (the host's go through the current entries), unwritten
 * memory reads as zeroes.
 *
 * Pages are allocated on first write, so it can carry Heron's real layout
 * (192 MiB of local memory) at the cost of what a test touches.
 */
#ifndef HERON_FAKE_MEM_H
#define HERON_FAKE_MEM_H

#include <stdint.h>

#include "wddmkit/gpu.h"
#include "wddmkit/processor.h"

struct wk_mem *fake_mem_create(const struct wk_gpu_desc *desc);
void fake_mem_destroy(struct wk_mem *m);
const struct wk_mem_ops *fake_mem_ops(void);

/* Host-side helpers for the tests (through the current GART entries). */
int fake_mem_write(struct wk_mem *m, uint64_t addr, const void *src, uint64_t len);
int fake_mem_read(struct wk_mem *m, uint64_t addr, void *dst, uint64_t len);
/* The entry of an aperture page as written (UINT64_MAX: invalid), and as
 * the GPU's TLB holds it. */
uint64_t fake_mem_pte(struct wk_mem *m, uint32_t segment_id, uint64_t page);
uint64_t fake_mem_tlb(struct wk_mem *m, uint32_t segment_id, uint64_t page);
/* Calls of gart_flush and of gart_write_same so far. */
uint64_t fake_mem_flushes(const struct wk_mem *m);
uint64_t fake_mem_write_same_calls(const struct wk_mem *m);
/* The table a run of this memory uses: the full one, or after
 * fake_mem_drop_write_same one of the first version's size (an older
 * memory system, without gart_write_same). */
const struct wk_mem_ops *fake_mem_ops_of(const struct wk_mem *m);
void fake_mem_drop_write_same(struct wk_mem *m);

#endif
