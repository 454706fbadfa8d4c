/* SPDX-License-Identifier: MIT */
/*
 * binding_load.c - finding a hardware binding (binding.h) and deciding
 * whether the kit takes it.
 *
 * A binding is found in a module of its own (`--binding PATH`) or in the
 * driver module, as the exported data object WK_BINDING_SYMBOL. Before any
 * adapter uses it, the kit checks everything it can without running the
 * binding's code: the magic, the ABI version and the sizes it was built
 * with, the members each part needs, the memory layout (wk_gpu_check_desc)
 * and the BARs. A binding that fails is refused by name with the reason,
 * never half used: a binding built for another ABI would have the kit call
 * through members at the wrong offsets.
 */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "wddmkit/binding.h"

/* The members of ABI 1's tables, up to and including the last one: a
 * table whose `size` is smaller lacks some of them. */
#define BINDING_V1_SIZE (offsetof(struct wk_binding, disasm) + sizeof(void *))
#define PROCESSOR_V1_SIZE (offsetof(struct wk_processor_ops, fault_text) + sizeof(void *))
#define PROCESSOR_MMU_SIZE (offsetof(struct wk_processor_ops, mmu_decode) + sizeof(void *))
#define ENCODER_V1_SIZE (offsetof(struct wk_encoder_ops, allocation) + sizeof(void *))
#define REGISTERS_V1_SIZE (offsetof(struct wk_registers_ops, irq_pending) + sizeof(void *))
#define DISASM_V1_SIZE (offsetof(struct wk_disasm_ops, list) + sizeof(void *))

