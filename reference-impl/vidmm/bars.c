/* SPDX-License-Identifier: MIT */
/*
 * bars.c - the adapter's device BARs: the memory ranges its device decodes
 * on the bus, which DxgkCbGetDeviceInformation's TranslatedResourceList
 * lists (facts 5.10 M1-M3), and the one way into the register model behind
 * them.
 *
 * One table per adapter. bars_attach sets it: the binding loader hands it a
 * binding's BARs and register model (binding.h). Without one, every use
 * takes the kit's own: for a driver of the kit's GPU model, BAR0 at
 * WK_VIDMM_BAR0_ADDRESS holds the model's registers, reached through
 * wk_gpu_mmio_read32/write32 exactly as DXGKRNL_INTERFACE's WkReadRegister32
 * reaches them; for a driver of other hardware (cfg.no_model), one BAR of
 * plain memory at the same address, so that a WDK driver that maps the
 * first memory resource it is given still starts (nothing answers behind
 * it: MmMapIoSpace gives plain memory there).
 *
 * Every call into a register model goes through bars_read32 and
 * bars_write32: guarding a binding's code (a binding that crashes is
 * blamed, not the driver) is done in those two functions and nowhere else.
 *
 * A WK_BAR_SEGMENT BAR is the CPU's view of a memory segment (facts 5.5
 * G6: BAR offset = segment offset). Its segment is built mappable
 * (bars_cpu_view_segments, vidmm.c), and MmMapIoSpace inside it maps the
 * segment's own bytes (regwin.c), so what the driver writes with the CPU is
 * where the kit checks.
 */
#include <stddef.h>
#include <string.h>

#include "internal.h"

#define PAGE 4096ull

/* ------------------------------------------------------------------ */
/* The kit's GPU behind BAR0                                            */
/* ------------------------------------------------------------------ */

static uint32_t model_read32(void *self, uint32_t bar, uint64_t offset)
{
    struct wk_vidmm *vm = self;
    (void)bar;
    return wk_gpu_mmio_read32(vm->gpu, (uint32_t)offset);
}

static void model_write32(void *self, uint32_t bar, uint64_t offset, uint32_t value)
{
    struct wk_vidmm *vm = self;
    (void)bar;
    wk_gpu_mmio_write32(vm->gpu, (uint32_t)offset, value);
}

/* Registers only: the model's queue, completions and interrupt line are run
 * by submit.c, not through this table. */
static const struct wk_registers_ops model_registers = {
    .size = sizeof(struct wk_registers_ops),
    .read32 = model_read32,
    .write32 = model_write32,
};

/* The kit's own BARs, as cfg.no_model says now: written afresh at every
 * use, not kept, because no_model may change after loading
 * (wk_vidmm_set_no_model) and a driver may ask before that (DriverEntry). */
static void use_kit_own(struct wk_vidmm *vm)
{
    struct wk_binding_bar bar0 = { .kind = WK_BAR_REGISTERS, .physical = WK_VIDMM_BAR0_ADDRESS };
    if (vm->cfg.no_model || vm->binding) { /* a binding without BARs: its device has none the kit knows */
        bar0.size = WK_VIDMM_PLAIN_BAR_SIZE;
        bars_attach(vm, &bar0, 1, NULL, NULL);
    } else {
        bar0.size = WK_GPU_REG_SIZE;
        bars_attach(vm, &bar0, 1, &model_registers, vm);
    }
    vm->bars.set = 0;
}

/* ------------------------------------------------------------------ */
/* The table                                                            */
/* ------------------------------------------------------------------ */

void bars_attach(struct wk_vidmm *vm, const struct wk_binding_bar *bars, uint32_t count,
                 const struct wk_registers_ops *regs, void *self)
{
    struct bar_table *t = &vm->bars;
    /* Not t->resources: the driver may hold the list it was handed (it
     * stays valid, and says what it said, until the next
     * DxgkCbGetDeviceInformation). */
    memset(t->bar, 0, sizeof(t->bar));
    t->set = 1;
    t->count = count < WK_BINDING_MAX_BARS ? count : WK_BINDING_MAX_BARS;
    if (bars && t->count)
        memcpy(t->bar, bars, t->count * sizeof(t->bar[0]));
    else
        t->count = 0;
    t->regs = regs;
    t->self = self;
}

const struct bar_table *bars_of(struct wk_vidmm *vm)
{
    if (!vm->bars.set)
        use_kit_own(vm);
    return &vm->bars;
}

/* One translated memory resource (facts 4.12): the BAR's bus range. A BAR
 * of 4 GiB or more would need CmResourceTypeMemoryLarge; the kit's and a
 * binding's are smaller (binding.h), and a larger one is listed clipped. */
static void describe_bar(CM_PARTIAL_RESOURCE_DESCRIPTOR *d, const struct wk_binding_bar *b)
{
    memset(d, 0, sizeof(*d));
    d->Type = CmResourceTypeMemory;
    d->ShareDisposition = CmResourceShareDeviceExclusive;
    d->Flags = CM_RESOURCE_MEMORY_READ_WRITE | CM_RESOURCE_MEMORY_BAR;
    d->u.Memory.Start.QuadPart = (LONGLONG)b->physical;
    d->u.Memory.Length = b->size > 0xFFFFF000ull ? 0xFFFFF000u : (ULONG)b->size;
}

