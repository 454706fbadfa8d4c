/* SPDX-License-Identifier: MIT */
/*
 * binding.c - OtherGPU as a wddmkit binding: the one exported object
 * (wk_binding, wddmkit/binding.h) and the per-adapter state behind it.
 *
 * The module exports nothing else (built with -fvisibility=hidden; the
 * object's definition makes itself visible). It links no library of the
 * kit: the memory system comes through the table create() is handed.
 *
 * Parts: memory, a processor (with read_address and fault_text), an
 * encoder, a disassembler. No registers: OtherGPU's driver rings no
 * doorbell the kit can see (its software ring, submit.c of the driver), so
 * the kit runs each submission it accepted, in order, and retires its
 * fence. One BAR: the CPU's view of local memory (segment 1) at the
 * CpuTranslatedAddress the driver reports for it (OG_VRAM_CPU_BAR).
 */
#include <stdlib.h>

#include "othergpu_gpu.h"

static const struct wk_binding_bar og_bars[] = {
    { WK_BAR_SEGMENT, OG_SEGMENT_VRAM, OG_VRAM_CPU_BAR, OG_VRAM_SIZE },
};

int ogb_mem_ops_usable(const struct wk_mem_ops *ops)
{
    return ops != NULL && ops->version >= WK_MEM_OPS_VERSION &&
           ops->size >= offsetof(struct wk_mem_ops, locate) + sizeof ops->locate && ops->copy != NULL &&
           ops->fill != NULL && ops->store != NULL && ops->load != NULL && ops->gart_write != NULL &&
           ops->gart_flush != NULL && ops->layout != NULL && ops->locate != NULL;
}

/* A host the binding can use: its memory system has every call OtherGPU
 * makes. The log sink is optional (an older, shorter host has none). */
static void *og_create(const struct wk_binding_host *host)
{
    if (host == NULL || host->size < offsetof(struct wk_binding_host, mem_ops) + sizeof host->mem_ops ||
        host->mem == NULL || !ogb_mem_ops_usable(host->mem_ops)) {
        return NULL;
    }
    struct og_adapter_model *a = calloc(1, sizeof *a);
    if (a == NULL) {
        return NULL;
    }
    a->mem = host->mem;
    a->mem_ops = host->mem_ops;
    if (host->size >= offsetof(struct wk_binding_host, log) + sizeof host->log) {
        a->kit = host->kit;
        a->log = host->log;
    }
    return a;
}

static void og_destroy(void *self)
{
    free(self);
}

/* Power-on: the fence record (the kit resets the memory itself). */
static void og_reset(void *self)
{
    struct og_adapter_model *a = self;
    if (a == NULL) {
        return;
    }
    a->fence_addr = 0;
    a->fence_value = 0;
    a->fences_written = 0;
}

WK_BINDING_DEFINE = {
    WK_BINDING_HEADER("othergpu", "1.0"),
    .memory = &og_memory,
    .bars = og_bars,
    .bar_count = sizeof og_bars / sizeof og_bars[0],
    .create = og_create,
    .destroy = og_destroy,
    .reset = og_reset,
    .processor = &og_processor,
    .encoder = &og_encoder,
    .disasm = &og_disasm,
};