static int refuse(char *why, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int refuse(char *why, size_t cap, const char *fmt, ...)
{
    if (why && cap) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, cap, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* A name or version string fit for a report: printable and short. A
 * binding's strings are its own; a missing one is said so. */
static const char *shown(const char *s, char *buf, size_t cap)
{
    if (!s)
        return "(none)";
    size_t i = 0;
    for (; s[i] && i + 1 < cap && i < 48; i++)
        buf[i] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
    buf[i] = 0;
    return buf;
}

static int check_bars(const struct wk_binding *b, char *why, size_t cap)
{
    if (b->bar_count > WK_BINDING_MAX_BARS)
        return refuse(why, cap, "%u BARs (a device has at most %u)", b->bar_count, WK_BINDING_MAX_BARS);
    if (b->bar_count && !b->bars)
        return refuse(why, cap, "bar_count %u with no bars", b->bar_count);
    for (uint32_t i = 0; i < b->bar_count; i++) {
        const struct wk_binding_bar *r = &b->bars[i];
        if (r->kind != WK_BAR_REGISTERS && r->kind != WK_BAR_SEGMENT)
            return refuse(why, cap, "BAR%u has kind %u (neither WK_BAR_REGISTERS nor WK_BAR_SEGMENT)", i, r->kind);
        if (!r->size || r->size % WK_GPU_PAGE_SIZE || r->physical % WK_GPU_PAGE_SIZE ||
            r->physical + r->size < r->physical)
            return refuse(why, cap, "BAR%u [0x%llx, +0x%llx) is not a page-aligned, non-empty range", i,
                          (unsigned long long)r->physical, (unsigned long long)r->size);
        if (r->kind == WK_BAR_REGISTERS && !b->registers)
            return refuse(why, cap, "BAR%u holds registers but the binding has no register model", i);
        if (r->kind == WK_BAR_SEGMENT) {
            const struct wk_gpu_desc *m = b->memory;
            if (!m || r->segment_id == 0 || r->segment_id > m->segment_count ||
                m->segments[r->segment_id - 1].kind != WK_GPU_SEGMENT_MEMORY)
                return refuse(why, cap, "BAR%u shows segment %u, which is no memory segment of the binding's", i,
                              r->segment_id);
        }
        for (uint32_t j = 0; j < i; j++) {
            const struct wk_binding_bar *o = &b->bars[j];
            if (r->physical < o->physical + o->size && o->physical < r->physical + r->size)
                return refuse(why, cap, "BAR%u overlaps BAR%u", i, j);
        }
    }
    return 0;
}

/* A processor's MMU (processor.h: mmu_geometry and mmu_decode, both or
 * neither), and a tree the kit can walk. */
static int check_mmu(const struct wk_processor_ops *p, char *why, size_t cap)
{
    if (p->size < PROCESSOR_MMU_SIZE || (!p->mmu_geometry && !p->mmu_decode))
        return 0;
    if (!p->mmu_geometry || !p->mmu_decode)
        return refuse(why, cap, "its processor gives mmu_%s without mmu_%s (both or neither)",
                      p->mmu_geometry ? "geometry" : "decode", p->mmu_geometry ? "decode" : "geometry");
    char bad[160];
    if (wk_mmu_check_geometry(p->mmu_geometry, bad, sizeof(bad)) != WK_OK)
        return refuse(why, cap, "its processor's mmu_geometry: %s", bad);
    return 0;
}

/* Each part present has the members it needs. */
static int check_parts(const struct wk_binding *b, char *why, size_t cap)
{
    if (b->processor) {
        if (b->processor->size < PROCESSOR_V1_SIZE || !b->processor->exec)
            return refuse(why, cap, "its processor table (size %u) has no exec", b->processor->size);
        if (!b->memory)
            return refuse(why, cap, "it has a processor but no memory layout");
        if (check_mmu(b->processor, why, cap) != 0)
            return -1;
    }
    if (b->encoder && (b->encoder->size < ENCODER_V1_SIZE ||
                       (!b->encoder->render && !b->encoder->allocation && !binding_commands_of(b))))
        return refuse(why, cap, "its encoder table (size %u) has none of render, allocation and commands",
                      b->encoder->size);
    if (b->registers) {
        const struct wk_registers_ops *r = b->registers;
        if (r->size < REGISTERS_V1_SIZE || !r->read32 || !r->write32 || !r->next || !r->done || !r->irq_pending)
            return refuse(why, cap, "its register table (size %u) lacks one of read32, write32, next, done, irq_pending",
                          r->size);
        if (!b->processor)
            return refuse(why, cap, "it has registers but no processor to run what they queue");
    }
    if (b->disasm && (b->disasm->size < DISASM_V1_SIZE || !b->disasm->list))
        return refuse(why, cap, "its disassembler table (size %u) has no list", b->disasm->size);
    if ((b->destroy || b->reset) && !b->create)
        return refuse(why, cap, "it has destroy or reset but no create");
    if (b->memory) {
        char desc[256];
        if (wk_gpu_check_desc(b->memory, desc, sizeof(desc)) != WK_OK)
            return refuse(why, cap, "its memory layout is refused: %s", desc);
    }
    return check_bars(b, why, cap);
}

int wk_vidmm_binding_check(const struct wk_binding *b, const char *where, char *why, size_t cap)
{
    char name[64], version[64];
    if (!b)
        return refuse(why, cap, "%s: no binding", where);
    if (b->magic != WK_BINDING_MAGIC)
        return refuse(why, cap, "%s: %s is not a wddmkit binding (magic 0x%08x, expected 0x%08x)", where,
                      WK_BINDING_SYMBOL, b->magic, WK_BINDING_MAGIC);
    const char *n = shown(b->name, name, sizeof(name)), *v = shown(b->version, version, sizeof(version));
    if (b->abi != WK_BINDING_ABI_VERSION)
        return refuse(why, cap, "binding '%s' %s (%s) was built for binding ABI %u; this kit takes ABI %u", n, v,
                      where, b->abi, WK_BINDING_ABI_VERSION);
    if (b->size < BINDING_V1_SIZE)
        return refuse(why, cap, "binding '%s' %s (%s) is %u bytes, smaller than ABI %u's %zu", n, v, where,
                      b->size, WK_BINDING_ABI_VERSION, (size_t)BINDING_V1_SIZE);
    if (!b->name || !b->name[0])
        return refuse(why, cap, "the binding in %s has no name", where);
    char part[320];
    if (check_parts(b, part, sizeof(part)) != 0)
        return refuse(why, cap, "binding '%s' %s (%s): %s", n, v, where, part);
    return 0;
}

/* The checked binding the module at path exports. `what` names the module
 * in the messages ("binding", "driver"); a module that exports none is
 * WK_E_NOT_FOUND, said only when `say_missing`. RTLD_NODELETE: adapters
 * come and go, the binding's code stays; a driver module is opened as
 * wk_vidmm_load opens it (same flags: the later load gets the same handle),
 * without calling it. */
static wk_status find(const char *path, const char *what, int say_missing, const struct wk_binding **out, char *why,
                      size_t cap)
{
    *out = NULL;
    void *so = wk_vidmm_module_open(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!so) {
        const char *e = dlerror();
        refuse(why, cap, "cannot load %s %s: %s", what, path, e ? e : "");
        return WK_E_IO;
    }
    const struct wk_binding *b = dlsym(so, WK_BINDING_SYMBOL);
    if (!b) {
        if (say_missing)
            refuse(why, cap, "%s exports no %s (binding.h: WK_BINDING_DEFINE)", path, WK_BINDING_SYMBOL);
        return WK_E_NOT_FOUND;
    }
    if (wk_vidmm_binding_check(b, path, why, cap) != 0)
        return WK_E_INVALID_ARGUMENT;
    *out = b;
    return WK_OK;
}

wk_status wk_vidmm_binding_open(const char *path, const struct wk_binding **out, char *why, size_t cap)
{
    return find(path, "binding", 1, out, why, cap);
}

wk_status wk_vidmm_binding_exported(const char *driver_path, const struct wk_binding **out, char *why, size_t cap)
{
    return find(driver_path, "driver", 0, out, why, cap);
}

static void append(char *buf, size_t cap, size_t *at, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void append(char *buf, size_t cap, size_t *at, const char *fmt, ...)
{
    if (*at >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *at, cap - *at, fmt, ap);
    va_end(ap);
    if (n > 0)
        *at += (size_t)n < cap - *at ? (size_t)n : cap - *at - 1;
}

static void describe_encoder(const struct wk_encoder_ops *e, char *buf, size_t cap, size_t *at)
{
    static const char *const ops[WK_USER_OP_COUNT] = { "NOP", "COPY", "FILL", "WRITE32", "BLIT" };
    append(buf, cap, at, ", encoder (");
    int any = 0;
    for (uint32_t op = 0; op < WK_USER_OP_COUNT; op++)
        if (e->render && (e->ops_supported & (1u << op)))
            append(buf, cap, at, "%s%s", any++ ? " " : "", ops[op]);
    if (!any)
        append(buf, cap, at, "no render operation");
    append(buf, cap, at, "%s", e->allocation ? "; allocation data" : "");
    append(buf, cap, at, "%s)", e->size >= offsetof(struct wk_encoder_ops, commands) + sizeof(e->commands) &&
                                        e->commands ? "; virtual command buffers" : "");
}

void wk_vidmm_binding_describe(const struct wk_binding *b, char *buf, size_t cap)
{
    char name[64], version[64];
    size_t at = 0;
    buf[0] = 0;
    append(buf, cap, &at, "binding '%s' %s, binding ABI %u: ", shown(b->name, name, sizeof(name)),
           shown(b->version, version, sizeof(version)), b->abi);
    if (b->memory)
        append(buf, cap, &at, "memory (%u segments, %llu system pages)", b->memory->segment_count,
               (unsigned long long)b->memory->sysmem_pages);
    else
        append(buf, cap, &at, "no memory layout");
    if (b->processor) {
        const struct wk_processor_ops *p = b->processor;
        int mmu = p->size >= PROCESSOR_MMU_SIZE && p->mmu_geometry;
        append(buf, cap, &at, ", processor%s%s", p->read_address ? " (address decoding" : " (no address decoding",
               p->fault_text ? ", fault text" : "");
        if (mmu)
            append(buf, cap, &at, ", a GPU MMU of %u levels, %u address bits", p->mmu_geometry->levels,
                   wk_mmu_va_bits(p->mmu_geometry));
        append(buf, cap, &at, ")");
    }
    if (b->encoder)
        describe_encoder(b->encoder, buf, cap, &at);
    if (b->registers) {
        const struct wk_registers_ops *r = b->registers;
        int roots = r->size >= offsetof(struct wk_registers_ops, root) + sizeof(r->root) && r->root;
        append(buf, cap, &at, ", registers%s", roots ? " (the root of each submission)" : "");
    }
    for (uint32_t i = 0; i < b->bar_count; i++)
        append(buf, cap, &at, ", BAR%u %s 0x%llx bytes at 0x%llx", i,
               b->bars[i].kind == WK_BAR_REGISTERS ? "registers" : "CPU view of a segment",
               (unsigned long long)b->bars[i].size, (unsigned long long)b->bars[i].physical);
    if (b->disasm)
        append(buf, cap, &at, ", disassembler");
}
