/* SPDX-License-Identifier: MIT */
/*
 * cli_gpu.c - `wddmkit gpu disasm|validate|exec FILE`: the GPU model's
 * tools for a DMA buffer stored in a file (a crash input, a buffer a driver
 * built, a hand-written test).
 *
 * Everything runs on the reference adapter (docs/gpu-model.md). Faults are
 * printed as FILE:+OFFSET: REASON (OPCODE) ..., the form an editor or CI log
 * links to; OFFSET is always a place in the file (for a fault inside a
 * CALL, the CALL's), the rest of the line says where inside the callee.
 * `exec` stores the file at the start of segment 1 and runs it from there
 * (docs/gpu-model.md, "Command-line tools"), so it takes at most segment 1's
 * size, where `validate` and `disasm` take any file up to 64 MiB.
 */
#define _GNU_SOURCE /* strsignal */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "cli_options.h"
#include "reference.h"
#include "wddmkit/binding.h"
#include "wddmkit/gpu.h"

#define MAX_DMA (64u << 20)

static void print_line(void *user, const char *line)
{
    (void)user;
    puts(line);
}

/* The file offset is the depth-0 command's: inside a CALL, f->offset is an
 * offset in the callee, which is no place in the file. */
static int print_fault(const char *path, const struct wk_gpu_fault *f)
{
    char text[512];
    wk_gpu_fault_format(f, text, sizeof(text));
    printf("%s:+0x%llx: %s\n", path, (unsigned long long)f->top_offset, text);
    return 1;
}

static struct wk_gpu *reference_gpu(void)
{
    struct wk_gpu *gpu = NULL;
    char why[256];
    if (wk_gpu_create(wk_gpu_reference_desc(), &gpu, why, sizeof(why)) != WK_OK)
        fprintf(stderr, "wddmkit: cannot build the reference adapter: %s\n", why);
    return gpu;
}

/* `gpu disasm --binding PATH`: the buffer in the driver's own format,
 * listed by its binding's disassembler (binding.h), in a child process: a
 * binding that crashes on the bytes is reported (BIND-CRASH-001), the
 * command does not crash with it. Exit 0, or 2 (no disassembler, refused),
 * or 3 (the binding crashed). */
static const char *binding_path;

static int binding_disasm(const char *path, const uint8_t *buf, size_t len)
{
    const struct wk_binding *b = NULL;
    char why[512];
    if (wk_vidmm_binding_open(binding_path, &b, why, sizeof(why)) != WK_OK) {
        fprintf(stderr, "wddmkit gpu disasm: %s\n", why);
        return 2;
    }
    if (!b->disasm) {
        fprintf(stderr, "wddmkit gpu disasm: binding '%s' (%s) has no disassembler\n", b->name, binding_path);
        return 2;
    }
    if (!len)
        printf("%s: empty (0 bytes, no command)\n", path);
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) {
        perror("wddmkit gpu disasm: fork");
        return 2;
    }
    if (pid == 0) {
        b->disasm->list(NULL, buf, len, 0, print_line, NULL);
        fflush(stdout);
        _exit(0);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0)
        ;
    if (WIFSIGNALED(st)) {
        printf("BIND-CRASH-001: disasm.list of binding '%s' crashed with signal %d (%s) on %s\n", b->name,
               WTERMSIG(st), strsignal(WTERMSIG(st)), path);
        return 3;
    }
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 3;
}

static int cmd_disasm(const char *path, const uint8_t *buf, size_t len)
{
    if (binding_path)
        return binding_disasm(path, buf, len);
    if (!len)
        printf("%s: empty (0 bytes, no command)\n", path); /* an empty listing looked like a failure */
    wk_gpu_disasm(buf, len, print_line, NULL);
    struct wk_gpu_fault f;
    return wk_gpu_validate(NULL, buf, len, &f) == WK_OK ? 0 : 1;
}

static int cmd_validate(const char *path, const uint8_t *buf, size_t len)
{
    struct wk_gpu *gpu = reference_gpu();
    if (!gpu)
        return 2;
    struct wk_gpu_fault f;
    int rc = 0;
    if (wk_gpu_validate(gpu, buf, len, &f) == WK_OK)
        printf("%s: valid (%zu bytes)\n", path, len);
    else
        rc = print_fault(path, &f);
    wk_gpu_destroy(gpu);
    return rc;
}

/* Every counter of docs/gpu-model.md ("Counters") and the last fence. */
static void print_counters(const struct wk_gpu *gpu)
{
    struct wk_gpu_counters c;
    wk_gpu_get_counters(gpu, &c);
    printf("commands %llu, copied %llu B, filled %llu B, written %llu B, bank crossings %llu,\n"
           "fences %llu, interrupts %llu, last fence 0x%llx,\n"
           "GART pages mapped %llu / unmapped %llu, TLB flushes %llu, stale TLB accesses %llu, calls %llu,\n"
           "execs %llu, faults %llu\n",
           (unsigned long long)c.commands, (unsigned long long)c.bytes_copied,
           (unsigned long long)c.bytes_filled, (unsigned long long)c.bytes_written,
           (unsigned long long)c.bank_crossings, (unsigned long long)c.fences,
           (unsigned long long)c.interrupts, (unsigned long long)wk_gpu_last_fence(gpu),
           (unsigned long long)c.gart_pages_mapped, (unsigned long long)c.gart_pages_unmapped,
           (unsigned long long)c.tlb_flushes, (unsigned long long)c.stale_tlb_accesses,
           (unsigned long long)c.calls, (unsigned long long)c.execs, (unsigned long long)c.faults);
}

