/* SPDX-License-Identifier: MIT */
/*
 * gpu_layout.c - whether a driver of the kit's GPU model reports the GPU's
 * segments as the GPU has them: a semantic check, made when the GPU model
 * executes the driver's buffers.
 *
 * The segments are the driver's answer to QUERYSEGMENT (facts §4.8, §5.5),
 * so it may report fewer than the GPU has, or part of one: the kit casts a
 * case onto such a layout (roles.c). What it may not do is report a range
 * as something the hardware does not have there: memory where the GPU has
 * an aperture (whose addresses go through the GART, so VidMm's fills and
 * transfers would land in whatever the GART maps), an aperture over the
 * GPU's own memory, or a segment where the GPU has none. The GPU model is
 * the hardware here, so that is a fact about the data, not a rule of the
 * documentation: a semantic check, skipped where nothing executes buffers.
 */
#include <stdio.h>

#include "conform.h"

static const char *kind_name(int aperture)
{
    return aperture ? "aperture" : "memory";
}

/* The GPU segment holding [base, base + size), or NULL. */
static const struct wk_gpu_segment_desc *holder(const struct wk_gpu_segment_desc *gpu, uint32_t ngpu, uint64_t base,
                                                uint64_t size)
{
    for (uint32_t i = 0; i < ngpu; i++)
        if (base >= gpu[i].base && size <= gpu[i].size && base - gpu[i].base <= gpu[i].size - size)
            return &gpu[i];
    return NULL;
}

int wk_layout_matches_gpu(const struct wk_gpu_segment_desc *gpu, uint32_t ngpu,
                          const struct wk_vidmm_segment_info *seg, uint32_t nseg, char *why, size_t cap)
{
    for (uint32_t i = 0; i < nseg; i++) {
        const struct wk_vidmm_segment_info *s = &seg[i];
        const struct wk_gpu_segment_desc *g = holder(gpu, ngpu, s->base, s->size);
        if (!g) {
            snprintf(why, cap, "segment %u (%s, [0x%llx, 0x%llx)) lies in no segment of the GPU", s->id,
                     kind_name(s->aperture), (unsigned long long)s->base, (unsigned long long)(s->base + s->size));
            return 0;
        }
        if (s->aperture != (g->kind == WK_GPU_SEGMENT_APERTURE)) {
            snprintf(why, cap, "segment %u is reported as %s, [0x%llx, 0x%llx), where the GPU has %s [0x%llx, 0x%llx)",
                     s->id, kind_name(s->aperture), (unsigned long long)s->base,
                     (unsigned long long)(s->base + s->size), g->kind == WK_GPU_SEGMENT_APERTURE ? "an aperture" : "memory",
                     (unsigned long long)g->base, (unsigned long long)(g->base + g->size));
            return 0;
        }
    }
    return 1;
}
