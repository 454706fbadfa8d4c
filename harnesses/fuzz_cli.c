/* SPDX-License-Identifier: MIT */
/*
 * fuzz_cli.c - arbitrary bytes as a `wddmkit` command line, through every
 * command's argument parser.
 *
 * Why: command lines are outside bytes like specs and DMA buffers (a
 * script passes a path with spaces, a number with a suffix, an option
 * twice); each parser must refuse what it cannot use with a message, and
 * never crash, leak or read past an argument.
 *
 * Input: the arguments after "wddmkit", separated by NUL bytes (the first
 * is the command: "conform", "fuzz", "repro", ...), at most MAX_ARGS of
 * them. The command line runs with wk_cli_parse_only set (cli.h): each
 * command returns once its arguments are parsed and checked, before it
 * reads an input, writes a file or starts a process, so no input makes
 * the harness act on the machine.
 *
 * Invariants (a violation aborts, which every engine reports as a crash):
 *   - nothing crashes or leaks (ASan, LeakSanitizer);
 *   - the exit code is 0 (parsed, or help printed) or 2 (a usage error);
 *   - a usage error says so: something was printed to stderr.
 * The command's output goes to a memory file, so the engine's own output
 * stays readable.
 */
#define _GNU_SOURCE /* memfd_create */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"

#include "harness.h"

#define MAX_ARGS 32

/* stdout and stderr of one run, into memory files; -1 when unavailable. */
struct capture {
    int out, err;          /* the memory files */
    int saved_out, saved_err;
};

static struct capture cap = { -1, -1, -1, -1 };

static void capture_begin(void)
{
    if (cap.out < 0) {
        cap.out = memfd_create("fuzz_cli-stdout", MFD_CLOEXEC);
        cap.err = memfd_create("fuzz_cli-stderr", MFD_CLOEXEC);
    }
    fflush(stdout);
    fflush(stderr);
    cap.saved_out = dup(STDOUT_FILENO);
    cap.saved_err = dup(STDERR_FILENO);
    if (cap.out >= 0 && ftruncate(cap.out, 0) == 0 && lseek(cap.out, 0, SEEK_SET) == 0)
        dup2(cap.out, STDOUT_FILENO);
    if (cap.err >= 0 && ftruncate(cap.err, 0) == 0 && lseek(cap.err, 0, SEEK_SET) == 0)
        dup2(cap.err, STDERR_FILENO);
}

/* Restores the engine's stdout and stderr; the bytes the run wrote to
 * stderr (-1: unknown). */
static long capture_end(void)
{
    fflush(stdout);
    fflush(stderr);
    long err_bytes = cap.err >= 0 ? (long)lseek(cap.err, 0, SEEK_CUR) : -1;
    if (cap.saved_out >= 0) {
        dup2(cap.saved_out, STDOUT_FILENO);
        close(cap.saved_out);
    }
    if (cap.saved_err >= 0) {
        dup2(cap.saved_err, STDERR_FILENO);
        close(cap.saved_err);
    }
    return err_bytes;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wk_cli_parse_only = 1;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char *argv[MAX_ARGS + 2];
    int argc = wk_cli_split_args(text, size, argv, MAX_ARGS);
    capture_begin();
    int rc = wk_cli_main(argc, argv);
    long said = capture_end();
    free(text);
    if (rc != 0 && rc != 2)
        abort(); /* parsing alone ends in "parsed" or "usage error" */
    if (rc == 2 && said == 0)
        abort(); /* a refusal that does not say why */
    return 0;
}
