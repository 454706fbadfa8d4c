/* SPDX-License-Identifier: MIT */
/*
 * spec_checks.c - the expect_* steps (and `expect:` entries): what a case
 * asserts about bytes, placement, counters and context information.
 *
 * Checks only read state, so they take no `status:`. Counters are named by
 * the words of docs/spec-format.md; DDIs by their names without "DxgkDdi",
 * paging operations by DXGK_BUILDPAGINGBUFFER_OPERATION in lower case.
 */
#include <string.h>

#include "spec_internal.h"

static void ld_allocation(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    spec_use(c, a, a, "allocation", WK_OBJ_ALLOCATION, 0, &s->allocation);
}

void spec_ld_expect_bytes(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    ld_allocation(c, a, s);
    spec_load_bytes(c, a, s);
}

void spec_ld_expect_gart(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    ld_allocation(c, a, s);
}


void spec_ld_expect_pattern(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    ld_allocation(c, a, s);
    spec_get_u64(c, a, "pattern", 0, UINT32_MAX, &s->value);
    spec_get_size(c, a, "offset", 0, WK_PROG_MAX_ALLOCATION - 1, &s->offset);
    spec_get_size(c, a, "size", 1, WK_PROG_MAX_ALLOCATION, &s->size);
}

void spec_ld_expect_digest(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    ld_allocation(c, a, s);
    spec_get_u64(c, a, "digest", 0, UINT64_MAX, &s->value);
}

void spec_ld_expect_placement(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    static const char *const where[] = { "segment", "offset", "bank", NULL };
    ld_allocation(c, a, s);
    s->expect_resident = 1;
    spec_get_bool(c, a, "resident", &s->expect_resident);
    for (int i = 0; where[i] && !s->expect_resident; i++)
        if (wk_ymap_key(a, where[i]))
            spec_error(c, wk_ymap_key(a, where[i]), "key '%s': only with resident: true", where[i]);
    const struct wk_ynode *v = wk_ymap_get(a, "segment");
    if (v && spec_segment_id(c, v, "key 'segment'", &s->segment) < 0)
        return;
    if (spec_get_size(c, a, "offset", 0, WK_PROG_MAX_SEGMENT - 1, &s->offset) == 1)
        s->has_offset = 1;
    uint32_t banks = s->segment ? c->p->gpu.segments[s->segment - 1].bank_count : WK_GPU_MAX_BANKS;
    uint32_t lo = s->segment && banks >= 2 ? 1 : 0, hi = banks >= 2 ? banks : 0;
    if (spec_get_u32(c, a, "bank", lo, hi, &s->expect_bank) == 1)
        s->has_bank = 1;
}

const char *const wk_stat_words[] = { "paging_passes", "paging_buffers", "evictions", "fences", "gpu_faults",
                                          "violations", "render_passes", "render_submissions", "cancelled",
                                          "ddi_calls", "paging_op", NULL };

/* DXGK_BUILDPAGINGBUFFER_OPERATION names in lower case, value order. */
const char *const wk_paging_op_words[] = { "transfer", "fill", "discard_content", "read_physical", "write_physical",
                                        "map_aperture_segment", "unmap_aperture_segment", "special_lock_transfer",
                                        "virtual_transfer", "virtual_fill", "init_context_resource",
                                        "update_page_table", "flush_tlb", "update_context_allocation",
                                        "copy_page_table_entries", "notify_residency", "signal_monitored_fence",
                                        "map_aperture_segment2", NULL };

const char *const wk_prog_va_fault_words[] = { "none", "unmapped", "read_only", NULL };

/* expect_va: {va, allocation, offset, size}: the GPU reads, through its
 * MMU, the allocation's bytes there; or {va, fault: unmapped | read_only}. */
