/* SPDX-License-Identifier: MIT */
/*
 * cli_binding.c - `wddmkit binding check PATH`: a hardware binding on its
 * own, before any driver (reference-impl/vidmm/binding_check.c), in a child
 * process, so that a binding that crashes or hangs on some bytes is named
 * with the input that did it instead of taking the command down.
 */
#define _GNU_SOURCE /* strsignal */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cli_options.h"
#include "reference.h"
#include "wddmkit/binding.h"

static const char binding_about[] =
    "Runs a hardware binding's command processor (include/wddmkit/binding.h) on seeded random\n"
    "buffers, each twice on a freshly reset memory system of the binding's own layout, before any\n"
    "driver uses it: what processor.h asks of every processor. It must end on any bytes (a crash\n"
    "or a run longer than --hang S is named with its input), answer within the interface (a fault\n"
    "class it cannot have, a fault outside the buffer, running on after the budget), and be\n"
    "deterministic (the second run's fault, counters, fence and memory equal the first's). The\n"
    "disassembler, when there is one, lists every buffer. Input I of seed S is the same on every\n"
    "machine: --first I --inputs 1 runs the one a report names.\n"
    "exit: 0 clean; 1 a problem (the first input named); 2 refused or unusable; 3 it crashed or hung.";

enum { OPT_INPUTS = WK_CLI_LONG_ONLY, OPT_SEED, OPT_FIRST, OPT_HANG };
static const struct wk_cli_option check_options[] = {
    { "inputs", OPT_INPUTS, WK_CLI_VALUE, "N", "buffers to run (default 2000, at most 100000000)" },
    { "seed", OPT_SEED, WK_CLI_VALUE, "S", "the inputs' seed (default 1)" },
    { "first", OPT_FIRST, WK_CLI_VALUE, "I", "the first input's number (default 0)" },
    { "hang", OPT_HANG, WK_CLI_VALUE, "S", "seconds one input may run before it is a hang (default 5)" },
    { 0 },
};
static const struct wk_cli_command check_command = { "binding check", "PATH [--inputs N] [--seed S] [--first I]",
                                                     check_options, binding_about, NULL };

struct check_args {
    const char *path;
    uint64_t inputs, seed, first, hang_s;
};

static int take(void *ctx, const struct wk_cli_arg *a)
{
    struct check_args *c = ctx;
    switch (a->key) {
    case OPT_INPUTS: return wk_cli_number(a, 1, 100000000, &c->inputs);
    case OPT_SEED: return wk_cli_number(a, 0, UINT64_MAX, &c->seed);
    case OPT_FIRST: return wk_cli_number(a, 0, UINT64_MAX / 2, &c->first);
    case OPT_HANG: return wk_cli_number(a, 1, 3600, &c->hang_s);
    default:
        if (c->path)
            return wk_cli_error(a->cmd, "one PATH only, saw '%s' after '%s'", a->value, c->path);
        c->path = a->value;
        return 0;
    }
}

/* The child's report and progress, shared across the fork. */
struct shared {
    volatile uint64_t progress;
    struct wk_binding_check_report report;
    wk_status st;
    volatile int done;
};

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Waits for the child; 1 when an input ran longer than hang_s (the child
 * is killed), 0 when it ended. */
static int watch(pid_t pid, struct shared *sh, uint64_t hang_s, int *status)
{
    uint64_t seen = sh->progress;
    double since = now_s();
    for (;;) {
        pid_t got = waitpid(pid, status, WNOHANG);
        if (got == pid)
            return 0;
        if (sh->progress != seen) {
            seen = sh->progress;
            since = now_s();
        } else if (now_s() - since > (double)hang_s) {
            kill(pid, SIGKILL);
            waitpid(pid, status, 0);
            return 1;
        }
        usleep(2000);
    }
}