CM_RESOURCE_LIST *bars_resource_list(struct wk_vidmm *vm)
{
    const struct bar_table *t = bars_of(vm);
    CM_RESOURCE_LIST *list = &vm->bars.resources.list;
    memset(&vm->bars.resources, 0, sizeof(vm->bars.resources));
    list->Count = 1; /* one full descriptor, as for every WDM device (M2) */
    list->List[0].InterfaceType = PCIBus;
    list->List[0].PartialResourceList.Version = 1;
    list->List[0].PartialResourceList.Revision = 1;
    list->List[0].PartialResourceList.Count = t->count;
    /* The descriptors past the first are addressed from the whole block:
     * indexing PartialDescriptors[1] past its declared bound lets the
     * compiler assume there is only [0] (it did, at -O2). */
    CM_PARTIAL_RESOURCE_DESCRIPTOR *d =
        (CM_PARTIAL_RESOURCE_DESCRIPTOR *)(void *)(vm->bars.resources.bytes +
                                                   offsetof(CM_RESOURCE_LIST, List[0].PartialResourceList.PartialDescriptors));
    for (uint32_t i = 0; i < t->count; i++)
        describe_bar(d + i, &t->bar[i]);
    return list;
}

int bars_find_registers(struct wk_vidmm *vm, uint64_t physical, uint64_t bytes, uint32_t *bar)
{
    const struct bar_table *t = bars_of(vm);
    if (!t->regs || bytes == 0)
        return 0;
    for (uint32_t i = 0; i < t->count; i++) {
        const struct wk_binding_bar *b = &t->bar[i];
        if (b->kind == WK_BAR_REGISTERS && physical >= b->physical && physical - b->physical < b->size &&
            bytes <= b->size - (physical - b->physical)) {
            *bar = i;
            return 1;
        }
    }
    return 0;
}

/* The segments a binding's BARs show to the CPU: the bits of
 * wk_gpu_options.mappable_segments. Only a binding whose BARs bars_attach
 * takes (binding_attach: one with a processor) has any. */
uint32_t bars_cpu_view_segments(const struct wk_binding *b)
{
    uint32_t mask = 0;
    for (uint32_t i = 0; b && b->processor && b->memory && i < b->bar_count && i < WK_BINDING_MAX_BARS; i++)
        if (b->bars[i].kind == WK_BAR_SEGMENT && b->bars[i].segment_id >= 1 && b->bars[i].segment_id <= 32)
            mask |= 1u << (b->bars[i].segment_id - 1);
    return mask;
}

int bars_find_segment(struct wk_vidmm *vm, uint64_t physical, uint64_t bytes, uint32_t *bar)
{
    const struct bar_table *t = bars_of(vm);
    for (uint32_t i = 0; bytes && i < t->count; i++) {
        const struct wk_binding_bar *b = &t->bar[i];
        if (b->kind != WK_BAR_SEGMENT || physical < b->physical || physical - b->physical >= b->size)
            continue;
        *bar = i;
        const struct wk_gpu_segment_desc *s = b->segment_id >= 1 && b->segment_id <= vm->gpu_desc.segment_count
                                                  ? &vm->gpu_desc.segments[b->segment_id - 1]
                                                  : NULL;
        uint64_t off = physical - b->physical;
        uint64_t decoded = s && s->size < b->size ? s->size : b->size; /* past the segment, nothing answers */
        return off < decoded && bytes <= decoded - off ? 1 : 2;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Into the register model                                              */
/* ------------------------------------------------------------------ */

static int decodes(const struct bar_table *t, uint32_t bar, uint64_t offset)
{
    return t->regs && bar < t->count && t->bar[bar].kind == WK_BAR_REGISTERS && offset < t->bar[bar].size &&
           t->bar[bar].size - offset >= 4;
}

/* Whether the table's register model is the binding's: its code runs in a
 * binding frame (binding.c), where a crash or a hang is the binding's. */
static int bindings(const struct wk_vidmm *vm, const struct bar_table *t)
{
    return vm->binding && t->regs == vm->binding->registers;
}

uint32_t bars_read32(struct wk_vidmm *vm, uint32_t bar, uint64_t offset)
{
    const struct bar_table *t = bars_of(vm);
    uint32_t value = 0xFFFFFFFFu;
    if (!decodes(t, bar, offset) || !t->regs->read32)
        return value;
    if (bindings(vm, t))
        return binding_read32(vm, bar, offset, &value) == 0 ? value : 0xFFFFFFFFu;
    return t->regs->read32(t->self, bar, offset);
}

void bars_write32(struct wk_vidmm *vm, uint32_t bar, uint64_t offset, uint32_t value)
{
    const struct bar_table *t = bars_of(vm);
    if (!decodes(t, bar, offset) || !t->regs->write32)
        return;
    if (bindings(vm, t))
        (void)binding_write32(vm, bar, offset, value);
    else
        t->regs->write32(t->self, bar, offset, value);
}