void spec_ld_expect_va(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    spec_get_u64(c, a, "va", 0, UINT64_MAX, &s->address);
    spec_ld_process(c, a, s);
    spec_get_word(c, a, "fault", wk_prog_va_fault_words, "none, unmapped or read_only", &s->fault);
    const struct wk_ynode *alloc = wk_ymap_key(a, "allocation");
    if (s->fault != WK_VA_FAULT_NONE) {
        const char *other[] = { "allocation", "offset", "size" };
        for (int i = 0; i < 3; i++)
            if (wk_ymap_key(a, other[i]))
                spec_error(c, wk_ymap_key(a, other[i]), "key '%s': only without a fault (what the GPU reads)",
                           other[i]);
        return;
    }
    if (!alloc) {
        spec_error(c, a, "expect_va: key 'allocation' (what the GPU must read there) or key 'fault'");
        return;
    }
    spec_use(c, a, a, "allocation", WK_OBJ_ALLOCATION, 0, &s->allocation);
    spec_get_size(c, a, "offset", 0, WK_PROG_MAX_ALLOCATION - 1, &s->offset);
    s->size = 4;
    spec_get_size(c, a, "size", 1, WK_PROG_MAX_VA_COMPARE, &s->size);
}

/* A DDI named without "DxgkDdi" ("BuildPagingBuffer"); callbacks keep theirs. */
int spec_get_ddi(struct wk_spec_ctx *c, const struct wk_ynode *map, const char *key, enum wk_ddi *out)
{
    const char *words[WK_DDI_COUNT];
    for (uint32_t i = 1; i < WK_DDI_COUNT; i++) {
        const char *name = wk_ddi_name((enum wk_ddi)i);
        words[i - 1] = strncmp(name, "DxgkDdi", 7) == 0 ? name + 7 : name;
    }
    words[WK_DDI_COUNT - 1] = NULL;
    uint32_t i = 0;
    int got = spec_get_word(c, map, key, words, "a DDI name", &i);
    if (got == 1)
        *out = (enum wk_ddi)(i + 1);
    return got;
}

/* A key needed by one stat and refused by the others. */
static int stat_key(struct wk_spec_ctx *c, const struct wk_ynode *a, const char *key, int needed, const char *stat)
{
    const struct wk_ynode *k = wk_ymap_key(a, key);
    if (needed && !k)
        spec_error(c, a, "missing key '%s' (stat %s counts one %s)", key, stat, key);
    else if (!needed && k)
        spec_error(c, k, "key '%s': only with stat: %s", key, stat);
    return needed && k;
}

void spec_ld_expect_stats(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    uint32_t stat = 0;
    if (spec_get_word(c, a, "stat", wk_stat_words, "a stat name", &stat) != 1)
        return;
    s->stat = (enum wk_prog_stat)stat;
    if (stat_key(c, a, "ddi", stat == WK_STAT_DDI_CALLS, "ddi_calls"))
        spec_get_ddi(c, a, "ddi", &s->ddi);
    if (stat_key(c, a, "op", stat == WK_STAT_PAGING_OP, "paging_op"))
        spec_get_word(c, a, "op", wk_paging_op_words, "a paging operation", &s->op);
    spec_get_u64(c, a, "min", 0, UINT64_MAX, &s->min);
    const struct wk_ynode *mx = wk_ymap_get(a, "max");
    uint64_t max = 0;
    if (!mx || spec_u64(c, mx, "key 'max'", 0, UINT64_MAX, &max) < 0)
        return;
    if (max < s->min) {
        spec_error(c, mx, "key 'max': expected an integer of at least min (%llu), saw '%llu'",
                   (unsigned long long)s->min, (unsigned long long)max);
    } else {
        s->max = max;
        s->has_max = 1;
    }
}

/* expect_multipass: {op: transfer}: some operation of that kind since the
 * case began took more than one paging buffer; else the case could not
 * reach what it tests, and is a skip (prog_run.c, check_multipass). */
void spec_ld_expect_multipass(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    spec_get_word(c, a, "op", wk_paging_op_words, "a paging operation", &s->op);
}

void spec_ld_expect_context_info(struct wk_spec_ctx *c, const struct wk_ynode *a, struct wk_step *s)
{
    static const char *const fields[] = { "dma_buffer_size", "allocation_list_size", "patch_location_list_size",
                                          "dma_buffer_segment_set", "dma_buffer_private_data_size", NULL };
    spec_use(c, a, a, "context", WK_OBJ_CONTEXT, 0, &s->context);
    spec_get_word(c, a, "field", fields, "a DXGK_CONTEXTINFO field", &s->field);
    spec_get_size(c, a, "value", 0, UINT32_MAX, &s->value); /* most fields are bytes: 16KiB reads well */
}