static void print_counts(const struct wk_binding_check_report *r)
{
    const uint64_t *n = r->counts;
    printf("  inputs            %llu\n", (unsigned long long)n[WK_BINDING_CHECK_INPUTS]);
    printf("  ran to the end    %llu\n", (unsigned long long)n[WK_BINDING_CHECK_RAN_TO_END]);
    printf("  faults           ");
    for (uint32_t c = WK_FAULT_DECODE; c < WK_FAULT_CLASS_COUNT; c++)
        printf(" %s %llu%s", wk_fault_class_name(c), (unsigned long long)n[WK_BINDING_CHECK_FAULT_BASE + c],
               c + 1 < WK_FAULT_CLASS_COUNT ? "," : "\n");
    printf("  outside the interface  %llu\n", (unsigned long long)n[WK_BINDING_CHECK_MISBEHAVED]);
    printf("  not deterministic      %llu\n", (unsigned long long)n[WK_BINDING_CHECK_NONDETERMINISTIC]);
    uint64_t encoded = n[WK_BINDING_CHECK_ENCODED_AGREED] + n[WK_BINDING_CHECK_ENCODED_WRONG] +
                       n[WK_BINDING_CHECK_ENCODED_UNJUDGED];
    if (encoded)
        printf("  encoder commands run   %llu: %llu as asked, %llu otherwise, %llu not judged\n",
               (unsigned long long)encoded, (unsigned long long)n[WK_BINDING_CHECK_ENCODED_AGREED],
               (unsigned long long)n[WK_BINDING_CHECK_ENCODED_WRONG],
               (unsigned long long)n[WK_BINDING_CHECK_ENCODED_UNJUDGED]);
    if (r->first_unjudged[0])
        printf("  first not judged: %s\n", r->first_unjudged);
}

static int binding_check(int argc, char **argv)
{
    struct check_args c = { NULL, 2000, 1, 0, 5 };
    int rc = wk_cli_parse(&check_command, argc, argv, take, &c);
    if (rc != WK_CLI_CONTINUE)
        return rc;
    if (!c.path)
        return wk_cli_usage_error(&check_command, "expected the binding module's PATH");
    if (wk_cli_parse_only)
        return 0;
    char desc[1024];
    if (wk_cli_binding_probe(c.path, 0, desc, sizeof(desc)) < 0) {
        printf("%s: binding refused: %s\n", c.path, desc);
        return 2;
    }
    printf("%s\n%llu inputs from input %llu, seed %llu\n", desc, (unsigned long long)c.inputs,
           (unsigned long long)c.first, (unsigned long long)c.seed);
    struct shared *sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh == MAP_FAILED) {
        perror("wddmkit binding check: mmap");
        return 2;
    }
    memset(sh, 0, sizeof(*sh));
    sh->progress = c.first;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("wddmkit binding check: fork");
        return 2;
    }
    if (pid == 0) {
        const struct wk_binding *b = NULL;
        char why[512];
        if (wk_vidmm_binding_open(c.path, &b, why, sizeof(why)) != WK_OK)
            _exit(2);
        sh->report.progress = &sh->progress;
        sh->st = wk_vidmm_binding_selfcheck(b, c.first, c.inputs, c.seed, &sh->report);
        sh->done = 1;
        _exit(0);
    }
    int status = 0;
    int hung = watch(pid, sh, c.hang_s, &status);
    unsigned long long at = (unsigned long long)sh->progress;
    if (hung || WIFSIGNALED(status) || !sh->done) {
        if (hung)
            printf("BIND-HANG-001: input %llu ran longer than %llu s\n", at, (unsigned long long)c.hang_s);
        else if (WIFSIGNALED(status))
            printf("BIND-CRASH-001: input %llu: the binding crashed with signal %d (%s)\n", at, WTERMSIG(status),
                   strsignal(WTERMSIG(status)));
        else
            printf("BIND-CRASH-001: input %llu: the binding ended the process (exit status %d)\n", at,
                   WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        printf("rerun: wddmkit binding check %s --seed %llu --first %llu --inputs 1\n", c.path,
               (unsigned long long)c.seed, at);
        return 3;
    }
    if (sh->st == WK_E_NOT_SUPPORTED) {
        printf("%s: the binding has no processor (or no memory layout): nothing to run\n", c.path);
        return 2;
    }
    print_counts(&sh->report);
    if (sh->st != WK_OK) {
        printf("first problem: input %llu: %s\n", (unsigned long long)sh->report.first_bad_input,
               sh->report.first_bad);
        printf("rerun: wddmkit binding check %s --seed %llu --first %llu --inputs 1\n", c.path,
               (unsigned long long)c.seed, (unsigned long long)sh->report.first_bad_input);
        printf("result: problems (exit 1)\n");
        return 1;
    }
    printf("result: clean (exit 0)\n");
    return 0;
}

int wk_cli_binding(int argc, char **argv)
{
    static const struct wk_cli_subcommand subs[] = { { "check", &check_command, binding_check } };
    return wk_cli_dispatch("binding", "A hardware binding on its own: docs/drivers-for-other-hardware.md.", subs, 1,
                           argc, argv);
}
