/* SPDX-License-Identifier: MIT */
/*
 * dump.c - `wddmkit prog dump`, and the decoded input repro prints after
 * its runs: a file of any harness decoded as that harness reads it (a
 * fuzz_prog file as written, a fuzz_paging one as the program the harness
 * makes of it, a fuzz_patch or fuzz_render one as the program that makes
 * its call, fuzz_gpu_decode's as its disassembly, fuzz_spec's as its text,
 * fuzz_cli's as its arguments, fuzz_hostile's as its program).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crash/crash_internal.h"

/* A file of any harness, decoded as that harness reads it (o->harness,
 * else the path says, as for repro): a fuzz_prog file as written, a
 * fuzz_paging one as the program the harness makes of it, the others as
 * repro prints them. Decoding a fuzz_paging input as a fuzz_prog program
 * printed an unrelated adapter and "0 steps". The caller has checked that
 * the harness is decodable (wk_crash_decodable): its message is a usage
 * error. */
int wk_crash_prog_dump(const struct wk_crash_options *op)
{
    struct wk_crash_options o = *op;
    const char *harness = wk_crash_harness_of(&o, o.path);
    if (!wk_crash_decodable(harness)) {
        fprintf(stderr, "wddmkit: prog dump: no decoder for %s inputs\n", harness);
        return 2;
    }
    if (!wk_crash_is_prog(harness)) {
        size_t size = 0;
        uint8_t *data = NULL;
        if (wk_crash_read_file(o.path, PROG_FILE_LIMIT, &data, &size) != WK_OK)
            return 2;
        free(data);
        printf("%s: %zu bytes, a %s input\n", o.path, size, harness);
        wk_crash_print_decoded(&o, harness);
        return 0;
    }
    size_t bytes = 0;
    struct wk_prog *p = wk_crash_load_program(o.path, &bytes, harness);
    if (!p)
        return 2;
    if (strcmp(harness, "fuzz_paging") == 0)
        printf("%s: %zu bytes, a fuzz_paging input: the program the harness runs, %u steps\n", o.path, bytes,
               p->step_count);
    else
        printf("%s: %zu bytes, %u steps%s\n", o.path, bytes, p->step_count,
               wk_crash_encoded_size(p) < bytes ? " (trailing bytes the decoder does not read)" : "");
    wk_prog_dump(p, stdout);
    wk_crash_prog_del(p);
    return 0;
}

#define DECODED_LINES 200u /* a listing longer than this is cut, saying so */

struct listing {
    uint32_t lines;
};

static void list_line(void *user, const char *line)
{
    struct listing *l = user;
    if (l->lines++ < DECODED_LINES)
        printf("  %s\n", line);
}

/* The DMA buffer fuzz_gpu_decode ran, as the GPU model decodes it. */
static void print_disassembly(const uint8_t *data, size_t size)
{
    struct listing l = { 0 };
    printf("decoded input (%zu bytes, the GPU model's disassembly):\n", size);
    wk_gpu_disasm(data, size, list_line, &l);
    if (l.lines > DECODED_LINES)
        printf("  ... %u more lines\n", l.lines - DECODED_LINES);
}

/* The spec text fuzz_spec loaded, numbered as the loader's messages
 * count lines; bytes that are not printable ASCII as \xNN. */
static void print_spec_text(const uint8_t *data, size_t size)
{
    uint32_t line = 1;
    printf("decoded input (%zu bytes of spec text):\n", size);
    printf("  %4u | ", line);
    for (size_t i = 0; i < size && line <= DECODED_LINES; i++) {
        if (data[i] == '\n') {
            if (++line <= DECODED_LINES && i + 1 < size)
                printf("\n  %4u | ", line);
        } else if (data[i] >= 0x20 && data[i] < 0x7F) {
            putchar(data[i]);
        } else {
            printf("\\x%02x", data[i]);
        }
    }
    printf(line > DECODED_LINES ? "\n  ... cut after %u lines\n" : "\n", DECODED_LINES);
}

/* A fuzz_cli input: the command line it is, one argument a line. */
static void print_cli_args(const uint8_t *data, size_t size)
{
    printf("decoded input (%zu bytes, the arguments after 'wddmkit'):\n", size);
    uint32_t arg = 0;
    for (size_t at = 0; size && at <= size && arg < DECODED_LINES; arg++) {
        size_t n = strnlen((const char *)data + at, size - at);
        printf("  argv[%u] = \"", arg + 1);
        for (size_t i = at; i < at + n; i++)
            printf(data[i] >= 0x20 && data[i] < 0x7F && data[i] != '"' && data[i] != '\\' ? "%c" : "\\x%02x", data[i]);
        printf("\"\n");
        at += n + 1;
    }
}

/* A fuzz_hostile input: the program with its answer corruption, as the
 * harness runs it (wk_prog_run: the rewrite kept). */
static void print_hostile_program(const uint8_t *data, size_t size)
{
    static struct wk_prog p;
    wk_prog_decode_again(data, size, &p);
    printf("decoded input (the program, run with its answer corruption):\n");
    wk_prog_dump(&p, stdout);
    wk_prog_free(&p);
}

/* After the runs (the issue asks repro for the decoded input): a
 * fuzz_patch or fuzz_render input as the program that makes the same call
 * (folded for --driver's contexts, as `minimize` and `promote` see it),
 * fuzz_gpu_decode's as its disassembly, fuzz_spec's as its text. Best
 * effort: what cannot be decoded leaves a note, and the exit code stays
 * the runs'. */
void wk_crash_print_decoded(const struct wk_crash_options *o, const char *harness)
{
    const struct fixture_harness *h = wk_crash_fixture_harness_of(harness);
    if (h) {
        size_t bytes = 0;
        struct wk_prog *p = wk_crash_load_fixture_input(o, h, &bytes);
        if (!p) {
            printf("decoded input: unavailable (the reason is on stderr)\n");
            return;
        }
        printf("decoded input (the program that makes the same call):\n");
        wk_prog_dump(p, stdout);
        wk_crash_prog_del(p);
        return;
    }
    uint8_t *data = NULL;
    size_t size = 0;
    if (wk_crash_read_file(o->path, PROG_FILE_LIMIT, &data, &size) != WK_OK)
        return;
    if (strcmp(harness, "fuzz_gpu_decode") == 0)
        print_disassembly(data, size);
    else if (strcmp(harness, "fuzz_spec") == 0)
        print_spec_text(data, size);
    else if (strcmp(harness, "fuzz_cli") == 0)
        print_cli_args(data, size);
    else if (strcmp(harness, "fuzz_hostile") == 0)
        print_hostile_program(data, size);
    free(data);
}