/* The buffer is stored at the start of segment 1 and run from there: a
 * DMA buffer must be somewhere the GPU can fetch it. */
static int cmd_exec(const char *path, const uint8_t *buf, size_t len)
{
    struct wk_gpu *gpu = reference_gpu();
    if (!gpu)
        return 2;
    const struct wk_gpu_segment_desc *seg1 = &wk_gpu_reference_desc()->segments[0];
    uint64_t at = seg1->base;
    struct wk_gpu_fault f;
    int rc = 0;
    if (wk_gpu_write(gpu, at, buf, len) != WK_OK) {
        fprintf(stderr,
                "wddmkit: %s: %zu bytes do not fit in segment 1: `gpu exec` loads the buffer at 0x%llx, "
                "the start of segment 1 of the reference adapter, which holds %llu bytes "
                "(`gpu validate` and `gpu disasm` take files up to %u bytes)\n",
                path, len, (unsigned long long)at, (unsigned long long)seg1->size, MAX_DMA);
        rc = 2;
    } else if (wk_gpu_exec(gpu, at, len, &f) == WK_OK) {
        printf("%s: ran to the end\n", path);
    } else {
        rc = print_fault(path, &f);
    }
    if (rc != 2)
        print_counters(gpu);
    wk_gpu_destroy(gpu);
    return rc;
}

/* ------------------------------------------------------------------ */
/* The command line: `gpu disasm|validate|exec [--] FILE`               */
/* ------------------------------------------------------------------ */

enum { OPT_BINDING = WK_CLI_LONG_ONLY };
static const struct wk_cli_option disasm_options[] = {
    { "binding", OPT_BINDING, WK_CLI_VALUE, "PATH",
      "list a buffer of another GPU's format with its binding's disassembler\n"
      "(include/wddmkit/binding.h)" },
    { 0 },
};
static const struct wk_cli_command disasm_command = {
    "gpu disasm", "[--binding PATH] FILE", disasm_options,
    "Prints a DMA buffer of the GPU model's command set, a command a line; exit 1 when it is\n"
    "not valid. With --binding, a buffer of the binding's GPU, listed by its disassembler\n"
    "(exit 0; 2 when the binding is refused or has none; 3 when it crashed on the bytes).", NULL
};
static const struct wk_cli_command validate_command = {
    "gpu validate", "FILE", NULL,
    "Checks a DMA buffer statically against the reference adapter; exit 1 at the first fault.", NULL
};
static const struct wk_cli_command exec_command = {
    "gpu exec", "FILE", NULL,
    "Runs a DMA buffer on the reference adapter (loaded at the start of segment 1); prints its\n"
    "faults and counters; exit 1 on a fault.",
    NULL
};

/* The one FILE operand. */
static int take_file(void *ctx, const struct wk_cli_arg *a)
{
    const char **path = ctx;
    if (a->key == OPT_BINDING) {
        binding_path = a->value;
        return 0;
    }
    if (*path)
        return wk_cli_error(a->cmd, "one FILE only, saw '%s' after '%s'", a->value, *path);
    *path = a->value;
    return 0;
}

static int run_on_file(const struct wk_cli_command *cmd, int (*run)(const char *, const uint8_t *, size_t),
                       int argc, char **argv)
{
    const char *path = NULL;
    int rc = wk_cli_parse(cmd, argc, argv, take_file, &path);
    if (rc != WK_CLI_CONTINUE)
        return rc;
    if (!path)
        return wk_cli_usage_error(cmd, "expected a FILE");
    if (wk_cli_parse_only)
        return 0;
    uint8_t *buf = NULL;
    size_t len = 0;
    char why[160];
    if (wk_file_read(path, MAX_DMA, &buf, &len, why, sizeof(why)) != WK_OK) {
        fprintf(stderr, "wddmkit: %s: %s\n", path, why);
        return 2;
    }
    rc = run(path, buf, len);
    free(buf);
    return rc;
}

static int gpu_disasm(int argc, char **argv)
{
    return run_on_file(&disasm_command, cmd_disasm, argc, argv);
}

static int gpu_validate(int argc, char **argv)
{
    return run_on_file(&validate_command, cmd_validate, argc, argv);
}

static int gpu_exec(int argc, char **argv)
{
    return run_on_file(&exec_command, cmd_exec, argc, argv);
}

int wk_cli_gpu(int argc, char **argv)
{
    static const struct wk_cli_subcommand subs[] = {
        { "disasm", &disasm_command, gpu_disasm },
        { "validate", &validate_command, gpu_validate },
        { "exec", &exec_command, gpu_exec },
    };
    return wk_cli_dispatch("gpu", "The DMA-buffer format and the reference adapter: docs/gpu-model.md.", subs,
                           sizeof(subs) / sizeof(subs[0]), argc, argv);
}
