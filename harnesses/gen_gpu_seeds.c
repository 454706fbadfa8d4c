/* SPDX-License-Identifier: MIT */
/*
 * gen_gpu_seeds.c - writes the seed corpus of fuzz_gpu_decode: short DMA
 * buffers for the reference adapter that reach every command, the GART
 * paths and each fault class, so fuzzing starts from meaningful programs.
 *
 * Usage: wk_gen_gpu_seeds DIR   (the committed seeds came from this; rerun
 * it after changing the command set and commit the result).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wddmkit/gpu.h"

#define SEG1 0x100000ull
#define SEG2 0x400000ull
#define APER 0x800000ull
#define SYS 0x10000000ull

typedef void build_fn(struct wk_gpu_writer *w);

static void all_commands(struct wk_gpu_writer *w)
{
    uint64_t pfns[2] = { 0x10040, 0x10041 };
    wk_gpu_emit_nop(w);
    wk_gpu_emit_fill(w, SEG1 + 0x10000, 8192, 0xA5A5F00Du);
    wk_gpu_emit_copy(w, SEG1 + 0x10000, SEG2 + 0x3F000, 8192);
    wk_gpu_emit_write32(w, SEG1 + 0x20000, 0x12345678u);
    wk_gpu_emit_write64(w, SYS + 0x100, 0x1122334455667788ull);
    wk_gpu_emit_gart_map(w, 3, 40, 2, pfns);
    wk_gpu_emit_tlb_flush(w, 3);
    wk_gpu_emit_copy(w, SEG1 + 0x10000, APER + 40 * 4096, 8192);
    wk_gpu_emit_gart_unmap(w, 3, 40, 2, 0x100ff);
    wk_gpu_emit_blit(w, SEG1 + 0x10000, SEG2, 64, 16, 256, 128);
    wk_gpu_emit_fence(w, SEG1 + 0x30000, 1);
}

static void call_chain(struct wk_gpu_writer *w)
{
    /* The callee sits right after the caller's two commands: CALL runs the
     * FILL+FENCE that follow, then the caller runs them again. */
    uint64_t callee = 0x100000ull + 16 + 4;
    wk_gpu_emit_call(w, callee, 24 + 20);
    wk_gpu_emit_nop(w);
    wk_gpu_emit_fill(w, SEG2 + 0x1000, 256, 0x01020304u);
    wk_gpu_emit_fence(w, SEG2 + 0x2000, 2);
}

static void stale_tlb(struct wk_gpu_writer *w)
{
    uint64_t pfn = 0x10080;
    wk_gpu_emit_gart_map(w, 3, 0, 1, &pfn); /* page 0 is mapped by the harness */
    wk_gpu_emit_write32(w, APER, 0xCAFEu);  /* lands in the old page */
    wk_gpu_emit_tlb_flush(w, 3);
    wk_gpu_emit_write32(w, APER, 0xBEEFu);
}

static void faults(struct wk_gpu_writer *w)
{
    wk_gpu_emit_fill(w, SEG1 + 0xFF000, 0x2000, 0); /* crosses the end of segment 1 */
}

static void unmapped(struct wk_gpu_writer *w)
{
    wk_gpu_emit_write64(w, APER + 63 * 4096, 1); /* upper half of the aperture is unmapped */
}

static void garbage(struct wk_gpu_writer *w)
{
    wk_gpu_emit_nop(w);
    static const uint8_t junk[] = { 0x7F, 0, 0, 0, 0x01, 0x00, 0x10 };
    memcpy(w->buf + w->used, junk, sizeof(junk));
    w->used += sizeof(junk);
}

static int write_seed(const char *dir, const char *name, build_fn *build)
{
    uint8_t buf[4096];
    struct wk_gpu_writer w;
    wk_gpu_writer_init(&w, buf, sizeof(buf));
    build(&w);
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(buf, 1, w.used, f) != w.used || fclose(f) != 0) {
        fprintf(stderr, "wk_gen_gpu_seeds: cannot write %s\n", path);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: wk_gen_gpu_seeds DIR\n");
        return 2;
    }
    int bad = 0;
    bad |= write_seed(argv[1], "all-commands.bin", all_commands);
    bad |= write_seed(argv[1], "call-chain.bin", call_chain);
    bad |= write_seed(argv[1], "stale-tlb.bin", stale_tlb);
    bad |= write_seed(argv[1], "crosses-segment.bin", faults);
    bad |= write_seed(argv[1], "unmapped-aperture.bin", unmapped);
    bad |= write_seed(argv[1], "garbage-tail.bin", garbage);
    return bad ? 1 : 0;
}
