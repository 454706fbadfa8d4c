/* SPDX-License-Identifier: MIT */
/*
 * binding.c - Heron HR-2 as a wddmkit binding: the one exported object
 * (wk_binding, wddmkit/binding.h) and the per-adapter state behind it.
 *
 * The module exports nothing else (built with -fvisibility=hidden; the
 * object's definition makes itself visible). It links no library of the
 * kit: the memory system comes through the table create() is handed.
 *
 * The bus addresses of its BARs are the platform's (heron_hw.h):
 *   BAR 0 (bars[0]) registers, HERON_MMIO_SIZE at HERON_MMIO_PHYSICAL_BASE,
 *     where the driver finds its MMIO window in the translated resource
 *     list of DxgkCbGetDeviceInformation and maps it with MmMapIoSpaceEx;
 *   BAR 2 (bars[1]) the CPU's view of local memory (segment 1), at the
 *     CpuTranslatedAddress the driver reports for it.
 */
#include <stdlib.h>

#include "heron_gpu.h"

static const struct wk_binding_bar heron_bars[] = {
    [HERON_BAR_REGISTERS] = { WK_BAR_REGISTERS, 0, HERON_MMIO_PHYSICAL_BASE, HERON_MMIO_SIZE },
    [HERON_BAR_LOCAL_MEMORY] = { WK_BAR_SEGMENT, HERON_SEGMENT_LOCAL_VISIBLE, HERON_LOCAL_VISIBLE_CPU_BAR,
                                 HERON_LOCAL_VISIBLE_SIZE },
};

int heron_mem_ops_usable(const struct wk_mem_ops *ops)
{
    return ops != NULL && ops->version >= WK_MEM_OPS_VERSION &&
           ops->size >= offsetof(struct wk_mem_ops, locate) + sizeof ops->locate && ops->copy != NULL &&
           ops->fill != NULL && ops->store != NULL && ops->load != NULL && ops->gart_write != NULL &&
           ops->gart_flush != NULL && ops->layout != NULL && ops->locate != NULL;
}

void heron_log(const struct heron_adapter *a, const char *line)
{
    if (a != NULL && a->log != NULL) {
        a->log(a->kit, line);
    }
}

/* A host the binding can use: its memory system has every call Heron
 * makes. The log sink is optional (an older, shorter host has none). */
static void *heron_create(const struct wk_binding_host *host)
{
    if (host == NULL || host->size < offsetof(struct wk_binding_host, mem_ops) + sizeof host->mem_ops ||
        host->mem == NULL || !heron_mem_ops_usable(host->mem_ops)) {
        return NULL;
    }
    struct heron_adapter *a = calloc(1, sizeof *a);
    if (a == NULL) {
        return NULL;
    }
    a->mem = host->mem;
    a->mem_ops = host->mem_ops;
    if (host->size >= offsetof(struct wk_binding_host, log) + sizeof host->log) {
        a->kit = host->kit;
        a->log = host->log;
    }
    heron_registers_power_on(&a->regs);
    return a;
}

static void heron_destroy(void *self)
{
    free(self);
}

/* Power-on: the register file and the fence record (the kit resets the
 * memory itself). */
static void heron_reset(void *self)
{
    struct heron_adapter *a = self;
    if (a == NULL) {
        return;
    }
    heron_registers_power_on(&a->regs);
    a->fence_addr = 0;
    a->fence_value = 0;
    a->fences_written = 0;
}

WK_BINDING_DEFINE = {
    WK_BINDING_HEADER("heron", "1.0"),
    .memory = &heron_memory,
    .bars = heron_bars,
    .bar_count = sizeof heron_bars / sizeof heron_bars[0],
    .create = heron_create,
    .destroy = heron_destroy,
    .reset = heron_reset,
    .processor = &heron_processor,
    .encoder = &heron_encoder,
    .registers = &heron_registers,
    .disasm = &heron_disasm,
};
