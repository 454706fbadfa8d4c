/* SPDX-License-Identifier: MIT */
/*
 * load.c - reading an input file and writing one: a program decoded from
 * a fuzz_prog file (or made from a fuzz_paging one, as that harness
 * does), deep copies of programs for the reduction, and writes through a
 * temporary file so that an interrupted command leaves no half file.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crash/crash_internal.h"

wk_status wk_crash_read_file(const char *path, uint64_t limit, uint8_t **data, size_t *size)
{
    char why[160];
    wk_status st = wk_file_read(path, limit, data, size, why, sizeof(why));
    if (st != WK_OK)
        fprintf(stderr, "wddmkit: %s: %s%s\n", path, why,
                strstr(why, "a folder") ? " (wddmkit triage runs a folder)" : "");
    return st;
}

static void fix_pointers(struct wk_prog *p)
{
    p->gpu.segments = p->segments;
    for (uint32_t i = 0; i < 8; i++)
        p->segments[i].bank_ends = p->bank_ends[i];
}

/* A deep copy (render and patch payloads included), or NULL. */
struct wk_prog *wk_crash_prog_dup(const struct wk_prog *src)
{
    struct wk_prog *p = malloc(sizeof(*p));
    if (!p)
        return NULL;
    memcpy(p, src, sizeof(*p));
    fix_pointers(p);
    int ok = 1;
    for (uint32_t i = 0; i < p->step_count; i++) {
        if (src->steps[i].patch) {
            p->steps[i].patch = ok ? wk_prog_patch_dup(src->steps[i].patch) : NULL;
            ok = ok && p->steps[i].patch;
        }
        if (!src->steps[i].render)
            continue;
        p->steps[i].render = ok ? malloc(sizeof(*p->steps[i].render)) : NULL;
        if (p->steps[i].render)
            memcpy(p->steps[i].render, src->steps[i].render, sizeof(*p->steps[i].render));
        ok = ok && p->steps[i].render;
    }
    if (!ok) {
        wk_prog_free(p);
        free(p);
        return NULL;
    }
    return p;
}

void wk_crash_prog_del(struct wk_prog *p)
{
    if (p) {
        wk_prog_free(p);
        free(p);
    }
}

/* Reads and decodes a program file; NULL after printing why. */
/* A fuzz_prog file, or a fuzz_paging one as the program that harness runs
 * (fuzz/inputs/paging_input.c). */
struct wk_prog *wk_crash_load_program(const char *path, size_t *bytes, const char *harness)
{
    uint8_t *data = NULL;
    size_t size = 0;
    if (wk_crash_read_file(path, PROG_FILE_LIMIT, &data, &size) != WK_OK)
        return NULL;
    struct wk_prog *p = malloc(sizeof(*p));
    if (p && strcmp(harness, "fuzz_paging") == 0)
        wk_paging_input_to_prog(data, size, p);
    else if (p)
        wk_prog_decode(data, size, p);
    else
        fprintf(stderr, "wddmkit: %s: out of memory\n", path);
    free(data);
    if (bytes)
        *bytes = size;
    return p;
}

size_t wk_crash_encoded_size(const struct wk_prog *p)
{
    return wk_prog_encode(p, NULL, 0);
}

/* Writes bytes to `path` through a temporary file. */
int wk_crash_save_bytes(const uint8_t *buf, size_t n, const char *path)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof(tmp)) {
        fprintf(stderr, "wddmkit: %s: path too long\n", path);
        return -1;
    }
    FILE *f = fopen(tmp, "wb");
    int ok = f && fwrite(buf, 1, n, f) == n;
    ok = (f && fclose(f) == 0) && ok;
    ok = ok && rename(tmp, path) == 0;
    if (!ok) {
        fprintf(stderr, "wddmkit: %s: %s\n", path, strerror(errno));
        unlink(tmp);
    }
    return ok ? 0 : -1;
}

/* Writes the binary form to `path`. */
int wk_crash_save_program(const struct wk_prog *p, const char *path)
{
    size_t n = wk_crash_encoded_size(p);
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf) {
        fprintf(stderr, "wddmkit: %s: out of memory\n", path);
        return -1;
    }
    wk_prog_encode(p, buf, n);
    int st = wk_crash_save_bytes(buf, n, path);
    free(buf);
    return st;
}
