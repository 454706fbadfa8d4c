/* SPDX-License-Identifier: MIT */
/*
 * reference_desc.c - the reference adapter description (see gpu.h).
 *
 * Small on purpose: one plain memory segment, one banked memory segment and
 * one aperture, as a WDDM 1.x-style adapter reports them, so that every
 * command and every fault class can be reached by a short buffer.
 */
#include "wddmkit/gpu.h"

static const uint64_t bank_ends[3] = { 0x40000, 0x80000, 0xC0000 };

static const struct wk_gpu_segment_desc segments[3] = {
    { WK_GPU_SEGMENT_MEMORY, 0x100000, 0x100000, 0, NULL },
    { WK_GPU_SEGMENT_MEMORY, 0x400000, 0x100000, 4, bank_ends },
    { WK_GPU_SEGMENT_APERTURE, 0x800000, 0x40000, 0, NULL },
};

static const struct wk_gpu_desc reference = {
    3, segments, 0x10000, 256, 0, 0, 0, 0, 0,
};

const struct wk_gpu_desc *wk_gpu_reference_desc(void)
{
    return &reference;
}
